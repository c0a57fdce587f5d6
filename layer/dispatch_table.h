/*
 * dispatch_table.h: the next layer's functions the layer calls, per
 * instance and per device. dispatch.c loads them from the chain at
 * vkCreateInstance / vkCreateDevice; a function the driver lacks is NULL.
 * A room that intercepts or calls a new Vulkan function adds it here
 * (docs/layer-map.md, "add a command to intercept").
 */
#ifndef GPUAVDBG_DISPATCH_TABLE_H
#define GPUAVDBG_DISPATCH_TABLE_H

#include <vulkan/vulkan.h>

#include "vk14.h"
#include "vk_shader_object.h"

#define GPUAVDBG_INSTANCE_FUNCS(X)            \
    X(DestroyInstance)                        \
    X(EnumeratePhysicalDevices)               \
    X(EnumeratePhysicalDeviceGroups)          \
    X(EnumeratePhysicalDeviceGroupsKHR)       \
    X(GetPhysicalDeviceProperties)            \
    X(GetPhysicalDeviceProperties2)           \
    X(GetPhysicalDeviceProperties2KHR)        \
    X(GetPhysicalDeviceFeatures)              \
    X(GetPhysicalDeviceFeatures2)             \
    X(GetPhysicalDeviceFeatures2KHR)          \
    X(GetPhysicalDeviceMemoryProperties)      \
    X(EnumerateDeviceExtensionProperties)     \
    X(CreateDebugUtilsMessengerEXT)           \
    X(DestroyDebugUtilsMessengerEXT)          \
    X(CreateDevice)

/* descriptors.c: the app's descriptor state (descriptor checks). */
#define GPUAVDBG_DESCRIPTOR_FUNCS(X)           \
    X(FreeDescriptorSets)                     \
    X(ResetDescriptorPool)                    \
    X(CreateDescriptorUpdateTemplate)         \
    X(CreateDescriptorUpdateTemplateKHR)      \
    X(DestroyDescriptorUpdateTemplate)        \
    X(DestroyDescriptorUpdateTemplateKHR)     \
    X(UpdateDescriptorSetWithTemplate)        \
    X(UpdateDescriptorSetWithTemplateKHR)     \
    X(CreateImageView)                        \
    X(DestroyImageView)                       \
    X(CreateBufferView)                       \
    X(DestroyBufferView)                      \
    X(CreateSampler)                          \
    X(DestroySampler)

