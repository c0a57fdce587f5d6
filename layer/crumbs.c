/*
 * crumbs.c: breadcrumbs (crumbs.h). Each command buffer of a device with the
 * watchdog on gets a marker slot of 16 bytes in one of the device's
 * host-visible, coherent marker buffers. With action granularity, before
 * an action the GPU writes the action's index + 1 into the slot's first
 * word, after it into the second (vkCmdFillBuffer, a transfer the queue
 * runs in order with the action on lavapipe). Inside a render pass
 * vkCmdFillBuffer is not allowed: the pass is marked instead, its first
 * action before it begins and the actions completed after it ends, so a
 * hang inside names the pass's actions as running. With pass granularity
 * (the default on a GPU without VK_AMD_buffer_marker, where a fill between
 * two dispatches serializes them) no action is marked: the actions outside
 * render passes form regions, marked as passes are: word 0 before a
 * region's first action, word 1 at its end (the next render pass, or the
 * command buffer's end). Nothing is written between a suspended render
 * pass and its resumption. The host reads the slot while the GPU is stuck
 * (docs/decisions/watchdog-and-breadcrumbs.md).
 */
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "crumbs.h"
#include "resources.h"

#define SLOT_WORDS 4u
#define CHUNK_SLOTS 1024u

typedef struct crumb_chunk {
    VkBuffer buf;
    VkDeviceMemory mem;
    uint32_t *words;
} crumb_chunk;

typedef struct crumb_dev {
    pthread_mutex_t lock; /* guards the chunks and the free list */
    uint64_t watchdog_ns;
    uint32_t granularity; /* GPUAVDBG_CRUMBS_ACTIONS or _PASSES */
    crumb_chunk *chunks;
    uint32_t nchunks;
    uint32_t *free_slots;
    uint32_t nfree, cap_free;
    int failed; /* a marker buffer could not be made: no more slots */
} crumb_dev;

void gpuavdbg_crumbs_device_created(device_data *dd, uint64_t watchdog_ns, uint32_t setting, int cpu_device)
{
    if (!watchdog_ns || !dd->disp.CmdFillBuffer)
        return;
    crumb_dev *c = calloc(1, sizeof *c);
    if (!c) {
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "out of memory: the watchdog is off on this device");
        return;
    }
    pthread_mutex_init(&c->lock, NULL);
    c->watchdog_ns = watchdog_ns;
    c->granularity = gpuavdbg_crumbs_granularity(setting, cpu_device, dd->buffer_marker && dd->disp.CmdWriteBufferMarkerAMD);
    dd->crumbs = c;
}

uint64_t gpuavdbg_crumbs_watchdog_ns(const device_data *dd)
{
    return dd->crumbs ? dd->crumbs->watchdog_ns : 0;
}

uint32_t gpuavdbg_crumbs_granularity_of(const device_data *dd)
{
    return dd->crumbs ? dd->crumbs->granularity : 0;
}

void gpuavdbg_crumbs_teardown(device_data *dd)
{
    crumb_dev *c = dd->crumbs;
    if (!c)
        return;
    for (uint32_t i = 0; i < c->nchunks; i++) {
        dd->disp.UnmapMemory(dd->device, c->chunks[i].mem);
        dd->disp.DestroyBuffer(dd->device, c->chunks[i].buf, NULL);
        dd->disp.FreeMemory(dd->device, c->chunks[i].mem, NULL);
    }
    free(c->chunks);
    free(c->free_slots);
    pthread_mutex_destroy(&c->lock);
    free(c);
    dd->crumbs = NULL;
}

/* slot_get returns a free slot's index, making a chunk when none is left;
 * with c->lock held. UINT32_MAX: none. */
