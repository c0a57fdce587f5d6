/*
 * depthcopy.c: the depth_copy_range check
 * (docs/decisions/build-and-copy-checks.md). A copy from a buffer into the
 * depth aspect of a VK_FORMAT_D32_SFLOAT or VK_FORMAT_D32_SFLOAT_S8_UINT
 * image must copy values in [0, 1] (VUID-vkCmdCopyBufferToImage-pRegions-07931)
 * unless the app enabled VK_EXT_depth_range_unrestricted; the other depth
 * formats are normalized and cannot hold anything else.
 *
 * Each such region's bytes are copied into the pre-pass buffer (as the
 * indirect commands are, prepass.c) and checked there by the pre-pass
 * (gpuav/prepass/indirect.comp) right before the copy. Unless on_error is
 * execute the pre-pass clamps the values of the layer's copy into [0, 1]
 * and the region is copied into the image from it; the app's buffer is
 * never written.
 */
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "cmdchecks.h"
#include "depthcopy.h"
#include "descriptors.h"
#include "prepass.h"

enum { TOLD_FULL = 1 };

typedef struct depth_dev {
    pthread_mutex_t lock; /* guards images */
    int safe;
    hmap images; /* VkImage -> (void*)(uintptr_t)(format | arrayLayers << 32) of the D32 images */
    uint32_t told;
} depth_dev;

int gpuavdbg_depth_device_created(device_data *dd, const VkDeviceCreateInfo *ci, uint32_t checks)
{
    if (!(checks & GPUAVDBG_CC_DEPTH))
        return 0;
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        if (ci->ppEnabledExtensionNames[i] &&
            !strcmp(ci->ppEnabledExtensionNames[i], VK_EXT_DEPTH_RANGE_UNRESTRICTED_EXTENSION_NAME))
            return 0; /* any value may be copied */
    depth_dev *d = calloc(1, sizeof *d);
    if (!d)
        return 0;
    pthread_mutex_init(&d->lock, NULL);
    d->safe = (checks & GPUAVDBG_CC_SAFE) != 0;
    dd->depth = d;
    return GPUAVDBG_PREPASS_WANT_INDIRECT;
}

void gpuavdbg_depth_device_destroyed(device_data *dd)
{
    depth_dev *d = dd->depth;
    if (!d)
        return;
    hmap_free(&d->images);
    pthread_mutex_destroy(&d->lock);
    free(d);
    dd->depth = NULL;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateImage(VkDevice device, const VkImageCreateInfo *ci,
                                                      const VkAllocationCallbacks *alloc, VkImage *image)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.CreateImage(device, ci, alloc, image);
    depth_dev *d = dd->depth;
    if (r == VK_SUCCESS && d && ci &&
        (ci->format == VK_FORMAT_D32_SFLOAT || ci->format == VK_FORMAT_D32_SFLOAT_S8_UINT)) {
        uint64_t v = (uint64_t)ci->format | (uint64_t)ci->arrayLayers << 32;
        pthread_mutex_lock(&d->lock);
        if (!hmap_put(&d->images, GPUAVDBG_H(*image), (void *)(uintptr_t)v))
            gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "depth_copy_range: out of memory: copies into an image are not checked");
        pthread_mutex_unlock(&d->lock);
    }
    return r;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    depth_dev *d = dd->depth;
    if (d && image) {
        pthread_mutex_lock(&d->lock);
        hmap_del(&d->images, GPUAVDBG_H(image));
        pthread_mutex_unlock(&d->lock);
    }
    dd->disp.DestroyImage(device, image, alloc);
}

void gpuavdbg_depth_split_free(depth_split *s)
{
    free(s->layer1);
    free(s->app1);
    free(s->layer2);
    free(s->app2);
    memset(s, 0, sizeof *s);
}

/* A region's fields, from either form. */
typedef struct region {
    VkDeviceSize offset;
    uint32_t row, rows;
    VkImageSubresourceLayers sub;
    VkOffset3D at;
    VkExtent3D extent;
} region;

static region region_of(const VkBufferImageCopy *r1, const VkBufferImageCopy2 *r2, uint32_t i)
{
    if (r1)
        return (region){r1[i].bufferOffset, r1[i].bufferRowLength, r1[i].bufferImageHeight, r1[i].imageSubresource,
                        r1[i].imageOffset, r1[i].imageExtent};
    return (region){r2[i].bufferOffset, r2[i].bufferRowLength, r2[i].bufferImageHeight, r2[i].imageSubresource,
                    r2[i].imageOffset, r2[i].imageExtent};
}