#define GPUAVDBG_DEVICE_FUNCS(X)          \
    X(GetDeviceProcAddr)                  \
    X(DestroyDevice)                      \
    X(CreateBuffer)                       \
    X(DestroyBuffer)                      \
    X(GetBufferDeviceAddress)             \
    X(GetBufferDeviceAddressKHR)          \
    X(GetBufferDeviceAddressEXT)          \
    X(GetDeviceFaultInfoEXT)              \
    X(GetBufferMemoryRequirements)        \
    X(AllocateMemory)                     \
    X(FreeMemory)                         \
    X(BindBufferMemory)                   \
    X(MapMemory)                          \
    X(UnmapMemory)                        \
    X(MapMemory2)                         \
    X(MapMemory2KHR)                      \
    X(UnmapMemory2)                       \
    X(UnmapMemory2KHR)                    \
    X(BindBufferMemory2)                  \
    X(BindBufferMemory2KHR)               \
    X(GetDescriptorEXT)                   \
    X(GetDescriptorSetLayoutSizeEXT)      \
    X(GetDescriptorSetLayoutBindingOffsetEXT) \
    X(CreateDescriptorSetLayout)          \
    X(DestroyDescriptorSetLayout)         \
    X(CreateDescriptorPool)               \
    X(DestroyDescriptorPool)              \
    X(AllocateDescriptorSets)             \
    X(UpdateDescriptorSets)               \
    X(CreatePipelineLayout)               \
    X(DestroyPipelineLayout)              \
    X(CreateShaderModule)                 \
    X(DestroyShaderModule)                \
    X(CreateRenderPass)                   \
    X(CreateRenderPass2)                  \
    X(CreateRenderPass2KHR)               \
    X(DestroyRenderPass)                  \
    X(CreateComputePipelines)             \
    X(CreateGraphicsPipelines)            \
    X(DestroyPipeline)                    \
    X(CreatePipelineCache)                \
    X(GetPipelineCacheData)               \
    X(DestroyPipelineCache)               \
    X(MergePipelineCaches)                \
    X(AllocateCommandBuffers)             \
    X(FreeCommandBuffers)                 \
    X(DestroyCommandPool)                 \
    X(ResetCommandPool)                   \
    X(BeginCommandBuffer)                 \
    X(EndCommandBuffer)                   \
    X(ResetCommandBuffer)                 \
    X(CmdBindPipeline)                    \
    X(CmdBindDescriptorSets)              \
    X(CmdPushDescriptorSetKHR)            \
    X(CmdPushDescriptorSetWithTemplateKHR) \
    X(CmdPushDescriptorSet)               \
    X(CmdPushDescriptorSetWithTemplate)   \
    X(CmdPushDescriptorSet2)              \
    X(CmdPushDescriptorSet2KHR)           \
    X(CmdPushDescriptorSetWithTemplate2)  \
    X(CmdPushDescriptorSetWithTemplate2KHR) \
    X(CmdBindDescriptorSets2)             \
    X(CmdBindDescriptorSets2KHR)          \
    X(CmdPushConstants)                   \
    X(CmdPushConstants2)                  \
    X(CmdPushConstants2KHR)               \
    X(CmdBindDescriptorBuffersEXT)        \
    X(CmdSetDescriptorBufferOffsetsEXT)   \
    X(CmdSetDescriptorBufferOffsets2EXT)  \
    X(CmdBindDescriptorBufferEmbeddedSamplersEXT) \
    X(CmdBindDescriptorBufferEmbeddedSamplers2EXT) \
    X(CmdPipelineBarrier)                 \
    X(CmdExecuteCommands)                 \
    X(CmdCopyBuffer)                      \
    X(CmdCopyBufferToImage)               \
    X(CmdCopyBufferToImage2)              \
    X(CmdCopyBufferToImage2KHR)           \
    X(CmdBuildAccelerationStructuresKHR)  \
    X(CmdBuildAccelerationStructuresIndirectKHR) \
    X(CreateAccelerationStructureKHR)     \
    X(DestroyAccelerationStructureKHR)    \
    X(GetAccelerationStructureDeviceAddressKHR) \
    X(CreateImage)                        \
    X(DestroyImage)                       \
    X(CmdBindIndexBuffer)                 \
    X(CmdBindIndexBuffer2KHR)             \
    X(CmdBindIndexBuffer2)                \
    X(CmdBindVertexBuffers)               \
    X(CmdBindVertexBuffers2)              \
    X(CmdBindVertexBuffers2EXT)           \
    X(CmdSetVertexInputEXT)               \
    X(CmdBeginRenderPass)                 \
    X(CmdBeginRenderPass2)                \
    X(CmdBeginRenderPass2KHR)             \
    X(CmdFillBuffer)                      \
    X(CmdWriteBufferMarkerAMD)            \
    X(CmdEndRenderPass)                   \
    X(CmdEndRenderPass2)                  \
    X(CmdEndRenderPass2KHR)               \
    X(CmdBeginRendering)                  \
    X(CmdBeginRenderingKHR)               \
    X(CmdEndRendering)                    \
    X(CmdEndRenderingKHR)                 \
    X(CmdDraw)                            \
    X(CmdDrawIndexed)                     \
    X(CmdDrawIndirect)                    \
    X(CmdDrawIndexedIndirect)             \
    X(CmdDrawIndirectCount)               \
    X(CmdDrawIndexedIndirectCount)        \
    X(CmdDrawIndirectCountKHR)            \
    X(CmdDrawIndexedIndirectCountKHR)     \
    X(CmdDrawIndirectCountAMD)            \
    X(CmdDrawIndexedIndirectCountAMD)     \
    X(CmdDrawIndirectByteCountEXT)        \
    X(CmdDrawMultiEXT)                    \
    X(CmdDrawMultiIndexedEXT)             \
    X(CmdDrawMeshTasksEXT)                \
    X(CmdDrawMeshTasksIndirectEXT)        \
    X(CmdDrawMeshTasksIndirectCountEXT)   \
    X(CmdDrawMeshTasksNV)                 \
    X(CmdDrawMeshTasksIndirectNV)         \
    X(CmdDrawMeshTasksIndirectCountNV)    \
    X(CmdDrawClusterHUAWEI)               \
    X(CmdDrawClusterIndirectHUAWEI)       \
    X(CmdDispatch)                        \
    X(CmdDispatchIndirect)                \
    X(CmdDispatchBase)                    \
    X(CmdDispatchBaseKHR)                 \
    X(CreateRayTracingPipelinesKHR)       \
    X(CreateRayTracingPipelinesNV)        \
    X(QueueSubmit)                        \
    X(QueueSubmit2)                       \
    X(QueueSubmit2KHR)                    \
    X(QueueWaitIdle)                      \
    X(DeviceWaitIdle)                     \
    X(CreateFence)                        \
    X(DestroyFence)                       \
    X(ResetFences)                        \
    X(GetFenceStatus)                     \
    X(WaitForFences)                      \
    X(WaitSemaphores)                     \
    X(WaitSemaphoresKHR)                  \
    X(GetSemaphoreCounterValue)           \
    X(GetSemaphoreCounterValueKHR)        \
    X(QueuePresentKHR)                    \
    X(CmdTraceRaysKHR)                    \
    X(CmdTraceRaysIndirectKHR)            \
    X(CmdTraceRaysIndirect2KHR)           \
    X(CmdTraceRaysNV)                     \
    X(SetDebugUtilsObjectNameEXT)         \
    X(DebugMarkerSetObjectNameEXT)        \
    GPUAVDBG_DESCRIPTOR_FUNCS(X)          \
    X(CmdBeginDebugUtilsLabelEXT)         \
    X(CmdEndDebugUtilsLabelEXT)           \
    X(CreateShadersEXT)                   \
    X(DestroyShaderEXT)                   \
    X(GetShaderBinaryDataEXT)             \
    X(CmdBindShadersEXT)

#define GPUAVDBG_FIELD(name) PFN_vk##name name;

typedef struct instance_dispatch {
    PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
    GPUAVDBG_INSTANCE_FUNCS(GPUAVDBG_FIELD)
} instance_dispatch;

typedef struct device_dispatch {
    GPUAVDBG_DEVICE_FUNCS(GPUAVDBG_FIELD)
} device_dispatch;

#endif
