/*
 * prepass_pack.c: packing the pre-pass jobs into the pre-pass buffer
 * (prepass_pack.h). Pure: prepass.c calls it with the unit's mapped words
 * and does the Vulkan and the telling.
 */
#include <string.h>
#include <stdlib.h>

#include "prepass_pack.h"

/* saturate32 is v, or UINT32_MAX when it does not fit. */
static uint32_t saturate32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static int add_copy(pp_pack *c, VkBuffer src, VkDeviceSize offset, VkDeviceSize size, uint32_t dst_word)
{
    if (c->ncopies == c->cap_copies) {
        uint32_t ncap = c->cap_copies ? c->cap_copies * 2 : 16;
        pp_copy *g = realloc(c->copies, ncap * sizeof *g);
        if (!g)
            return 0;
        c->copies = g;
        c->cap_copies = ncap;
    }
    c->copies[c->ncopies++] = (pp_copy){src, offset, size, dst_word};
    return 1;
}

/* draw_job: an indirect draw without a count buffer, whose commands may
 * share a copy window. */
static int draw_job(const pp_job *job)
{
    uint32_t kind = job->kind & 0xFFu;
    return !job->count_buf && (kind == GPUAVDBG_PREPASS_KIND_DRAW || kind == GPUAVDBG_PREPASS_KIND_DRAW_INDEXED);
}

/* window_src returns the word where the commands of job already are, in
 * the pending copy window of the last draw, or 0 when they are not. */
static uint32_t window_src(const pp_pack *c, const pp_job *job, uint64_t span)
{
    if (!draw_job(job) || c->win_copy >= c->ncopies || c->copies[c->win_copy].src != job->buf ||
        c->copies[c->win_copy].dst_word != c->win_dst || job->buf != c->win_buf ||
        job->offset < c->win_off || job->offset + span > c->win_end || (job->offset - c->win_off) % 4)
        return 0;
    return c->win_dst + (uint32_t)((job->offset - c->win_off) / 4);
}

/* window_bytes is how much of the app's buffer to copy for a job: its
 * commands, or, for a draw that reads on from the last window of the same
 * buffer (an app walking its indirect buffer), a window twice as large
 * (up to GPUAVDBG_PREPASS_WINDOW_MAX and the buffer's end), so that the draws after it
 * share one copy region instead of one each. */
static uint64_t window_bytes(const pp_pack *c, const pp_job *job, uint64_t span)
{
    if (!draw_job(job) || job->buf != c->win_buf || job->offset < c->win_off || job->offset > job->size)
        return span;
    uint64_t want = 2 * (c->win_end - c->win_off);
    if (want > GPUAVDBG_PREPASS_WINDOW_MAX)
        want = GPUAVDBG_PREPASS_WINDOW_MAX;
    if (want > job->size - job->offset)
        want = job->size - job->offset;
    return want > span ? want : span;
}

/* start writes the limits block at a recording's first job or data. */
static void start(pp_pack *c, uint32_t *w, uint32_t cap, const uint32_t *limits)
{
    if (!c->started) {
        memcpy(w, limits, GPUAVDBG_PREPASS_LIMIT_WORDS * 4);
        c->data_low = cap;
        c->started = 1;
    }
}

int gpuavdbg_pack_data(pp_pack *c, uint32_t *w, uint32_t cap, const uint32_t *limits, uint32_t n, uint32_t *word,
                       uint64_t *need)
{
    start(c, w, cap, limits);
    uint64_t jw = GPUAVDBG_PREPASS_JOB_WORD + (uint64_t)c->njobs * GPUAVDBG_PREPASS_JOB_WORDS;
    if (jw + n > c->data_low) {
        *need = jw + n + (cap - c->data_low);
        return GPUAVDBG_PACK_FULL;
    }
    c->data_low -= n;
    *word = c->data_low;
    return GPUAVDBG_PACK_OK;
}

