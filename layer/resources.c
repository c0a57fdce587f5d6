/*
 * resources.c: the layer's own Vulkan objects on a device: its descriptor
 * set layouts (the layer's set and the padding, and their descriptor-
 * buffer forms), the action buffer, the descriptor pools, and per command
 * buffer an output buffer with its input buffers and its descriptor sets
 * (a "unit"), recycled through a free list. A failed allocation turns
 * instrumentation off with a message; command buffers begun after it
 * record into a sink nobody reads
 * (docs/decisions/allocation-failure-sink-buffer.md). The device owner
 * (device.c) sets them up and tears them down.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "resources.h"
#include "_cgo_export.h"

/* ---- memory ------------------------------------------------------------- */

static int find_memory_type(device_data *dd, uint32_t type_bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < dd->mem_props.memoryTypeCount; i++)
        if ((type_bits & (1u << i)) && (dd->mem_props.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

/* test_fail_alloc says whether this buffer allocation of the layer must
 * fail: the Nth of the process when the test hook test_fail_alloc is N
 * (allocation failure cannot be had on demand otherwise). */
static int test_fail_alloc(void)
{
    static uint64_t count;
    uint64_t nth = gpuavdbg_tests.fail_alloc;
    return nth > 0 && __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED) == nth;
}

/* Set while the layer makes an input buffer (bindings 2 and 3): the test
 * hook counts only output and action buffers, as before they existed. */
static __thread int tl_input_alloc;

/* make_buffer creates a host-visible, host-coherent buffer (cached when
 * possible: the host reads it) and maps it when map != NULL. Memory for a
 * buffer with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT is allocated for
 * device addresses. */
static VkResult make_buffer(device_data *dd, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
                            VkDeviceMemory *mem, void **map, const char **what)
{
    *buf = VK_NULL_HANDLE;
    *mem = VK_NULL_HANDLE;
    VkBufferCreateInfo bi = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    if (!tl_input_alloc && test_fail_alloc()) {
        *what = "vkAllocateMemory (made to fail by " GPUAVDBG_ENV_TEST_FAIL_ALLOC ")";
        *buf = VK_NULL_HANDLE;
        *mem = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    VkResult r = dd->disp.CreateBuffer(dd->device, &bi, NULL, buf);
    if (r != VK_SUCCESS) {
        *what = "vkCreateBuffer";
        return r;
    }
    VkMemoryRequirements req;
    dd->disp.GetBufferMemoryRequirements(dd->device, *buf, &req);
    const VkMemoryPropertyFlags base = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int type = find_memory_type(dd, req.memoryTypeBits, base | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    if (type < 0)
        type = find_memory_type(dd, req.memoryTypeBits, base);
    if (type < 0) {
        *what = "no host-visible, host-coherent memory type";
        r = VK_ERROR_FEATURE_NOT_PRESENT;
        goto fail;
    }
    VkMemoryAllocateFlagsInfo fi = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) ? &fi : NULL,
        .allocationSize = req.size,
        .memoryTypeIndex = (uint32_t)type,
    };
    r = dd->disp.AllocateMemory(dd->device, &ai, NULL, mem);
    if (r != VK_SUCCESS) {
        *what = "vkAllocateMemory";
        goto fail;
    }
    r = dd->disp.BindBufferMemory(dd->device, *buf, *mem, 0);
    if (r != VK_SUCCESS) {
        *what = "vkBindBufferMemory";
        goto fail;
    }
    if (map) {
        r = dd->disp.MapMemory(dd->device, *mem, 0, VK_WHOLE_SIZE, 0, map);
        if (r != VK_SUCCESS) {
            *what = "vkMapMemory";
            goto fail;
        }
    }
    return VK_SUCCESS;
fail:
    if (*mem)
        dd->disp.FreeMemory(dd->device, *mem, NULL);
    dd->disp.DestroyBuffer(dd->device, *buf, NULL);
    *buf = VK_NULL_HANDLE;
    *mem = VK_NULL_HANDLE;
    return r;
}

VkResult gpuavdbg_host_buffer(device_data *dd, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
                              VkDeviceMemory *mem, void **map, const char **what)
{
    tl_input_alloc = 1; /* not one of the allocations the test hook fails */
    VkResult r = make_buffer(dd, size, usage, buf, mem, map, what);
    tl_input_alloc = 0;
    return r;
}

/* ---- output units ------------------------------------------------------ */

#define SETS_PER_POOL 64u

/* allocate_sets takes up to n descriptor sets from the layer's pools in
 * one call, creating a pool when the last is used up; *got says how many.
 * Called with dd->lock held. */
static VkResult allocate_sets(device_data *dd, VkDescriptorSet *sets, uint32_t n, uint32_t *got)
{
    *got = 0;
    if (dd->pool_sets_left == 0) {
        VkDescriptorPoolSize sizes[2] = {
            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 5 * SETS_PER_POOL}, /* output, input, pre-pass and printf buffers */
            {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, SETS_PER_POOL},
        };
        VkDescriptorPoolCreateInfo pi = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
            .maxSets = SETS_PER_POOL,
            .poolSizeCount = 2,
            .pPoolSizes = sizes,
        };
        VkDescriptorPool *grown = realloc(dd->pools, (dd->npools + 1) * sizeof *grown);
        if (!grown)
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        dd->pools = grown;
        VkResult r = dd->disp.CreateDescriptorPool(dd->device, &pi, NULL, &dd->pools[dd->npools]);
        if (r != VK_SUCCESS)
            return r;
        dd->npools++;
        dd->pool_sets_left = SETS_PER_POOL;
    }
    VkDescriptorSetLayout layouts[SETS_PER_POOL];
    uint32_t k = n < dd->pool_sets_left ? n : dd->pool_sets_left;
    for (uint32_t i = 0; i < k; i++)
        layouts[i] = dd->set_layout;
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = dd->pools[dd->npools - 1],
        .descriptorSetCount = k,
        .pSetLayouts = layouts,
    };
    VkResult r = dd->disp.AllocateDescriptorSets(dd->device, &ai, sets);
    if (r == VK_SUCCESS) {
        dd->pool_sets_left -= k;
        *got = k;
    } else {
        dd->pool_sets_left = 0; /* fragmented or exhausted: next time, a new pool */
    }
    return r;
}

