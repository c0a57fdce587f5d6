/*
 * addresses.h: buffer device addresses for bda_oob (addresses.c).
 */
#ifndef GPUAVDBG_ADDRESSES_H
#define GPUAVDBG_ADDRESSES_H

#include "state.h"

/* The bytes of a buffer's debug name kept for a fault's match, and the
 * destroyed buffers kept (docs/decisions/device-faults.md). */
#define GPUAVDBG_ADDR_NAME 64
#define GPUAVDBG_ADDR_FREED 256

/* gpuavdbg_addr_match is a buffer whose address range met a device
 * fault's address: its handle, range, debug name, and the numbers of the
 * last submit made before it was created and destroyed (live: not
 * destroyed). Crosses to Go in a gpuavdbg_fault (fault.h). */
typedef struct gpuavdbg_addr_match {
    uint64_t buffer, address, size;
    uint64_t created, destroyed;
    uint32_t live;
    char name[GPUAVDBG_ADDR_NAME];
} gpuavdbg_addr_match;

PFN_vkVoidFunction gpuavdbg_addresses_intercept(const char *name);
/* Hooks of descriptors.c's vkCreateBuffer and vkDestroyBuffer. */
void gpuavdbg_addr_buffer_created(device_data *dd, VkBuffer buffer, const VkBufferCreateInfo *ci);
void gpuavdbg_addr_buffer_destroyed(device_data *dd, VkBuffer buffer);
/* gpuavdbg_addr_buffer_named: the hook of dispatch.c's
 * vkSetDebugUtilsObjectNameEXT and vkDebugMarkerSetObjectNameEXT for a
 * buffer ("" clears). */
void gpuavdbg_addr_buffer_named(device_data *dd, uint64_t buffer, const char *name);
/* gpuavdbg_addr_match_range lists (up to cap, into out) the buffers whose
 * address the app obtained and whose range meets [lo, hi]: the live ones
 * first, then the destroyed ones the ring still holds, newest first;
 * *total counts them all. For a device fault's addresses (fault.c). */
uint32_t gpuavdbg_addr_match_range(device_data *dd, uint64_t lo, uint64_t hi, gpuavdbg_addr_match *out, uint32_t cap,
                                   uint32_t *total);
/* gpuavdbg_addr_write_table writes the address table (binding 3) into
 * words (cap words) before a submit and returns the words it needs; more
 * than cap: it did not fit. */
uint32_t gpuavdbg_addr_write_table(device_data *dd, cb_state *cs, uint32_t *words, uint32_t cap);
/* gpuavdbg_addr_lookup finds the buffer (and the offset in it) whose
 * address range holds [address, address + size); 0 when none. */
int gpuavdbg_addr_lookup(device_data *dd, uint64_t address, uint64_t size, VkBuffer *buffer, uint64_t *offset);
/* gpuavdbg_addr_teardown forgets a device's buffers (vkDestroyDevice). */
void gpuavdbg_addr_teardown(device_data *dd);

#endif
