/*
 * vk14.h: the declarations of VK_EXT_layer_settings, VK_KHR_maintenance6
 * (descriptor commands taking info structures), VK_KHR_map_memory and the Vulkan 1.4 core
 * push-descriptor commands the layer intercepts, for Vulkan headers that
 * lack them (Debian's are 1.3.239). Values as in the Vulkan registry
 * (extensions 497 and 546). With newer headers their own declarations are
 * used.
 */
#ifndef GPUAVDBG_VK14_H
#define GPUAVDBG_VK14_H

#include <vulkan/vulkan.h>

#ifndef VK_EXT_layer_settings
#define VK_EXT_layer_settings 1
#define VK_EXT_LAYER_SETTINGS_EXTENSION_NAME "VK_EXT_layer_settings"
#define VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT ((VkStructureType)1000496000)

typedef enum VkLayerSettingTypeEXT {
    VK_LAYER_SETTING_TYPE_BOOL32_EXT = 0,
    VK_LAYER_SETTING_TYPE_INT32_EXT = 1,
    VK_LAYER_SETTING_TYPE_INT64_EXT = 2,
    VK_LAYER_SETTING_TYPE_UINT32_EXT = 3,
    VK_LAYER_SETTING_TYPE_UINT64_EXT = 4,
    VK_LAYER_SETTING_TYPE_FLOAT32_EXT = 5,
    VK_LAYER_SETTING_TYPE_FLOAT64_EXT = 6,
    VK_LAYER_SETTING_TYPE_STRING_EXT = 7,
    VK_LAYER_SETTING_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkLayerSettingTypeEXT;

typedef struct VkLayerSettingEXT {
    const char *pLayerName;
    const char *pSettingName;
    VkLayerSettingTypeEXT type;
    uint32_t valueCount;
    const void *pValues;
} VkLayerSettingEXT;

typedef struct VkLayerSettingsCreateInfoEXT {
    VkStructureType sType;
    const void *pNext;
    uint32_t settingCount;
    const VkLayerSettingEXT *pSettings;
} VkLayerSettingsCreateInfoEXT;
#endif

#ifndef VK_KHR_maintenance6
#define VK_KHR_maintenance6 1
#define VK_KHR_MAINTENANCE_6_EXTENSION_NAME "VK_KHR_maintenance6"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR ((VkStructureType)1000545000)
#define VK_STRUCTURE_TYPE_BIND_DESCRIPTOR_SETS_INFO_KHR ((VkStructureType)1000545003)
#define VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_INFO_KHR ((VkStructureType)1000545005)
#define VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_WITH_TEMPLATE_INFO_KHR ((VkStructureType)1000545006)

typedef struct VkPhysicalDeviceMaintenance6FeaturesKHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 maintenance6;
} VkPhysicalDeviceMaintenance6FeaturesKHR;

typedef struct VkBindDescriptorSetsInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkShaderStageFlags stageFlags;
    VkPipelineLayout layout;
    uint32_t firstSet;
    uint32_t descriptorSetCount;
    const VkDescriptorSet *pDescriptorSets;
    uint32_t dynamicOffsetCount;
    const uint32_t *pDynamicOffsets;
} VkBindDescriptorSetsInfoKHR;

typedef struct VkPushDescriptorSetInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkShaderStageFlags stageFlags;
    VkPipelineLayout layout;
    uint32_t set;
    uint32_t descriptorWriteCount;
    const VkWriteDescriptorSet *pDescriptorWrites;
} VkPushDescriptorSetInfoKHR;

typedef struct VkPushDescriptorSetWithTemplateInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkDescriptorUpdateTemplate descriptorUpdateTemplate;
    VkPipelineLayout layout;
    uint32_t set;
    const void *pData;
} VkPushDescriptorSetWithTemplateInfoKHR;

typedef struct VkPushConstantsInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkPipelineLayout layout;
    VkShaderStageFlags stageFlags;
    uint32_t offset;
    uint32_t size;
    const void *pValues;
} VkPushConstantsInfoKHR;

typedef void(VKAPI_PTR *PFN_vkCmdBindDescriptorSets2KHR)(VkCommandBuffer, const VkBindDescriptorSetsInfoKHR *);
typedef void(VKAPI_PTR *PFN_vkCmdPushConstants2KHR)(VkCommandBuffer, const VkPushConstantsInfoKHR *);
typedef void(VKAPI_PTR *PFN_vkCmdPushDescriptorSet2KHR)(VkCommandBuffer, const VkPushDescriptorSetInfoKHR *);
typedef void(VKAPI_PTR *PFN_vkCmdPushDescriptorSetWithTemplate2KHR)(VkCommandBuffer,
                                                                    const VkPushDescriptorSetWithTemplateInfoKHR *);

/* With VK_EXT_descriptor_buffer: the info forms of setting descriptor
 * buffer offsets and binding embedded samplers. */