/* allocate_set takes one descriptor set from the layer's pools. */
static VkResult allocate_set(device_data *dd, VkDescriptorSet *set)
{
    uint32_t got;
    return allocate_sets(dd, set, 1, &got);
}

/* write_action_set points the unit's set for action slot `slot` at its
 * output buffer and at that slot of the action buffer. */
static void write_action_set(device_data *dd, out_unit *u, uint32_t slot)
{
    VkDescriptorBufferInfo out = {u->buffer, 0, (VkDeviceSize)GPUAVDBG_OUTPUT_WORDS * 4};
    VkDescriptorBufferInfo act = {dd->action_buffer, (VkDeviceSize)slot * dd->action_stride, 16};
    VkDescriptorBufferInfo pf = {u->buffer, u->printf_offset, (VkDeviceSize)u->printf_words * 4};
    VkDescriptorBufferInfo in[GPUAVDBG_INPUTS] = {
        {u->in_buffer[GPUAVDBG_INPUT_DESC], 0, VK_WHOLE_SIZE},
        {u->in_buffer[GPUAVDBG_INPUT_ADDR], 0, VK_WHOLE_SIZE},
        {u->in_buffer[GPUAVDBG_INPUT_CMD], 0, VK_WHOLE_SIZE},
    };
    VkWriteDescriptorSet w[6] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = u->action_sets[slot],
         .dstBinding = GPUAVDBG_OUTPUT_BINDING,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &out},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = u->action_sets[slot],
         .dstBinding = GPUAVDBG_ACTION_BINDING,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
         .pBufferInfo = &act},
        /* input buffers: bindings 2 and 3 */
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = u->action_sets[slot],
         .dstBinding = GPUAVDBG_DESC_STATE_BINDING,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &in[GPUAVDBG_INPUT_DESC]},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = u->action_sets[slot],
         .dstBinding = GPUAVDBG_ADDRESS_BINDING,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &in[GPUAVDBG_INPUT_ADDR]},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = u->action_sets[slot],
         .dstBinding = GPUAVDBG_PREPASS_BINDING,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &in[GPUAVDBG_INPUT_CMD]},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = u->action_sets[slot],
         .dstBinding = GPUAVDBG_PRINTF_BINDING,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &pf},
    };
    dd->disp.UpdateDescriptorSets(dd->device, 6, w, 0, NULL);
}

