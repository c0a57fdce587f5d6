/*
 * lostlayer: a test layer placed below gpuav-dbg's (e2e/hang_test.go) that
 * makes the device lost: the Nth vkWaitForFences (GPUAVDBG_TEST_LOST_WAIT=N;
 * the wait done first) or vkQueueSubmit (GPUAVDBG_TEST_LOST_SUBMIT=N; not
 * called down) returns VK_ERROR_DEVICE_LOST, and from then on every
 * vkWaitForFences, vkGetFenceStatus, vkQueueSubmit, vkQueueWaitIdle and
 * vkDeviceWaitIdle does, as a lost device's would. One instance and one
 * device (the test app's).
 *
 * With GPUAVDBG_TEST_FAULT=1 it also offers VK_EXT_device_fault and its
 * deviceFault feature (lavapipe has neither: it takes both out of the
 * create info before calling down) and answers vkGetDeviceFaultInfoEXT
 * with the fault faultinfo() lists, made of the first two buffer device
 * addresses the app obtained (A and B): read_invalid at A + 0x18
 * (precision 16), write_invalid at B + 0x40 (precision 1), an instruction
 * pointer at 0x1000 (precision 4), read_invalid at 0x8 (no buffer), and
 * one vendor fault (code 0x1234, data 0x5678). With any other value it
 * does neither: a driver's own VK_EXT_device_fault answers.
 */
#include <stdlib.h>
#include <string.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define EXPORT __attribute__((visibility("default")))

static PFN_vkGetInstanceProcAddr next_gipa;
static PFN_vkGetDeviceProcAddr next_gdpa;
static PFN_vkWaitForFences next_wait;
static PFN_vkGetFenceStatus next_status;
static PFN_vkQueueSubmit next_submit;
static PFN_vkQueueWaitIdle next_queue_idle;
static PFN_vkDeviceWaitIdle next_device_idle;
static PFN_vkGetBufferDeviceAddress next_bda;
static PFN_vkGetPhysicalDeviceFeatures2 next_features2;
static PFN_vkEnumerateDeviceExtensionProperties next_enum_ext;
static int waits, submits, lost;
static VkDeviceAddress seen[2]; /* the first buffer addresses the app obtained */
static int nseen;

