/*
 * dispatch.c: the layer's face to the Vulkan loader. Interface negotiation
 * (version 2), vkGetInstanceProcAddr / vkGetDeviceProcAddr, the instance and
 * device chain walks in vkCreateInstance / vkCreateDevice, the per-instance
 * and per-device dispatch tables keyed by the loader's dispatch pointer, the
 * physical device -> instance map, the reserve-slot limit and debug names.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"
#include "_cgo_export.h"

/* g_lock guards the three maps below. Instances and devices are created
 * and destroyed rarely; lookups take the read lock. */
static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static hmap g_instances; /* dispatch key -> instance_data* */
static hmap g_devices;   /* dispatch key -> device_data* */
static hmap g_physical;  /* VkPhysicalDevice -> instance_data* */

static void *dispatch_key(const void *dispatchable)
{
    return *(void *const *)dispatchable;
}

void gpuavdbg_logf(int level, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    goLog(level, buf);
}

instance_data *gpuavdbg_instance_get(const void *dispatchable)
{
    pthread_rwlock_rdlock(&g_lock);
    instance_data *id = hmap_get(&g_instances, GPUAVDBG_H(dispatch_key(dispatchable)));
    pthread_rwlock_unlock(&g_lock);
    return id;
}

device_data *gpuavdbg_device_get(const void *dispatchable)
{
    pthread_rwlock_rdlock(&g_lock);
    device_data *dd = hmap_get(&g_devices, GPUAVDBG_H(dispatch_key(dispatchable)));
    pthread_rwlock_unlock(&g_lock);
    return dd;
}

instance_data *gpuavdbg_instance_for_physical(VkPhysicalDevice pd)
{
    pthread_rwlock_rdlock(&g_lock);
    instance_data *id = hmap_get(&g_physical, GPUAVDBG_H(pd));
    if (!id) /* the loader gives physical devices the instance's key */
        id = hmap_get(&g_instances, GPUAVDBG_H(dispatch_key(pd)));
    pthread_rwlock_unlock(&g_lock);
    return id;
}

/* ---- instance ------------------------------------------------------------ */

/* What the app asks for in vkCreateInstance's pNext, besides its
 * messengers: VkValidationFeaturesEXT / VkValidationFlagsEXT and its
 * VkLayerSettingsCreateInfoEXT for this layer (VK_EXT_layer_settings). */
typedef struct app_wishes {
    int reserve_slot;    /* ..._GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT enabled */
    int disable_shaders; /* DISABLE_ALL / DISABLE_SHADERS, or CHECK_ALL / CHECK_SHADERS */
    char *settings;      /* malloc'd "key=value\n" lines (ParseAppSettings), or NULL */
} app_wishes;

static void app_setting(FILE *f, const VkLayerSettingEXT *st)
{
    const char *key = st->pSettingName;
    if (!key || !*key || strpbrk(key, "=!\n"))
        return;
    if (st->valueCount == 0 || !st->pValues) {
        fprintf(f, "%s!no value\n", key);
        return;
    }
    switch (st->type) {
    case VK_LAYER_SETTING_TYPE_BOOL32_EXT:
        fprintf(f, "%s=%d\n", key, *(const VkBool32 *)st->pValues ? 1 : 0);
        return;
    case VK_LAYER_SETTING_TYPE_INT32_EXT:
        fprintf(f, "%s=%d\n", key, (int)*(const int32_t *)st->pValues);
        return;
    case VK_LAYER_SETTING_TYPE_UINT32_EXT:
        fprintf(f, "%s=%u\n", key, (unsigned)*(const uint32_t *)st->pValues);
        return;
    case VK_LAYER_SETTING_TYPE_INT64_EXT:
        fprintf(f, "%s=%lld\n", key, (long long)*(const int64_t *)st->pValues);
        return;
    case VK_LAYER_SETTING_TYPE_UINT64_EXT:
        fprintf(f, "%s=%llu\n", key, (unsigned long long)*(const uint64_t *)st->pValues);
        return;
    case VK_LAYER_SETTING_TYPE_STRING_EXT: {
        const char *v = *(const char *const *)st->pValues;
        if (v && !strchr(v, '\n'))
            fprintf(f, "%s=%s\n", key, v);
        else
            fprintf(f, "%s!not a one-line string\n", key);
        return;
    }
    default:
        fprintf(f, "%s!type %d is not a boolean (use VK_LAYER_SETTING_TYPE_BOOL32_EXT)\n", key, (int)st->type);
    }
}

