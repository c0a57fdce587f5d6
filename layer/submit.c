/*
 * submit.c: queue submission and reading the records back.
 *
 * Before calling down, the layer clears the output buffers of the submitted
 * command buffers (and of the secondaries they execute). The submission gets
 * one of the layer's fences: passed in the app's own call when the app gives
 * no fence, else signalled by an empty vkQueueSubmit right after. The
 * submission then waits in the device's pending list; its records are read
 * (one call into Go) once its fence has signalled, which the layer checks
 * where the app learns that work finished or needs a command buffer back:
 * vkWaitForFences, vkGetFenceStatus, vkWaitSemaphores,
 * vkGetSemaphoreCounterValue, vkQueueWaitIdle, vkDeviceWaitIdle,
 * vkQueuePresentKHR, the next submit, and (waiting for that one submission)
 * vkBeginCommandBuffer, vkResetCommandBuffer, vkResetCommandPool,
 * vkFreeCommandBuffers, vkDestroyCommandPool and vkDestroyDevice. The app
 * is never serialized by the layer: no wait happens that the app's own
 * call did not imply.
 *
 * A command buffer submitted again while still pending (SIMULTANEOUS_USE,
 * or a secondary executed by two pending primaries) is not cleared: the
 * earlier submission gives it up and the later one reports the records of
 * both.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ground.h"
#include "accel.h"
#include "addresses.h"
#include "cmdchecks.h"
#include "crumbs.h"
#include "descriptors.h"
#include "fault.h"
#include "resources.h"
#include "submit.h"
#include "_cgo_export.h"

static uint64_t g_submits;

uint64_t gpuavdbg_submit_count(void)
{
    return __atomic_load_n(&g_submits, __ATOMIC_RELAXED);
}

static uint64_t g_lat_n, g_lat_sum, g_lat_max;

/* The coverage counts (gpuavdbg_coverage_counts). */
static uint64_t g_cov_cbs, g_cov_actions, g_cov_instrumented, g_cov_precise;

void gpuavdbg_coverage_counts(gpuavdbg_coverage *out)
{
    out->command_buffers = __atomic_load_n(&g_cov_cbs, __ATOMIC_RELAXED);
    out->actions = __atomic_load_n(&g_cov_actions, __ATOMIC_RELAXED);
    out->instrumented = __atomic_load_n(&g_cov_instrumented, __ATOMIC_RELAXED);
    out->precise = __atomic_load_n(&g_cov_precise, __ATOMIC_RELAXED);
}

/* count_cb adds a submitted command buffer and the secondaries it executes
 * (depth bounds nesting) to a submit's coverage counts, before the submit:
 * none of them may change while it is being submitted. */
static void count_cb(gpuavdbg_coverage *cv, VkCommandBuffer cb, int depth)
{
    const cb_state *cs = gpuavdbg_cb_get(cb);
    if (depth > 8)
        return;
    cv->command_buffers++;
    if (!cs)
        return;
    cv->actions += cs->nactions;
    cv->instrumented += cs->nchecked;
    cv->precise += cs->nprecise;
    for (uint32_t i = 0; i < cs->nexecuted; i++)
        count_cb(cv, cs->executed[i], depth + 1);
}

/* count_submitted adds a successful submit's counts to the process's. */
static void count_submitted(VkResult r, const gpuavdbg_coverage *cv)
{
    if (r != VK_SUCCESS)
        return;
    __atomic_add_fetch(&g_cov_cbs, cv->command_buffers, __ATOMIC_RELAXED);
    __atomic_add_fetch(&g_cov_actions, cv->actions, __ATOMIC_RELAXED);
    __atomic_add_fetch(&g_cov_instrumented, cv->instrumented, __ATOMIC_RELAXED);
    __atomic_add_fetch(&g_cov_precise, cv->precise, __ATOMIC_RELAXED);
}

void gpuavdbg_latency(uint64_t *n, uint64_t *sum_ns, uint64_t *max_ns)
{
    *n = __atomic_load_n(&g_lat_n, __ATOMIC_RELAXED);
    *sum_ns = __atomic_load_n(&g_lat_sum, __ATOMIC_RELAXED);
    *max_ns = __atomic_load_n(&g_lat_max, __ATOMIC_RELAXED);
}

uint64_t gpuavdbg_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* How long a forced read (the app wants a command buffer back) waits for
 * the layer's fence. The app's work has finished by then, so the fence
 * signals at once; the bound only keeps a misbehaving app from hanging. */
#define FLUSH_TIMEOUT_NS (5ull * 1000000000ull)

/* One listed command buffer of a submission. */
typedef struct pending_cb {
    cb_state *cs;     /* NULL once a later submission took it over */
    uint64_t primary; /* for a secondary: the primary that executed it */
    uint64_t primary_serial;
    uint32_t primary_action;
    uint32_t reported_below; /* records of actions below it went with a hang report */
} pending_cb;

enum { PENDING_QUEUED = 0, PENDING_TAKEN = 1, PENDING_SUBMITTING = 2 };

typedef struct pending_submit {
    struct pending_submit *next;
    device_data *dd;
    VkQueue queue;
    uint64_t submit;
    VkFence fence;
    VkFence app_fence; /* the app's fence of the same submit, or 0 */
    uint64_t t_submit;
    /* The watchdog's: since when it is the oldest unfinished submission
     * of its queue (0: not yet seen so), and whether a hang report named
     * it. */
    uint64_t t_front;
    int hang_reported;
    int finish_told; /* a reported one's finish was told (goHangFinished) */
    /* The TUI's countdown (goBusy): 1, told it has been the oldest
     * unfinished of its queue past busy_ns; 2, its end told too. */
    int busy_told;
    int state;
    uint32_t n, cap;
    pending_cb *cbs;
} pending_submit;

static void watchdog_start(device_data *dd, pending_submit *e);
static void watchdog_stop(device_data *dd);
static void device_lost(device_data *dd, const char *call);

/* ---- fences --------------------------------------------------------------- */

/* fence_get returns a reset fence from the pool or a new one; called with
 * dd->pending_lock held. */
