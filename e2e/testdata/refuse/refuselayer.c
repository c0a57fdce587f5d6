/*
 * refuselayer: a test layer placed below gpuav-dbg's (e2e/refuse_test.go)
 * that plays a driver whose compiler refuses the layer's code: a compute,
 * graphics or ray-tracing pipeline with a stage whose module carries the layer's
 * instrumentation, or a shader object (VK_EXT_shader_object) of such
 * code, is not made (VK_NULL_HANDLE, VK_ERROR_UNKNOWN), and "refuselayer:
 * refused pipeline N" (or "shader N") goes to stderr (N counts the create
 * infos the layer saw, from 0). A module carries it when it decorates a
 * variable with descriptor set S, the set gpuav-dbg takes
 * (min(maxBoundDescriptorSets, 33) - 1: no app shader of the tests uses
 * it); with GPUAVDBG_TEST_REFUSE_FILE=NAME, only such a module whose
 * debug strings (OpString: the source file, glslangValidator -g) hold
 * NAME; with GPUAVDBG_TEST_REFUSE_AFTER=N, only after N such pipelines
 * were made (the first ones pass). The layer makes the pipelines one at a time, in order, as the
 * call asks: a refused create info with
 * VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT leaves the rest unmade.
 * One instance and one device (the test app's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "../../../layer/vk_shader_object.h" /* VK_EXT_shader_object for older headers */

#define EXPORT __attribute__((visibility("default")))

static PFN_vkGetInstanceProcAddr next_gipa;
static PFN_vkGetDeviceProcAddr next_gdpa;
static PFN_vkCreateShaderModule next_create_module;
static PFN_vkDestroyShaderModule next_destroy_module;
static PFN_vkCreateComputePipelines next_compute;
static PFN_vkCreateGraphicsPipelines next_graphics;
static PFN_vkCreateShadersEXT next_shaders;
static PFN_vkCreateRayTracingPipelinesKHR next_ray_tracing;
static VkInstance instance;
static uint32_t slot = UINT32_MAX, seen, passed;

/* The modules that carry the layer's code. */
#define MAX_MARKED 256
static VkShaderModule marked[MAX_MARKED];
static uint32_t nmarked;

/* carries says whether SPIR-V words decorate a variable with the slot's
 * descriptor set (and hold GPUAVDBG_TEST_REFUSE_FILE in an OpString). */
static int carries(const uint32_t *w, size_t n)
{
    const char *file = getenv("GPUAVDBG_TEST_REFUSE_FILE");
    int set = 0, named = !file || !*file;
    for (size_t i = 5; i < n;) {
        uint32_t len = w[i] >> 16, op = w[i] & 0xffff;
        if (len == 0 || i + len > n)
            break;
        if (op == 71 /* OpDecorate */ && len >= 4 && w[i + 2] == 34 /* DescriptorSet */ && w[i + 3] == slot)
            set = 1;
        if (op == 7 /* OpString */ && len >= 3 && file && *file &&
            memchr(&w[i + 2], 0, (len - 2) * 4) && strstr((const char *)&w[i + 2], file))
            named = 1;
        i += len;
    }
    return set && named;
}

