/*
 * lostlayer: a test layer placed below gpuav-dbg's (e2e/hang_test.go) that
 * makes the device lost: the Nth vkWaitForFences (GPUAVDBG_TEST_LOST_WAIT=N;
 * the wait done first) or vkQueueSubmit (GPUAVDBG_TEST_LOST_SUBMIT=N; not
 * called down) returns VK_ERROR_DEVICE_LOST, and from then on every
 * vkWaitForFences, vkGetFenceStatus, vkQueueSubmit, vkQueueWaitIdle and
 * vkDeviceWaitIdle does, as a lost device's would. One instance and one
 * device (the test app's).
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
static int waits, submits, lost;

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
    return create(ci, alloc, inst);
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
    VkResult r = create(pd, ci, alloc, dev);
    if (r != VK_SUCCESS)
        return r;
    next_wait = (PFN_vkWaitForFences)next_gdpa(*dev, "vkWaitForFences");
    next_status = (PFN_vkGetFenceStatus)next_gdpa(*dev, "vkGetFenceStatus");
    next_submit = (PFN_vkQueueSubmit)next_gdpa(*dev, "vkQueueSubmit");
    next_queue_idle = (PFN_vkQueueWaitIdle)next_gdpa(*dev, "vkQueueWaitIdle");
    next_device_idle = (PFN_vkDeviceWaitIdle)next_gdpa(*dev, "vkDeviceWaitIdle");
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
