/*
 * memory.h: the app's buffer memory as the host sees it (memory.c), so
 * that the layer can read what the app wrote into a buffer from the CPU:
 * its descriptor buffers (docs/decisions/descriptor-buffers.md).
 */
#ifndef GPUAVDBG_MEMORY_H
#define GPUAVDBG_MEMORY_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_memory_intercept(const char *name);

/* The device owner's (device.c): the table is made only on a device where
 * the app enabled VK_EXT_descriptor_buffer (dd->descriptor_buffer); on
 * other devices the intercepts only call down. */
void gpuavdbg_mem_device_created(device_data *dd);
void gpuavdbg_mem_teardown(device_data *dd);

/* Hook of descriptors.c's vkDestroyBuffer. */
void gpuavdbg_mem_buffer_destroyed(device_data *dd, VkBuffer buffer);

/* What gpuavdbg_mem_read found. */
enum {
    GPUAVDBG_MEM_OK = 0,
    GPUAVDBG_MEM_UNKNOWN,          /* no memory bound the layer saw (or not tracked) */
    GPUAVDBG_MEM_NOT_HOST_VISIBLE, /* the memory type is not host-visible */
    GPUAVDBG_MEM_NEVER_MAPPED,     /* the app never mapped it: it wrote nothing from the CPU */
    GPUAVDBG_MEM_MAP_FAILED,       /* mapping it failed, or the app's mapping does not cover the range */
};

/* gpuavdbg_mem_read copies size bytes of buffer at offset into out, from
 * the app's mapping when it covers them, else from a mapping of the
 * layer's own made and unmapped under the room's lock (the app's map and
 * unmap wait for it); it returns GPUAVDBG_MEM_OK or why it could not. */
int gpuavdbg_mem_read(device_data *dd, VkBuffer buffer, VkDeviceSize offset, void *out, size_t size);
/* gpuavdbg_mem_why says in words what gpuavdbg_mem_read's result means. */
const char *gpuavdbg_mem_why(int result);

#endif