static int is_marked(VkShaderModule m)
{
    for (uint32_t i = 0; m && i < nmarked; i++)
        if (marked[i] == m)
            return 1;
    return 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL refuse_CreateShaderModule(VkDevice d, const VkShaderModuleCreateInfo *ci,
                                                                const VkAllocationCallbacks *a, VkShaderModule *m)
{
    VkResult r = next_create_module(d, ci, a, m);
    if (r == VK_SUCCESS && ci->pCode && carries(ci->pCode, ci->codeSize / 4) && nmarked < MAX_MARKED)
        marked[nmarked++] = *m;
    return r;
}

static VKAPI_ATTR void VKAPI_CALL refuse_DestroyShaderModule(VkDevice d, VkShaderModule m, const VkAllocationCallbacks *a)
{
    for (uint32_t i = 0; m && i < nmarked; i++)
        if (marked[i] == m)
            marked[i] = marked[--nmarked];
    next_destroy_module(d, m, a);
}

/* carried says whether stages carry the layer's code (a module of it, or
 * inline code in a stage's pNext). */
static int carried(const VkPipelineShaderStageCreateInfo *st, uint32_t n)
{
    for (uint32_t s = 0; s < n; s++) {
        if (is_marked(st[s].module))
            return 1;
        for (const VkBaseInStructure *p = st[s].pNext; p; p = p->pNext) {
            const VkShaderModuleCreateInfo *mci = (const void *)p;
            if (p->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO && mci->pCode &&
                carries(mci->pCode, mci->codeSize / 4))
                return 1;
        }
    }
    return 0;
}

/* refused says whether to refuse stages: they carry the layer's code, and
 * GPUAVDBG_TEST_REFUSE_AFTER such pipelines passed already. */
static int refused(const VkPipelineShaderStageCreateInfo *st, uint32_t n)
{
    const char *after = getenv("GPUAVDBG_TEST_REFUSE_AFTER");
    if (!carried(st, n))
        return 0;
    if (after && passed < (uint32_t)atoi(after)) {
        passed++;
        return 0;
    }
    return 1;
}

/* CREATE makes n pipelines one at a time with next (its create infos of
 * type T, whose stages STAGES(ci) and COUNT(ci) give). */
#define CREATE(T, next, STAGES, COUNT)                                                                   \
    do {                                                                                                 \
        VkResult r = VK_SUCCESS;                                                                         \
        for (uint32_t i = 0; i < n; i++)                                                                 \
            p[i] = VK_NULL_HANDLE;                                                                       \
        for (uint32_t i = 0; i < n; i++) {                                                               \
            const T *c = &ci[i];                                                                         \
            uint32_t id = seen++;                                                                        \
            if (refused(STAGES(c), COUNT(c))) {                                                          \
                fprintf(stderr, "refuselayer: refused pipeline %u\n", id);                              \
                r = VK_ERROR_UNKNOWN;                                                                    \
                if (c->flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)                           \
                    return r;                                                                            \
                continue;                                                                                \
            }                                                                                            \
            T one = *c;                                                                                  \
            if ((one.flags & VK_PIPELINE_CREATE_DERIVATIVE_BIT) && one.basePipelineIndex >= 0) {         \
                one.basePipelineHandle = p[one.basePipelineIndex];                                       \
                one.basePipelineIndex = -1;                                                              \
            }                                                                                            \
            VkResult ri = next(d, cache, 1, &one, a, &p[i]);                                             \
            if (ri != VK_SUCCESS) {                                                                      \
                r = ri;                                                                                  \
                if (ri < 0 && (c->flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT))               \
                    return r;                                                                            \
            }                                                                                            \
        }                                                                                                \
        return r;                                                                                        \
    } while (0)

#define COMPUTE_STAGES(c) (&(c)->stage)
#define ONE(c) 1u
#define GRAPHICS_STAGES(c) ((c)->pStages)
#define STAGE_COUNT(c) ((c)->stageCount)

static VKAPI_ATTR VkResult VKAPI_CALL refuse_CreateComputePipelines(VkDevice d, VkPipelineCache cache, uint32_t n,
                                                                    const VkComputePipelineCreateInfo *ci,
                                                                    const VkAllocationCallbacks *a, VkPipeline *p)
{
    CREATE(VkComputePipelineCreateInfo, next_compute, COMPUTE_STAGES, ONE);
}

static VKAPI_ATTR VkResult VKAPI_CALL refuse_CreateGraphicsPipelines(VkDevice d, VkPipelineCache cache, uint32_t n,
                                                                     const VkGraphicsPipelineCreateInfo *ci,
                                                                     const VkAllocationCallbacks *a, VkPipeline *p)
{
    CREATE(VkGraphicsPipelineCreateInfo, next_graphics, GRAPHICS_STAGES, STAGE_COUNT);
}

/* A ray-tracing pipeline's deferred operation is not used: each is made at
 * once. */
static VKAPI_ATTR VkResult VKAPI_CALL refuse_CreateRayTracingPipelinesKHR(VkDevice d, VkDeferredOperationKHR deferred,
                                                                          VkPipelineCache cache, uint32_t n,
                                                                          const VkRayTracingPipelineCreateInfoKHR *ci,
                                                                          const VkAllocationCallbacks *a, VkPipeline *p)
{
    (void)deferred;
#define next_rt(d, cache, n, ci, a, p) next_ray_tracing((d), VK_NULL_HANDLE, (cache), (n), (ci), (a), (p))
    CREATE(VkRayTracingPipelineCreateInfoKHR, next_rt, GRAPHICS_STAGES, STAGE_COUNT);
#undef next_rt
}

/* Shader objects are made one at a time too (the tests link none). */
static VKAPI_ATTR VkResult VKAPI_CALL refuse_CreateShadersEXT(VkDevice d, uint32_t n, const VkShaderCreateInfoEXT *ci,
                                                              const VkAllocationCallbacks *a, VkShaderEXT *s)
{
    VkResult r = VK_SUCCESS;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = seen++;
        s[i] = VK_NULL_HANDLE;
        if (ci[i].codeType == VK_SHADER_CODE_TYPE_SPIRV_EXT && ci[i].pCode && carries(ci[i].pCode, ci[i].codeSize / 4)) {
            fprintf(stderr, "refuselayer: refused shader %u\n", id);
            r = VK_ERROR_UNKNOWN;
            continue;
        }
        VkResult ri = next_shaders(d, 1, &ci[i], a, &s[i]);
        if (ri != VK_SUCCESS)
            r = ri;
    }
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL refuse_CreateInstance(const VkInstanceCreateInfo *ci,
                                                            const VkAllocationCallbacks *alloc, VkInstance *inst)
{
    VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)ci->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerInstanceCreateInfo *)link->pNext;
    if (!link)
        return VK_ERROR_INITIALIZATION_FAILED;
    next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)next_gipa(VK_NULL_HANDLE, "vkCreateInstance");
    VkResult r = create(ci, alloc, inst);
    if (r == VK_SUCCESS)
        instance = *inst;
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL refuse_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
                                                          const VkAllocationCallbacks *alloc, VkDevice *dev)
{
    VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)ci->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerDeviceCreateInfo *)link->pNext;
    if (!link)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    PFN_vkGetPhysicalDeviceProperties props =
        (PFN_vkGetPhysicalDeviceProperties)gipa(instance, "vkGetPhysicalDeviceProperties");
    if (props) {
        VkPhysicalDeviceProperties p;
        props(pd, &p);
        uint32_t sets = p.limits.maxBoundDescriptorSets < 33 ? p.limits.maxBoundDescriptorSets : 33;
        slot = sets - 1;
    }
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(instance, "vkCreateDevice");
    VkResult r = create(pd, ci, alloc, dev);
    if (r != VK_SUCCESS)
        return r;
    next_create_module = (PFN_vkCreateShaderModule)next_gdpa(*dev, "vkCreateShaderModule");
    next_destroy_module = (PFN_vkDestroyShaderModule)next_gdpa(*dev, "vkDestroyShaderModule");
    next_compute = (PFN_vkCreateComputePipelines)next_gdpa(*dev, "vkCreateComputePipelines");
    next_graphics = (PFN_vkCreateGraphicsPipelines)next_gdpa(*dev, "vkCreateGraphicsPipelines");
    next_shaders = (PFN_vkCreateShadersEXT)next_gdpa(*dev, "vkCreateShadersEXT");
    next_ray_tracing = (PFN_vkCreateRayTracingPipelinesKHR)next_gdpa(*dev, "vkCreateRayTracingPipelinesKHR");
    return VK_SUCCESS;
}