static VkFence fence_get(device_data *dd)
{
    if (dd->nfree_fences > 0)
        return dd->free_fences[--dd->nfree_fences];
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence f = VK_NULL_HANDLE;
    if (dd->disp.CreateFence(dd->device, &fi, NULL, &f) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    return f;
}

static int push_fence(VkFence **arr, uint32_t *n, uint32_t *cap, VkFence f)
{
    if (*n == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 16;
        VkFence *g = realloc(*arr, ncap * sizeof *g);
        if (!g)
            return 0;
        *arr = g;
        *cap = ncap;
    }
    (*arr)[(*n)++] = f;
    return 1;
}

/* fence_put gives a signalled fence back; called with dd->pending_lock. */
static void fence_put(device_data *dd, VkFence f)
{
    if (dd->disp.ResetFences(dd->device, 1, &f) != VK_SUCCESS ||
        !push_fence(&dd->free_fences, &dd->nfree_fences, &dd->cap_free_fences, f))
        dd->disp.DestroyFence(dd->device, f, NULL);
}

/* ---- the pending list ------------------------------------------------------- */

void gpuavdbg_pending_init(device_data *dd)
{
    pthread_mutex_init(&dd->pending_lock, NULL);
    pthread_cond_init(&dd->pending_cond, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&dd->watchdog_cond, &ca);
    pthread_condattr_destroy(&ca);
}

static void unlink_entry(device_data *dd, pending_submit *e)
{
    pending_submit **pp = &dd->pending_head, *prev = NULL;
    while (*pp && *pp != e) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (!*pp)
        return;
    *pp = e->next;
    if (dd->pending_tail == e)
        dd->pending_tail = prev;
    e->next = NULL;
}

/* process reads the records of a taken entry whose fence has signalled
 * (or, with signalled == 0, that timed out: its records are dropped), hands
 * them to Go, and frees the entry. Called without dd->pending_lock. */
static void process(device_data *dd, pending_submit *e, int signalled)
{
    uint64_t lat = gpuavdbg_now_ns() - e->t_submit;
    gpuavdbg_submit_cb small[16];
    gpuavdbg_submit_cb *out = e->n <= 16 ? small : malloc(e->n * sizeof *out);
    uint32_t n = 0;
    for (uint32_t i = 0; signalled && out && i < e->n; i++) {
        const cb_state *cs = e->cbs[i].cs;
        if (!cs || !cs->unit || cs->unit == dd->sink)
            continue; /* listed for its breadcrumbs only: no records of its own */
        const uint32_t *w = cs->unit->words;
        uint32_t nlayer = 0, layer_dropped = 0, pcap = 0;
        const uint32_t *layer = gpuavdbg_cc_records(cs, &nlayer, &layer_dropped);
        const uint32_t *pw = gpuavdbg_unit_input(cs->unit, GPUAVDBG_INPUT_CMD, &pcap);
        int prepass = pw && pcap > GPUAVDBG_PREPASS_JOB_WORD &&
                      (pw[GPUAVDBG_PREPASS_HEADER_WORD] != 0 || pw[GPUAVDBG_PREPASS_HEADER_WORD + 1] != 0);
        const uint32_t *pf = cs->unit->printf;
        if (w[0] == 0 && nlayer == 0 && layer_dropped == 0 && !prepass && pf[0] == 0 && pf[1] == 0)
            continue; /* no record claimed, none of the layer's, no printf line written or lost */
        out[n++] = (gpuavdbg_submit_cb){
            .handle = GPUAVDBG_H(cs->cb),
            .serial = cs->serial,
            .words = w,
            .nwords = GPUAVDBG_OUTPUT_WORDS,
            .nactions = cs->nactions,
            .actions = cs->actions,
            .labels = cs->paths,
            .nlabels = cs->npaths,
            .secondary = (uint32_t)cs->secondary,
            .primary = e->cbs[i].primary,
            .primary_serial = e->cbs[i].primary_serial,
            .primary_action = e->cbs[i].primary_action,
            .layer_words = layer,
            .nlayer_words = nlayer,
            .layer_dropped = layer_dropped,
            .prepass_words = prepass ? pw + GPUAVDBG_PREPASS_HEADER_WORD : NULL,
            .nprepass_words = prepass ? GPUAVDBG_PREPASS_HEADER_WORDS + GPUAVDBG_PREPASS_RECORDS * GPUAVDBG_LAYER_RECORD_WORDS
                                      : 0,
            .printf_words = pf,
            .nprintf_words = cs->unit->printf_words,
            .min_action = e->cbs[i].reported_below,
        };
    }
    if (n > 0)
        goSubmitDone(GPUAVDBG_H(e->queue), e->submit, out, n);
    if (signalled) {
        /* A countdown the watchdog started ends (its poll had not seen
         * the finish). */
        pthread_mutex_lock(&dd->pending_lock);
        int busy = e->busy_told == 1 && !dd->lost;
        if (busy)
            e->busy_told = 2;
        pthread_mutex_unlock(&dd->pending_lock);
        if (busy && !gpuavdbg_forked())
            goBusy(GPUAVDBG_H(e->queue), e->submit, lat, 0, 1);
    }
    if (signalled && e->hang_reported && !e->finish_told) {
        /* A hang named it, and it finished: slow, not hung (unless the
         * device was lost since). The watchdog's poll had not seen it. */
        e->finish_told = 1;
        pthread_mutex_lock(&dd->pending_lock);
        int lost = dd->lost;
        pthread_mutex_unlock(&dd->pending_lock);
        if (!lost && !gpuavdbg_forked())
            goHangFinished(GPUAVDBG_H(e->queue), e->submit, lat);
    }
    if (out && out != small)
        free(out);
    if (!out)
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "submit %llu: out of memory: its records are not read",
                      (unsigned long long)e->submit);
    if (signalled) {
        __atomic_add_fetch(&g_lat_n, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&g_lat_sum, lat, __ATOMIC_RELAXED);
        uint64_t m = __atomic_load_n(&g_lat_max, __ATOMIC_RELAXED);
        while (lat > m && !__atomic_compare_exchange_n(&g_lat_max, &m, lat, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        }
    }

    pthread_mutex_lock(&dd->pending_lock);
    for (uint32_t i = 0; i < e->n; i++)
        if (e->cbs[i].cs && e->cbs[i].cs->pending == e)
            e->cbs[i].cs->pending = NULL;
    if (!e->fence)
        ;
    else if (signalled)
        fence_put(dd, e->fence);
    else if (!push_fence(&dd->stuck_fences, &dd->nstuck_fences, &dd->cap_stuck_fences, e->fence))
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "out of memory: a fence of the layer leaks");
    pthread_cond_broadcast(&dd->pending_cond);
    pthread_mutex_unlock(&dd->pending_lock);
    free(e->cbs);
    free(e);
}

