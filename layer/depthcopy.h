/*
 * depthcopy.h: the depth_copy_range check (depthcopy.c;
 * docs/decisions/build-and-copy-checks.md). The room follows the images
 * with a depth format whose values must lie in [0, 1] (vkCreateImage,
 * vkDestroyImage, which it intercepts); the command-buffer owner calls its
 * hook at each vkCmdCopyBufferToImage(2).
 */
#ifndef GPUAVDBG_DEPTHCOPY_H
#define GPUAVDBG_DEPTHCOPY_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_depth_intercept(const char *name);

/* The device owner's hooks (device.c): the check's settings (checks:
 * GPUAVDBG_CC_* bits) and the app's extensions; it returns the pre-pass
 * shaders the check needs (GPUAVDBG_PREPASS_WANT_INDIRECT, or 0). */
int gpuavdbg_depth_device_created(device_data *dd, const VkDeviceCreateInfo *ci, uint32_t checks);
void gpuavdbg_depth_device_destroyed(device_data *dd);

/* What a checked copy calls down with: the regions the layer checked read
 * its copy (buffer, at the regions' new bufferOffset), the others the
 * app's buffer. Exactly one of the region arrays of each pair is set
 * (regions1 for vkCmdCopyBufferToImage, regions2 for the Copy2 forms). */
typedef struct depth_split {
    VkBuffer buffer;
    VkBufferImageCopy *layer1, *app1;
    VkBufferImageCopy2 *layer2, *app2;
    uint32_t nlayer, napp;
} depth_split;

/* gpuavdbg_depth_copy, before vkCmdCopyBufferToImage(2)'s action (index
 * action) is recorded: the pre-pass over the depth regions. regions1 or
 * regions2 holds the n regions. It returns 1 when the copy must be split
 * as *s says (gpuavdbg_depth_split_free frees it): with on_error other
 * than execute, the checked regions read the layer's clamped copy. */
int gpuavdbg_depth_copy(cb_state *cs, uint32_t action, VkBuffer src, VkImage dst, uint32_t n,
                        const VkBufferImageCopy *regions1, const VkBufferImageCopy2 *regions2, depth_split *s);
void gpuavdbg_depth_split_free(depth_split *s);

#endif