int gpuavdbg_pack_job(pp_pack *c, uint32_t *w, uint32_t cap, const uint32_t *limits, const pp_job *job,
                      uint32_t *src_out, uint64_t *need)
{
    start(c, w, cap, limits);
    uint64_t span = (uint64_t)(job->n - 1) * job->stride + job->cmd_size;
    uint64_t jw = GPUAVDBG_PREPASS_JOB_WORD + (uint64_t)c->njobs * GPUAVDBG_PREPASS_JOB_WORDS;
    if (!job->buf) { /* nothing to copy: the job's own words */
        if (jw + GPUAVDBG_PREPASS_JOB_WORDS > c->data_low) {
            *need = jw + GPUAVDBG_PREPASS_JOB_WORDS + (cap - c->data_low);
            return GPUAVDBG_PACK_FULL;
        }
        uint32_t *j = w + jw;
        memset(j, 0, GPUAVDBG_PREPASS_JOB_WORDS * 4);
        if (job->raw)
            memcpy(j, job->raw, GPUAVDBG_PREPASS_JOB_WORDS * 4);
        j[GPUAVDBG_PREPASS_JOB_ACTION] = job->action;
        j[GPUAVDBG_PREPASS_JOB_KIND] = job->kind;
        c->njobs++;
        *src_out = 0;
        return GPUAVDBG_PACK_OK;
    }
    uint32_t src = window_src(c, job, span), count_src = 0;
    if (src && jw + GPUAVDBG_PREPASS_JOB_WORDS > c->data_low) {
        *need = jw + GPUAVDBG_PREPASS_JOB_WORDS + (cap - c->data_low);
        return GPUAVDBG_PACK_FULL;
    }
    if (!src) {
        uint64_t bytes = window_bytes(c, job, span);
        if (jw + GPUAVDBG_PREPASS_JOB_WORDS + (bytes + 3) / 4 > c->data_low)
            bytes = span; /* no room for the window: just this job's commands */
        uint64_t dwords = (bytes + 3) / 4 + (job->count_buf ? 1 : 0);
        if (jw + GPUAVDBG_PREPASS_JOB_WORDS + dwords > c->data_low) {
            *need = jw + GPUAVDBG_PREPASS_JOB_WORDS + dwords + (cap - c->data_low);
            return GPUAVDBG_PACK_FULL;
        }
        c->data_low -= (uint32_t)dwords;
        src = c->data_low;
        count_src = src + (uint32_t)((bytes + 3) / 4);
        if (!add_copy(c, job->buf, job->offset, bytes, src) ||
            (job->count_buf && !add_copy(c, job->count_buf, job->count_offset, 4, count_src)))
            return GPUAVDBG_PACK_NOMEM;
        if (draw_job(job)) {
            c->win_buf = job->buf;
            c->win_off = job->offset;
            c->win_end = job->offset + bytes;
            c->win_copy = c->ncopies - 1;
            c->win_dst = src;
        }
    }
    uint32_t *j = w + jw;
    memset(j, 0, GPUAVDBG_PREPASS_JOB_WORDS * 4);
    if (job->raw) {
        memcpy(j, job->raw, GPUAVDBG_PREPASS_JOB_WORDS * 4);
        j[GPUAVDBG_PREPASS_JOB_ACTION] = job->action;
        j[GPUAVDBG_PREPASS_JOB_KIND] = job->kind;
        j[GPUAVDBG_PREPASS_JOB_SRC] = src;
        c->njobs++;
        *src_out = src;
        return GPUAVDBG_PACK_OK;
    }
    j[GPUAVDBG_PREPASS_JOB_ACTION] = job->action;
    j[GPUAVDBG_PREPASS_JOB_KIND] = job->kind;
    j[GPUAVDBG_PREPASS_JOB_SRC] = src;
    j[GPUAVDBG_PREPASS_JOB_COUNT] = job->n;
    j[GPUAVDBG_PREPASS_JOB_STRIDE] = job->stride / 4;
    j[GPUAVDBG_PREPASS_JOB_COUNT_SRC] = job->count_buf ? count_src : 0;
    j[GPUAVDBG_PREPASS_JOB_MAX_DRAW] = job->max_draw;
    j[GPUAVDBG_PREPASS_JOB_FIT] = job->fit;
    j[GPUAVDBG_PREPASS_JOB_BUF_SIZE] = saturate32(job->size);
    j[GPUAVDBG_PREPASS_JOB_OFFSET] = saturate32(job->offset);
    j[GPUAVDBG_PREPASS_JOB_STRIDE_BYTES] = job->stride;
    j[GPUAVDBG_PREPASS_JOB_INDICES] = job->indices;
    j[GPUAVDBG_PREPASS_JOB_IDX_SIZE] = job->index_size;
    j[GPUAVDBG_PREPASS_JOB_IDX_OFFSET] = saturate32(job->index_offset);
    j[GPUAVDBG_PREPASS_JOB_IDX_END] = saturate32(job->index_end);
    c->njobs++;
    *src_out = src;
    return GPUAVDBG_PACK_OK;
}

void gpuavdbg_pack_reset(pp_pack *c)
{
    pp_copy *copies = c->copies;
    uint32_t cap_copies = c->cap_copies;
    memset(c, 0, sizeof *c);
    c->copies = copies;
    c->cap_copies = cap_copies;
}