#define OURS(fn)                 \
    if (!strcmp(name, "vk" #fn)) \
        return (PFN_vkVoidFunction)refuse_##fn;

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL refuse_GetDeviceProcAddr(VkDevice d, const char *name)
{
    OURS(GetDeviceProcAddr)
    OURS(CreateShaderModule)
    OURS(DestroyShaderModule)
    OURS(CreateComputePipelines)
    OURS(CreateGraphicsPipelines)
    if (!strcmp(name, "vkCreateShadersEXT") && next_shaders)
        return (PFN_vkVoidFunction)refuse_CreateShadersEXT;
    if (!strcmp(name, "vkCreateRayTracingPipelinesKHR") && next_ray_tracing)
        return (PFN_vkVoidFunction)refuse_CreateRayTracingPipelinesKHR;
    return next_gdpa ? next_gdpa(d, name) : NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL refuse_GetInstanceProcAddr(VkInstance i, const char *name)
{
    OURS(GetInstanceProcAddr)
    OURS(CreateInstance)
    OURS(CreateDevice)
    OURS(GetDeviceProcAddr)
    OURS(CreateShaderModule)
    OURS(DestroyShaderModule)
    OURS(CreateComputePipelines)
    OURS(CreateGraphicsPipelines)
    return next_gipa ? next_gipa(i, name) : NULL;
}
#undef OURS

EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *p)
{
    if (p->loaderLayerInterfaceVersion > 2)
        p->loaderLayerInterfaceVersion = 2;
    p->pfnGetInstanceProcAddr = refuse_GetInstanceProcAddr;
    p->pfnGetDeviceProcAddr = refuse_GetDeviceProcAddr;
    p->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}
