/*
 * dispatch.c: the loader face, the top floor of the C half. Interface
 * negotiation (version 2), vkGetInstanceProcAddr / vkGetDeviceProcAddr
 * (each room's intercept table asked in turn), the instance and device
 * chain walks in vkCreateInstance / vkCreateDevice, loading the dispatch
 * tables and registering instances, physical devices and devices with the
 * ground floor (ground.c), the reserve-slot limit and debug names. What a
 * device gets made and destroyed is the device owner's (device.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vulkan/vk_layer.h>

#include "ground.h"
#include "accel.h"
#include "addresses.h"
#include "cache.h"
#include "cmdbuf.h"
#include "depthcopy.h"
#include "descriptors.h"
#include "device.h"
#include "fault.h"
#include "memory.h"
#include "messenger.h"
#include "pipeline.h"
#include "shaderobj.h"
#include "submit.h"
#include "variants.h"
#include "_cgo_export.h"

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

typedef struct exit_drain {
    uint64_t deadline;
    uint32_t unread;
} exit_drain;

static void drain_device(device_data *dd, void *ctx)
{
    exit_drain *x = ctx;
    if (!dd->inert)
        x->unread += gpuavdbg_pending_drain(dd, x->deadline);
}

static void process_exit(void)
{
    /* A forked child runs its parent's atexit handlers: no Go there, and
     * its copy of the connection is closed already (ground.c). */
    if (gpuavdbg_forked())
        return;
    /* The submits the app never waited for: read what finishes within
     * GPUAVDBG_DRAIN_NS in all, say what did not
     * (docs/decisions/unwaited-submits.md). */
    exit_drain x = {gpuavdbg_now_ns() + GPUAVDBG_DRAIN_NS, 0};
    gpuavdbg_device_each(drain_device, &x);
    goProcessExit(gpuavdbg_submit_count(), x.unread, (uint32_t)(GPUAVDBG_DRAIN_NS / 1000000u));
}

static void register_process_exit(void)
{
    gpuavdbg_fork_watch();
    atexit(process_exit);
}

/* ---- inert instances: a forked child's own ---------------------------------- */

/* An instance a forked child creates (without exec) cannot be validated:
 * the layer's Go half cannot run there. It is inert: registered so that
 * the loader's calls find their way down, every command the next layer's
 * own, and the child told once on stderr. */
static VkResult create_inert_instance(const VkInstanceCreateInfo *ci, const VkAllocationCallbacks *alloc,
                                      VkInstance *pInstance, PFN_vkGetInstanceProcAddr gipa, PFN_vkCreateInstance create)
{
    VkResult r = create(ci, alloc, pInstance);
    if (r != VK_SUCCESS)
        return r;
    instance_data *id = calloc(1, sizeof *id);
    if (id) {
        id->key = gpuavdbg_dispatch_key(*pInstance);
        id->instance = *pInstance;
        id->inert = 1;
        id->disp.GetInstanceProcAddr = gipa;
#define LOAD(name) id->disp.name = (PFN_vk##name)gipa(*pInstance, "vk" #name);
        GPUAVDBG_INSTANCE_FUNCS(LOAD)
#undef LOAD
    }
    if (!id || !gpuavdbg_instance_put(id)) {
        PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)gipa(*pInstance, "vkDestroyInstance");
        if (destroy)
            destroy(*pInstance, alloc);
        free(id);
        *pInstance = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    static int told;
    if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
        fprintf(stderr,
                "gpuav-dbg: process %d was forked without exec: its Vulkan calls are not validated (exec the "
                "child to validate it)\n",
                (int)getpid());
    return VK_SUCCESS;
}

static int has_instance_extension(const VkInstanceCreateInfo *ci, const char *name)
{
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        if (!strcmp(ci->ppEnabledExtensionNames[i], name))
            return 1;
    return 0;
}

/* with_device_group_creation returns the create info to call down with:
 * for a Vulkan 1.0 app (apiVersion 1.0, or none) that did not enable
 * VK_KHR_device_group_creation, a copy (in *scratch, which the caller
 * frees) with it added, so that its devices can have VK_KHR_device_group
 * and vkCmdDispatchBase, which the pre-pass of indirect_command needs
 * (device.c adds the device extension); else ci. The app sees nothing of
 * it: the loader answers its calls by its own list. */