/* gpuavdbg_unit_push pushes into cb the layer's set for action slot
 * `slot` of unit u, at the layer's slot of layout (a descriptor-buffer
 * pipeline layout padded with dd->set_layout_db): the same descriptors as
 * the unit's set for that slot. */
void gpuavdbg_unit_push(const device_data *dd, const out_unit *u, VkCommandBuffer cb, VkPipelineBindPoint bp,
                        VkPipelineLayout layout, uint32_t slot)
{
    VkDescriptorBufferInfo info[5] = {
        {u->buffer, 0, (VkDeviceSize)GPUAVDBG_OUTPUT_WORDS * 4},
        {dd->action_buffer, (VkDeviceSize)slot * dd->action_stride, 16},
        {u->in_buffer[GPUAVDBG_INPUT_DESC], 0, VK_WHOLE_SIZE},
        {u->in_buffer[GPUAVDBG_INPUT_ADDR], 0, VK_WHOLE_SIZE},
        {u->buffer, u->printf_offset, (VkDeviceSize)u->printf_words * 4},
    };
    static const uint32_t binding[5] = {GPUAVDBG_OUTPUT_BINDING, GPUAVDBG_ACTION_BINDING, GPUAVDBG_DESC_STATE_BINDING,
                                        GPUAVDBG_ADDRESS_BINDING, GPUAVDBG_PRINTF_BINDING};
    VkWriteDescriptorSet w[5];
    for (int i = 0; i < 5; i++)
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstBinding = binding[i],
            .descriptorCount = 1,
            .descriptorType = binding[i] == GPUAVDBG_ACTION_BINDING ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                                                    : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &info[i],
        };
    dd->disp.CmdPushDescriptorSetKHR(cb, bp, layout, dd->slot, 5, w);
}

/* gpuavdbg_unit_action_set returns the unit's set for action slot `slot`,
 * making the sets up to it on first use (while recording: none of them is
 * bound yet, so writing them is allowed). When the layer cannot make one it
 * returns the highest it has: the shaders stay safe, only the attribution
 * of later records suffers. */
VkDescriptorSet gpuavdbg_unit_action_set(device_data *dd, out_unit *u, uint32_t slot)
{
    if (slot < __atomic_load_n(&u->nsets, __ATOMIC_ACQUIRE))
        return u->action_sets[slot];
    pthread_mutex_lock(&dd->lock);
    /* Sets are made SETS_PER_POOL at a time (up to the next multiple of
     * it): one allocation call each, so that the driver's objects for
     * consecutive slots lie together. */
    uint32_t want = (slot / SETS_PER_POOL + 1) * SETS_PER_POOL;
    if (want > GPUAVDBG_ACTION_SLOTS)
        want = GPUAVDBG_ACTION_SLOTS;
    while (u->nsets <= slot) {
        if (u->cap_sets < want) {
            VkDescriptorSet *grown = realloc(u->action_sets, want * sizeof *grown);
            if (!grown)
                break;
            u->action_sets = grown;
            u->cap_sets = want;
        }
        uint32_t got = 0;
        if (allocate_sets(dd, &u->action_sets[u->nsets], want - u->nsets, &got) != VK_SUCCESS || got == 0)
            break;
        for (uint32_t i = 0; i < got; i++)
            write_action_set(dd, u, u->nsets + i);
        __atomic_store_n(&u->nsets, u->nsets + got, __ATOMIC_RELEASE);
    }
    VkDescriptorSet set = u->action_sets[slot < u->nsets ? slot : u->nsets - 1];
    pthread_mutex_unlock(&dd->lock);
    return set;
}

/* ---- input buffers: bindings 2 and 3 ----------------------------------------- */

/* make_input creates input buffer `which` of u with room for `words`
 * words, all zero (absent). */
static VkResult make_input(device_data *dd, out_unit *u, int which, uint32_t words, const char **what)
{
    void *map = NULL;
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (which == GPUAVDBG_INPUT_CMD) /* copies land in it; actions read checked copies from it */
        usage |= VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | gpuavdbg_prepass_buffer_usage(dd);
    tl_input_alloc = 1;
    VkResult r = make_buffer(dd, (VkDeviceSize)words * 4, usage, &u->in_buffer[which], &u->in_memory[which], &map,
                             what);
    tl_input_alloc = 0;
    if (r != VK_SUCCESS)
        return r;
    u->in_words[which] = map;
    u->in_cap[which] = words;
    memset(map, 0, (size_t)words * 4);
    return VK_SUCCESS;
}

