/*
 * modules.c: the layer's own shader modules made from the words Go keeps
 * for an app's module (its original words, for a pipeline whose layout
 * cannot take the layer's set; its precise variant's words, built on first
 * need: docs/decisions/precise-variant-on-first-need.md), and the pipeline
 * stage structures the layer knows how to copy. pipeline.c and variants.c
 * stand on it.
 */
#include <stdlib.h>

#include "ground.h"
#include "modules.h"
#include "_cgo_export.h"

/* gpuavdbg_module_from_go returns a module of the words Go keeps for module: its
 * original words when it is instrumented (goOriginalSPIRV), or with
 * precise its precise variant's when it is deferred (goPreciseSPIRV);
 * VK_NULL_HANDLE when there are none (keep module) or the driver refuses
 * them (reported). */
VkShaderModule gpuavdbg_module_from_go(device_data *dd, VkShaderModule module, int precise)
{
    uint32_t *words = NULL;
    size_t n = 0;
    uint64_t dev = GPUAVDBG_H(dd->device), h = GPUAVDBG_H(module);
    if (!module || (precise ? goPreciseSPIRV(dev, h, &words, &n) : goOriginalSPIRV(dev, h, &words, &n)) != 1)
        return VK_NULL_HANDLE;
    VkShaderModuleCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = n * 4,
        .pCode = words,
    };
    VkShaderModule m = VK_NULL_HANDLE;
    VkResult r = dd->disp.CreateShaderModule(dd->device, &ci, NULL, &m);
    free(words);
    if (r == VK_SUCCESS)
        return m;
    if (precise)
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                      "shader module 0x%llx: the driver rejected its instrumented words (%d): the pipeline runs its "
                      "original code, unchecked",
                      (unsigned long long)h, (int)r);
    else
        gpuavdbg_logf(GPUAVDBG_LOG_ERROR,
                      "cannot create an uninstrumented copy of shader module 0x%llx (%d): the pipeline runs "
                      "instrumented code without the layer's descriptor set",
                      (unsigned long long)h, (int)r);
    return VK_NULL_HANDLE;
}

VkShaderModule gpuavdbg_precise_module(device_data *dd, VkShaderModule module)
{
    return gpuavdbg_module_from_go(dd, module, 1);
}

size_t gpuavdbg_stage_pnext_size(VkStructureType t)
{
    switch (t) {
    case VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO:
        return sizeof(VkPipelineShaderStageRequiredSubgroupSizeCreateInfo);
    case VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT:
        return sizeof(VkDebugUtilsObjectNameInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT:
        return sizeof(VkPipelineRobustnessCreateInfoEXT);
    case VK_STRUCTURE_TYPE_SHADER_MODULE_VALIDATION_CACHE_CREATE_INFO_EXT:
        return sizeof(VkShaderModuleValidationCacheCreateInfoEXT);
    default:
        return 0;
    }
}