static const VkInstanceCreateInfo *with_device_group_creation(const VkInstanceCreateInfo *ci, void **scratch)
{
    *scratch = NULL;
    uint32_t v = ci->pApplicationInfo ? ci->pApplicationInfo->apiVersion : 0;
    if ((v && (VK_API_VERSION_MAJOR(v) > 1 || VK_API_VERSION_MINOR(v) > 0)) ||
        has_instance_extension(ci, VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME))
        return ci;
    size_t n = ci->enabledExtensionCount + 1;
    unsigned char *mem = calloc(1, sizeof(VkInstanceCreateInfo) + n * sizeof(char *));
    if (!mem)
        return ci;
    *scratch = mem;
    VkInstanceCreateInfo *out = (VkInstanceCreateInfo *)mem;
    *out = *ci;
    const char **names = (const char **)(mem + sizeof *out);
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        names[i] = ci->ppEnabledExtensionNames[i];
    names[n - 1] = VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME;
    out->enabledExtensionCount = (uint32_t)n;
    out->ppEnabledExtensionNames = names;
    return out;
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
    VkLayerInstanceLink *next = link->u.pLayerInfo->pNext;
    link->u.pLayerInfo = next;
    if (gpuavdbg_forked())
        return create_inert_instance(ci, alloc, pInstance, gipa, create);

    void *scratch = NULL;
    const VkInstanceCreateInfo *patched = with_device_group_creation(ci, &scratch);
    VkResult r = create(patched, alloc, pInstance);
    if (r == VK_ERROR_EXTENSION_NOT_PRESENT && patched != ci) {
        /* The loader refused it: the app's own list, as it gave it. */
        link->u.pLayerInfo = next;
        r = create(ci, alloc, pInstance);
        patched = ci;
    }
    int device_group_creation = has_instance_extension(patched, VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME);
    free(scratch);
    if (r != VK_SUCCESS)
        return r;

    instance_data *id = calloc(1, sizeof *id);
    if (!id)
        goto oom;
    id->key = gpuavdbg_dispatch_key(*pInstance);
    id->instance = *pInstance;
    id->api_version = ci->pApplicationInfo ? ci->pApplicationInfo->apiVersion : 0;
    id->device_group_creation = device_group_creation;
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
    /* The messengers of the create info hear no more until
     * vkDestroyInstance: the app's structures may be gone. */
    gpuavdbg_messengers_in_call(id->key, 0);
    pthread_once(&g_exit_once, register_process_exit);

    if (gpuavdbg_instance_put(id))
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
    int last;
    instance_data *id = gpuavdbg_instance_del(instance, &last);
    if (!id)
        return;
    if (id->inert || gpuavdbg_forked()) {
        /* No Go in a forked child: the parent's instance (which the child
         * should not use) or the child's own inert one goes down as it is. */
        if (id->disp.DestroyInstance)
            id->disp.DestroyInstance(instance, alloc);
        if (id->inert)
            free(id);
        return;
    }
    /* The bye's last lines still reach the instance's own messengers, and
     * those of its create info (valid again during vkDestroyInstance). */
    gpuavdbg_messengers_in_call(id->key, 1);
    goInstanceDestroyed(GPUAVDBG_H(instance), gpuavdbg_submit_count(), last);
    gpuavdbg_messengers_forget_instance(id->key);
    if (id->disp.DestroyInstance)
        id->disp.DestroyInstance(instance, alloc);
    free(id);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_EnumeratePhysicalDevices(VkInstance instance, uint32_t *pCount,
                                                                  VkPhysicalDevice *pDevices)
{
    instance_data *id = gpuavdbg_instance_get(instance);
    if (!id || !id->disp.EnumeratePhysicalDevices)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = id->disp.EnumeratePhysicalDevices(instance, pCount, pDevices);
    if ((r == VK_SUCCESS || r == VK_INCOMPLETE) && pDevices)
        gpuavdbg_physical_put(id, *pCount, pDevices);
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
            gpuavdbg_physical_put(id, pProps[i].physicalDeviceCount, pProps[i].physicalDevices);
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

/* With reserve-slot on, the app sees one descriptor set fewer
 * (docs/decisions/reserve-slot.md). */
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

/* create_inert_device creates a device of an inert instance: registered
 * for vkGetDeviceProcAddr and vkDestroyDevice, nothing else the layer's. */
static VkResult create_inert_device(instance_data *inst, VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
                                    const VkAllocationCallbacks *alloc, VkDevice *pDevice, PFN_vkGetDeviceProcAddr gdpa,
                                    PFN_vkCreateDevice create)
{
    VkResult r = create(pd, ci, alloc, pDevice);
    if (r != VK_SUCCESS)
        return r;
    device_data *dd = calloc(1, sizeof *dd);
    if (dd) {
        dd->key = gpuavdbg_dispatch_key(*pDevice);
        dd->device = *pDevice;
        dd->physical = pd;
        dd->inst = inst;
        dd->inert = 1;
        dd->disp.GetDeviceProcAddr = gdpa;
        dd->disp.DestroyDevice = (PFN_vkDestroyDevice)gdpa(*pDevice, "vkDestroyDevice");
    }
    if (!dd || !gpuavdbg_device_put(dd)) {
        PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice)gdpa(*pDevice, "vkDestroyDevice");
        if (destroy)
            destroy(*pDevice, alloc);
        free(dd);
        *pDevice = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    return VK_SUCCESS;
}

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
    if (inst->inert)
        return create_inert_device(inst, pd, ci, alloc, pDevice, gdpa, create);

    void *scratch = NULL, *scratch_ext = NULL;
    uint32_t int64 = 0;
    const char *missing = NULL;
    const VkDeviceCreateInfo *with_ext = gpuavdbg_patch_extensions(inst, pd, ci, &scratch_ext, &missing);
    const VkDeviceCreateInfo *with_feat = gpuavdbg_patch_features(inst, pd, with_ext, &scratch, &int64);
    void *scratch_fault = NULL;
    const VkDeviceCreateInfo *patched = gpuavdbg_fault_patch(inst, pd, with_feat, &scratch_fault);
    VkResult r = create(pd, patched, alloc, pDevice);
    const VkDeviceCreateInfo *used = patched;
    if (r != VK_SUCCESS && patched != with_feat) {
        /* The fault report is a nicety: never the reason a device runs
         * uninstrumented. */
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING,
                      "vkCreateDevice failed (%d) with VK_EXT_device_fault, which the layer adds; retrying without it: "
                      "a lost device's fault is not read",
                      (int)r);
        patched = used = with_feat;
        r = create(pd, patched, alloc, pDevice);
    }
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
        free(scratch_fault);
        return r;
    }

    device_data *dd = calloc(1, sizeof *dd);
    if (!dd)
        goto oom;
    dd->key = gpuavdbg_dispatch_key(*pDevice);
    dd->device = *pDevice;
    dd->physical = pd;
    dd->inst = inst;
    dd->int64 = int64;
    gpuavdbg_device_extensions_enabled(dd, used);
    gpuavdbg_fault_enabled(dd, used);
    free(scratch);
    free(scratch_ext);
    free(scratch_fault);
    scratch = scratch_ext = scratch_fault = NULL;
    if (missing)
        snprintf(dd->reason, sizeof dd->reason, "instrumented shaders need %s, which the device cannot enable",
                 missing);
    gpuavdbg_device_init(dd, ci);