static void free_input(device_data *dd, out_unit *u, int which)
{
    if (u->in_words[which])
        dd->disp.UnmapMemory(dd->device, u->in_memory[which]);
    if (u->in_buffer[which])
        dd->disp.DestroyBuffer(dd->device, u->in_buffer[which], NULL);
    if (u->in_memory[which])
        dd->disp.FreeMemory(dd->device, u->in_memory[which], NULL);
    u->in_words[which] = NULL;
    u->in_buffer[which] = VK_NULL_HANDLE;
    u->in_memory[which] = VK_NULL_HANDLE;
    u->in_cap[which] = 0;
}

static void free_inputs(device_data *dd, out_unit *u)
{
    for (int i = 0; i < GPUAVDBG_INPUTS; i++)
        free_input(dd, u, i);
}

static VkResult make_inputs(device_data *dd, out_unit *u, const char **what)
{
    for (int i = 0; i < GPUAVDBG_INPUTS; i++) {
        VkResult r = make_input(dd, u, i, GPUAVDBG_INPUT_INITIAL_BYTES / 4, what);
        if (r != VK_SUCCESS) {
            free_inputs(dd, u);
            return r;
        }
    }
    return VK_SUCCESS;
}

uint32_t *gpuavdbg_unit_input(out_unit *u, int which, uint32_t *cap_words)
{
    *cap_words = u->in_cap[which];
    return u->in_words[which];
}

/* input_binding is the descriptor binding of input buffer `which`. */
static uint32_t input_binding(int which)
{
    switch (which) {
    case GPUAVDBG_INPUT_DESC: return GPUAVDBG_DESC_STATE_BINDING;
    case GPUAVDBG_INPUT_ADDR: return GPUAVDBG_ADDRESS_BINDING;
    }
    return GPUAVDBG_PREPASS_BINDING;
}

void gpuavdbg_unit_inputs_grow(device_data *dd, out_unit *u)
{
    if (!u || u == dd->sink)
        return;
    int grown = 0;
    for (int i = 0; i < GPUAVDBG_INPUTS; i++) {
        uint32_t need = u->in_need[i];
        if (need <= u->in_cap[i])
            continue;
        /* Room for growth: the next submit likely needs a little more. */
        uint64_t want = (uint64_t)need + need / 2;
        if (want > UINT32_MAX / 4)
            want = UINT32_MAX / 4;
        VkBuffer ob = u->in_buffer[i];
        VkDeviceMemory om = u->in_memory[i];
        uint32_t *ow = u->in_words[i];
        uint32_t oc = u->in_cap[i];
        const char *what = "";
        VkResult r = make_input(dd, u, i, (uint32_t)want, &what);
        if (r != VK_SUCCESS) {
            u->in_buffer[i] = ob;
            u->in_memory[i] = om;
            u->in_words[i] = ow;
            u->in_cap[i] = oc;
            u->in_need[i] = 0; /* do not retry at every begin */
            gpuavdbg_logf(GPUAVDBG_LOG_WARNING,
                          "input buffer (binding %u): cannot grow it to %u bytes (%s: %d); submits that need more "
                          "report nothing for the checks that read it",
                          input_binding(i), (unsigned)(want * 4), what, (int)r);
            continue;
        }
        dd->disp.UnmapMemory(dd->device, om);
        dd->disp.DestroyBuffer(dd->device, ob, NULL);
        dd->disp.FreeMemory(dd->device, om, NULL);
        u->in_need[i] = 0;
        grown = 1;
        static int told[GPUAVDBG_INPUTS];
        if (!__atomic_exchange_n(&told[i], 1, __ATOMIC_RELAXED))
            gpuavdbg_logf(GPUAVDBG_LOG_INFO,
                          "input buffer (binding %u) grown to %u bytes: the submit before had no room, its checks "
                          "of that buffer reported nothing",
                          input_binding(i), (unsigned)(want * 4));
    }
    if (!grown)
        return;
    /* No recording uses the unit's sets now (the command buffer is being
     * begun, its earlier submissions were read): rewrite them. */
    pthread_mutex_lock(&dd->lock);
    for (uint32_t s = 0; s < u->nsets; s++)
        write_action_set(dd, u, s);
    pthread_mutex_unlock(&dd->lock);
}

