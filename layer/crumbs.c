/*
 * crumbs.c: breadcrumbs (crumbs.h). Each command buffer of a device with the
 * watchdog on gets a marker slot of 16 bytes in one of the device's
 * host-visible, coherent marker buffers. Before an action the GPU writes
 * the action's index + 1 into the slot's first word, after it into the
 * second (vkCmdFillBuffer, a transfer the queue runs in order with the
 * action on lavapipe). Inside a render pass vkCmdFillBuffer is not
 * allowed: the pass is marked instead, its first action before it begins
 * and the actions completed after it ends, so a hang inside names the
 * pass's actions as running. The host reads the slot while the GPU is
 * stuck (docs/decisions/watchdog-and-breadcrumbs.md).
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
    crumb_chunk *chunks;
    uint32_t nchunks;
    uint32_t *free_slots;
    uint32_t nfree, cap_free;
    int failed; /* a marker buffer could not be made: no more slots */
} crumb_dev;

void gpuavdbg_crumbs_device_created(device_data *dd, uint64_t watchdog_ns)
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
    dd->crumbs = c;
}

uint64_t gpuavdbg_crumbs_watchdog_ns(const device_data *dd)
{
    return dd->crumbs ? dd->crumbs->watchdog_ns : 0;
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
    k->in_pass = cs->secondary && bi && (bi->flags & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT);
    k->used = 0;
    k->npasses = 0;
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

void gpuavdbg_crumbs_mark(cb_state *cs, uint32_t action, int after)
{
    fill(cs, after ? 1 : 0, action + 1);
}

void gpuavdbg_crumbs_pass_begin(cb_state *cs)
{
    crumb_cb *k = cs->crumb;
    if (!k || k->in_pass)
        return;
    uint32_t first = cs->nactions;
    if (k->npasses == k->cap_passes) {
        uint32_t ncap = k->cap_passes ? k->cap_passes * 2 : 8;
        crumb_pass *g = realloc(k->passes, ncap * sizeof *g);
        if (!g)
            return; /* no marker: the pass's actions show as not started */
        k->passes = g;
        k->cap_passes = ncap;
    }
    k->passes[k->npasses++] = (crumb_pass){first, UINT32_MAX};
    fill(cs, 0, (first + 1) | GPUAVDBG_CRUMB_PASS);
    k->in_pass = 1;
}

void gpuavdbg_crumbs_pass_end(cb_state *cs)
{
    crumb_cb *k = cs->crumb;
    if (!k || !k->in_pass || (cs->secondary && k->npasses == 0))
        return; /* no pass of ours (a secondary inside its primary's) */
    k->in_pass = 0;
    if (k->npasses > 0 && k->passes[k->npasses - 1].end == UINT32_MAX)
        k->passes[k->npasses - 1].end = cs->nactions;
    fill(cs, 1, cs->nactions);
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
    free(k->passes);
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

int gpuavdbg_crumbs_state(const cb_state *cs, uint32_t *completed, uint32_t *run_from, uint32_t *run_to,
                          uint32_t *begun, uint32_t *ended)
{
    const crumb_cb *k = cs->crumb;
    uint32_t n = cs->nactions;
    *completed = *run_from = *run_to = 0;
    *begun = *ended = 0;
    if (!k || !k->used)
        return 0;
    uint32_t b = k->words[0], e = k->words[1];
    *begun = b;
    *ended = e;
    uint32_t done = e < n ? e : n;
    uint32_t from = done, to = done;
    if (b & GPUAVDBG_CRUMB_PASS) {
        /* Inside a render pass that began at action first: its actions
         * not yet marked complete are running. */
        uint32_t first = (b & ~GPUAVDBG_CRUMB_PASS) - 1, end = n;
        for (uint32_t i = 0; i < k->npasses; i++)
            if (k->passes[i].first == first) {
                end = k->passes[i].end == UINT32_MAX ? n : k->passes[i].end;
                break;
            }
        from = first > done ? first : done;
        to = end > from ? end : from;
    } else if (b > done) {
        /* Action b - 1 has begun and not completed: it and any before it
         * not completed are running (the queue may overlap them). */
        to = b < n ? b : n;
    }
    *completed = done;
    *run_from = from;
    *run_to = to;
    return 1;
}