/* take_signalled unlinks, marks taken and returns (as a list) every queued
 * entry whose fence has signalled; with dd->pending_lock held. */
static pending_submit *take_signalled(device_data *dd)
{
    pending_submit *done = NULL, **tail = &done;
    for (pending_submit *e = dd->pending_head, *next; e; e = next) {
        next = e->next;
        if (e->state != PENDING_QUEUED || dd->disp.GetFenceStatus(dd->device, e->fence) != VK_SUCCESS)
            continue;
        unlink_entry(dd, e);
        e->state = PENDING_TAKEN;
        *tail = e;
        tail = &e->next;
    }
    return done;
}

/* poll reads every submission whose fence has signalled; it never waits. */
static void poll(device_data *dd)
{
    if (!__atomic_load_n(&dd->pending_head, __ATOMIC_ACQUIRE))
        return;
    pthread_mutex_lock(&dd->pending_lock);
    pending_submit *done = take_signalled(dd);
    pthread_mutex_unlock(&dd->pending_lock);
    for (pending_submit *e = done, *next; e; e = next) {
        next = e->next;
        process(dd, e, 1);
    }
}

/* flush_entry waits for a queued entry's fence and reads it; called with
 * dd->pending_lock held, which it releases and takes again. */
static void flush_entry(device_data *dd, pending_submit *e)
{
    unlink_entry(dd, e);
    e->state = PENDING_TAKEN;
    pthread_mutex_unlock(&dd->pending_lock);
    VkResult r = dd->disp.WaitForFences(dd->device, 1, &e->fence, VK_TRUE, FLUSH_TIMEOUT_NS);
    if (r != VK_SUCCESS && !e->hang_reported) /* else the hang group said it */
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                      "submit %llu did not finish within %llu s of the app reusing its command buffer (%d): its "
                      "records were not read",
                      (unsigned long long)e->submit, FLUSH_TIMEOUT_NS / 1000000000ull, (int)r);
    process(dd, e, r == VK_SUCCESS);
    pthread_mutex_lock(&dd->pending_lock);
}

/* wait_free returns once cs is in no pending submission; with
 * dd->pending_lock held. */
static void wait_free(device_data *dd, cb_state *cs)
{
    while (cs->pending) {
        pending_submit *e = cs->pending;
        if (e->state == PENDING_QUEUED)
            flush_entry(dd, e);
        else
            pthread_cond_wait(&dd->pending_cond, &dd->pending_lock);
    }
}

void gpuavdbg_pending_flush_cb(device_data *dd, cb_state *cs)
{
    if (!cs || (!cs->unit && !cs->crumb))
        return;
    /* No lock-free shortcut: an entry being read or submitted is not in the
     * list, only in cs->pending. */
    pthread_mutex_lock(&dd->pending_lock);
    wait_free(dd, cs);
    pthread_mutex_unlock(&dd->pending_lock);
}

static int entry_has_pool(const pending_submit *e, VkCommandPool pool)
{
    for (uint32_t i = 0; i < e->n; i++)
        if (e->cbs[i].cs && (!pool || e->cbs[i].cs->pool == pool))
            return 1;
    return 0;
}

/* flush_matching reads every submission holding a command buffer of pool
 * (any, with pool == 0), waiting for it, including those another thread is
 * reading. */
static void flush_matching(device_data *dd, VkCommandPool pool)
{
    pthread_mutex_lock(&dd->pending_lock);
    for (;;) {
        pending_submit *e = dd->pending_head;
        while (e && !entry_has_pool(e, pool))
            e = e->next;
        if (!e)
            break;
        flush_entry(dd, e);
    }
    pthread_mutex_unlock(&dd->pending_lock);
}

void gpuavdbg_pending_flush_pool(device_data *dd, VkCommandPool pool)
{
    /* Entries being read or submitted by another thread are out of the
     * list; cmdbuf.c waits for those per command buffer. */
    flush_matching(dd, pool);
}

uint32_t gpuavdbg_pending_drain(device_data *dd, uint64_t deadline_ns)
{
    uint32_t unread = 0;
    if (!dd->disp.WaitForFences || !dd->disp.GetFenceStatus)
        return 0;
    pthread_mutex_lock(&dd->pending_lock);
    for (;;) {
        /* Oldest first: a queue's submissions finish in order. Those another
         * thread is reading or submitting are out of the list: theirs. */
        pending_submit *e = dd->pending_head;
        while (e && e->state != PENDING_QUEUED)
            e = e->next;
        if (!e)
            break;
        unlink_entry(dd, e);
        e->state = PENDING_TAKEN;
        pthread_mutex_unlock(&dd->pending_lock);
        uint64_t now = gpuavdbg_now_ns();
        VkResult r = dd->disp.WaitForFences(dd->device, 1, &e->fence, VK_TRUE, deadline_ns > now ? deadline_ns - now : 0);
        if (r != VK_SUCCESS && !e->hang_reported) /* else the hang group said it */
            unread++;
        process(dd, e, r == VK_SUCCESS);
        pthread_mutex_lock(&dd->pending_lock);
    }
    pthread_mutex_unlock(&dd->pending_lock);
    return unread;
}

