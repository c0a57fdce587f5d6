/*
 * fault.c: VK_EXT_device_fault (docs/decisions/device-faults.md).
 *
 * Where the physical device offers the extension and its deviceFault
 * feature, the layer enables both on its copy of the device create info
 * (dispatch.c's vkCreateDevice calls gpuavdbg_fault_patch). After a call
 * returns VK_ERROR_DEVICE_LOST, submit.c's hang report reads the fault
 * (vkGetDeviceFaultInfoEXT: the counts, then at most
 * GPUAVDBG_FAULT_ADDRESSES addresses and GPUAVDBG_FAULT_VENDORS vendor
 * infos, never the vendor binary) and each address's range is matched to
 * the buffers addresses.c knows held it, live or destroyed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "fault.h"

static const char fault_ext[] = VK_EXT_DEVICE_FAULT_EXTENSION_NAME;

static int enabled_name(const VkDeviceCreateInfo *ci, const char *name)
{
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        if (!strcmp(ci->ppEnabledExtensionNames[i], name))
            return 1;
    return 0;
}

/* app_fault_features returns the fault features structure of ci's
 * chain, or NULL. */
static const VkPhysicalDeviceFaultFeaturesEXT *app_fault_features(const VkDeviceCreateInfo *ci)
{
    for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT)
            return (const VkPhysicalDeviceFaultFeaturesEXT *)s;
    return NULL;
}

/* offers says whether pd is a Vulkan 1.1 device of a Vulkan 1.1 instance
 * (vkGetPhysicalDeviceFeatures2, which the extension needs) that offers
 * VK_EXT_device_fault and deviceFault. */
