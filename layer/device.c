/*
 * device.c: the device owner. What a device is created with (the features
 * and extensions instrumented shaders need, enabled on a copy of the app's
 * create info), and the one way the rooms' per-device state is made and
 * destroyed: gpuavdbg_device_created sets up each room in turn (command
 * checks, the layer's resources, the pre-pass) and says what the device
 * runs with; gpuavdbg_device_destroy tears them down in the reverse flow.
 * Any failure turns instrumentation off for the device and says why; the
 * app keeps running (docs/decisions/never-take-the-app-down.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vk_layer.h>

#include "ground.h"
#include "accel.h"
#include "addresses.h"
#include "cache.h"
#include "cmdbuf.h"
#include "cmdchecks.h"
#include "crumbs.h"
#include "depthcopy.h"
#include "descriptors.h"
#include "device.h"
#include "memory.h"
#include "pipeline.h"
#include "prepass.h"
#include "resources.h"
#include "shaderobj.h"
#include "submit.h"
#include "_cgo_export.h"

/* ---- features ------------------------------------------------------------- */

/* Sizes of the structures that commonly precede VkPhysicalDeviceFeatures2
 * in a VkDeviceCreateInfo chain; to change Features2 the layer must copy
 * every node before it, and it can only copy what it knows the size of. */