static uint32_t slot_get(device_data *dd, crumb_dev *c)
{
    if (c->nfree > 0)
        return c->free_slots[--c->nfree];
    if (c->failed)
        return UINT32_MAX;
    crumb_chunk *g = realloc(c->chunks, (c->nchunks + 1) * sizeof *g);
    uint32_t *f = realloc(c->free_slots, (size_t)(c->cap_free + CHUNK_SLOTS) * sizeof *f);
    if (g)
        c->chunks = g;
    if (f) {
        c->free_slots = f;
        c->cap_free += CHUNK_SLOTS;
    }
    const char *what = "malloc";
    crumb_chunk k = {0};
    VkResult r = VK_ERROR_OUT_OF_HOST_MEMORY;
    if (g && f)
        r = gpuavdbg_host_buffer(dd, (VkDeviceSize)CHUNK_SLOTS * SLOT_WORDS * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 &k.buf, &k.mem, (void **)&k.words, &what);
    if (r != VK_SUCCESS) {
        c->failed = 1;
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING,
                      "the watchdog's marker buffer could not be made (%s: %d): command buffers begun from now on "
                      "carry no breadcrumbs",
                      what, (int)r);
        return UINT32_MAX;
    }
    memset(k.words, 0, (size_t)CHUNK_SLOTS * SLOT_WORDS * 4);
    uint32_t base = c->nchunks * CHUNK_SLOTS;
    c->chunks[c->nchunks++] = k;
    for (uint32_t i = CHUNK_SLOTS; i > 1; i--)
        c->free_slots[c->nfree++] = base + i - 1;
    return base;
}

/* fill writes a marker word from the GPU: with VK_AMD_buffer_marker, word
 * 0 once the commands before it reached the top of the pipe and word 1
 * once they completed; else a vkCmdFillBuffer, which the queue runs in
 * order on lavapipe but a GPU may run alongside the action before it. */
static void fill(cb_state *cs, uint32_t word, uint32_t value)
{
    crumb_cb *k = cs->crumb;
    const device_data *dd = cs->dd;
    if (dd->buffer_marker && dd->disp.CmdWriteBufferMarkerAMD)
        dd->disp.CmdWriteBufferMarkerAMD(cs->cb,
                                         word ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                         k->buf, k->off + word * 4, value);
    else
        dd->disp.CmdFillBuffer(cs->cb, k->buf, k->off + word * 4, 4, value);
    k->used = 1;
}

/* region_begin starts a region at action first (a render pass, or with
 * pass granularity the actions outside passes from there): word 0 = its
 * first action + 1 with GPUAVDBG_CRUMB_PASS. Without memory for it no
 * marker: its actions read as the markers before say. */
static void region_begin(cb_state *cs, crumb_cb *k, uint32_t first)
{
    if (k->nregions == k->cap_regions) {
        uint32_t ncap = k->cap_regions ? k->cap_regions * 2 : 8;
        crumb_region *g = realloc(k->regions, ncap * sizeof *g);
        if (!g)
            return;
        k->regions = g;
        k->cap_regions = ncap;
    }
    k->regions[k->nregions++] = (crumb_region){first, GPUAVDBG_CRUMB_OPEN};
    fill(cs, 0, (first + 1) | GPUAVDBG_CRUMB_PASS);
}

/* region_end ends the open region, if any, at the action count, and
 * writes word 1 = the actions so far when one was open or always (a
 * render pass's end). */
static void region_end(cb_state *cs, crumb_cb *k, int always)
{
    int open = k->nregions > 0 && k->regions[k->nregions - 1].end == GPUAVDBG_CRUMB_OPEN;
    if (open)
        k->regions[k->nregions - 1].end = cs->nactions;
    if (open || always)
        fill(cs, 1, cs->nactions);
}

void gpuavdbg_crumbs_begin(cb_state *cs, const VkCommandBufferBeginInfo *bi)
{
    device_data *dd = cs->dd;
    crumb_dev *c = dd->crumbs;
    if (!c)
        return;
    crumb_cb *k = cs->crumb;
    if (!k) {
        k = calloc(1, sizeof *k);
        if (!k)
            return;
        pthread_mutex_lock(&c->lock);
        uint32_t slot = slot_get(dd, c);
        pthread_mutex_unlock(&c->lock);
        if (slot == UINT32_MAX) {
            free(k);
            return;
        }
        crumb_chunk *ch = &c->chunks[slot / CHUNK_SLOTS];
        k->slot = slot;
        k->buf = ch->buf;
        k->off = (VkDeviceSize)(slot % CHUNK_SLOTS) * SLOT_WORDS * 4;
        k->words = ch->words + (slot % CHUNK_SLOTS) * SLOT_WORDS;
        cs->crumb = k;
    }
    /* A secondary that continues a render pass runs inside its primary's:
     * the primary's pass markers cover it. Else the next action outside a
     * render pass is marked: each one (actions), or the first of a region
     * (passes: the region starts there, so a command buffer whose actions
     * are all in render passes gets no mark outside them, and nothing
     * comes before a render pass it resumes). */
    k->granularity = c->granularity;
    k->in_pass = cs->secondary && bi && (bi->flags & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT);
    k->hook = !k->in_pass;
    k->suspending = 0;
    k->unmarked = 0;
    k->used = 0;
    k->nregions = 0;
}

