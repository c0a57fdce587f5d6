/*
 * fault.h: VK_EXT_device_fault (fault.c): enabling it, and reading a lost
 * device's fault with its addresses matched to the app's buffers
 * (docs/decisions/device-faults.md).
 */
#ifndef GPUAVDBG_FAULT_H
#define GPUAVDBG_FAULT_H

#include "addresses.h"
#include "state.h"

/* The bounds of what is read: addresses and vendor infos past these are
 * counted, not listed; buffers matched per address likewise. */
#define GPUAVDBG_FAULT_ADDRESSES 32
#define GPUAVDBG_FAULT_VENDORS 16
#define GPUAVDBG_FAULT_MATCHES 4

/* gpuavdbg_fault.state */
#define GPUAVDBG_FAULT_NONE 0   /* the device has no VK_EXT_device_fault enabled */
#define GPUAVDBG_FAULT_READ 1   /* read */
#define GPUAVDBG_FAULT_FAILED 2 /* vkGetDeviceFaultInfoEXT returned result */

/* One fault address: its VkDeviceFaultAddressTypeEXT, the reported
 * address and precision, the range they stand for ([lo, hi]), and the
 * buffers whose range meets it (matches_total of them, nmatches listed). */
typedef struct gpuavdbg_fault_address {
    uint32_t type;
    uint64_t address, precision, lo, hi;
    uint32_t nmatches, matches_total;
    gpuavdbg_addr_match matches[GPUAVDBG_FAULT_MATCHES];
} gpuavdbg_fault_address;

/* One vendor-specific fault. */
typedef struct gpuavdbg_fault_vendor {
    char description[VK_MAX_DESCRIPTION_SIZE];
    uint64_t code, data;
} gpuavdbg_fault_vendor;

/* gpuavdbg_fault is a lost device's fault as read: crosses to Go with the
 * hang (goHang). */
typedef struct gpuavdbg_fault {
    uint32_t state;
    int32_t result;
    char description[VK_MAX_DESCRIPTION_SIZE];
    uint32_t naddresses, addresses_total;
    gpuavdbg_fault_address *addresses;
    uint32_t nvendors, vendors_total;
    gpuavdbg_fault_vendor *vendors;
    uint64_t vendor_binary_size;
} gpuavdbg_fault;

/* gpuavdbg_fault_patch returns the create info to call down with: ci, or
 * a copy (in *scratch, which the caller frees) that also enables
 * VK_EXT_device_fault and its deviceFault feature where the physical
 * device offers both, the app did not ask for the extension or the
 * feature itself, and the device is Vulkan 1.1 or later. Never
 * deviceFaultVendorBinary. The app's structures are never written. */
const VkDeviceCreateInfo *gpuavdbg_fault_patch(instance_data *inst, VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
                                               void **scratch);
/* gpuavdbg_fault_enabled records on dd whether the device was created
 * with the extension and deviceFault (ci: the create info used). */
void gpuavdbg_fault_enabled(device_data *dd, const VkDeviceCreateInfo *ci);
/* gpuavdbg_fault_read reads dd's fault (after VK_ERROR_DEVICE_LOST) into
 * *f, bounded, and matches its addresses; gpuavdbg_fault_free frees what
 * it allocated. */
void gpuavdbg_fault_read(device_data *dd, gpuavdbg_fault *f);
void gpuavdbg_fault_free(gpuavdbg_fault *f);

#endif