/* gpuavdbg_unit_acquire returns an output buffer with its descriptor set,
 * zeroed, or NULL (reported once per device) when the layer cannot make
 * one. */
out_unit *gpuavdbg_unit_acquire(device_data *dd)
{
    /* After an allocation failure: no more tries, records go nowhere. */
    if (__atomic_load_n(&dd->alloc_failed, __ATOMIC_ACQUIRE))
        return dd->sink;
    pthread_mutex_lock(&dd->lock);
    out_unit *u = dd->free_units;
    if (u) {
        dd->free_units = u->next_free;
        pthread_mutex_unlock(&dd->lock);
        gpuavdbg_unit_zero(u);
        return u;
    }
    const char *what = "";
    VkResult r = VK_ERROR_OUT_OF_HOST_MEMORY;
    u = calloc(1, sizeof *u);
    if (!u) {
        what = "malloc";
        goto fail;
    }
    /* One buffer: the records, then the printf buffer at an offset every
     * device allows (minStorageBufferOffsetAlignment <= 256). */
    u->printf_offset = ((VkDeviceSize)GPUAVDBG_OUTPUT_WORDS * 4 + 255) & ~(VkDeviceSize)255;
    u->printf_words = dd->printf_words ? dd->printf_words : GPUAVDBG_PRINTF_HEADER_WORDS;
    r = make_buffer(dd, u->printf_offset + (VkDeviceSize)u->printf_words * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    &u->buffer, &u->memory, (void **)&u->words, &what);
    if (r != VK_SUCCESS)
        goto fail;
    u->printf = (uint32_t *)((unsigned char *)u->words + u->printf_offset);
    r = make_inputs(dd, u, &what);
    if (r != VK_SUCCESS) {
        dd->disp.UnmapMemory(dd->device, u->memory);
        dd->disp.DestroyBuffer(dd->device, u->buffer, NULL);
        dd->disp.FreeMemory(dd->device, u->memory, NULL);
        goto fail;
    }
    u->action_sets = malloc(sizeof *u->action_sets);
    if (!u->action_sets) {
        what = "malloc";
        r = VK_ERROR_OUT_OF_HOST_MEMORY;
        free_inputs(dd, u);
        dd->disp.UnmapMemory(dd->device, u->memory);
        dd->disp.DestroyBuffer(dd->device, u->buffer, NULL);
        dd->disp.FreeMemory(dd->device, u->memory, NULL);
        goto fail;
    }
    u->cap_sets = 1;
    r = allocate_set(dd, &u->action_sets[0]);
    if (r != VK_SUCCESS) {
        free(u->action_sets);
        what = "vkAllocateDescriptorSets";
        free_inputs(dd, u);
        dd->disp.UnmapMemory(dd->device, u->memory);
        dd->disp.DestroyBuffer(dd->device, u->buffer, NULL);
        dd->disp.FreeMemory(dd->device, u->memory, NULL);
        goto fail;
    }
    u->nsets = 1;
    write_action_set(dd, u, 0);
    memset(u->words, 0, (size_t)GPUAVDBG_OUTPUT_WORDS * 4);
    memset(u->printf, 0, GPUAVDBG_PRINTF_HEADER_WORDS * 4);
    u->next_all = dd->all_units;
    dd->all_units = u;
    pthread_mutex_unlock(&dd->lock);
    return u;
fail:;
    int report = !dd->unit_failure_reported;
    dd->unit_failure_reported = 1;
    pthread_mutex_unlock(&dd->lock);
    free(u);
    if (report && dd->sink)
        gpuavdbg_logf(GPUAVDBG_LOG_ERROR,
                      "instrumentation is off: cannot allocate an output buffer for a command buffer (%s: %d). "
                      "Shaders created from now on are not instrumented, and command buffers begun from now on "
                      "report no errors (the layer's set stays bound, so instrumented shaders are safe)",
                      what, (int)r);
    /* After an allocation failure, instrument nothing more
     * (docs/decisions/allocation-failure-sink-buffer.md). */
    __atomic_store_n(&dd->instrumenting, 0, __ATOMIC_RELAXED);
    if (dd->sink)
        __atomic_store_n(&dd->alloc_failed, 1, __ATOMIC_RELEASE);
    return dd->sink;
}

void gpuavdbg_unit_release(device_data *dd, out_unit *u)
{
    if (!u || u == dd->sink)
        return;
    pthread_mutex_lock(&dd->lock);
    u->next_free = dd->free_units;
    dd->free_units = u;
    pthread_mutex_unlock(&dd->lock);
}