void gpuavdbg_pending_teardown(device_data *dd)
{
    watchdog_stop(dd);
    if (dd->disp.WaitForFences && dd->disp.GetFenceStatus) {
        uint32_t unread = gpuavdbg_pending_drain(dd, gpuavdbg_now_ns() + GPUAVDBG_DRAIN_NS);
        if (unread && !gpuavdbg_forked())
            goSubmitsUnread(unread, (uint32_t)(GPUAVDBG_DRAIN_NS / 1000000u));
    }
    pthread_mutex_lock(&dd->pending_lock);
    /* Entries with no command buffer left (all taken over) may remain. */
    for (pending_submit *e = dd->pending_head, *next; e; e = next) {
        next = e->next;
        if (dd->disp.DestroyFence)
            dd->disp.DestroyFence(dd->device, e->fence, NULL);
        free(e->cbs);
        free(e);
    }
    dd->pending_head = dd->pending_tail = NULL;
    for (uint32_t i = 0; i < dd->nfree_fences; i++)
        dd->disp.DestroyFence(dd->device, dd->free_fences[i], NULL);
    for (uint32_t i = 0; i < dd->nstuck_fences; i++)
        dd->disp.DestroyFence(dd->device, dd->stuck_fences[i], NULL);
    free(dd->free_fences);
    free(dd->stuck_fences);
    dd->free_fences = dd->stuck_fences = NULL;
    dd->nfree_fences = dd->cap_free_fences = dd->nstuck_fences = dd->cap_stuck_fences = 0;
    pthread_mutex_unlock(&dd->pending_lock);
    pthread_cond_destroy(&dd->pending_cond);
    pthread_cond_destroy(&dd->watchdog_cond);
    pthread_mutex_destroy(&dd->pending_lock);
}

/* ---- the watchdog, and a lost device ------------------------------------------ */

/* A hang is reported once per submission: the watchdog's (a submission
 * that has been the oldest unfinished of its queue for watchdog_seconds),
 * or the first VK_ERROR_DEVICE_LOST a call returns. The report names every
 * unfinished submission, and per command buffer what its breadcrumbs say
 * (crumbs.h), with a copy of what Go needs: one call into Go
 * (docs/decisions/watchdog-and-breadcrumbs.md). */

typedef struct hang_copy {
    gpuavdbg_hang_submit *subs;
    uint32_t n;
} hang_copy;

static void hang_free(hang_copy *h)
{
    for (uint32_t i = 0; i < h->n; i++) {
        gpuavdbg_hang_submit *s = &h->subs[i];
        for (uint32_t j = 0; j < s->ncbs; j++) {
            const gpuavdbg_hang_cb *c = &s->cbs[j];
            for (uint32_t l = 0; l < c->nlabels; l++)
                free(c->labels[l]);
            free((void *)c->labels);
            free((void *)c->actions);
            free((void *)c->words);
        }
        free((void *)s->cbs);
    }
    free(h->subs);
    h->subs = NULL;
    h->n = 0;
}

/* hang_cb copies what Go needs of a pending command buffer, and marks the
 * records of its completed actions reported; with dd->pending_lock. */
static void hang_cb(device_data *dd, pending_cb *p, gpuavdbg_hang_cb *c)
{
    const cb_state *cs = p->cs;
    *c = (gpuavdbg_hang_cb){.handle = GPUAVDBG_H(cs->cb),
                            .secondary = (uint32_t)cs->secondary,
                            .primary = p->primary,
                            .primary_action = p->primary_action};
    int region = 0;
    c->markers =
        (uint32_t)gpuavdbg_crumbs_state(cs, &c->completed, &c->run_from, &c->run_to, &region, &c->begun, &c->ended);
    c->region = (uint32_t)region;
    gpuavdbg_action *a = cs->nactions ? malloc(cs->nactions * sizeof *a) : NULL;
    if (a) {
        memcpy(a, cs->actions, cs->nactions * sizeof *a);
        c->actions = a;
        c->nactions = cs->nactions;
    }
    char **l = cs->npaths ? calloc(cs->npaths, sizeof *l) : NULL;
    if (l) {
        for (uint32_t i = 0; i < cs->npaths; i++)
            l[i] = strdup(cs->paths[i] ? cs->paths[i] : "");
        c->labels = l;
        c->nlabels = cs->npaths;
    }
    if (c->markers && c->completed > 0 && cs->unit && cs->unit != dd->sink) {
        /* The records the completed actions wrote are whole: they are
         * reported with the hang, and skipped when the submission is
         * read (process). */
        uint32_t claimed = cs->unit->words[0];
        if (claimed > GPUAVDBG_RECORDS)
            claimed = GPUAVDBG_RECORDS;
        uint32_t nw = GPUAVDBG_HEADER_WORDS + claimed * GPUAVDBG_RECORD_WORDS;
        uint32_t *w = malloc(GPUAVDBG_OUTPUT_WORDS * sizeof *w);
        if (w) {
            memcpy(w, cs->unit->words, nw * sizeof *w);
            memset(w + nw, 0, (GPUAVDBG_OUTPUT_WORDS - nw) * sizeof *w);
            c->words = w;
            c->nwords = GPUAVDBG_OUTPUT_WORDS;
            p->reported_below = c->completed;
        }
    }
}

/* hang_collect copies every queued submission not reported yet (lost:
 * every one, finished or not; else those whose fence has not signalled)
 * and marks them reported; with dd->pending_lock. */
static void hang_collect(device_data *dd, int lost, hang_copy *h)
{
    uint32_t n = 0;
    for (pending_submit *e = dd->pending_head; e; e = e->next)
        n++;
    h->subs = n ? calloc(n, sizeof *h->subs) : NULL;
    h->n = 0;
    uint64_t now = gpuavdbg_now_ns();
    for (pending_submit *e = dd->pending_head; e && h->subs; e = e->next) {
        if (e->state != PENDING_QUEUED || e->hang_reported)
            continue;
        int finished = dd->disp.GetFenceStatus(dd->device, e->fence) == VK_SUCCESS;
        if (finished && !lost)
            continue;
        e->hang_reported = 1;
        gpuavdbg_hang_submit *s = &h->subs[h->n++];
        *s = (gpuavdbg_hang_submit){.queue = GPUAVDBG_H(e->queue),
                                    .submit = e->submit,
                                    .pending_ns = now - e->t_submit,
                                    .finished = (uint32_t)finished};
        gpuavdbg_hang_cb *cbs = calloc(e->n ? e->n : 1, sizeof *cbs);
        if (!cbs)
            continue;
        s->cbs = cbs;
        for (uint32_t i = 0; i < e->n; i++)
            if (e->cbs[i].cs)
                hang_cb(dd, &e->cbs[i], &cbs[s->ncbs++]);
    }
}