static app_wishes read_app_wishes(const VkInstanceCreateInfo *ci)
{
    app_wishes w = {0};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = NULL;
    for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT) {
            const VkValidationFeaturesEXT *vf = (const VkValidationFeaturesEXT *)s;
            for (uint32_t i = 0; i < vf->enabledValidationFeatureCount; i++)
                if (vf->pEnabledValidationFeatures[i] ==
                    VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT)
                    w.reserve_slot = 1;
            for (uint32_t i = 0; i < vf->disabledValidationFeatureCount; i++)
                if (vf->pDisabledValidationFeatures[i] == VK_VALIDATION_FEATURE_DISABLE_ALL_EXT ||
                    vf->pDisabledValidationFeatures[i] == VK_VALIDATION_FEATURE_DISABLE_SHADERS_EXT)
                    w.disable_shaders = 1;
        } else if (s->sType == VK_STRUCTURE_TYPE_VALIDATION_FLAGS_EXT) {
            const VkValidationFlagsEXT *vf = (const VkValidationFlagsEXT *)s;
            for (uint32_t i = 0; i < vf->disabledValidationCheckCount; i++)
                if (vf->pDisabledValidationChecks[i] == VK_VALIDATION_CHECK_ALL_EXT ||
                    vf->pDisabledValidationChecks[i] == VK_VALIDATION_CHECK_SHADERS_EXT)
                    w.disable_shaders = 1;
        } else if (s->sType == VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT) {
            const VkLayerSettingsCreateInfoEXT *ls = (const VkLayerSettingsCreateInfoEXT *)s;
            for (uint32_t i = 0; i < ls->settingCount && ls->pSettings; i++) {
                const VkLayerSettingEXT *st = &ls->pSettings[i];
                if (!st->pLayerName || strcmp(st->pLayerName, GPUAVDBG_LAYER_NAME) != 0)
                    continue;
                if (!f)
                    f = open_memstream(&buf, &len);
                if (f)
                    app_setting(f, st);
            }
        }
    }
    if (f && fclose(f) == 0)
        w.settings = buf;
    else
        free(buf);
    return w;
}

/* Many apps exit without vkDestroyInstance: at process exit the layer
 * still flushes what it has read to the launcher (records, the bye), so
 * nothing already read is lost. The library is never unloaded (-z
 * nodelete), so the handler stays valid. */
static pthread_once_t g_exit_once = PTHREAD_ONCE_INIT;

static void process_exit(void)
{
    goProcessExit(gpuavdbg_submit_count());
}

static void register_process_exit(void)
{
    atexit(process_exit);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateInstance(const VkInstanceCreateInfo *ci,
                                                        const VkAllocationCallbacks *alloc,
                                                        VkInstance *pInstance)
{
    VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)ci->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO &&
                     link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerInstanceCreateInfo *)link->pNext;
    if (!link || !link->u.pLayerInfo)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    if (!create)
        return VK_ERROR_INITIALIZATION_FAILED;
    /* The next layer reads the next link. */
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;

    VkResult r = create(ci, alloc, pInstance);
    if (r != VK_SUCCESS)
        return r;

    instance_data *id = calloc(1, sizeof *id);
    if (!id)
        goto oom;
    id->key = dispatch_key(*pInstance);
    id->instance = *pInstance;
    id->api_version = ci->pApplicationInfo ? ci->pApplicationInfo->apiVersion : 0;
    id->disp.GetInstanceProcAddr = gipa;
#define LOAD(name) id->disp.name = (PFN_vk##name)gipa(*pInstance, "vk" #name);
    GPUAVDBG_INSTANCE_FUNCS(LOAD)
