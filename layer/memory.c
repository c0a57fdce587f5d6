/*
 * memory.c: the app's buffer memory as the host sees it, so that the layer
 * can read what the app wrote into a buffer from the CPU: the descriptors
 * it copied into its descriptor buffers
 * (docs/decisions/descriptor-buffers.md).
 *
 * Per device where the app enabled VK_EXT_descriptor_buffer (elsewhere the
 * intercepts only call down): each VkDeviceMemory's memory type (is it
 * host-visible?), whether the app ever mapped it (a memory it never mapped
 * holds nothing it wrote from the CPU: what is there came from the GPU,
 * which the layer does not follow, or is stale) and its current mapping;
 * each VkBuffer's memory and offset (vkBindBufferMemory,
 * vkBindBufferMemory2). gpuavdbg_mem_read copies bytes of a buffer through
 * the app's mapping when it covers them, else through a mapping of the
 * layer's own, made and unmapped under the room's lock, which the app's
 * vkMapMemory and vkUnmapMemory take too (a memory is mapped once at a
 * time).
 */
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "memory.h"

typedef struct mem_info {
    int host_visible;
    int ever_mapped;
    void *map; /* the app's current mapping, or NULL */
    VkDeviceSize map_offset, map_size;
} mem_info;

typedef struct buf_bind {
    VkDeviceMemory memory;
    VkDeviceSize offset;
} buf_bind;

typedef struct mem_dev {
    pthread_mutex_t lock;
    hmap mems; /* VkDeviceMemory -> mem_info* */
    hmap bufs; /* VkBuffer -> buf_bind* */
} mem_dev;

void gpuavdbg_mem_device_created(device_data *dd)
{
    if (!dd->descriptor_buffer || dd->mem)
        return;
    mem_dev *m = calloc(1, sizeof *m);
    if (!m)
        return; /* descriptor buffers read as not known: unchecked, with the reason */
    pthread_mutex_init(&m->lock, NULL);
    dd->mem = m;
}

