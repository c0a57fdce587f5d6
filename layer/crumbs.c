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
 * (the default on a GPU, where a mark between two dispatches serializes
 * them) no action is marked: the actions outside
 * render passes form regions, marked as passes are: word 0 before a
 * region's first action, word 1 at its end (the next render pass, or the
 * command buffer's end). Nothing is written between a suspended render
 * pass and its resumption. Where the marks go, and what the words say, is
 * crumbs_marks.c's (pure); this file writes them and reads the slot while
 * the GPU is stuck (docs/decisions/watchdog-and-breadcrumbs.md).
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
    c->granularity = gpuavdbg_crumbs_granularity(setting, cpu_device);
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

/* fill writes the marks m planned from the GPU: with VK_AMD_buffer_marker,
 * word 0 once the commands before it reached the top of the pipe and word
 * 1 once they completed; else a vkCmdFillBuffer, which the queue runs in
 * order on lavapipe but a GPU may run alongside the action before it. */
static void fill(cb_state *cs, crumb_marks m)
{
    crumb_cb *k = cs->crumb;
    const device_data *dd = cs->dd;
    for (uint32_t i = 0; i < m.n; i++) {
        uint32_t word = m.word[i];
        if (dd->buffer_marker && dd->disp.CmdWriteBufferMarkerAMD)
            dd->disp.CmdWriteBufferMarkerAMD(cs->cb,
                                             word ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT
                                                  : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                             k->buf, k->off + word * 4, m.value[i]);
        else
            dd->disp.CmdFillBuffer(cs->cb, k->buf, k->off + word * 4, 4, m.value[i]);
    }
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
     * the primary's pass markers cover it. */
    gpuavdbg_crumbs_rec_begin(&k->rec, c->granularity,
                              cs->secondary && bi && (bi->flags & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT));
}

void gpuavdbg_crumbs_mark(cb_state *cs, uint32_t action, int after)
{
    fill(cs, gpuavdbg_crumbs_rec_action(&cs->crumb->rec, action, after));
}

void gpuavdbg_crumbs_pass_begin(cb_state *cs, VkRenderingFlags flags)
{
    if (cs->crumb)
        fill(cs, gpuavdbg_crumbs_rec_pass_begin(&cs->crumb->rec, cs->nactions, flags));
}

void gpuavdbg_crumbs_pass_end(cb_state *cs)
{
    if (cs->crumb)
        fill(cs, gpuavdbg_crumbs_rec_pass_end(&cs->crumb->rec, cs->nactions, cs->secondary));
}

void gpuavdbg_crumbs_end(cb_state *cs)
{
    if (cs->crumb)
        fill(cs, gpuavdbg_crumbs_rec_end(&cs->crumb->rec, cs->nactions));
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
    gpuavdbg_crumbs_rec_free(&k->rec);
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
    if (!k)
        return 0;
    uint32_t b = k->words[0], e = k->words[1];
    if (!gpuavdbg_crumbs_read(&k->rec, b, e, cs->nactions, completed, run_from, run_to, region))
        return 0;
    *begun = b;
    *ended = e;
    return 1;
}