#undef LOAD
    gpuavdbg_messengers_from_create_info(id->key, ci);
    /* Settings, launcher connection and hello (Go). */
    app_wishes w = read_app_wishes(ci);
    id->reserve_slot =
        goInstanceCreated(GPUAVDBG_H(*pInstance), w.reserve_slot, w.disable_shaders, w.settings) != 0;
    free(w.settings);
    pthread_once(&g_exit_once, register_process_exit);

    pthread_rwlock_wrlock(&g_lock);
    int ok = hmap_put(&g_instances, GPUAVDBG_H(id->key), id);
    pthread_rwlock_unlock(&g_lock);
    if (ok)
        return VK_SUCCESS;
oom:;
    PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)gipa(*pInstance, "vkDestroyInstance");
    if (destroy)
        destroy(*pInstance, alloc);
    if (id)
        gpuavdbg_messengers_forget_instance(id->key);
    free(id);
    *pInstance = VK_NULL_HANDLE;
    return VK_ERROR_OUT_OF_HOST_MEMORY;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc)
{
    if (!instance)
        return;
    pthread_rwlock_wrlock(&g_lock);
    instance_data *id = hmap_del(&g_instances, GPUAVDBG_H(dispatch_key(instance)));
    if (id) {
        for (size_t i = 0; i < g_physical.cap; i++) {
            if (g_physical.slots[i].key && g_physical.slots[i].val == id) {
                hmap_del(&g_physical, g_physical.slots[i].key);
                i--; /* backward shift may have moved an entry into slot i */
            }
        }
    }
    int last = g_instances.len == 0;
    pthread_rwlock_unlock(&g_lock);
    if (!id)
        return;
    /* The bye's last lines still reach the instance's own messengers. */
    goInstanceDestroyed(GPUAVDBG_H(instance), gpuavdbg_submit_count(), last);
    gpuavdbg_messengers_forget_instance(id->key);
    if (id->disp.DestroyInstance)
        id->disp.DestroyInstance(instance, alloc);
    free(id);
}