void gpuavdbg_mem_teardown(device_data *dd)
{
    mem_dev *m = dd->mem;
    if (!m)
        return;
    dd->mem = NULL;
    for (size_t i = 0; i < m->mems.cap; i++)
        free(m->mems.slots[i].val);
    for (size_t i = 0; i < m->bufs.cap; i++)
        free(m->bufs.slots[i].val);
    hmap_free(&m->mems);
    hmap_free(&m->bufs);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

void gpuavdbg_mem_buffer_destroyed(device_data *dd, VkBuffer buffer)
{
    mem_dev *m = dd ? dd->mem : NULL;
    if (!m || !buffer)
        return;
    pthread_mutex_lock(&m->lock);
    free(hmap_del(&m->bufs, GPUAVDBG_H(buffer)));
    pthread_mutex_unlock(&m->lock);
}

const char *gpuavdbg_mem_why(int result)
{
    switch (result) {
    case GPUAVDBG_MEM_OK: return "read";
    case GPUAVDBG_MEM_NOT_HOST_VISIBLE: return "its memory is not host-visible";
    case GPUAVDBG_MEM_NEVER_MAPPED: return "the app never mapped its memory (it wrote nothing there from the CPU)";
    case GPUAVDBG_MEM_MAP_FAILED: return "the layer could not map its memory";
    default: return "the layer saw no memory bound to it";
    }
}

int gpuavdbg_mem_read(device_data *dd, VkBuffer buffer, VkDeviceSize offset, void *out, size_t size)
{
    mem_dev *m = dd ? dd->mem : NULL;
    if (!m || !buffer)
        return GPUAVDBG_MEM_UNKNOWN;
    int r = GPUAVDBG_MEM_UNKNOWN;
    pthread_mutex_lock(&m->lock);
    const buf_bind *b = hmap_get(&m->bufs, GPUAVDBG_H(buffer));
    const mem_info *mi = b ? hmap_get(&m->mems, GPUAVDBG_H(b->memory)) : NULL;
    VkDeviceSize at = b ? b->offset + offset : 0;
    if (!mi)
        r = GPUAVDBG_MEM_UNKNOWN;
    else if (!mi->host_visible)
        r = GPUAVDBG_MEM_NOT_HOST_VISIBLE;
    else if (!mi->ever_mapped)
        r = GPUAVDBG_MEM_NEVER_MAPPED;
    else if (mi->map) {
        /* The app's mapping: it must cover the bytes (the memory cannot be
         * mapped twice). */
        if (at >= mi->map_offset && at - mi->map_offset + size <= mi->map_size) {
            memcpy(out, (const char *)mi->map + (at - mi->map_offset), size);
            r = GPUAVDBG_MEM_OK;
        } else {
            r = GPUAVDBG_MEM_MAP_FAILED;
        }
    } else {
        void *p = NULL;
        if (dd->disp.MapMemory(dd->device, b->memory, at, size, 0, &p) == VK_SUCCESS && p) {
            memcpy(out, p, size);
            dd->disp.UnmapMemory(dd->device, b->memory);
            r = GPUAVDBG_MEM_OK;
        } else {
            r = GPUAVDBG_MEM_MAP_FAILED;
        }
    }
    pthread_mutex_unlock(&m->lock);
    return r;
}

/* ---- intercepts ------------------------------------------------------------ */

static VKAPI_ATTR VkResult VKAPI_CALL icpt_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *ai,
                                                        const VkAllocationCallbacks *alloc, VkDeviceMemory *out)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.AllocateMemory(device, ai, alloc, out);
    mem_dev *m = dd->mem;
    if (r != VK_SUCCESS || !m || !ai)
        return r;
    mem_info *mi = calloc(1, sizeof *mi);
    if (!mi)
        return r; /* its buffers read as unknown */
    mi->host_visible = ai->memoryTypeIndex < dd->mem_props.memoryTypeCount &&
                       (dd->mem_props.memoryTypes[ai->memoryTypeIndex].propertyFlags &
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0;
    pthread_mutex_lock(&m->lock);
    free(hmap_del(&m->mems, GPUAVDBG_H(*out)));
    if (!hmap_put(&m->mems, GPUAVDBG_H(*out), mi))
        free(mi);
    pthread_mutex_unlock(&m->lock);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL icpt_FreeMemory(VkDevice device, VkDeviceMemory memory,
                                                const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    mem_dev *m = dd->mem;
    if (m && memory) {
        pthread_mutex_lock(&m->lock);
        free(hmap_del(&m->mems, GPUAVDBG_H(memory)));
        pthread_mutex_unlock(&m->lock);
    }
    dd->disp.FreeMemory(device, memory, alloc);
}

/* mapped notes the app's mapping of memory (p NULL: unmapped). Called with
 * the room's lock held. */
static void mapped(mem_dev *m, VkDeviceMemory memory, void *p, VkDeviceSize offset, VkDeviceSize size)
{
    mem_info *mi = hmap_get(&m->mems, GPUAVDBG_H(memory));
    if (!mi)
        return;
    mi->map = p;
    mi->map_offset = offset;
    mi->map_size = size;
    if (p)
        mi->ever_mapped = 1;
}

/* map_size resolves VK_WHOLE_SIZE against the memory's size, which the
 * layer does not keep: the mapping then covers everything from offset. */
static VkDeviceSize map_size(VkDeviceSize size)
{
    return size == VK_WHOLE_SIZE ? UINT64_MAX / 2 : size;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_MapMemory(VkDevice device, VkDeviceMemory memory, VkDeviceSize offset,
                                                   VkDeviceSize size, VkMemoryMapFlags flags, void **pp)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    mem_dev *m = dd->mem;
    if (!m)
        return dd->disp.MapMemory(device, memory, offset, size, flags, pp);
    pthread_mutex_lock(&m->lock);
    VkResult r = dd->disp.MapMemory(device, memory, offset, size, flags, pp);
    if (r == VK_SUCCESS && pp)
        mapped(m, memory, *pp, offset, map_size(size));
    pthread_mutex_unlock(&m->lock);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL icpt_UnmapMemory(VkDevice device, VkDeviceMemory memory)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    mem_dev *m = dd->mem;
    if (!m) {
        dd->disp.UnmapMemory(device, memory);
        return;
    }
    pthread_mutex_lock(&m->lock);
    dd->disp.UnmapMemory(device, memory);
    mapped(m, memory, NULL, 0, 0);
    pthread_mutex_unlock(&m->lock);
}

static VkResult map2(VkDevice device, const VkMemoryMapInfoKHR *info, void **pp, int khr)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkMapMemory2KHR next = khr ? dd->disp.MapMemory2KHR : (PFN_vkMapMemory2KHR)dd->disp.MapMemory2;
    mem_dev *m = dd->mem;
    if (!m || !info)
        return next(device, info, pp);
    pthread_mutex_lock(&m->lock);
    VkResult r = next(device, info, pp);
    if (r == VK_SUCCESS && pp)
        mapped(m, info->memory, *pp, info->offset, map_size(info->size));
    pthread_mutex_unlock(&m->lock);
    return r;
}