int gpuavdbg_depth_copy(cb_state *cs, uint32_t action, VkBuffer src, VkImage dst, uint32_t n,
                        const VkBufferImageCopy *regions1, const VkBufferImageCopy2 *regions2, depth_split *s)
{
    device_data *dd = cs->dd;
    depth_dev *d = dd->depth;
    memset(s, 0, sizeof *s);
    if (!d || !dst || n == 0 || (!regions1 && !regions2))
        return 0;
    pthread_mutex_lock(&d->lock);
    uint64_t img = (uint64_t)(uintptr_t)hmap_get(&d->images, GPUAVDBG_H(dst));
    pthread_mutex_unlock(&d->lock);
    if (!img)
        return 0;
    uint32_t format = (uint32_t)img, layers = (uint32_t)(img >> 32);
    VkDeviceSize size = gpuavdbg_buffer_info(src, NULL);
    uint32_t *moved = calloc(n, sizeof *moved); /* the region's word in the pre-pass buffer + 1, or 0 */
    if (!moved)
        return 0;
    int any = 0;
    for (uint32_t i = 0; i < n; i++) {
        region r = region_of(regions1, regions2, i);
        if (!(r.sub.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) || !r.extent.width || !r.extent.height || !r.extent.depth)
            continue;
        uint32_t count = r.sub.layerCount == VK_REMAINING_ARRAY_LAYERS ? layers - r.sub.baseArrayLayer : r.sub.layerCount;
        int layered = r.extent.depth == 1;
        uint32_t slices = layered ? count : r.extent.depth;
        uint32_t row = r.row ? r.row : r.extent.width, rows = r.rows ? r.rows : r.extent.height;
        uint64_t texels = ((uint64_t)(slices - 1) * rows + (r.extent.height - 1)) * row + r.extent.width;
        uint64_t bytes = texels * 4;
        if (!slices || bytes > UINT32_MAX || (size && r.offset + bytes > size))
            continue; /* out of the buffer: the core checks' finding, not a value to read */
        uint32_t raw[GPUAVDBG_PREPASS_JOB_WORDS] = {0};
        raw[GPUAVDBG_PREPASS_DEPTH_WIDTH] = r.extent.width;
        raw[GPUAVDBG_PREPASS_DEPTH_HEIGHT] = r.extent.height;
        raw[GPUAVDBG_PREPASS_DEPTH_DEPTH] = slices;
        raw[GPUAVDBG_PREPASS_DEPTH_ROW_LENGTH] = row;
        raw[GPUAVDBG_PREPASS_DEPTH_ROWS] = rows;
        raw[GPUAVDBG_PREPASS_DEPTH_REGION] = i;
        raw[GPUAVDBG_PREPASS_DEPTH_X] = (uint32_t)r.at.x;
        raw[GPUAVDBG_PREPASS_DEPTH_Y] = (uint32_t)r.at.y;
        raw[GPUAVDBG_PREPASS_DEPTH_Z] = layered ? r.sub.baseArrayLayer : (uint32_t)r.at.z;
        raw[GPUAVDBG_PREPASS_DEPTH_FORMAT] = format;
        raw[GPUAVDBG_PREPASS_DEPTH_OFFSET] = r.offset > UINT32_MAX ? UINT32_MAX : (uint32_t)r.offset;
        raw[GPUAVDBG_PREPASS_DEPTH_FLAGS] = (layered ? GPUAVDBG_DEPTH_LAYER : 0) | (regions2 ? GPUAVDBG_DEPTH_COPY2 : 0);
        pp_job job = {.action = action,
                      .kind = GPUAVDBG_PREPASS_KIND_DEPTH | (d->safe ? GPUAVDBG_PREPASS_FLAG_SAFE : 0),
                      .buf = src, .offset = r.offset, .size = size ? size : r.offset + bytes,
                      .n = 1, .stride = 4, .cmd_size = (uint32_t)bytes, .raw = raw};
        uint32_t word = 0;
        if (gpuavdbg_prepass_add_raw(cs, &job, &word) && word) {
            moved[i] = word + 1;
            any = 1;
        }
    }
    int split = 0;
    if (any && gpuavdbg_prepass_run_copies(cs) && d->safe) {
        /* The checked regions read the layer's clamped copy: the copy
         * lands at word `moved - 1` and holds the region from its first
         * texel, so bufferOffset is that word's byte. */
        s->buffer = gpuavdbg_prepass_buffer(cs, NULL);
        size_t e1 = regions1 ? sizeof *regions1 : sizeof *regions2;
        void *layer = malloc(n * e1), *app = malloc(n * e1);
        if (s->buffer && layer && app) {
            for (uint32_t i = 0; i < n; i++) {
                if (regions1) {
                    VkBufferImageCopy c = regions1[i];
                    if (moved[i]) {
                        c.bufferOffset = (VkDeviceSize)(moved[i] - 1) * 4;
                        ((VkBufferImageCopy *)layer)[s->nlayer++] = c;
                    } else {
                        ((VkBufferImageCopy *)app)[s->napp++] = c;
                    }
                } else {
                    VkBufferImageCopy2 c = regions2[i];
                    if (moved[i]) {
                        c.bufferOffset = (VkDeviceSize)(moved[i] - 1) * 4;
                        ((VkBufferImageCopy2 *)layer)[s->nlayer++] = c;
                    } else {
                        ((VkBufferImageCopy2 *)app)[s->napp++] = c;
                    }
                }
            }
            if (regions1) {
                s->layer1 = layer;
                s->app1 = app;
            } else {
                s->layer2 = layer;
                s->app2 = app;
            }
            split = 1;
        } else {
            free(layer);
            free(app);
            s->buffer = VK_NULL_HANDLE;
        }
    }
    free(moved);
    return split;
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CreateImage),
    GPUAVDBG_ICPT(DestroyImage),
};

PFN_vkVoidFunction gpuavdbg_depth_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}