static void remember_physical(instance_data *id, uint32_t n, const VkPhysicalDevice *pds)
{
    pthread_rwlock_wrlock(&g_lock);
    for (uint32_t i = 0; i < n; i++)
        hmap_put(&g_physical, GPUAVDBG_H(pds[i]), id);
    pthread_rwlock_unlock(&g_lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_EnumeratePhysicalDevices(VkInstance instance, uint32_t *pCount,
                                                                  VkPhysicalDevice *pDevices)
{
    instance_data *id = gpuavdbg_instance_get(instance);
    if (!id || !id->disp.EnumeratePhysicalDevices)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = id->disp.EnumeratePhysicalDevices(instance, pCount, pDevices);
    if ((r == VK_SUCCESS || r == VK_INCOMPLETE) && pDevices)
        remember_physical(id, *pCount, pDevices);
    return r;
}

static VkResult enumerate_groups(instance_data *id, PFN_vkEnumeratePhysicalDeviceGroups fn, VkInstance instance,
                                 uint32_t *pCount, VkPhysicalDeviceGroupProperties *pProps)
{
    if (!fn)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = fn(instance, pCount, pProps);
    if ((r == VK_SUCCESS || r == VK_INCOMPLETE) && pProps)
        for (uint32_t i = 0; i < *pCount; i++)
            remember_physical(id, pProps[i].physicalDeviceCount, pProps[i].physicalDevices);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_EnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t *pCount,
                                                                       VkPhysicalDeviceGroupProperties *pProps)
{
    instance_data *id = gpuavdbg_instance_get(instance);
    if (!id)
        return VK_ERROR_INITIALIZATION_FAILED;
    return enumerate_groups(id, id->disp.EnumeratePhysicalDeviceGroups, instance, pCount, pProps);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_EnumeratePhysicalDeviceGroupsKHR(VkInstance instance, uint32_t *pCount,
                                                                          VkPhysicalDeviceGroupProperties *pProps)
{
    instance_data *id = gpuavdbg_instance_get(instance);
    if (!id)
        return VK_ERROR_INITIALIZATION_FAILED;
    return enumerate_groups(id, id->disp.EnumeratePhysicalDeviceGroupsKHR, instance, pCount, pProps);
}

/* With reserve-slot on, the app sees one descriptor set fewer (seed 000). */
static void reserve(instance_data *id, VkPhysicalDeviceLimits *limits)
{
    if (id->reserve_slot && limits->maxBoundDescriptorSets > 1)
        limits->maxBoundDescriptorSets--;
}

static VKAPI_ATTR void VKAPI_CALL icpt_GetPhysicalDeviceProperties(VkPhysicalDevice pd, VkPhysicalDeviceProperties *p)
{
    instance_data *id = gpuavdbg_instance_for_physical(pd);
    if (!id || !id->disp.GetPhysicalDeviceProperties)
        return;
    id->disp.GetPhysicalDeviceProperties(pd, p);
    reserve(id, &p->limits);
}

static VKAPI_ATTR void VKAPI_CALL icpt_GetPhysicalDeviceProperties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2 *p)
{
    instance_data *id = gpuavdbg_instance_for_physical(pd);
    if (!id || !id->disp.GetPhysicalDeviceProperties2)
        return;
    id->disp.GetPhysicalDeviceProperties2(pd, p);
    reserve(id, &p->properties.limits);
}

static VKAPI_ATTR void VKAPI_CALL icpt_GetPhysicalDeviceProperties2KHR(VkPhysicalDevice pd,
                                                                    VkPhysicalDeviceProperties2 *p)
{
    instance_data *id = gpuavdbg_instance_for_physical(pd);
    if (!id || !id->disp.GetPhysicalDeviceProperties2KHR)
        return;
    id->disp.GetPhysicalDeviceProperties2KHR(pd, p);
    reserve(id, &p->properties.limits);
}

/* ---- device -------------------------------------------------------------- */

/* device.c: enable the features and extensions instrumented shaders need
 * on a copy of the create info. */
const VkDeviceCreateInfo *gpuavdbg_patch_features(instance_data *inst, VkPhysicalDevice pd,
                                                  const VkDeviceCreateInfo *ci, void **scratch, uint32_t *int64);
const VkDeviceCreateInfo *gpuavdbg_patch_extensions(instance_data *inst, VkPhysicalDevice pd,
                                                    const VkDeviceCreateInfo *ci, void **scratch,
                                                    const char **missing);
void gpuavdbg_device_extensions_enabled(device_data *dd, const VkDeviceCreateInfo *ci);

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
                                                      const VkAllocationCallbacks *alloc, VkDevice *pDevice)
{
    instance_data *inst = gpuavdbg_instance_for_physical(pd);
    VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)ci->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO &&
                     link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerDeviceCreateInfo *)link->pNext;
    if (!inst || !link || !link->u.pLayerInfo)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(inst->instance, "vkCreateDevice");
    if (!create)
        return VK_ERROR_INITIALIZATION_FAILED;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;

    void *scratch = NULL, *scratch_ext = NULL;
    uint32_t int64 = 0;
    const char *missing = NULL;
    const VkDeviceCreateInfo *with_ext = gpuavdbg_patch_extensions(inst, pd, ci, &scratch_ext, &missing);
    const VkDeviceCreateInfo *patched = gpuavdbg_patch_features(inst, pd, with_ext, &scratch, &int64);
    VkResult r = create(pd, patched, alloc, pDevice);
    const VkDeviceCreateInfo *used = patched;
    if (r != VK_SUCCESS && patched != ci) {
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING,
                      "vkCreateDevice failed (%d) with the features and extensions the layer adds; retrying with "
                      "the app's: the device runs uninstrumented",
                      (int)r);
        missing = "the layer's features and extensions (vkCreateDevice failed with them)";
        const VkPhysicalDeviceFeatures *f = ci->pEnabledFeatures;
        int64 = f && f->shaderInt64;
        r = create(pd, ci, alloc, pDevice);
        used = ci;
    }
    if (r != VK_SUCCESS) {
        free(scratch);
        free(scratch_ext);
        return r;
    }

    device_data *dd = calloc(1, sizeof *dd);
    if (!dd)
        goto oom;
    dd->key = dispatch_key(*pDevice);
    dd->device = *pDevice;
    dd->physical = pd;
    dd->inst = inst;
    dd->robust = gpuavdbg_robust_buffer_access(ci); /* the app's features, not the patched copy */
    dd->int64 = int64;
    gpuavdbg_device_extensions_enabled(dd, used);
    free(scratch);
    free(scratch_ext);
    scratch = scratch_ext = NULL;
    if (missing)
        snprintf(dd->reason, sizeof dd->reason, "instrumented shaders need %s, which the device cannot enable",
                 missing);
    pthread_mutex_init(&dd->lock, NULL);
    gpuavdbg_pending_init(dd);
