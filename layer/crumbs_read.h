/*
 * crumbs_read.h: what a command buffer's breadcrumbs say (crumbs.c,
 * docs/decisions/watchdog-and-breadcrumbs.md), and which granularity a
 * device's breadcrumbs have. Pure C, inline: no Vulkan call, no Go (the C
 * unit test includes it alone, ctest/).
 *
 * A slot holds two words the GPU writes: word 0, the last action begun + 1,
 * or, with GPUAVDBG_CRUMB_PASS, a region's first action + 1 (a region: a
 * render pass; with pass granularity also the actions outside render
 * passes from the first after a pass, or after the command buffer's begin,
 * to the next pass or the command buffer's end); word 1, the actions
 * completed. The regions recorded (their first action and the action
 * count at their end) say where a region ends.
 */
#ifndef GPUAVDBG_CRUMBS_READ_H
#define GPUAVDBG_CRUMBS_READ_H

#include <stdint.h>

#include "layer.h"

#define GPUAVDBG_CRUMB_PASS 0x80000000u
#define GPUAVDBG_CRUMB_OPEN UINT32_MAX /* a region's end not recorded yet */

typedef struct crumb_region {
    uint32_t first, end;
} crumb_region;

/* gpuavdbg_crumbs_granularity is a device's granularity
 * (GPUAVDBG_CRUMBS_ACTIONS or _PASSES) for the setting (GPUAVDBG_CRUMBS_*):
 * actions or passes as asked; auto marks actions where a mark costs
 * little (a CPU device, which runs a queue's commands one after the other,
 * or VK_AMD_buffer_marker's pipelined markers) and passes elsewhere (a
 * fill between two dispatches serializes them on a GPU: ~2.9 us each on
 * an H200). */
static inline uint32_t gpuavdbg_crumbs_granularity(uint32_t setting, int cpu_device, int buffer_marker)
{
    if (setting == GPUAVDBG_CRUMBS_ACTIONS || setting == GPUAVDBG_CRUMBS_PASSES)
        return setting;
    return cpu_device || buffer_marker ? GPUAVDBG_CRUMBS_ACTIONS : GPUAVDBG_CRUMBS_PASSES;
}

/* gpuavdbg_crumbs_read reads the words begun (word 0) and ended (word 1)
 * of a command buffer of n actions whose regions are regions[0, nregions)
 * (in recording order): the actions completed are [0, *completed), those
 * running [*run_from, *run_to) (both within [0, n]); *region is 1 when
 * they are a region's, whose breadcrumbs do not tell its actions apart
 * (its actions not completed read as running: one or more of them is). */
static inline void gpuavdbg_crumbs_read(uint32_t begun, uint32_t ended, uint32_t n, const crumb_region *regions,
                                        uint32_t nregions, uint32_t *completed, uint32_t *run_from, uint32_t *run_to,
                                        int *region)
{
    uint32_t done = ended < n ? ended : n;
    uint32_t from = done, to = done;
    *region = 0;
    if (begun & GPUAVDBG_CRUMB_PASS) {
        /* Inside the region that began at action first: its actions not
         * yet marked complete are running. Regions that begin at the same
         * action are empty but the last: the last one is it. */
        uint32_t first = (begun & ~GPUAVDBG_CRUMB_PASS) - 1, end = n;
        for (uint32_t i = nregions; i-- > 0;)
            if (regions[i].first == first) {
                end = regions[i].end == GPUAVDBG_CRUMB_OPEN || regions[i].end > n ? n : regions[i].end;
                break;
            }
        if (first != UINT32_MAX) { /* else word 0 is not a region's: nothing known begun */
            from = first > done ? first : done;
            from = from < n ? from : n;
            to = end > from ? end : from;
            *region = to > from;
        }
    } else if (begun > done) {
        /* Action begun - 1 has begun and not completed: it and any before
         * it not completed are running (the queue may overlap them). */
        to = begun < n ? begun : n;
    }
    *completed = done;
    *run_from = from;
    *run_to = to;
}

#endif
