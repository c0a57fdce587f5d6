/*
 * prepass_pack.h: packing the command checks' pre-pass jobs into the
 * pre-pass buffer (prepass_pack.c): where each job's words go, where the
 * copy of the app's indirect bytes lands, and when consecutive indirect
 * draws share one copy window. Pure C: no Vulkan call, no Go, no lock (the
 * C unit test links it alone, ctest/). Layout: gpuav/prepass.go
 * (prepass_gen.h): the limits block at word 0, the jobs from
 * GPUAVDBG_PREPASS_JOB_WORD up, the copied data growing down from the
 * buffer's end.
 */
#ifndef GPUAVDBG_PREPASS_PACK_H
#define GPUAVDBG_PREPASS_PACK_H

#include <stdint.h>

#include <vulkan/vulkan.h>

#include "prepass_gen.h"

/* A pre-pass job as the command checks describe it. */
typedef struct pp_job {
    uint32_t action, kind; /* kind: GPUAVDBG_PREPASS_KIND_* | GPUAVDBG_PREPASS_FLAG_* */
    VkBuffer buf;
    VkDeviceSize offset, size; /* the app's buffer and its size */
    uint32_t n, stride, cmd_size;
    VkBuffer count_buf;
    VkDeviceSize count_offset;
    uint32_t max_draw, fit;
    uint32_t indices, index_size; /* indexed draws: the bound index buffer */
    VkDeviceSize index_offset, index_end;
    /* raw, when set: the job's GPUAVDBG_PREPASS_JOB_WORDS words as written
     * (depth copies and builds, whose words are their own: gpuav/prepass.go),
     * the action, the kind and, when a copy is made, the source word put in.
     * A job with no buf copies nothing (builds read the app's memory through
     * device addresses). */
    const uint32_t *raw;
} pp_job;

/* One copy of the app's bytes into the pre-pass buffer, recorded when the
 * pre-pass runs. */
typedef struct pp_copy {
    VkBuffer src;
    VkDeviceSize offset, size;
    uint32_t dst_word;
} pp_copy;

/* What one recording has packed: the jobs, the lowest data word used, the
 * copies of the jobs not run yet, and the last copy window of an indirect
 * draw (copy win_copy, valid while it is pending, of [win_off, win_end) of
 * win_buf to word win_dst), which later draws reading inside it share. */
typedef struct pp_pack {
    int started; /* the limits block is written, data_low set */
    uint32_t njobs, data_low;
    pp_copy *copies;
    uint32_t ncopies, cap_copies;
    VkBuffer win_buf;
    VkDeviceSize win_off, win_end;
    uint32_t win_copy, win_dst;
} pp_pack;

/* The largest copy window (bytes): windows double while the draws walk
 * one buffer, up to this. */
#define GPUAVDBG_PREPASS_WINDOW_MAX (64u * 1024u)

enum { GPUAVDBG_PACK_OK = 0, GPUAVDBG_PACK_FULL = 1, GPUAVDBG_PACK_NOMEM = 2 };

/* gpuavdbg_pack_job packs job into the pre-pass buffer's words w (cap
 * words; the first job of a recording writes limits, the
 * GPUAVDBG_PREPASS_LIMIT_WORDS words of the device's limits block, at word
 * 0) and returns GPUAVDBG_PACK_OK with *src the word where its commands'
 * copy lands; GPUAVDBG_PACK_FULL with *need the words the buffer would
 * need; GPUAVDBG_PACK_NOMEM when a copy cannot be noted. */
int gpuavdbg_pack_job(pp_pack *p, uint32_t *w, uint32_t cap, const uint32_t *limits, const pp_job *job,
                      uint32_t *src, uint64_t *need);

/* gpuavdbg_pack_data reserves n words of the data region (no copy lands
 * in them: the layer writes them, at recording or at submit) and returns
 * GPUAVDBG_PACK_OK with *word their first word, or GPUAVDBG_PACK_FULL with
 * *need the words the buffer would need. */
int gpuavdbg_pack_data(pp_pack *p, uint32_t *w, uint32_t cap, const uint32_t *limits, uint32_t n, uint32_t *word,
                       uint64_t *need);

/* gpuavdbg_pack_reset forgets a recording's jobs, keeping the copies'
 * array. */
void gpuavdbg_pack_reset(pp_pack *p);

#endif