#define LOAD(name) dd->disp.name = (PFN_vk##name)gdpa(*pDevice, "vk" #name);
    GPUAVDBG_DEVICE_FUNCS(LOAD)
#undef LOAD
    if (!dd->disp.GetDeviceProcAddr)
        dd->disp.GetDeviceProcAddr = gdpa;

    pthread_rwlock_wrlock(&g_lock);
    int ok = hmap_put(&g_devices, GPUAVDBG_H(dd->key), dd);
    pthread_rwlock_unlock(&g_lock);
    if (!ok)
        goto oom;
    /* The command checks' settings, features and limits; then layer
     * resources, slot, Device message; never fails the device. */
    gpuavdbg_cc_device_created(dd, ci);
    gpuavdbg_device_setup(dd);
    return VK_SUCCESS;
oom:;
    free(scratch);
    free(scratch_ext);
    PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice)gdpa(*pDevice, "vkDestroyDevice");
    if (destroy)
        destroy(*pDevice, alloc);
    if (dd) {
        pthread_mutex_destroy(&dd->lock);
        gpuavdbg_pending_teardown(dd);
    }
    free(dd);
    *pDevice = VK_NULL_HANDLE;
    return VK_ERROR_OUT_OF_HOST_MEMORY;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
    if (!device)
        return;
    pthread_rwlock_wrlock(&g_lock);
    device_data *dd = hmap_del(&g_devices, GPUAVDBG_H(dispatch_key(device)));
    pthread_rwlock_unlock(&g_lock);
    if (!dd)
        return;
    gpuavdbg_pending_teardown(dd); /* reads what is left; the device is idle */
    gpuavdbg_cb_forget_device(dd);
    gpuavdbg_shaderobj_teardown(dd);
    gpuavdbg_device_teardown(dd);
    gpuavdbg_addr_teardown(dd);
    gpuavdbg_cc_device_destroyed(dd);
    if (dd->disp.DestroyDevice)
        dd->disp.DestroyDevice(device, alloc);
    goDeviceDestroyed(GPUAVDBG_H(device));
    pthread_mutex_destroy(&dd->lock);
    free(dd);
}

/* ---- debug names ------------------------------------------------------------ */