/* hang_report collects and hands the hang to Go; with dd->pending_lock,
 * which it releases around the call (Go may call the app's messengers). */
static void hang_report(device_data *dd, int reason, const char *call)
{
    hang_copy h = {0};
    hang_collect(dd, reason == GPUAVDBG_HANG_DEVICE_LOST, &h);
    if (reason == GPUAVDBG_HANG_WATCHDOG && h.n == 0)
        return;
    pthread_mutex_unlock(&dd->pending_lock);
    /* A lost device's fault (VK_EXT_device_fault, where enabled: fault.c),
     * read once, with the hang. */
    gpuavdbg_fault fault;
    memset(&fault, 0, sizeof fault);
    if (reason == GPUAVDBG_HANG_DEVICE_LOST && !gpuavdbg_forked())
        gpuavdbg_fault_read(dd, &fault);
    if (!gpuavdbg_forked())
        goHang(reason, (char *)(call ? call : ""), gpuavdbg_crumbs_watchdog_ns(dd), gpuavdbg_crumbs_granularity_of(dd),
               h.subs, h.n, &fault);
    gpuavdbg_fault_free(&fault);
    hang_free(&h);
    pthread_mutex_lock(&dd->pending_lock);
}

/* device_lost reports the device lost once: call returned
 * VK_ERROR_DEVICE_LOST. */
static void device_lost(device_data *dd, const char *call)
{
    pthread_mutex_lock(&dd->pending_lock);
    if (!dd->lost) {
        dd->lost = 1;
        hang_report(dd, GPUAVDBG_HANG_DEVICE_LOST, call);
    }
    pthread_mutex_unlock(&dd->pending_lock);
}

#define LOST(dd, r, call)                           \
    do {                                            \
        if ((r) == VK_ERROR_DEVICE_LOST)            \
            device_lost(dd, call);                  \
    } while (0)

/* A submission a hang named that finished, for goHangFinished; or, for
 * goBusy, one busy past busy_ns (done 0) or such a one finished (1). */
typedef struct hang_done {
    uint64_t queue, submit, ns;
    int done;
} hang_done;

/* busy_ns is how long a submission is the oldest unfinished of its queue
 * before the TUI counts the watchdog down (goBusy): half the limit, at
 * most 3 s (docs/decisions/watchdog-and-breadcrumbs.md). */
static uint64_t busy_ns(uint64_t limit)
{
    uint64_t half = limit / 2;
    return half < 3000000000ull ? half : 3000000000ull;
}

/* watchdog_check runs once per tick, with dd->pending_lock: the oldest
 * unfinished submission of each queue gets its clock started, past the
 * limit the hang is reported, and a submission a hang named that has
 * finished since is told to Go (slow, not hung) with the lock released. */
static void watchdog_check(device_data *dd, uint64_t limit)
{
    VkQueue fronts[16];
    uint32_t nfronts = 0, ndone = 0, nbusy = 0;
    hang_done done[16], busy[16];
    uint64_t now = gpuavdbg_now_ns();
    int fire = 0;
    for (pending_submit *e = dd->pending_head; e; e = e->next) {
        if (e->state != PENDING_QUEUED)
            continue;
        VkResult st = dd->disp.GetFenceStatus(dd->device, e->fence);
        if (st == VK_ERROR_DEVICE_LOST) {
            if (!dd->lost) {
                dd->lost = 1;
                hang_report(dd, GPUAVDBG_HANG_DEVICE_LOST, "vkGetFenceStatus");
            }
            return;
        }
        if (st == VK_SUCCESS) {
            if (e->hang_reported && !e->finish_told && ndone < 16) { /* more: the next tick */
                e->finish_told = 1;
                done[ndone++] = (hang_done){GPUAVDBG_H(e->queue), e->submit, now - e->t_submit, 1};
            }
            if (e->busy_told == 1 && nbusy < 16) {
                e->busy_told = 2;
                busy[nbusy++] = (hang_done){GPUAVDBG_H(e->queue), e->submit, now - e->t_submit, 1};
            }
            continue;
        }
        int front = 1;
        for (uint32_t i = 0; i < nfronts && front; i++)
            front = fronts[i] != e->queue;
        if (!front) {
            e->t_front = 0; /* waiting behind an older one of its queue */
            continue;
        }
        if (nfronts < 16)
            fronts[nfronts++] = e->queue;
        if (!e->t_front)
            e->t_front = now;
        if (!e->hang_reported && now - e->t_front >= limit)
            fire = 1;
        else if (!e->hang_reported && !e->busy_told && now - e->t_front >= busy_ns(limit) && nbusy < 16) {
            e->busy_told = 1;
            busy[nbusy++] = (hang_done){GPUAVDBG_H(e->queue), e->submit, now - e->t_front, 0};
        }
    }
    if (fire)
        hang_report(dd, GPUAVDBG_HANG_WATCHDOG, NULL);
    if (ndone > 0 || nbusy > 0) {
        pthread_mutex_unlock(&dd->pending_lock);
        for (uint32_t i = 0; i < nbusy; i++)
            goBusy(busy[i].queue, busy[i].submit, busy[i].ns, limit, busy[i].done);
        for (uint32_t i = 0; i < ndone; i++)
            goHangFinished(done[i].queue, done[i].submit, done[i].ns);
        pthread_mutex_lock(&dd->pending_lock);
    }
}

static void *watchdog_main(void *p)
{
    device_data *dd = p;
    uint64_t limit = gpuavdbg_crumbs_watchdog_ns(dd);
    uint64_t tick = limit / 10;
    if (tick < 20000000ull)
        tick = 20000000ull;
    if (tick > 250000000ull)
        tick = 250000000ull;
    pthread_mutex_lock(&dd->pending_lock);
    while (!dd->watchdog_stop) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t t = (uint64_t)ts.tv_nsec + tick;
        ts.tv_sec += (time_t)(t / 1000000000ull);
        ts.tv_nsec = (long)(t % 1000000000ull);
        pthread_cond_timedwait(&dd->watchdog_cond, &dd->pending_lock, &ts);
        if (!dd->watchdog_stop && !dd->lost && dd->pending_head)
            watchdog_check(dd, limit);
    }
    pthread_mutex_unlock(&dd->pending_lock);
    return NULL;
}