static VkResult unmap2(VkDevice device, const VkMemoryUnmapInfoKHR *info, int khr)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkUnmapMemory2KHR next = khr ? dd->disp.UnmapMemory2KHR : (PFN_vkUnmapMemory2KHR)dd->disp.UnmapMemory2;
    mem_dev *m = dd->mem;
    if (!m || !info)
        return next(device, info);
    pthread_mutex_lock(&m->lock);
    VkResult r = next(device, info);
    if (r == VK_SUCCESS)
        mapped(m, info->memory, NULL, 0, 0);
    pthread_mutex_unlock(&m->lock);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_MapMemory2(VkDevice device, const VkMemoryMapInfoKHR *info, void **pp)
{
    return map2(device, info, pp, 0);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_MapMemory2KHR(VkDevice device, const VkMemoryMapInfoKHR *info, void **pp)
{
    return map2(device, info, pp, 1);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_UnmapMemory2(VkDevice device, const VkMemoryUnmapInfoKHR *info)
{
    return unmap2(device, info, 0);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_UnmapMemory2KHR(VkDevice device, const VkMemoryUnmapInfoKHR *info)
{
    return unmap2(device, info, 1);
}

/* bound notes that buffer lives in memory at offset. */
static void bound(mem_dev *m, VkBuffer buffer, VkDeviceMemory memory, VkDeviceSize offset)
{
    buf_bind *b = malloc(sizeof *b);
    if (!b)
        return;
    b->memory = memory;
    b->offset = offset;
    pthread_mutex_lock(&m->lock);
    free(hmap_del(&m->bufs, GPUAVDBG_H(buffer)));
    if (!hmap_put(&m->bufs, GPUAVDBG_H(buffer), b))
        free(b);
    pthread_mutex_unlock(&m->lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_BindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                                                          VkDeviceSize offset)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.BindBufferMemory(device, buffer, memory, offset);
    if (r == VK_SUCCESS && dd->mem)
        bound(dd->mem, buffer, memory, offset);
    return r;
}

static VkResult bind2(VkDevice device, uint32_t n, const VkBindBufferMemoryInfo *infos, int khr)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkBindBufferMemory2 next = khr ? dd->disp.BindBufferMemory2KHR : dd->disp.BindBufferMemory2;
    VkResult r = next(device, n, infos);
    /* A failed call leaves the binds undefined: the buffers read as
     * unknown. */
    if (r == VK_SUCCESS && dd->mem)
        for (uint32_t i = 0; i < n; i++)
            bound(dd->mem, infos[i].buffer, infos[i].memory, infos[i].memoryOffset);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_BindBufferMemory2(VkDevice device, uint32_t n,
                                                           const VkBindBufferMemoryInfo *infos)
{
    return bind2(device, n, infos, 0);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_BindBufferMemory2KHR(VkDevice device, uint32_t n,
                                                              const VkBindBufferMemoryInfo *infos)
{
    return bind2(device, n, infos, 1);
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(AllocateMemory),
    GPUAVDBG_ICPT(FreeMemory),
    GPUAVDBG_ICPT(MapMemory),
    GPUAVDBG_ICPT(UnmapMemory),
    GPUAVDBG_ICPT(MapMemory2),
    GPUAVDBG_ICPT(MapMemory2KHR),
    GPUAVDBG_ICPT(UnmapMemory2),
    GPUAVDBG_ICPT(UnmapMemory2KHR),
    GPUAVDBG_ICPT(BindBufferMemory),
    GPUAVDBG_ICPT(BindBufferMemory2),
    GPUAVDBG_ICPT(BindBufferMemory2KHR),
};

PFN_vkVoidFunction gpuavdbg_memory_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}
