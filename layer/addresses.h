/*
 * addresses.h: buffer device addresses for bda_oob (addresses.c).
 */
#ifndef GPUAVDBG_ADDRESSES_H
#define GPUAVDBG_ADDRESSES_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_addresses_intercept(const char *name);
/* Hooks of descriptors.c's vkCreateBuffer and vkDestroyBuffer. */
void gpuavdbg_addr_buffer_created(device_data *dd, VkBuffer buffer, const VkBufferCreateInfo *ci);
void gpuavdbg_addr_buffer_destroyed(device_data *dd, VkBuffer buffer);
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