/* watchdog_start starts the device's watchdog with its first pending
 * submission, and starts e's clock when no older submission of its queue
 * is pending; with dd->pending_lock. */
static void watchdog_start(device_data *dd, pending_submit *e)
{
    uint64_t limit = gpuavdbg_crumbs_watchdog_ns(dd);
    if (!limit || gpuavdbg_forked())
        return;
    int older = 0;
    for (pending_submit *o = dd->pending_head; o && !older; o = o->next)
        older = o->queue == e->queue;
    if (!older)
        e->t_front = e->t_submit;
    if (dd->watchdog_running)
        return;
    dd->watchdog_stop = 0;
    if (pthread_create(&dd->watchdog, NULL, watchdog_main, dd) == 0)
        dd->watchdog_running = 1;
    else
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "the watchdog's thread could not be started: hangs are not reported");
}

static void watchdog_stop(device_data *dd)
{
    pthread_mutex_lock(&dd->pending_lock);
    int running = dd->watchdog_running;
    dd->watchdog_stop = 1;
    dd->watchdog_running = 0;
    pthread_cond_broadcast(&dd->watchdog_cond);
    pthread_mutex_unlock(&dd->pending_lock);
    if (running)
        pthread_join(dd->watchdog, NULL);
}

/* ---- submission ------------------------------------------------------------- */

/* write_inputs writes the input buffers of a command buffer no earlier
 * submission is still using, before calling down: the descriptor state
 * (binding 2, descriptors.c) with vertex_fetch_oob's vertex tables after
 * it (cmdchecks.c), and the address table (binding 3, addresses.c). The
 * pre-pass buffer is written while recording. A writer that needs more
 * words than the buffer has gets it marked absent for this submit (its
 * checks report nothing) and a bigger one at the next
 * vkBeginCommandBuffer. */
static void write_inputs(device_data *dd, cb_state *cs)
{
    out_unit *u = cs->unit;
    if (!u || u == dd->sink)
        return;
    for (int i = 0; i < GPUAVDBG_INPUT_CMD; i++) {
        uint32_t cap;
        uint32_t *w = gpuavdbg_unit_input(u, i, &cap);
        if (!w || cap < GPUAVDBG_INPUT_HEADER_WORDS)
            continue;
        uint32_t need;
        if (i == GPUAVDBG_INPUT_DESC) {
            uint32_t vtable, count;
            need = gpuavdbg_desc_write_state(dd, cs, w, cap, &vtable, &count);
            need = gpuavdbg_cc_write_vertex(cs, w, cap, need, vtable, count);
            if (need <= cap)
                w[GPUAVDBG_INPUT_VALID_WORD] = 1;
        } else {
            need = gpuavdbg_addr_write_table(dd, cs, w, cap);
        }
        if (need > cap) {
            w[GPUAVDBG_INPUT_VALID_WORD] = 0;
            u->in_need[i] = need;
        }
    }
    gpuavdbg_accel_write_table(dd, cs); /* the builds' table, in the pre-pass buffer */
}

/* add_cb lists cb, when it has instrumented actions, and the secondaries
 * it executes (depth bounds nesting, VK_EXT_nested_command_buffer). */
static void add_cb(pending_submit *e, int *oom, VkCommandBuffer cb, uint64_t primary, uint64_t primary_serial,
                   uint32_t primary_action, int depth)
{
    cb_state *cs = gpuavdbg_cb_get(cb);
    if (!cs || depth > 8)
        return;
    gpuavdbg_desc_cb_submitted(cs); /* descriptor buffers changed since recording */
    /* Listed: it has records to read, or breadcrumbs for the watchdog. */
    int wanted = (cs->unit && cs->unit != cs->dd->sink && (cs->ninstrumented > 0 || gpuavdbg_cc_has_records(cs))) ||
                 gpuavdbg_crumbs_used(cs);
    int listed = !wanted;
    for (uint32_t i = 0; i < e->n && !listed; i++)
        listed = e->cbs[i].cs == cs;
    if (!listed) {
        if (e->n == e->cap) {
            uint32_t ncap = e->cap ? e->cap * 2 : 8;
            pending_cb *g = realloc(e->cbs, ncap * sizeof *g);
            if (!g) {
                *oom = 1;
                return;
            }
            e->cbs = g;
            e->cap = ncap;
        }
        e->cbs[e->n++] = (pending_cb){.cs = cs,
                                      .primary = depth > 0 ? primary : 0,
                                      .primary_serial = depth > 0 ? primary_serial : 0,
                                      .primary_action = primary_action};
    }
    for (uint32_t i = 0; i < cs->nexecuted; i++)
        add_cb(e, oom, cs->executed[i], depth == 0 ? GPUAVDBG_H(cb) : primary, depth == 0 ? cs->serial : primary_serial,
               depth == 0 && cs->executed_at ? cs->executed_at[i] : primary_action, depth + 1);
}

/* prepare takes the listed command buffers for the new entry e: each is
 * cleared, or, still pending in an earlier submission, taken over from it
 * uncleared; they point at e (being submitted) from then on. */
static void prepare(device_data *dd, pending_submit *e)
{
    pthread_mutex_lock(&dd->pending_lock);
    e->state = PENDING_SUBMITTING;
    for (uint32_t i = 0; i < e->n; i++) {
        cb_state *cs = e->cbs[i].cs;
        while (cs->pending && cs->pending->state != PENDING_QUEUED)
            pthread_cond_wait(&dd->pending_cond, &dd->pending_lock); /* being read or submitted right now */
        pending_submit *old = cs->pending;
        if (old && (!cs->simultaneous || dd->disp.GetFenceStatus(dd->device, old->fence) == VK_SUCCESS)) {
            /* Without SIMULTANEOUS_USE the earlier execution has finished
             * (the spec requires it): its fence is about to signal, if it
             * has not. Read it first. */
            flush_entry(dd, old);
            i--;
            continue;
        }
        if (old) {
            for (uint32_t j = 0; j < old->n; j++)
                if (old->cbs[j].cs == cs)
                    old->cbs[j].cs = NULL;
        } else {
            if (cs->unit && cs->unit != dd->sink) {
                gpuavdbg_unit_zero(cs->unit);
                write_inputs(dd, cs); /* bindings 2 and 3 */
            }
            gpuavdbg_crumbs_zero(cs);
        }
        cs->pending = e;
    }
    pthread_mutex_unlock(&dd->pending_lock);
}

