/*
 * resources.h: the layer's own Vulkan objects on a device (resources.c):
 * its set layouts, the action buffer, and per command buffer a unit (the
 * output buffer with the printf region, the input buffers, the sets).
 */
#ifndef GPUAVDBG_RESOURCES_H
#define GPUAVDBG_RESOURCES_H

#include "state.h"

/* The device owner's set-up (device.c), in two steps around the pre-pass's:
 * the layouts and the action buffer, then the descriptor-buffer layouts,
 * the printf size and the sink unit. Each returns 0 with dd->reason set
 * when the device cannot be instrumented. */
int gpuavdbg_resources_setup(device_data *dd, const VkPhysicalDeviceProperties *props);
int gpuavdbg_resources_units(device_data *dd);
/* Teardown: the units and pools (the command buffers have given theirs
 * back), then the layouts and the action buffer. */
void gpuavdbg_resources_units_teardown(device_data *dd);
void gpuavdbg_resources_teardown(device_data *dd);

/* gpuavdbg_unit_acquire returns a zeroed unit, or the sink (NULL before it
 * exists) when the layer cannot make one; gpuavdbg_unit_release gives it
 * back to the free list. */
out_unit *gpuavdbg_unit_acquire(device_data *dd);
void gpuavdbg_unit_release(device_data *dd, out_unit *u);
/* gpuavdbg_unit_zero clears what the last submission wrote (submit.c). */
void gpuavdbg_unit_zero(out_unit *u);

/* gpuavdbg_unit_action_set returns the unit's set for an action slot,
 * made on first use; gpuavdbg_unit_push pushes the same descriptors into
 * cb at the layer's slot of a descriptor-buffer layout. */
VkDescriptorSet gpuavdbg_unit_action_set(device_data *dd, out_unit *u, uint32_t slot);
void gpuavdbg_unit_push(const device_data *dd, const out_unit *u, VkCommandBuffer cb, VkPipelineBindPoint bp,
                        VkPipelineLayout layout, uint32_t slot);

/* gpuavdbg_unit_input returns the mapped words of a unit's input buffer
 * (which: GPUAVDBG_INPUT_*) and its capacity in words. A writer that needs
 * more sets u->in_need[which]; gpuavdbg_unit_inputs_grow
 * (vkBeginCommandBuffer: no recording uses the unit's sets) reallocates
 * those buffers and rewrites the unit's sets. */
uint32_t *gpuavdbg_unit_input(out_unit *u, int which, uint32_t *cap_words);
void gpuavdbg_unit_inputs_grow(device_data *dd, out_unit *u);

/* gpuavdbg_host_buffer makes a host-visible, host-coherent buffer of size
 * bytes, bound and mapped at *map; on failure *what names the call. */
VkResult gpuavdbg_host_buffer(device_data *dd, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
                              VkDeviceMemory *mem, void **map, const char **what);

/* The usage the pre-pass buffer (GPUAVDBG_INPUT_CMD) gets for trace rays:
 * a device address, when the app enabled bufferDeviceAddress; and as the
 * source of the depth copies depth_copy_range checked (depthcopy.c). */
static inline VkBufferUsageFlags gpuavdbg_prepass_buffer_usage(const device_data *dd)
{
    return VK_BUFFER_USAGE_TRANSFER_SRC_BIT | (dd->bda ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
}

#endif