static int at(const char *env)
{
    const char *v = getenv(env);
    return v ? atoi(v) : 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL lost_WaitForFences(VkDevice d, uint32_t n, const VkFence *f, VkBool32 all,
                                                         uint64_t t)
{
    if (!lost && ++waits == at("GPUAVDBG_TEST_LOST_WAIT")) {
        /* The work ran (its breadcrumbs are written); then the device is
         * lost. */
        next_wait(d, n, f, all, t);
        lost = 1;
    }
    return lost ? VK_ERROR_DEVICE_LOST : next_wait(d, n, f, all, t);
}

static VKAPI_ATTR VkResult VKAPI_CALL lost_GetFenceStatus(VkDevice d, VkFence f)
{
    return lost ? VK_ERROR_DEVICE_LOST : next_status(d, f);
}

static VKAPI_ATTR VkResult VKAPI_CALL lost_QueueSubmit(VkQueue q, uint32_t n, const VkSubmitInfo *si, VkFence f)
{
    if (!lost && n > 0 && ++submits == at("GPUAVDBG_TEST_LOST_SUBMIT"))
        lost = 1;
    return lost ? VK_ERROR_DEVICE_LOST : next_submit(q, n, si, f);
}

static VKAPI_ATTR VkResult VKAPI_CALL lost_QueueWaitIdle(VkQueue q)
{
    return lost ? VK_ERROR_DEVICE_LOST : next_queue_idle(q);
}

static VKAPI_ATTR VkResult VKAPI_CALL lost_DeviceWaitIdle(VkDevice d)
{
    return lost ? VK_ERROR_DEVICE_LOST : next_device_idle(d);
}

static int fault_on(void)
{
    return at("GPUAVDBG_TEST_FAULT") == 1;
}

static VKAPI_ATTR VkDeviceAddress VKAPI_CALL lost_GetBufferDeviceAddress(VkDevice d, const VkBufferDeviceAddressInfo *i)
{
    VkDeviceAddress a = next_bda(d, i);
    if (nseen < 2)
        seen[nseen++] = a;
    return a;
}

static VKAPI_ATTR VkResult VKAPI_CALL lost_GetDeviceFaultInfoEXT(VkDevice d, VkDeviceFaultCountsEXT *counts,
                                                                 VkDeviceFaultInfoEXT *info)
{
    (void)d;
    const VkDeviceFaultAddressInfoEXT addrs[4] = {
        {VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT, seen[0] + 0x18, 16},
        {VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT, seen[1] + 0x40, 1},
        {VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_EXT, 0x1000, 4},
        {VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT, 0x8, 1},
    };
    VkDeviceFaultVendorInfoEXT vendor = {.vendorFaultCode = 0x1234, .vendorFaultData = 0x5678};
    strcpy(vendor.description, "test vendor fault");
    if (!info) {
        counts->addressInfoCount = 4;
        counts->vendorInfoCount = 1;
        counts->vendorBinarySize = 0;
        return VK_SUCCESS;
    }
    strcpy(info->description, "gpuav-dbg test layer: a page fault");
    uint32_t na = counts->addressInfoCount < 4 ? counts->addressInfoCount : 4;
    uint32_t nv = counts->vendorInfoCount < 1 ? counts->vendorInfoCount : 1;
    for (uint32_t i = 0; i < na && info->pAddressInfos; i++)
        info->pAddressInfos[i] = addrs[i];
    if (nv && info->pVendorInfos)
        info->pVendorInfos[0] = vendor;
    counts->addressInfoCount = na;
    counts->vendorInfoCount = nv;
    counts->vendorBinarySize = 0;
    return na < 4 || nv < 1 ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL lost_EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char *layer,
                                                                              uint32_t *n, VkExtensionProperties *p)
{
    static const VkExtensionProperties fault = {VK_EXT_DEVICE_FAULT_EXTENSION_NAME, VK_EXT_DEVICE_FAULT_SPEC_VERSION};
    if (layer && !strcmp(layer, "VK_LAYER_GPUAVDBG_test_lost")) {
        if (!p) {
            *n = 1;
            return VK_SUCCESS;
        }
        if (*n < 1)
            return VK_INCOMPLETE;
        p[0] = fault;
        *n = 1;
        return VK_SUCCESS;
    }
    if (layer || !fault_on())
        return next_enum_ext(pd, layer, n, p);
    uint32_t below = 0;
    VkResult r = next_enum_ext(pd, NULL, &below, NULL);
    if (r != VK_SUCCESS)
        return r;
    if (!p) {
        *n = below + 1;
        return VK_SUCCESS;
    }
    uint32_t cap = *n;
    uint32_t got = cap < below ? cap : below;
    r = next_enum_ext(pd, NULL, &got, p);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return r;
    if (got < cap) {
        p[got++] = fault;
        *n = got;
        return got < below + 1 ? VK_INCOMPLETE : VK_SUCCESS;
    }
    *n = got;
    return VK_INCOMPLETE;
}

static VKAPI_ATTR void VKAPI_CALL lost_GetPhysicalDeviceFeatures2(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2 *f)
{
    next_features2(pd, f);
    if (!fault_on())
        return;
    for (VkBaseOutStructure *s = (VkBaseOutStructure *)f->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT)
            ((VkPhysicalDeviceFaultFeaturesEXT *)s)->deviceFault = VK_TRUE;
}

static VKAPI_ATTR VkResult VKAPI_CALL lost_CreateInstance(const VkInstanceCreateInfo *ci,
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
    if (r == VK_SUCCESS) {
        next_features2 = (PFN_vkGetPhysicalDeviceFeatures2)next_gipa(*inst, "vkGetPhysicalDeviceFeatures2");
        next_enum_ext = (PFN_vkEnumerateDeviceExtensionProperties)next_gipa(*inst, "vkEnumerateDeviceExtensionProperties");
    }
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL lost_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
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
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(VK_NULL_HANDLE, "vkCreateDevice");
    /* The extension is this layer's (GPUAVDBG_TEST_FAULT=1): take it and
     * its features out (the features structure relinked around) for the
     * driver below, which may not have it. */
    VkDeviceCreateInfo copy = *ci;
    const char *names[64];
    if (fault_on()) {
        copy.enabledExtensionCount = 0;
        for (uint32_t i = 0; i < ci->enabledExtensionCount && i < 64; i++)
            if (strcmp(ci->ppEnabledExtensionNames[i], VK_EXT_DEVICE_FAULT_EXTENSION_NAME))
                names[copy.enabledExtensionCount++] = ci->ppEnabledExtensionNames[i];
        copy.ppEnabledExtensionNames = names;
    }
    for (VkBaseOutStructure *prev = (VkBaseOutStructure *)&copy; fault_on() && prev && prev->pNext;) {
        if (prev->pNext->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT)
            prev->pNext = prev->pNext->pNext; /* a test layer may relink the caller's chain */
        else
            prev = prev->pNext;
    }
    VkResult r = create(pd, &copy, alloc, dev);
    if (r != VK_SUCCESS)
        return r;
    next_wait = (PFN_vkWaitForFences)next_gdpa(*dev, "vkWaitForFences");
    next_status = (PFN_vkGetFenceStatus)next_gdpa(*dev, "vkGetFenceStatus");
    next_submit = (PFN_vkQueueSubmit)next_gdpa(*dev, "vkQueueSubmit");
    next_queue_idle = (PFN_vkQueueWaitIdle)next_gdpa(*dev, "vkQueueWaitIdle");
    next_device_idle = (PFN_vkDeviceWaitIdle)next_gdpa(*dev, "vkDeviceWaitIdle");
    next_bda = (PFN_vkGetBufferDeviceAddress)next_gdpa(*dev, "vkGetBufferDeviceAddress");
    return VK_SUCCESS;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL lost_GetDeviceProcAddr(VkDevice d, const char *name)
{
#define OURS(fn)                        \
    if (!strcmp(name, "vk" #fn))        \
        return (PFN_vkVoidFunction)lost_##fn;
    OURS(GetDeviceProcAddr)
    OURS(WaitForFences)
    OURS(GetFenceStatus)
    OURS(QueueSubmit)
    OURS(QueueWaitIdle)
    OURS(DeviceWaitIdle)
    OURS(GetBufferDeviceAddress)
    if (!strcmp(name, "vkGetBufferDeviceAddressKHR"))
        return (PFN_vkVoidFunction)lost_GetBufferDeviceAddress;
    if (fault_on() && !strcmp(name, "vkGetDeviceFaultInfoEXT"))
        return (PFN_vkVoidFunction)lost_GetDeviceFaultInfoEXT;
    return next_gdpa ? next_gdpa(d, name) : NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL lost_GetInstanceProcAddr(VkInstance i, const char *name)
{
    OURS(GetInstanceProcAddr)
    OURS(CreateInstance)
    OURS(CreateDevice)
    OURS(GetDeviceProcAddr)
    OURS(WaitForFences)
    OURS(GetFenceStatus)
    OURS(QueueSubmit)
    OURS(QueueWaitIdle)
    OURS(DeviceWaitIdle)
    OURS(GetBufferDeviceAddress)
    OURS(EnumerateDeviceExtensionProperties)
    OURS(GetPhysicalDeviceFeatures2)
    if (!strcmp(name, "vkGetPhysicalDeviceFeatures2KHR"))
        return (PFN_vkVoidFunction)lost_GetPhysicalDeviceFeatures2;
    if (fault_on() && !strcmp(name, "vkGetDeviceFaultInfoEXT"))
        return (PFN_vkVoidFunction)lost_GetDeviceFaultInfoEXT;
#undef OURS
    return next_gipa ? next_gipa(i, name) : NULL;
}

EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *p)
{
    if (p->loaderLayerInterfaceVersion > 2)
        p->loaderLayerInterfaceVersion = 2;
    p->pfnGetInstanceProcAddr = lost_GetInstanceProcAddr;
    p->pfnGetDeviceProcAddr = lost_GetDeviceProcAddr;
    p->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}