#define LOAD(name) dd->disp.name = (PFN_vk##name)gdpa(*pDevice, "vk" #name);
    GPUAVDBG_DEVICE_FUNCS(LOAD)
#undef LOAD
    if (!dd->disp.GetDeviceProcAddr)
        dd->disp.GetDeviceProcAddr = gdpa;

    if (!gpuavdbg_device_put(dd))
        goto oom;
    gpuavdbg_device_created(dd, ci); /* never fails the device */
    return VK_SUCCESS;
oom:;
    free(scratch);
    free(scratch_ext);
    free(scratch_fault);
    PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice)gdpa(*pDevice, "vkDestroyDevice");
    if (destroy)
        destroy(*pDevice, alloc);
    if (dd)
        gpuavdbg_device_fini(dd);
    free(dd);
    *pDevice = VK_NULL_HANDLE;
    return VK_ERROR_OUT_OF_HOST_MEMORY;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
    if (!device)
        return;
    device_data *dd = gpuavdbg_device_del(device);
    if (!dd)
        return;
    if (dd->inert || gpuavdbg_forked()) {
        /* No Go in a forked child: its own inert device, or its parent's
         * (which it should not use), goes down as it is. */
        if (dd->disp.DestroyDevice)
            dd->disp.DestroyDevice(device, alloc);
        if (dd->inert)
            free(dd);
        return;
    }
    gpuavdbg_device_destroy(dd, device, alloc);
}

/* ---- debug names ------------------------------------------------------------ */

/* object_serial is the serial of the live pipeline or command buffer a
 * name is given to (0 for other objects: Go knows its shaders'), so that
 * the name stays with that object when the driver gives its handle to a
 * later one (docs/decisions/attribution-by-identity.md). */