static int offers(instance_data *inst, VkPhysicalDevice pd)
{
    PFN_vkGetPhysicalDeviceFeatures2 features2 = inst->disp.GetPhysicalDeviceFeatures2;
    if (!features2 || !inst->disp.GetPhysicalDeviceProperties || !inst->disp.EnumerateDeviceExtensionProperties)
        return 0;
    VkPhysicalDeviceProperties props;
    memset(&props, 0, sizeof props);
    inst->disp.GetPhysicalDeviceProperties(pd, &props);
    uint32_t app = inst->api_version ? inst->api_version : VK_API_VERSION_1_0;
    if (app < VK_API_VERSION_1_1 || props.apiVersion < VK_API_VERSION_1_1)
        return 0;
    uint32_t n = 0;
    if (inst->disp.EnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkExtensionProperties *ext = calloc(n, sizeof *ext);
    if (!ext)
        return 0;
    int found = 0;
    if (inst->disp.EnumerateDeviceExtensionProperties(pd, NULL, &n, ext) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = !strcmp(ext[i].extensionName, fault_ext);
    free(ext);
    if (!found)
        return 0;
    VkPhysicalDeviceFaultFeaturesEXT ff = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &ff};
    features2(pd, &f2);
    return ff.deviceFault != VK_FALSE;
}

const VkDeviceCreateInfo *gpuavdbg_fault_patch(instance_data *inst, VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
                                               void **scratch)
{
    *scratch = NULL;
    /* The app's own choice stands: it asked for the extension or named the
     * feature (gpuavdbg_fault_enabled reads what it chose). */
    if (enabled_name(ci, fault_ext) || app_fault_features(ci) || !offers(inst, pd))
        return ci;
    size_t n = ci->enabledExtensionCount + 1;
    size_t head = (sizeof(VkDeviceCreateInfo) + 15) & ~(size_t)15;
    size_t feat = (sizeof(VkPhysicalDeviceFaultFeaturesEXT) + 15) & ~(size_t)15;
    unsigned char *mem = calloc(1, head + feat + n * sizeof(char *));
    if (!mem)
        return ci;
    *scratch = mem;
    VkDeviceCreateInfo *out = (VkDeviceCreateInfo *)mem;
    *out = *ci;
    VkPhysicalDeviceFaultFeaturesEXT *ff = (VkPhysicalDeviceFaultFeaturesEXT *)(mem + head);
    *ff = (VkPhysicalDeviceFaultFeaturesEXT){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT,
                                             .pNext = (void *)ci->pNext,
                                             .deviceFault = VK_TRUE};
    out->pNext = ff;
    const char **names = (const char **)(mem + head + feat);
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        names[i] = ci->ppEnabledExtensionNames[i];
    names[ci->enabledExtensionCount] = fault_ext;
    out->enabledExtensionCount = (uint32_t)n;
    out->ppEnabledExtensionNames = names;
    return out;
}

void gpuavdbg_fault_enabled(device_data *dd, const VkDeviceCreateInfo *ci)
{
    const VkPhysicalDeviceFaultFeaturesEXT *ff = app_fault_features(ci);
    dd->device_fault = enabled_name(ci, fault_ext) && ff && ff->deviceFault;
}

/* range is the address range a reported address and its precision (a
 * power of two; 0 read as 1) stand for. */
static void range(uint64_t address, uint64_t precision, uint64_t *lo, uint64_t *hi)
{
    uint64_t mask = precision > 1 ? precision - 1 : 0;
    *lo = address & ~mask;
    *hi = address | mask;
}

/* buffer_type says whether a fault address type names data (a read,
 * write or execute of an invalid address), which a buffer may have held;
 * instruction pointers do not. */
static int buffer_type(VkDeviceFaultAddressTypeEXT t)
{
    return t == VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT || t == VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT ||
           t == VK_DEVICE_FAULT_ADDRESS_TYPE_EXECUTE_INVALID_EXT;
}

void gpuavdbg_fault_read(device_data *dd, gpuavdbg_fault *f)
{
    memset(f, 0, sizeof *f);
    if (!dd->device_fault || !dd->disp.GetDeviceFaultInfoEXT)
        return;
    f->state = GPUAVDBG_FAULT_FAILED;
    VkDeviceFaultCountsEXT counts = {.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
    VkResult r = dd->disp.GetDeviceFaultInfoEXT(dd->device, &counts, NULL);
    if (r != VK_SUCCESS) {
        f->result = (int32_t)r;
        return;
    }
    f->addresses_total = counts.addressInfoCount;
    f->vendors_total = counts.vendorInfoCount;
    f->vendor_binary_size = counts.vendorBinarySize;
    VkDeviceFaultCountsEXT want = {.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT,
                                   .addressInfoCount = counts.addressInfoCount < GPUAVDBG_FAULT_ADDRESSES
                                                           ? counts.addressInfoCount
                                                           : GPUAVDBG_FAULT_ADDRESSES,
                                   .vendorInfoCount = counts.vendorInfoCount < GPUAVDBG_FAULT_VENDORS
                                                          ? counts.vendorInfoCount
                                                          : GPUAVDBG_FAULT_VENDORS};
    VkDeviceFaultAddressInfoEXT addrs[GPUAVDBG_FAULT_ADDRESSES];
    VkDeviceFaultVendorInfoEXT vendors[GPUAVDBG_FAULT_VENDORS];
    memset(addrs, 0, sizeof addrs);
    memset(vendors, 0, sizeof vendors);
    VkDeviceFaultInfoEXT info = {.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT,
                                 .pAddressInfos = want.addressInfoCount ? addrs : NULL,
                                 .pVendorInfos = want.vendorInfoCount ? vendors : NULL};
    r = dd->disp.GetDeviceFaultInfoEXT(dd->device, &want, &info);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        f->result = (int32_t)r;
        return;
    }
    f->state = GPUAVDBG_FAULT_READ;
    f->result = (int32_t)r;
    memcpy(f->description, info.description, sizeof f->description);
    f->description[sizeof f->description - 1] = '\0';
    uint32_t na = want.addressInfoCount < GPUAVDBG_FAULT_ADDRESSES ? want.addressInfoCount : GPUAVDBG_FAULT_ADDRESSES;
    uint32_t nv = want.vendorInfoCount < GPUAVDBG_FAULT_VENDORS ? want.vendorInfoCount : GPUAVDBG_FAULT_VENDORS;
    f->addresses = na ? calloc(na, sizeof *f->addresses) : NULL;
    f->vendors = nv ? calloc(nv, sizeof *f->vendors) : NULL;
    if (f->addresses)
        f->naddresses = na;
    if (f->vendors)
        f->nvendors = nv;
    for (uint32_t i = 0; i < f->naddresses; i++) {
        gpuavdbg_fault_address *a = &f->addresses[i];
        a->type = (uint32_t)addrs[i].addressType;
        a->address = addrs[i].reportedAddress;
        a->precision = addrs[i].addressPrecision;
        range(a->address, a->precision, &a->lo, &a->hi);
        if (buffer_type(addrs[i].addressType))
            a->nmatches = gpuavdbg_addr_match_range(dd, a->lo, a->hi, a->matches, GPUAVDBG_FAULT_MATCHES,
                                                    &a->matches_total);
    }
    for (uint32_t i = 0; i < f->nvendors; i++) {
        memcpy(f->vendors[i].description, vendors[i].description, sizeof f->vendors[i].description);
        f->vendors[i].description[sizeof f->vendors[i].description - 1] = '\0';
        f->vendors[i].code = vendors[i].vendorFaultCode;
        f->vendors[i].data = vendors[i].vendorFaultData;
    }
}

void gpuavdbg_fault_free(gpuavdbg_fault *f)
{
    free(f->addresses);
    free(f->vendors);
    f->addresses = NULL;
    f->vendors = NULL;
    f->naddresses = f->nvendors = 0;
}