/* commit links e (its fence submitted) at the tail of the pending list. */
static void commit(device_data *dd, pending_submit *e)
{
    pthread_mutex_lock(&dd->pending_lock);
    e->state = PENDING_QUEUED;
    watchdog_start(dd, e);
    if (dd->pending_tail)
        dd->pending_tail->next = e;
    else
        __atomic_store_n(&dd->pending_head, e, __ATOMIC_RELEASE);
    dd->pending_tail = e;
    pthread_cond_broadcast(&dd->pending_cond);
    pthread_mutex_unlock(&dd->pending_lock);
}

/* abandon forgets e after a failed submit. */
static void abandon(device_data *dd, pending_submit *e)
{
    pthread_mutex_lock(&dd->pending_lock);
    for (uint32_t i = 0; i < e->n; i++)
        if (e->cbs[i].cs->pending == e)
            e->cbs[i].cs->pending = NULL;
    if (e->fence)
        fence_put(dd, e->fence);
    pthread_cond_broadcast(&dd->pending_cond);
    pthread_mutex_unlock(&dd->pending_lock);
    free(e->cbs);
    free(e);
}

/* submit_common runs one vkQueueSubmit or vkQueueSubmit2 call for the
 * heap entry e (whose command buffers are listed): call(ctx, fence) calls
 * down with the given fence. */
typedef VkResult (*call_down)(const void *ctx, VkFence fence);

