/*
 * crumbs_marks.h: where a command buffer's breadcrumbs go and what they say
 * (crumbs_marks.c; docs/decisions/watchdog-and-breadcrumbs.md). Pure C: no
 * Vulkan call, no Go, no lock (the C unit test links it alone, ctest/);
 * crumbs.c writes the marks it plans into the command buffer's slot.
 *
 * A slot holds two words the GPU writes: word 0, the last action begun + 1,
 * or, with GPUAVDBG_CRUMB_PASS, a region's first action + 1; word 1, the
 * actions completed. A region is a render pass and, with pass granularity,
 * the actions outside render passes from the first one after the command
 * buffer's begin or a pass to the next pass or the command buffer's end.
 * The regions recorded (their first action and the action count at their
 * end) say where a region ends.
 */
#ifndef GPUAVDBG_CRUMBS_MARKS_H
#define GPUAVDBG_CRUMBS_MARKS_H

#include <stdint.h>

#include <vulkan/vulkan.h>

#include "layer.h"

#define GPUAVDBG_CRUMB_PASS 0x80000000u
#define GPUAVDBG_CRUMB_OPEN UINT32_MAX /* a region's end not recorded yet */

typedef struct crumb_region {
    uint32_t first, end;
} crumb_region;

/* A recording's breadcrumbs: its granularity (GPUAVDBG_CRUMBS_ACTIONS or
 * _PASSES), whether it is inside a render pass (and whether that one
 * suspends), whether the next action outside a render pass is to be
 * marked (hook: every action with action granularity, the first of a
 * region with pass granularity; the command-buffer owner tests it inline),
 * whether it began inside a render pass resumed from an earlier command
 * buffer (unmarked: nothing known until its first mark), whether a mark
 * was planned, and the regions. */
typedef struct crumb_rec {
    uint32_t granularity;
    int in_pass, suspending, hook, unmarked, used;
    crumb_region *regions;
    uint32_t nregions, cap_regions;
} crumb_rec;

/* The marks an event plans, in order: word (0 or 1) and value. */
typedef struct crumb_marks {
    uint32_t n;
    uint32_t word[2], value[2];
} crumb_marks;

/* gpuavdbg_crumbs_granularity is a device's granularity
 * (GPUAVDBG_CRUMBS_ACTIONS or _PASSES) for the setting (GPUAVDBG_CRUMBS_*):
 * actions or passes as asked; auto marks actions on a CPU device, which
 * runs a queue's commands one after the other (a mark costs ~45 ns), and
 * passes elsewhere: on an H200 a mark between two dispatches serializes
 * them, a fill and VK_AMD_buffer_marker's marker alike (~3 us each, 3.2x
 * on the dispatch scene). */
static inline uint32_t gpuavdbg_crumbs_granularity(uint32_t setting, int cpu_device)
{
    if (setting == GPUAVDBG_CRUMBS_ACTIONS || setting == GPUAVDBG_CRUMBS_PASSES)
        return setting;
    return cpu_device ? GPUAVDBG_CRUMBS_ACTIONS : GPUAVDBG_CRUMBS_PASSES;
}

/* The recording's events, each returning the marks to write there:
 * vkBeginCommandBuffer (continues_pass: a secondary that continues a
 * render pass, covered by its primary's), an action outside a render pass
 * while k->hook (before it is called down, and after), a render pass's
 * begin (flags: a dynamic render pass's VkRenderingFlags; nactions: the
 * actions recorded so far) and end (secondary: the command buffer is
 * one), vkEndCommandBuffer. Nothing is planned between a suspended render
 * pass and its resumption. Out of memory for a region, its marks are left
 * out (its actions read as the marks before it say). */
void gpuavdbg_crumbs_rec_begin(crumb_rec *k, uint32_t granularity, int continues_pass);
crumb_marks gpuavdbg_crumbs_rec_action(crumb_rec *k, uint32_t action, int after);
crumb_marks gpuavdbg_crumbs_rec_pass_begin(crumb_rec *k, uint32_t nactions, VkRenderingFlags flags);
crumb_marks gpuavdbg_crumbs_rec_pass_end(crumb_rec *k, uint32_t nactions, int secondary);
crumb_marks gpuavdbg_crumbs_rec_end(crumb_rec *k, uint32_t nactions);
void gpuavdbg_crumbs_rec_free(crumb_rec *k);

/* gpuavdbg_crumbs_read reads the words begun (word 0) and ended (word 1)
 * of a recording k of n actions: the actions completed are
 * [0, *completed), those running [*run_from, *run_to) (both within
 * [0, n]); *region is 1 when they are a region's, whose breadcrumbs do
 * not tell its actions apart (its actions not completed read as running:
 * one or more of them is). It returns 0 when nothing is known: no mark was
 * planned, or none written yet in a command buffer that began inside a
 * resumed render pass. */
int gpuavdbg_crumbs_read(const crumb_rec *k, uint32_t begun, uint32_t ended, uint32_t n, uint32_t *completed,
                         uint32_t *run_from, uint32_t *run_to, int *region);

#endif