static uint32_t printf_words(device_data *dd)
{
    uint32_t bytes = goPrintfBufferBytes(GPUAVDBG_H(dd->inst->instance));
    uint32_t words = bytes / 4;
    return words < GPUAVDBG_PRINTF_HEADER_WORDS ? GPUAVDBG_PRINTF_HEADER_WORDS : words;
}

/* zero_prepass clears the pre-pass records of a unit (its input buffer
 * GPUAVDBG_INPUT_CMD: gpuav/prepass.go's layout, written by prepass.c and
 * the pre-pass). */
static void zero_prepass(out_unit *u)
{
    uint32_t cap;
    uint32_t *w = gpuavdbg_unit_input(u, GPUAVDBG_INPUT_CMD, &cap);
    if (!w || cap < GPUAVDBG_PREPASS_JOB_WORD)
        return;
    uint32_t written = w[GPUAVDBG_PREPASS_HEADER_WORD];
    if (written > GPUAVDBG_PREPASS_RECORDS * GPUAVDBG_LAYER_RECORD_WORDS)
        written = GPUAVDBG_PREPASS_RECORDS * GPUAVDBG_LAYER_RECORD_WORDS;
    memset(w + GPUAVDBG_PREPASS_RECORD_WORD, 0, (size_t)written * 4);
    memset(w + GPUAVDBG_PREPASS_HEADER_WORD, 0, GPUAVDBG_PREPASS_HEADER_WORDS * 4);
}

/* gpuavdbg_unit_zero clears the header and the words the last submission
 * wrote, so Decode sees only new records. The buffer is host-coherent and
 * no submission that uses it is pending (the layer waits after each). */
void gpuavdbg_unit_zero(out_unit *u)
{
    uint32_t written = u->words[0]; /* records claimed (gpuav/record.go) */
    if (written > GPUAVDBG_RECORDS)
        written = GPUAVDBG_RECORDS;
    memset(u->words + GPUAVDBG_HEADER_WORDS, 0, (size_t)written * GPUAVDBG_RECORD_WORDS * 4);
    memset(u->words, 0, GPUAVDBG_HEADER_WORDS * 4);
    zero_prepass(u);
    /* printf lines need no zeroing: the decoder reads what the header
     * says was written, and the first line that did not fit ends them. */
    memset(u->printf, 0, GPUAVDBG_PRINTF_HEADER_WORDS * 4);
}


/* ---- device set-up ----------------------------------------------------- */

/* The bindings of the layer's set: the descriptor-buffer layout takes the
 * first five. */