void gpuavdbg_crumbs_mark(cb_state *cs, uint32_t action, int after)
{
    crumb_cb *k = cs->crumb;
    if (k->granularity == GPUAVDBG_CRUMBS_PASSES) {
        /* The first action of a region: it starts here. */
        if (!after)
            region_begin(cs, k, action);
        k->hook = 0;
        return;
    }
    fill(cs, after ? 1 : 0, action + 1);
}

void gpuavdbg_crumbs_pass_begin(cb_state *cs, VkRenderingFlags flags)
{
    crumb_cb *k = cs->crumb;
    if (!k || k->in_pass)
        return;
    k->in_pass = 1;
    k->hook = 0;
    k->suspending = (flags & VK_RENDERING_SUSPENDING_BIT) != 0;
    if (flags & VK_RENDERING_RESUMING_BIT) {
        /* No command may come between a suspended render pass and its
         * resumption: the pass goes on in the region still open (suspended
         * in this command buffer), or began in an earlier one, and this
         * one has no marker until after it (unmarked: unknown until
         * then). */
        int open = k->nregions > 0 && k->regions[k->nregions - 1].end == GPUAVDBG_CRUMB_OPEN;
        if (!open && !k->used)
            k->unmarked = 1;
        return;
    }
    if (k->granularity == GPUAVDBG_CRUMBS_PASSES)
        region_end(cs, k, 0); /* the actions before the pass */
    region_begin(cs, k, cs->nactions);
}

void gpuavdbg_crumbs_pass_end(cb_state *cs)
{
    crumb_cb *k = cs->crumb;
    if (!k || !k->in_pass || (cs->secondary && k->nregions == 0 && !k->unmarked))
        return; /* no pass of ours (a secondary inside its primary's) */
    k->in_pass = 0;
    k->hook = 1; /* the next action outside a pass: its marks, or a region's */
    if (k->suspending)
        return; /* it goes on in a later render pass: nothing between */
    region_end(cs, k, 1);
}

void gpuavdbg_crumbs_end(cb_state *cs)
{
    crumb_cb *k = cs->crumb;
    /* The last region's end, when one is open and is not a render pass
     * that goes on in a later command buffer (suspended). */
    if (k && !k->in_pass && !k->suspending && k->granularity == GPUAVDBG_CRUMBS_PASSES)
        region_end(cs, k, 0);
}

void gpuavdbg_crumbs_free(cb_state *cs)
{
    crumb_cb *k = cs->crumb;
    if (!k)
        return;
    crumb_dev *c = cs->dd->crumbs;
    if (c) {
        pthread_mutex_lock(&c->lock);
        if (c->nfree < c->cap_free)
            c->free_slots[c->nfree++] = k->slot;
        pthread_mutex_unlock(&c->lock);
    }
    free(k->regions);
    free(k);
    cs->crumb = NULL;
}

void gpuavdbg_crumbs_zero(cb_state *cs)
{
    crumb_cb *k = cs->crumb;
    if (k) {
        k->words[0] = 0;
        k->words[1] = 0;
    }
}

int gpuavdbg_crumbs_state(const cb_state *cs, uint32_t *completed, uint32_t *run_from, uint32_t *run_to, int *region,
                          uint32_t *begun, uint32_t *ended)
{
    const crumb_cb *k = cs->crumb;
    *completed = *run_from = *run_to = 0;
    *begun = *ended = 0;
    *region = 0;
    if (!k || !k->used)
        return 0;
    uint32_t b = k->words[0], e = k->words[1];
    if (k->unmarked && b == 0 && e == 0)
        return 0; /* inside a render pass resumed from an earlier command buffer, or before it: unknown */
    *begun = b;
    *ended = e;
    gpuavdbg_crumbs_read(b, e, cs->nactions, k->regions, k->nregions, completed, run_from, run_to, region);
    return 1;
}