static uint64_t object_serial(device_data *dd, uint32_t type, uint64_t handle)
{
    if (!dd || !handle)
        return 0;
    if (type == VK_OBJECT_TYPE_PIPELINE)
        return gpuavdbg_pipeline_serial(dd, handle);
    if (type == VK_OBJECT_TYPE_COMMAND_BUFFER) {
        const cb_state *cs = gpuavdbg_cb_get((VkCommandBuffer)(uintptr_t)handle);
        return cs ? cs->serial : 0;
    }
    return 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_SetDebugUtilsObjectNameEXT(VkDevice device,
                                                                   const VkDebugUtilsObjectNameInfoEXT *info)
{
    device_data *dd = gpuavdbg_device_get(device);
    VkResult r = VK_SUCCESS;
    if (dd && dd->disp.SetDebugUtilsObjectNameEXT)
        r = dd->disp.SetDebugUtilsObjectNameEXT(device, info);
    if (r == VK_SUCCESS && info && dd && (uint32_t)info->objectType == VK_OBJECT_TYPE_BUFFER)
        gpuavdbg_addr_buffer_named(dd, info->objectHandle, info->pObjectName ? info->pObjectName : "");
    if (r == VK_SUCCESS && info)
        goSetObjectName(GPUAVDBG_H(device), (uint32_t)info->objectType, info->objectHandle,
                        object_serial(dd, (uint32_t)info->objectType, info->objectHandle),
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
    if (r == VK_SUCCESS && info && dd && (uint32_t)info->objectType == VK_OBJECT_TYPE_BUFFER)
        gpuavdbg_addr_buffer_named(dd, info->object, info->pObjectName ? info->pObjectName : "");
    if (r == VK_SUCCESS && info)
        goSetObjectName(GPUAVDBG_H(device), (uint32_t)info->objectType, info->object,
                        object_serial(dd, (uint32_t)info->objectType, info->object),
                        (char *)(info->pObjectName ? info->pObjectName : ""));
    return r;
}

/* ---- proc addr ------------------------------------------------------------ */

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL icpt_GetDeviceProcAddr(VkDevice device, const char *name);
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL icpt_GetInstanceProcAddr(VkInstance instance, const char *name);

static const gpuavdbg_intercept instance_intercepts[] = {
    GPUAVDBG_ICPT(GetInstanceProcAddr),
    GPUAVDBG_ICPT(CreateInstance),
    GPUAVDBG_ICPT(DestroyInstance),
    GPUAVDBG_ICPT(EnumeratePhysicalDevices),
    GPUAVDBG_ICPT(EnumeratePhysicalDeviceGroups),
    GPUAVDBG_ICPT(EnumeratePhysicalDeviceGroupsKHR),
    GPUAVDBG_ICPT(GetPhysicalDeviceProperties),
    GPUAVDBG_ICPT(GetPhysicalDeviceProperties2),
    GPUAVDBG_ICPT(GetPhysicalDeviceProperties2KHR),
    GPUAVDBG_ICPT(CreateDevice),
};
static const gpuavdbg_intercept device_intercepts[] = {
    GPUAVDBG_ICPT(GetDeviceProcAddr),
    GPUAVDBG_ICPT(DestroyDevice),
    GPUAVDBG_ICPT(SetDebugUtilsObjectNameEXT),
    GPUAVDBG_ICPT(DebugMarkerSetObjectNameEXT),
};

/* device_intercept returns the layer's function for a device-level
 * command: the face's own, or the one of the room that owns it. */
static PFN_vkVoidFunction device_intercept(const char *name)
{
    PFN_vkVoidFunction f = gpuavdbg_intercept_find(device_intercepts, GPUAVDBG_NELEM(device_intercepts), name);
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
        f = gpuavdbg_memory_intercept(name);
    if (!f)
        f = gpuavdbg_variant_intercept(name);
    if (!f)
        f = gpuavdbg_accel_intercept(name);
    if (!f)
        f = gpuavdbg_depth_intercept(name);
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
    if (dd->inert)
        return strcmp(name, "vkDestroyDevice") == 0 ? (PFN_vkVoidFunction)icpt_DestroyDevice : next;
    PFN_vkVoidFunction ours = device_intercept(name);
    return ours ? ours : next;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL icpt_GetInstanceProcAddr(VkInstance instance, const char *name)
{
    if (!name)
        return NULL;
    PFN_vkVoidFunction ours = gpuavdbg_intercept_find(instance_intercepts, GPUAVDBG_NELEM(instance_intercepts), name);
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
    if (id->inert) {
        /* Only what keeps the chain walkable: the child's devices, and
         * forgetting the instance. */
        if (strcmp(name, "vkCreateDevice") == 0 || strcmp(name, "vkDestroyInstance") == 0)
            return ours;
        if (strcmp(name, "vkDestroyDevice") == 0)
            return (PFN_vkVoidFunction)icpt_DestroyDevice;
        return next;
    }
    if (!ours)
        ours = gpuavdbg_messenger_intercept(name);
    if (!ours)
        ours = device_intercept(name);
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
