/*
 * vk_shader_object.h: the VK_EXT_shader_object declarations the layer needs, for
 * Vulkan headers older than 1.3.246 that lack them (Debian's are 1.3.239).
 * Values as in the Vulkan registry (extension 483). With newer headers
 * the headers' own declarations are used.
 */
#ifndef GPUAVDBG_VK_SHADER_OBJECT_H
#define GPUAVDBG_VK_SHADER_OBJECT_H

#include <vulkan/vulkan.h>

#ifndef VK_EXT_shader_object
#define VK_EXT_shader_object 1
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkShaderEXT)
#define VK_EXT_SHADER_OBJECT_EXTENSION_NAME "VK_EXT_shader_object"

#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT ((VkStructureType)1000482000)
#define VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT ((VkStructureType)1000482002)
#define VK_OBJECT_TYPE_SHADER_EXT ((VkObjectType)1000482000)
#define VK_INCOMPATIBLE_SHADER_BINARY_EXT ((VkResult)1000482000)

typedef enum VkShaderCodeTypeEXT {
    VK_SHADER_CODE_TYPE_BINARY_EXT = 0,
    VK_SHADER_CODE_TYPE_SPIRV_EXT = 1,
    VK_SHADER_CODE_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkShaderCodeTypeEXT;

typedef VkFlags VkShaderCreateFlagsEXT;
#define VK_SHADER_CREATE_LINK_STAGE_BIT_EXT 0x00000001u
#define VK_SHADER_CREATE_NO_TASK_SHADER_BIT_EXT 0x00000008u

typedef struct VkPhysicalDeviceShaderObjectFeaturesEXT {
    VkStructureType sType;
    void *pNext;
    VkBool32 shaderObject;
} VkPhysicalDeviceShaderObjectFeaturesEXT;

typedef struct VkShaderCreateInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkShaderCreateFlagsEXT flags;
    VkShaderStageFlagBits stage;
    VkShaderStageFlags nextStage;
    VkShaderCodeTypeEXT codeType;
    size_t codeSize;
    const void *pCode;
    const char *pName;
    uint32_t setLayoutCount;
    const VkDescriptorSetLayout *pSetLayouts;
    uint32_t pushConstantRangeCount;
    const VkPushConstantRange *pPushConstantRanges;
    const VkSpecializationInfo *pSpecializationInfo;
} VkShaderCreateInfoEXT;

typedef VkResult(VKAPI_PTR *PFN_vkCreateShadersEXT)(VkDevice device, uint32_t createInfoCount,
                                                    const VkShaderCreateInfoEXT *pCreateInfos,
                                                    const VkAllocationCallbacks *pAllocator, VkShaderEXT *pShaders);
typedef void(VKAPI_PTR *PFN_vkDestroyShaderEXT)(VkDevice device, VkShaderEXT shader,
                                                const VkAllocationCallbacks *pAllocator);
typedef VkResult(VKAPI_PTR *PFN_vkGetShaderBinaryDataEXT)(VkDevice device, VkShaderEXT shader, size_t *pDataSize,
                                                          void *pData);
typedef void(VKAPI_PTR *PFN_vkCmdBindShadersEXT)(VkCommandBuffer commandBuffer, uint32_t stageCount,
                                                 const VkShaderStageFlagBits *pStages, const VkShaderEXT *pShaders);
#endif

/* Stages a shader object can be bound to, per bind point: graphics
 * vertex, tessellation control, tessellation evaluation, geometry,
 * fragment, task, mesh; compute uses index 0. */
#define GPUAVDBG_SO_STAGES 7

#endif