static size_t known_size(VkStructureType t)
{
    switch (t) {
    case VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO: return sizeof(VkLayerDeviceCreateInfo);
    case VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO: return sizeof(VkDeviceGroupDeviceCreateInfo);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: return sizeof(VkPhysicalDeviceVulkan11Features);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: return sizeof(VkPhysicalDeviceVulkan12Features);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: return sizeof(VkPhysicalDeviceVulkan13Features);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES:
        return sizeof(VkPhysicalDeviceDescriptorIndexingFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
        return sizeof(VkPhysicalDeviceBufferDeviceAddressFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
        return sizeof(VkPhysicalDeviceTimelineSemaphoreFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
        return sizeof(VkPhysicalDeviceDynamicRenderingFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
        return sizeof(VkPhysicalDeviceSynchronization2Features);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES:
        return sizeof(VkPhysicalDeviceMaintenance4Features);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES: return sizeof(VkPhysicalDevice8BitStorageFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
        return sizeof(VkPhysicalDevice16BitStorageFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES:
        return sizeof(VkPhysicalDeviceShaderFloat16Int8Features);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES:
        return sizeof(VkPhysicalDeviceScalarBlockLayoutFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES: return sizeof(VkPhysicalDeviceMultiviewFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES:
        return sizeof(VkPhysicalDeviceVariablePointersFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
        return sizeof(VkPhysicalDeviceShaderDrawParametersFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
        return sizeof(VkPhysicalDeviceHostQueryResetFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES:
        return sizeof(VkPhysicalDeviceVulkanMemoryModelFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES:
        return sizeof(VkPhysicalDeviceSamplerYcbcrConversionFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES:
        return sizeof(VkPhysicalDeviceProtectedMemoryFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES:
        return sizeof(VkPhysicalDeviceImagelessFramebufferFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES:
        return sizeof(VkPhysicalDeviceUniformBufferStandardLayoutFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES:
        return sizeof(VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES:
        return sizeof(VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures);
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES:
        return sizeof(VkPhysicalDeviceShaderAtomicInt64Features);
    default: return 0;
    }
}

/* The features instrumented shaders may need: stores from the vertex and
 * fragment stages (every check writes its records), and shaderInt64 (the
 * bda_oob check on SPIR-V before 1.5 reads pointers as 64-bit integers). */
static void add_features(const VkPhysicalDeviceFeatures *sup, VkPhysicalDeviceFeatures *f)
{
    if (sup->fragmentStoresAndAtomics)
        f->fragmentStoresAndAtomics = VK_TRUE;
    if (sup->vertexPipelineStoresAndAtomics)
        f->vertexPipelineStoresAndAtomics = VK_TRUE;
    if (sup->shaderInt64)
        f->shaderInt64 = VK_TRUE;
}

/* has_features says whether f already has every feature add_features
 * would turn on. */
static int has_features(const VkPhysicalDeviceFeatures *sup, const VkPhysicalDeviceFeatures *f)
{
    VkPhysicalDeviceFeatures want = *f;
    add_features(sup, &want);
    return !memcmp(&want, f, sizeof want);
}

/* app_features returns the VkPhysicalDeviceFeatures of a create info
 * (pEnabledFeatures or VkPhysicalDeviceFeatures2), or NULL. */
static const VkPhysicalDeviceFeatures *app_features(const VkDeviceCreateInfo *ci)
{
    for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
            return &((const VkPhysicalDeviceFeatures2 *)s)->features;
    return ci->pEnabledFeatures;
}

/* gpuavdbg_patch_features returns the create info to call down with: ci
 * itself, or a copy (in *scratch, which the caller frees) that also enables
 * fragmentStoresAndAtomics, vertexPipelineStoresAndAtomics and shaderInt64
 * where the device supports them. *int64 says whether the returned create
 * info enables shaderInt64. The app's structures are never written. */
const VkDeviceCreateInfo *gpuavdbg_patch_features(instance_data *inst, VkPhysicalDevice pd,
                                                  const VkDeviceCreateInfo *ci, void **scratch, uint32_t *int64)
{
    *scratch = NULL;
    const VkPhysicalDeviceFeatures *mine = app_features(ci);
    *int64 = mine && mine->shaderInt64;
    if (!inst->disp.GetPhysicalDeviceFeatures)
        return ci;
    VkPhysicalDeviceFeatures sup, none;
    memset(&sup, 0, sizeof sup);
    memset(&none, 0, sizeof none);
    inst->disp.GetPhysicalDeviceFeatures(pd, &sup);
    if (has_features(&sup, mine ? mine : &none)) {
        return ci; /* already on, or the device has none of them */
    }

    /* Find Features2 and the bytes needed to copy the nodes before it. */
    const VkBaseInStructure *f2 = NULL;
    size_t need = sizeof(VkDeviceCreateInfo) + sizeof(VkPhysicalDeviceFeatures2) + 16;
    int copyable = 1;
    for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
            f2 = s;
            break;
        }
        size_t n = known_size(s->sType);
        if (n == 0)
            copyable = 0;
        need += (n + 15) & ~(size_t)15;
    }
    if (f2 && !copyable) {
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING,
                      "vkCreateDevice: cannot enable fragmentStoresAndAtomics/vertexPipelineStoresAndAtomics/"
                      "shaderInt64 (an unknown structure precedes VkPhysicalDeviceFeatures2 in pNext); "
                      "instrumented vertex and fragment shaders may be invalid");
        return ci;
    }

    unsigned char *mem = calloc(1, need);
    if (!mem)
        return ci;
    *scratch = mem;
    *int64 = sup.shaderInt64 != 0;
    VkDeviceCreateInfo *out = (VkDeviceCreateInfo *)mem;
    *out = *ci;
    unsigned char *p = mem + ((sizeof *out + 15) & ~(size_t)15);
    if (!f2) {
        VkPhysicalDeviceFeatures *f = (VkPhysicalDeviceFeatures *)p;
        if (ci->pEnabledFeatures)
            *f = *ci->pEnabledFeatures;
        add_features(&sup, f);
        out->pEnabledFeatures = f;
        return out;
    }
    /* Copy the chain up to and including Features2; link the copies. */
    VkBaseOutStructure *prev = (VkBaseOutStructure *)out;
    for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext) {
        size_t n = s == f2 ? sizeof(VkPhysicalDeviceFeatures2) : known_size(s->sType);
        memcpy(p, s, n);
        prev->pNext = (VkBaseOutStructure *)p;
        prev = (VkBaseOutStructure *)p;
        p += (n + 15) & ~(size_t)15;
        if (s == f2) {
            VkPhysicalDeviceFeatures2 *copy = (VkPhysicalDeviceFeatures2 *)prev;
            add_features(&sup, &copy->features);
            break; /* the copy's pNext still points at the app's rest */
        }
    }
    return out;
}

static int has_extension(instance_data *inst, VkPhysicalDevice pd, const char *name);

/* device_is_vulkan10 says whether a device of inst on pd is a Vulkan 1.0
 * device: the app asked for 1.0 (or no version), or the device has no
 * more. */
static int device_is_vulkan10(instance_data *inst, VkPhysicalDevice pd)
{
    VkPhysicalDeviceProperties props;
    memset(&props, 0, sizeof props);
    if (inst->disp.GetPhysicalDeviceProperties)
        inst->disp.GetPhysicalDeviceProperties(pd, &props);
    uint32_t app = inst->api_version ? inst->api_version : VK_API_VERSION_1_0;
    uint32_t version = app < props.apiVersion ? app : props.apiVersion;
    return VK_API_VERSION_MAJOR(version) == 1 && VK_API_VERSION_MINOR(version) == 0;
}

static int has_name(const VkDeviceCreateInfo *ci, const char *name)
{
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        if (!strcmp(ci->ppEnabledExtensionNames[i], name))
            return 1;
    return 0;
}

/* gpuavdbg_patch_extensions returns the create info to call down with: ci
 * itself, or a copy (in *scratch, which the caller frees) whose extension
 * list also has the device extensions the layer needs and the app did not
 * enable:
 *   - VK_KHR_storage_buffer_storage_class on a device of a Vulkan 1.0 app
 *     (the check functions use the StorageBuffer storage class, core from
 *     Vulkan 1.1); *missing names it when the device lacks it: the caller
 *     must then leave shaders uninstrumented;
 *   - VK_KHR_device_group on such a device, when the device offers it and
 *     the instance has VK_KHR_device_group_creation (vkCmdDispatchBase);
 *   - VK_KHR_push_descriptor where the app enables VK_EXT_descriptor_buffer
 *     (the layer pushes its set for descriptor-buffer pipelines), when the
 *     device has it;
 *   - VK_AMD_buffer_marker when the device has it and the watchdog is on
 *     (the breadcrumbs, crumbs.c). */
const VkDeviceCreateInfo *gpuavdbg_patch_extensions(instance_data *inst, VkPhysicalDevice pd,
                                                    const VkDeviceCreateInfo *ci, void **scratch,
                                                    const char **missing)
{
    static const char sbsc[] = VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_EXTENSION_NAME;
    static const char push[] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    static const char marker[] = VK_AMD_BUFFER_MARKER_EXTENSION_NAME;
    static const char group[] = VK_KHR_DEVICE_GROUP_EXTENSION_NAME;
    const char *add[4];
    uint32_t nadd = 0;
    *scratch = NULL;
    *missing = NULL;
    int v10 = device_is_vulkan10(inst, pd);
    if (v10 && !has_name(ci, sbsc)) {
        if (has_extension(inst, pd, sbsc))
            add[nadd++] = sbsc;
        else
            *missing = sbsc;
    }
    /* vkCmdDispatchBase, which the pre-pass of indirect_command needs, is
     * Vulkan 1.1 or VK_KHR_device_group (which needs the instance's
     * VK_KHR_device_group_creation: dispatch.c enables it for a 1.0 app). */
    if (v10 && inst->device_group_creation && !has_name(ci, group) && has_extension(inst, pd, group))
        add[nadd++] = group;
    if (has_name(ci, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME) && !has_name(ci, push) &&
        has_extension(inst, pd, push))
        add[nadd++] = push;
    /* The breadcrumbs' markers at the top and bottom of the pipe, where the
     * device has them and the watchdog is on (crumbs.c). */
    if (!has_name(ci, marker) && has_extension(inst, pd, marker) && goWatchdogNs(GPUAVDBG_H(inst->instance)) != 0)
        add[nadd++] = marker;
    if (nadd == 0)
        return ci;
    size_t n = ci->enabledExtensionCount + nadd;
    unsigned char *mem = calloc(1, sizeof(VkDeviceCreateInfo) + n * sizeof(char *));
    if (!mem) {
        *missing = add[0];
        return ci;
    }
    *scratch = mem;
    VkDeviceCreateInfo *out = (VkDeviceCreateInfo *)mem;
    *out = *ci;
    const char **names = (const char **)(mem + sizeof *out);
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        names[i] = ci->ppEnabledExtensionNames[i];
    for (uint32_t i = 0; i < nadd; i++)
        names[ci->enabledExtensionCount + i] = add[i];
    out->enabledExtensionCount = (uint32_t)n;
    out->ppEnabledExtensionNames = names;
    return out;
}

/* gpuavdbg_device_extensions_enabled records on dd which of the
 * extensions the layer cares about the device was created with, and why a
 * Vulkan 1.0 device has no vkCmdDispatchBase. */
void gpuavdbg_device_extensions_enabled(device_data *dd, const VkDeviceCreateInfo *ci)
{
    dd->descriptor_buffer = has_name(ci, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME);
    dd->push_descriptors = has_name(ci, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    dd->buffer_marker = has_name(ci, VK_AMD_BUFFER_MARKER_EXTENSION_NAME);
    dd->dispatch_base_why[0] = '\0';
    if (!device_is_vulkan10(dd->inst, dd->physical) || has_name(ci, VK_KHR_DEVICE_GROUP_EXTENSION_NAME))
        return;
    const char *why = "the device was created without the extensions the layer adds";
    if (!has_extension(dd->inst, dd->physical, VK_KHR_DEVICE_GROUP_EXTENSION_NAME))
        why = "the device does not offer VK_KHR_device_group";
    else if (!dd->inst->device_group_creation)
        why = "the instance has no VK_KHR_device_group_creation, which VK_KHR_device_group needs (the loader refused it)";
    snprintf(dd->dispatch_base_why, sizeof dd->dispatch_base_why,
             "vkCmdDispatchBase is Vulkan 1.1, the app's device is Vulkan 1.0, and VK_KHR_device_group could not be "
             "enabled: %s",
             why);
}

/* has_extension reports whether the physical device offers
 * a device extension. */
static int has_extension(instance_data *inst, VkPhysicalDevice pd, const char *name)
{
    if (!inst->disp.EnumerateDeviceExtensionProperties)
        return 0;
    uint32_t n = 0;
    if (inst->disp.EnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkExtensionProperties *props = calloc(n, sizeof *props);
    if (!props)
        return 0;
    int found = 0;
    if (inst->disp.EnumerateDeviceExtensionProperties(pd, NULL, &n, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = !strcmp(props[i].extensionName, name);
    free(props);
    return found;
}


/* robust_buffer_access reports whether a device create info enables
 * robustBufferAccess (VkPhysicalDeviceFeatures, Features2) or
 * robustBufferAccess2 (VK_EXT_robustness2). */
static uint32_t robust_buffer_access(const VkDeviceCreateInfo *ci)
{
    if (!ci)
        return 0;
    if (ci->pEnabledFeatures && ci->pEnabledFeatures->robustBufferAccess)
        return 1;
    for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext) {
        if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 &&
            ((const VkPhysicalDeviceFeatures2 *)p)->features.robustBufferAccess)
            return 1;
        if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT &&
            ((const VkPhysicalDeviceRobustness2FeaturesEXT *)p)->robustBufferAccess2)
            return 1;
    }
    return 0;
}

/* app_bda says whether the app enabled bufferDeviceAddress. */
static int app_bda(const VkDeviceCreateInfo *ci)
{
    int bda = 0;
    for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext) {
        if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)
            bda |= ((const VkPhysicalDeviceVulkan12Features *)p)->bufferDeviceAddress;
        else if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES)
            bda |= ((const VkPhysicalDeviceBufferDeviceAddressFeatures *)p)->bufferDeviceAddress;
    }
    return bda;
}

/* ---- the flow: set-up and teardown ------------------------------------------ */

/* teardown destroys everything the layer created on the device; the
 * command buffers have given their units back. */
static void teardown(device_data *dd)
{
    gpuavdbg_resources_units_teardown(dd);
    gpuavdbg_pipelines_teardown(dd);
    gpuavdbg_caches_teardown(dd);
    gpuavdbg_prepass_teardown(dd);
    gpuavdbg_resources_teardown(dd);
}

static void setup(device_data *dd)
{
    VkPhysicalDeviceProperties props;
    memset(&props, 0, sizeof props);
    /* The real limits: call down, not through the reserve-slot intercept. */
    if (dd->inst->disp.GetPhysicalDeviceProperties)
        dd->inst->disp.GetPhysicalDeviceProperties(dd->physical, &props);
    if (dd->inst->disp.GetPhysicalDeviceMemoryProperties)
        dd->inst->disp.GetPhysicalDeviceMemoryProperties(dd->physical, &dd->mem_props);
    dd->max_bound_sets = props.limits.maxBoundDescriptorSets;
    uint32_t n = props.limits.maxBoundDescriptorSets;
    if (n > GPUAVDBG_MAX_SLOT + 1)
        n = GPUAVDBG_MAX_SLOT + 1;
    if (n < 2) {
        snprintf(dd->reason, sizeof dd->reason, "maxBoundDescriptorSets is %u: no set left for the layer",
                 props.limits.maxBoundDescriptorSets);
    } else {
        dd->slot = n - 1;
        if (dd->reason[0])
            ; /* vkCreateDevice could not enable what instrumented shaders need */
        else if (!goInstrumentationWanted(GPUAVDBG_H(dd->inst->instance)))
            snprintf(dd->reason, sizeof dd->reason, "every check is off");
        else if (gpuavdbg_resources_setup(dd, &props)) {
            gpuavdbg_prepass_setup(dd);
            dd->instrumenting = gpuavdbg_resources_units(dd);
        }
    }
    if (!dd->instrumenting) {
        teardown(dd);
        dd->instrumenting = 0;
        /* Every check off is the user's setting: a warning, not an error. */
        gpuavdbg_logf(strcmp(dd->reason, "every check is off") ? GPUAVDBG_LOG_ERROR : GPUAVDBG_LOG_WARNING,
                      "device %s: instrumentation is off: %s", props.deviceName, dd->reason);
    }
    gpuavdbg_device_info info = {
        .handle = GPUAVDBG_H(dd->device),
        .name = props.deviceName,
        .api_version = props.apiVersion,
        .driver_version = props.driverVersion,
        .vendor_id = props.vendorID,
        .device_id = props.deviceID,
        .max_bound_sets = props.limits.maxBoundDescriptorSets,
        .slot = dd->slot,
        .instrumenting = (uint32_t)dd->instrumenting,
        .reason = dd->reason,
        .robust = dd->robust,
        .int64 = dd->int64,
        .instance = GPUAVDBG_H(dd->inst->instance),
    };
    goDeviceCreated(&info);
}

void gpuavdbg_device_init(device_data *dd, const VkDeviceCreateInfo *ci)
{
    dd->robust = robust_buffer_access(ci); /* the app's features, not the patched copy */
    dd->bda = app_bda(ci);
    pthread_mutex_init(&dd->lock, NULL);
    gpuavdbg_pending_init(dd);
}

void gpuavdbg_device_fini(device_data *dd)
{
    pthread_mutex_destroy(&dd->lock);
    gpuavdbg_pending_teardown(dd);
}

void gpuavdbg_device_created(device_data *dd, const VkDeviceCreateInfo *ci)
{
    /* The command checks' settings, features and limits, the pre-pass's
     * limits; then the layer's resources, the slot, the Device message.
     * Never fails the device. */
    uint32_t limits[GPUAVDBG_PREPASS_LIMIT_WORDS] = {0};
    VkPhysicalDeviceProperties props;
    memset(&props, 0, sizeof props);
    if (dd->inst->disp.GetPhysicalDeviceProperties)
        dd->inst->disp.GetPhysicalDeviceProperties(dd->physical, &props);
    uint64_t instance = GPUAVDBG_H(dd->inst->instance);
    gpuavdbg_crumbs_device_created(dd, goWatchdogNs(instance), goBreadcrumbs(instance),
                                   props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU);
    uint32_t checks = gpuavdbg_cc_device_created(dd, ci, limits);
    gpuavdbg_desc_device_created(dd, ci);
    gpuavdbg_mem_device_created(dd);
    int want = (checks & (GPUAVDBG_CC_INDIRECT | GPUAVDBG_CC_INDEX)) ? GPUAVDBG_PREPASS_WANT_INDIRECT : 0;
    want |= gpuavdbg_accel_device_created(dd, ci, checks);
    want |= gpuavdbg_depth_device_created(dd, ci, checks);
    if (want & GPUAVDBG_PREPASS_WANT_ACCEL)
        want |= GPUAVDBG_PREPASS_WANT_INDIRECT; /* the module every pre-pass has */
    gpuavdbg_prepass_device_created(dd, limits, want);
    setup(dd);
}

void gpuavdbg_device_destroy(device_data *dd, VkDevice device, const VkAllocationCallbacks *alloc)
{
    gpuavdbg_pending_teardown(dd); /* reads what is left; the device is idle */
    gpuavdbg_cb_forget_device(dd);
    gpuavdbg_crumbs_teardown(dd); /* after the command buffers gave their slots back */
    gpuavdbg_shaderobj_teardown(dd);
    teardown(dd);
    gpuavdbg_addr_teardown(dd);
    gpuavdbg_mem_teardown(dd);
    gpuavdbg_desc_teardown(dd);
    gpuavdbg_cc_device_destroyed(dd);
    gpuavdbg_prepass_device_destroyed(dd);
    gpuavdbg_accel_device_destroyed(dd);
    gpuavdbg_depth_device_destroyed(dd);
    if (dd->disp.DestroyDevice)
        dd->disp.DestroyDevice(device, alloc);
    goDeviceDestroyed(GPUAVDBG_H(device));
    pthread_mutex_destroy(&dd->lock);
    free(dd);
}