static VkResult submit_common(device_data *dd, VkQueue queue, VkFence app_fence, pending_submit *e, int oom,
                              call_down call, const void *ctx)
{
    poll(dd);
    gpuavdbg_desc_tell(); /* what add_cb found unchecked */
    if (oom)
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "out of memory listing a submit's command buffers: some are not read");
    if (!e || e->n == 0) {
        VkResult r = call(ctx, app_fence);
        __atomic_store_n(&dd->last_submit, __atomic_add_fetch(&g_submits, 1, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
        if (r == VK_ERROR_DEVICE_LOST)
            device_lost(dd, "vkQueueSubmit");
        if (e) {
            free(e->cbs);
            free(e);
        }
        return r;
    }
    e->dd = dd;
    e->queue = queue;
    e->app_fence = app_fence;
    prepare(dd, e);
    gpuavdbg_desc_tell(); /* what the descriptor state left unchecked, outside the lock */
    pthread_mutex_lock(&dd->pending_lock);
    e->fence = fence_get(dd);
    pthread_mutex_unlock(&dd->pending_lock);
    e->t_submit = gpuavdbg_now_ns();
    e->submit = __atomic_add_fetch(&g_submits, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&dd->last_submit, e->submit, __ATOMIC_RELAXED);
    VkResult r = call(ctx, app_fence || !e->fence ? app_fence : e->fence);
    if (r == VK_ERROR_DEVICE_LOST)
        device_lost(dd, "vkQueueSubmit");
    if (r == VK_SUCCESS && app_fence && e->fence) {
        VkResult fr = dd->disp.QueueSubmit(queue, 0, NULL, e->fence);
        if (fr != VK_SUCCESS) {
            gpuavdbg_logf(GPUAVDBG_LOG_ERROR, "submit %llu: the layer's fence submit failed (%d); waiting for the queue",
                          (unsigned long long)e->submit, (int)fr);
            dd->disp.DestroyFence(dd->device, e->fence, NULL);
            e->fence = VK_NULL_HANDLE;
        }
    }
    if (r != VK_SUCCESS) {
        abandon(dd, e);
        return r;
    }
    if (!e->fence) {
        /* No fence of ours (creation failed): wait for the queue, the
         * walking skeleton's way. */
        pthread_mutex_lock(&dd->pending_lock);
        e->state = PENDING_TAKEN;
        pthread_mutex_unlock(&dd->pending_lock);
        process(dd, e, dd->disp.QueueWaitIdle(queue) == VK_SUCCESS);
        return r;
    }
    commit(dd, e);
    return r;
}

static pending_submit *new_entry(void)
{
    return calloc(1, sizeof(pending_submit));
}

typedef struct ctx1 {
    PFN_vkQueueSubmit fn;
    VkQueue queue;
    uint32_t n;
    const VkSubmitInfo *si;
} ctx1;

static VkResult call1(const void *p, VkFence fence)
{
    const ctx1 *c = p;
    return c->fn(c->queue, c->n, c->si, fence);
}

typedef struct ctx2 {
    PFN_vkQueueSubmit2 fn;
    VkQueue queue;
    uint32_t n;
    const VkSubmitInfo2 *si;
} ctx2;

static VkResult call2(const void *p, VkFence fence)
{
    const ctx2 *c = p;
    return c->fn(c->queue, c->n, c->si, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_QueueSubmit(VkQueue queue, uint32_t n, const VkSubmitInfo *si, VkFence fence)
{
    device_data *dd = gpuavdbg_device_get(queue);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    pending_submit *e = new_entry();
    int oom = !e;
    for (uint32_t i = 0; e && i < n; i++)
        for (uint32_t j = 0; j < si[i].commandBufferCount; j++)
            add_cb(e, &oom, si[i].pCommandBuffers[j], 0, 0, 0, 0);
    gpuavdbg_coverage cv = {0};
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < si[i].commandBufferCount; j++)
            count_cb(&cv, si[i].pCommandBuffers[j], 0);
    ctx1 c = {dd->disp.QueueSubmit, queue, n, si};
    VkResult r = submit_common(dd, queue, fence, e, oom, call1, &c);
    count_submitted(r, &cv);
    return r;
}

static VkResult submit2(device_data *dd, PFN_vkQueueSubmit2 fn, VkQueue queue, uint32_t n, const VkSubmitInfo2 *si,
                        VkFence fence)
{
    pending_submit *e = new_entry();
    int oom = !e;
    for (uint32_t i = 0; e && i < n; i++)
        for (uint32_t j = 0; j < si[i].commandBufferInfoCount; j++)
            add_cb(e, &oom, si[i].pCommandBufferInfos[j].commandBuffer, 0, 0, 0, 0);
    gpuavdbg_coverage cv = {0};
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < si[i].commandBufferInfoCount; j++)
            count_cb(&cv, si[i].pCommandBufferInfos[j].commandBuffer, 0);
    ctx2 c = {fn, queue, n, si};
    VkResult r = submit_common(dd, queue, fence, e, oom, call2, &c);
    count_submitted(r, &cv);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_QueueSubmit2(VkQueue queue, uint32_t n, const VkSubmitInfo2 *si,
                                                     VkFence fence)
{
    device_data *dd = gpuavdbg_device_get(queue);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    return submit2(dd, dd->disp.QueueSubmit2, queue, n, si, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_QueueSubmit2KHR(VkQueue queue, uint32_t n, const VkSubmitInfo2 *si,
                                                        VkFence fence)
{
    device_data *dd = gpuavdbg_device_get(queue);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    return submit2(dd, dd->disp.QueueSubmit2KHR, queue, n, si, fence);
}

/* ---- where the app learns that work finished: read what has signalled ---- */

/* flush_app_fences reads the submissions made with one of the app's
 * fences, which have signalled: the layer's fence, submitted right after,
 * signals at once, and the app sees the records of the work it waited for
 * before its wait returns. */
static void flush_app_fences(device_data *dd, uint32_t n, const VkFence *fences)
{
    if (!__atomic_load_n(&dd->pending_head, __ATOMIC_ACQUIRE))
        return;
    pthread_mutex_lock(&dd->pending_lock);
    for (pending_submit *e = dd->pending_head; e;) {
        int hit = 0;
        for (uint32_t i = 0; e->app_fence && i < n && !hit; i++)
            hit = fences[i] == e->app_fence;
        if (!hit) {
            e = e->next;
            continue;
        }
        flush_entry(dd, e);
        e = dd->pending_head; /* the list may have changed meanwhile */
    }
    pthread_mutex_unlock(&dd->pending_lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_WaitForFences(VkDevice device, uint32_t n, const VkFence *fences,
                                                      VkBool32 all, uint64_t timeout)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.WaitForFences(device, n, fences, all, timeout);
    if (r == VK_SUCCESS) {
        if (all || n == 1)
            flush_app_fences(dd, n, fences);
        poll(dd);
    }
    LOST(dd, r, "vkWaitForFences");
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_GetFenceStatus(VkDevice device, VkFence fence)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.GetFenceStatus(device, fence);
    if (r == VK_SUCCESS) {
        flush_app_fences(dd, 1, &fence);
        poll(dd);
    }
    LOST(dd, r, "vkGetFenceStatus");
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_QueueWaitIdle(VkQueue queue)
{
    device_data *dd = gpuavdbg_device_get(queue);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.QueueWaitIdle(queue);
    if (r == VK_SUCCESS)
        poll(dd);
    LOST(dd, r, "vkQueueWaitIdle");
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_DeviceWaitIdle(VkDevice device)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.DeviceWaitIdle(device);
    if (r == VK_SUCCESS)
        poll(dd);
    LOST(dd, r, "vkDeviceWaitIdle");
    return r;
}

#define SEM_WAIT(fn)                                                                                          \
    static VKAPI_ATTR VkResult VKAPI_CALL icpt_##fn(VkDevice device, const VkSemaphoreWaitInfo *wi, uint64_t t) \
    {                                                                                                         \
        device_data *dd = gpuavdbg_device_get(device);                                                       \
        if (!dd)                                                                                              \
            return VK_ERROR_INITIALIZATION_FAILED;                                                            \
        VkResult r = dd->disp.fn(device, wi, t);                                                              \
        if (r == VK_SUCCESS)                                                                                  \
            poll(dd);                                                                                         \
        LOST(dd, r, "vk" #fn);                                                                                \
        return r;                                                                                             \
    }
SEM_WAIT(WaitSemaphores)
SEM_WAIT(WaitSemaphoresKHR)
#undef SEM_WAIT

#define SEM_VALUE(fn)                                                                                     \
    static VKAPI_ATTR VkResult VKAPI_CALL icpt_##fn(VkDevice device, VkSemaphore sem, uint64_t *value)     \
    {                                                                                                     \
        device_data *dd = gpuavdbg_device_get(device);                                                   \
        if (!dd)                                                                                          \
            return VK_ERROR_INITIALIZATION_FAILED;                                                        \
        VkResult r = dd->disp.fn(device, sem, value);                                                     \
        if (r == VK_SUCCESS)                                                                              \
            poll(dd);                                                                                     \
        LOST(dd, r, "vk" #fn);                                                                            \
        return r;                                                                                         \
    }
SEM_VALUE(GetSemaphoreCounterValue)
SEM_VALUE(GetSemaphoreCounterValueKHR)
#undef SEM_VALUE

static VKAPI_ATTR VkResult VKAPI_CALL icpt_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *pi)
{
    device_data *dd = gpuavdbg_device_get(queue);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    poll(dd);
    VkResult r = dd->disp.QueuePresentKHR(queue, pi);
    LOST(dd, r, "vkQueuePresentKHR");
    return r;
}

PFN_vkVoidFunction gpuavdbg_submit_intercept(const char *name)
{
#define I(fn)                              \
    if (strcmp(name, "vk" #fn) == 0)       \
        return (PFN_vkVoidFunction)icpt_##fn;
    I(QueueSubmit)
    I(QueueSubmit2)
    I(QueueSubmit2KHR)
    I(WaitForFences)
    I(GetFenceStatus)
    I(QueueWaitIdle)
    I(DeviceWaitIdle)
    I(WaitSemaphores)
    I(WaitSemaphoresKHR)
    I(GetSemaphoreCounterValue)
    I(GetSemaphoreCounterValueKHR)
    I(QueuePresentKHR)
#undef I
    return NULL;
}