static const VkDescriptorSetLayoutBinding g_bindings[6] = {
    {.binding = GPUAVDBG_OUTPUT_BINDING,
     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
     .descriptorCount = 1,
     .stageFlags = VK_SHADER_STAGE_ALL},
    {.binding = GPUAVDBG_ACTION_BINDING,
     .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
     .descriptorCount = 1,
     .stageFlags = VK_SHADER_STAGE_ALL},
    /* input buffers: bindings 2 and 3 */
    {.binding = GPUAVDBG_DESC_STATE_BINDING,
     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
     .descriptorCount = 1,
     .stageFlags = VK_SHADER_STAGE_ALL},
    {.binding = GPUAVDBG_ADDRESS_BINDING,
     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
     .descriptorCount = 1,
     .stageFlags = VK_SHADER_STAGE_ALL},
    /* the printf buffer: binding 5 (before the pre-pass's: the
     * descriptor-buffer layout takes the first five) */
    {.binding = GPUAVDBG_PRINTF_BINDING,
     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
     .descriptorCount = 1,
     .stageFlags = VK_SHADER_STAGE_ALL},
    /* the command checks' pre-pass buffer: binding 4, its compute pass only */
    {.binding = GPUAVDBG_PREPASS_BINDING,
     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
     .descriptorCount = 1,
     .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
};

static int have_functions(device_data *dd)
{
    const device_dispatch *d = &dd->disp;
    return d->CreateBuffer && d->DestroyBuffer && d->GetBufferMemoryRequirements && d->AllocateMemory &&
           d->FreeMemory && d->BindBufferMemory && d->MapMemory && d->UnmapMemory && d->CreateDescriptorSetLayout &&
           d->DestroyDescriptorSetLayout && d->CreateDescriptorPool && d->DestroyDescriptorPool &&
           d->AllocateDescriptorSets && d->UpdateDescriptorSets && d->CreatePipelineLayout &&
           d->CmdBindDescriptorSets && d->CmdPipelineBarrier && d->QueueWaitIdle;
}

/* setup_descriptor_buffers makes, on a device whose app enabled
 * descriptor buffers, the layer's set layout for descriptor-buffer
 * pipeline layouts: the same bindings as a push-descriptor layout (a
 * descriptor-buffer layout may not be mixed with others, and push
 * descriptors leave the app's bound descriptor buffers alone), and an empty
 * descriptor-buffer layout for the padding. Where that cannot be, it says
 * why in dd->db_reason, and such pipelines run unchecked. b are the layer's
 * n bindings. */
static void setup_descriptor_buffers(device_data *dd, const VkDescriptorSetLayoutBinding *b, uint32_t n)
{
    if (!dd->descriptor_buffer)
        return;
    const instance_dispatch *id = &dd->inst->disp;
    /* The core name only for a Vulkan 1.1 app (VK_EXT_descriptor_buffer
     * needs 1.1 or VK_KHR_get_physical_device_properties2). */
    int v11 = dd->inst->api_version >= VK_API_VERSION_1_1;
    PFN_vkGetPhysicalDeviceProperties2 props2 =
        v11 && id->GetPhysicalDeviceProperties2 ? id->GetPhysicalDeviceProperties2 : id->GetPhysicalDeviceProperties2KHR;
    VkPhysicalDevicePushDescriptorPropertiesKHR pp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
    VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT, .pNext = &pp};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &dbp};
    if (props2)
        props2(dd->physical, &p2);
    const char *why = NULL;
    if (!dd->push_descriptors || !dd->disp.CmdPushDescriptorSetKHR)
        why = "the device has no VK_KHR_push_descriptor";
    else if (!props2)
        why = "vkGetPhysicalDeviceProperties2 is missing";
    else if (!dbp.bufferlessPushDescriptors)
        why = "the device has no bufferlessPushDescriptors";
    else if (pp.maxPushDescriptors < n)
        why = "maxPushDescriptors is too small for the layer's descriptors";
    if (why) {
        snprintf(dd->db_reason, sizeof dd->db_reason, "%s", why);
        return;
    }
    VkDescriptorSetLayoutCreateInfo c = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = n, .pBindings = b};
    c.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR |
              VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT;
    VkResult r = dd->disp.CreateDescriptorSetLayout(dd->device, &c, NULL, &dd->set_layout_db);
    if (r == VK_SUCCESS) {
        c.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT;
        c.bindingCount = 0;
        c.pBindings = NULL;
        r = dd->disp.CreateDescriptorSetLayout(dd->device, &c, NULL, &dd->empty_layout_db);
    }
    if (r != VK_SUCCESS) {
        snprintf(dd->db_reason, sizeof dd->db_reason, "vkCreateDescriptorSetLayout failed for them: %d", (int)r);
        if (dd->set_layout_db)
            dd->disp.DestroyDescriptorSetLayout(dd->device, dd->set_layout_db, NULL);
        dd->set_layout_db = VK_NULL_HANDLE;
    }
}

int gpuavdbg_resources_setup(device_data *dd, const VkPhysicalDeviceProperties *props)
{
    VkResult r;
    const char *what = "";
    if (!have_functions(dd)) {
        snprintf(dd->reason, sizeof dd->reason, "the driver lacks a function the layer needs");
        return 0;
    }
    uint32_t align = (uint32_t)props->limits.minUniformBufferOffsetAlignment;
    dd->action_stride = align > 16 ? align : 16;

    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 6,
        .pBindings = g_bindings,
    };
    r = dd->disp.CreateDescriptorSetLayout(dd->device, &li, NULL, &dd->set_layout);
    if (r != VK_SUCCESS) {
        snprintf(dd->reason, sizeof dd->reason, "vkCreateDescriptorSetLayout failed: %d", (int)r);
        return 0;
    }
    li.bindingCount = 0;
    li.pBindings = NULL;
    r = dd->disp.CreateDescriptorSetLayout(dd->device, &li, NULL, &dd->empty_layout);
    if (r != VK_SUCCESS) {
        snprintf(dd->reason, sizeof dd->reason, "vkCreateDescriptorSetLayout (padding) failed: %d", (int)r);
        return 0;
    }
    void *map = NULL;
    r = make_buffer(dd, (VkDeviceSize)GPUAVDBG_ACTION_SLOTS * dd->action_stride, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                    &dd->action_buffer, &dd->action_memory, &map, &what);
    if (r != VK_SUCCESS) {
        snprintf(dd->reason, sizeof dd->reason, "action buffer: %s failed: %d", what, (int)r);
        return 0;
    }
    /* Slot i holds the action index i; host-coherent, so no flush. */
    for (uint32_t i = 0; i < GPUAVDBG_ACTION_SLOTS; i++)
        *(uint32_t *)((unsigned char *)map + (size_t)i * dd->action_stride) = i;
    dd->disp.UnmapMemory(dd->device, dd->action_memory);
    return 1;
}