#define VK_STRUCTURE_TYPE_SET_DESCRIPTOR_BUFFER_OFFSETS_INFO_EXT ((VkStructureType)1000545007)
#define VK_STRUCTURE_TYPE_BIND_DESCRIPTOR_BUFFER_EMBEDDED_SAMPLERS_INFO_EXT ((VkStructureType)1000545008)

typedef struct VkSetDescriptorBufferOffsetsInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkShaderStageFlags stageFlags;
    VkPipelineLayout layout;
    uint32_t firstSet;
    uint32_t setCount;
    const uint32_t *pBufferIndices;
    const VkDeviceSize *pOffsets;
} VkSetDescriptorBufferOffsetsInfoEXT;

typedef struct VkBindDescriptorBufferEmbeddedSamplersInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkShaderStageFlags stageFlags;
    VkPipelineLayout layout;
    uint32_t set;
} VkBindDescriptorBufferEmbeddedSamplersInfoEXT;

typedef void(VKAPI_PTR *PFN_vkCmdSetDescriptorBufferOffsets2EXT)(VkCommandBuffer,
                                                                const VkSetDescriptorBufferOffsetsInfoEXT *);
typedef void(VKAPI_PTR *PFN_vkCmdBindDescriptorBufferEmbeddedSamplers2EXT)(
    VkCommandBuffer, const VkBindDescriptorBufferEmbeddedSamplersInfoEXT *);
#endif

#ifndef VK_KHR_map_memory
/* VK_KHR_map_memory (extension 272; core in 1.4 as vkMapMemory2). */
#define VK_KHR_map_memory 1
#define VK_STRUCTURE_TYPE_MEMORY_MAP_INFO_KHR ((VkStructureType)1000271000)
#define VK_STRUCTURE_TYPE_MEMORY_UNMAP_INFO_KHR ((VkStructureType)1000271001)
typedef VkFlags VkMemoryUnmapFlagsKHR;

typedef struct VkMemoryMapInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkMemoryMapFlags flags;
    VkDeviceMemory memory;
    VkDeviceSize offset;
    VkDeviceSize size;
} VkMemoryMapInfoKHR;

typedef struct VkMemoryUnmapInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkMemoryUnmapFlagsKHR flags;
    VkDeviceMemory memory;
} VkMemoryUnmapInfoKHR;

typedef VkResult(VKAPI_PTR *PFN_vkMapMemory2KHR)(VkDevice, const VkMemoryMapInfoKHR *, void **);
typedef VkResult(VKAPI_PTR *PFN_vkUnmapMemory2KHR)(VkDevice, const VkMemoryUnmapInfoKHR *);
#endif

#ifndef VK_VERSION_1_4
/* Core 1.4 names of the push-descriptor and maintenance6 commands (same
 * signatures as their KHR forms). */
typedef void(VKAPI_PTR *PFN_vkCmdPushDescriptorSet)(VkCommandBuffer, VkPipelineBindPoint, VkPipelineLayout, uint32_t,
                                                    uint32_t, const VkWriteDescriptorSet *);
typedef void(VKAPI_PTR *PFN_vkCmdPushDescriptorSetWithTemplate)(VkCommandBuffer, VkDescriptorUpdateTemplate,
                                                                VkPipelineLayout, uint32_t, const void *);
typedef void(VKAPI_PTR *PFN_vkCmdBindDescriptorSets2)(VkCommandBuffer, const VkBindDescriptorSetsInfoKHR *);
typedef void(VKAPI_PTR *PFN_vkCmdPushConstants2)(VkCommandBuffer, const VkPushConstantsInfoKHR *);
typedef void(VKAPI_PTR *PFN_vkCmdPushDescriptorSet2)(VkCommandBuffer, const VkPushDescriptorSetInfoKHR *);
typedef void(VKAPI_PTR *PFN_vkCmdPushDescriptorSetWithTemplate2)(VkCommandBuffer,
                                                                const VkPushDescriptorSetWithTemplateInfoKHR *);
/* vkMapMemory2 and vkUnmapMemory2 (1.4 core, VK_KHR_map_memory). */
typedef VkResult(VKAPI_PTR *PFN_vkMapMemory2)(VkDevice, const VkMemoryMapInfoKHR *, void **);
typedef VkResult(VKAPI_PTR *PFN_vkUnmapMemory2)(VkDevice, const VkMemoryUnmapInfoKHR *);
/* vkCmdBindIndexBuffer2 (1.4 core, maintenance5): an explicit size. */
typedef void(VKAPI_PTR *PFN_vkCmdBindIndexBuffer2)(VkCommandBuffer, VkBuffer, VkDeviceSize, VkDeviceSize, VkIndexType);
#endif

#ifndef VK_KHR_maintenance5
typedef void(VKAPI_PTR *PFN_vkCmdBindIndexBuffer2KHR)(VkCommandBuffer, VkBuffer, VkDeviceSize, VkDeviceSize,
                                                      VkIndexType);
#endif

#endif