static VKAPI_ATTR VkResult VKAPI_CALL icpt_SetDebugUtilsObjectNameEXT(VkDevice device,
                                                                   const VkDebugUtilsObjectNameInfoEXT *info)
{
    device_data *dd = gpuavdbg_device_get(device);
    VkResult r = VK_SUCCESS;
    if (dd && dd->disp.SetDebugUtilsObjectNameEXT)
        r = dd->disp.SetDebugUtilsObjectNameEXT(device, info);
    if (r == VK_SUCCESS && info)
        goSetObjectName(GPUAVDBG_H(device), (uint32_t)info->objectType, info->objectHandle,
                        (char *)(info->pObjectName ? info->pObjectName : ""));
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_DebugMarkerSetObjectNameEXT(VkDevice device,
                                                                    const VkDebugMarkerObjectNameInfoEXT *info)
{
    device_data *dd = gpuavdbg_device_get(device);
    VkResult r = VK_SUCCESS;
    if (dd && dd->disp.DebugMarkerSetObjectNameEXT)
        r = dd->disp.DebugMarkerSetObjectNameEXT(device, info);
    /* VkDebugReportObjectTypeEXT matches VkObjectType for the core types. */
    if (r == VK_SUCCESS && info)
        goSetObjectName(GPUAVDBG_H(device), (uint32_t)info->objectType, info->object,
                        (char *)(info->pObjectName ? info->pObjectName : ""));
    return r;
}

/* ---- proc addr ------------------------------------------------------------ */

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL icpt_GetDeviceProcAddr(VkDevice device, const char *name);
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL icpt_GetInstanceProcAddr(VkInstance instance, const char *name);

typedef struct intercept {
    const char *name;
    PFN_vkVoidFunction fn;
} intercept;

#define I(name) {"vk" #name, (PFN_vkVoidFunction)icpt_##name}
static const intercept instance_intercepts[] = {
    I(GetInstanceProcAddr),
    I(CreateInstance),
    I(DestroyInstance),
    I(EnumeratePhysicalDevices),
    I(EnumeratePhysicalDeviceGroups),
    I(EnumeratePhysicalDeviceGroupsKHR),
    I(GetPhysicalDeviceProperties),
    I(GetPhysicalDeviceProperties2),
    I(GetPhysicalDeviceProperties2KHR),
    I(CreateDevice),
};
static const intercept device_intercepts[] = {
    I(GetDeviceProcAddr),
    I(DestroyDevice),
    I(SetDebugUtilsObjectNameEXT),
    I(DebugMarkerSetObjectNameEXT),
};
#undef I

static PFN_vkVoidFunction find(const intercept *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return t[i].fn;
    return NULL;
}

PFN_vkVoidFunction gpuavdbg_device_intercept(const char *name)
{
    PFN_vkVoidFunction f = find(device_intercepts, sizeof device_intercepts / sizeof *device_intercepts, name);
    if (!f)
        f = gpuavdbg_cmdchecks_intercept(name);
    if (!f)
        f = gpuavdbg_cmdbuf_intercept(name);
    if (!f)
        f = gpuavdbg_pipeline_intercept(name);
    if (!f)
        f = gpuavdbg_submit_intercept(name);
    if (!f)
        f = gpuavdbg_cache_intercept(name);
    if (!f)
        f = gpuavdbg_descriptors_intercept(name);
    if (!f)
        f = gpuavdbg_shaderobj_intercept(name);
    if (!f)
        f = gpuavdbg_addresses_intercept(name);
    if (!f)
        f = gpuavdbg_variant_intercept(name);
    return f;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL icpt_GetDeviceProcAddr(VkDevice device, const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)icpt_GetDeviceProcAddr;
    if (!device)
        return NULL;
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd || !dd->disp.GetDeviceProcAddr)
        return NULL;
    /* Intercept only what the rest of the chain provides. */
    PFN_vkVoidFunction next = dd->disp.GetDeviceProcAddr(device, name);
    if (!next)
        return NULL;
    PFN_vkVoidFunction ours = gpuavdbg_device_intercept(name);
    return ours ? ours : next;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL icpt_GetInstanceProcAddr(VkInstance instance, const char *name)
{
    if (!name)
        return NULL;
    PFN_vkVoidFunction ours =
        find(instance_intercepts, sizeof instance_intercepts / sizeof *instance_intercepts, name);
    /* vkCreateInstance and vkGetInstanceProcAddr are ours whatever the
     * instance: when this layer is first in the chain, the loader asks for
     * vkCreateInstance with its own, not yet created, instance handle (an
     * implicit layer above us, such as Mesa's device_select, hides that). */
    if (strcmp(name, "vkCreateInstance") == 0 || strcmp(name, "vkGetInstanceProcAddr") == 0)
        return ours;
    if (!instance)
        return NULL; /* other global commands go through the loader */
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)icpt_GetDeviceProcAddr;
    instance_data *id = gpuavdbg_instance_get(instance);
    if (!id)
        return NULL;
    PFN_vkVoidFunction next = id->disp.GetInstanceProcAddr(instance, name);
    if (!next)
        return NULL;
    if (!ours)
        ours = gpuavdbg_messenger_intercept(name);
    if (!ours)
        ours = gpuavdbg_device_intercept(name);
    return ours ? ours : next;
}

/* The only symbol the library exports (layer/exports.map). */
__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *p)
{
    if (!p || p->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT || p->loaderLayerInterfaceVersion < 2)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (p->loaderLayerInterfaceVersion > 2)
        p->loaderLayerInterfaceVersion = 2;
    p->pfnGetInstanceProcAddr = icpt_GetInstanceProcAddr;
    p->pfnGetDeviceProcAddr = icpt_GetDeviceProcAddr;
    p->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}