int gpuavdbg_resources_units(device_data *dd)
{
    setup_descriptor_buffers(dd, g_bindings, 5);
    dd->printf_words = printf_words(dd);
    /* The sink: where command buffers begun after an allocation failure
     * send their records (nothing reads it), so that instrumented shaders
     * always have the layer's set bound. */
    dd->sink = gpuavdbg_unit_acquire(dd);
    if (!dd->sink) {
        snprintf(dd->reason, sizeof dd->reason, "cannot allocate the layer's first output buffer");
        return 0;
    }
    return 1;
}

/* ---- teardown ----------------------------------------------------------- */

void gpuavdbg_resources_units_teardown(device_data *dd)
{
    const device_dispatch *d = &dd->disp;
    pthread_mutex_lock(&dd->lock);
    for (out_unit *u = dd->all_units, *next; u; u = next) {
        next = u->next_all;
        if (d->UnmapMemory && u->words)
            d->UnmapMemory(dd->device, u->memory);
        if (d->DestroyBuffer)
            d->DestroyBuffer(dd->device, u->buffer, NULL);
        if (d->FreeMemory)
            d->FreeMemory(dd->device, u->memory, NULL);
        for (int i = 0; i < GPUAVDBG_INPUTS; i++) {
            if (d->UnmapMemory && u->in_words[i])
                d->UnmapMemory(dd->device, u->in_memory[i]);
            if (d->DestroyBuffer && u->in_buffer[i])
                d->DestroyBuffer(dd->device, u->in_buffer[i], NULL);
            if (d->FreeMemory && u->in_memory[i])
                d->FreeMemory(dd->device, u->in_memory[i], NULL);
        }
        free(u->action_sets); /* the sets go with the pools */
        free(u);
    }
    dd->all_units = dd->free_units = NULL;
    dd->sink = NULL;
    for (uint32_t i = 0; i < dd->npools; i++)
        if (d->DestroyDescriptorPool)
            d->DestroyDescriptorPool(dd->device, dd->pools[i], NULL);
    free(dd->pools);
    dd->pools = NULL;
    dd->npools = 0;
    dd->pool_sets_left = 0;
    pthread_mutex_unlock(&dd->lock);
}

void gpuavdbg_resources_teardown(device_data *dd)
{
    const device_dispatch *d = &dd->disp;
    if (dd->action_buffer && d->DestroyBuffer)
        d->DestroyBuffer(dd->device, dd->action_buffer, NULL);
    if (dd->action_memory && d->FreeMemory)
        d->FreeMemory(dd->device, dd->action_memory, NULL);
    if (dd->set_layout && d->DestroyDescriptorSetLayout)
        d->DestroyDescriptorSetLayout(dd->device, dd->set_layout, NULL);
    if (dd->empty_layout && d->DestroyDescriptorSetLayout)
        d->DestroyDescriptorSetLayout(dd->device, dd->empty_layout, NULL);
    if (dd->set_layout_db && d->DestroyDescriptorSetLayout)
        d->DestroyDescriptorSetLayout(dd->device, dd->set_layout_db, NULL);
    if (dd->empty_layout_db && d->DestroyDescriptorSetLayout)
        d->DestroyDescriptorSetLayout(dd->device, dd->empty_layout_db, NULL);
    dd->action_buffer = VK_NULL_HANDLE;
    dd->action_memory = VK_NULL_HANDLE;
    dd->set_layout = dd->empty_layout = VK_NULL_HANDLE;
    dd->set_layout_db = dd->empty_layout_db = VK_NULL_HANDLE;
}

