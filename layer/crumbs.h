/*
 * crumbs.h: breadcrumbs (crumbs.c): markers the GPU writes before and after
 * each action into host-visible, coherent memory, read while the GPU is
 * stuck (docs/decisions/watchdog-and-breadcrumbs.md). A room of floor 3:
 * cmdbuf.c calls its hooks, submit.c reads the markers, device.c makes and
 * frees its per-device table.
 */
#ifndef GPUAVDBG_CRUMBS_H
#define GPUAVDBG_CRUMBS_H

#include "state.h"

/* A command buffer's breadcrumbs: its marker slot (words[0]: the last
 * action begun + 1, or a render pass's first action + 1 with
 * GPUAVDBG_CRUMB_PASS; words[1]: the actions completed), whether the
 * recording is inside a render pass, and the render passes recorded (their
 * first action and the action count at their end). */
#define GPUAVDBG_CRUMB_PASS 0x80000000u
typedef struct crumb_pass {
    uint32_t first, end;
} crumb_pass;
typedef struct crumb_cb {
    VkBuffer buf;
    VkDeviceSize off;
    volatile uint32_t *words;
    uint32_t slot;
    int in_pass;
    int used; /* a marker was recorded since the command buffer began */
    crumb_pass *passes;
    uint32_t npasses, cap_passes;
} crumb_cb;

/* The device's table (device.c): watchdog_ns 0 turns breadcrumbs and the
 * watchdog off. */
void gpuavdbg_crumbs_device_created(device_data *dd, uint64_t watchdog_ns);
void gpuavdbg_crumbs_teardown(device_data *dd);
uint64_t gpuavdbg_crumbs_watchdog_ns(const device_data *dd);

/* The command-buffer owner's hooks (cmdbuf.c): at vkBeginCommandBuffer
 * (after its reset), before an action is called down (action: its index),
 * after it, before a render pass begins and after it ends; free with the
 * command buffer. */
void gpuavdbg_crumbs_begin(cb_state *cs, const VkCommandBufferBeginInfo *bi);
void gpuavdbg_crumbs_mark(cb_state *cs, uint32_t action, int after);
static inline void gpuavdbg_crumbs_before(cb_state *cs, uint32_t action)
{
    if (cs->crumb && !cs->crumb->in_pass)
        gpuavdbg_crumbs_mark(cs, action, 0);
}
static inline void gpuavdbg_crumbs_after(cb_state *cs, uint32_t action)
{
    if (cs->crumb && !cs->crumb->in_pass)
        gpuavdbg_crumbs_mark(cs, action, 1);
}
void gpuavdbg_crumbs_pass_begin(cb_state *cs);
void gpuavdbg_crumbs_pass_end(cb_state *cs);
void gpuavdbg_crumbs_free(cb_state *cs);

/* For submit.c: whether cs recorded markers; clearing its slot before a
 * submit; and, from the markers, the actions completed ([0, *completed))
 * and running ([*run_from, *run_to)); it returns 0 when cs has no
 * markers. */
static inline int gpuavdbg_crumbs_used(const cb_state *cs)
{
    return cs->crumb && cs->crumb->used;
}
void gpuavdbg_crumbs_zero(cb_state *cs);
int gpuavdbg_crumbs_state(const cb_state *cs, uint32_t *completed, uint32_t *run_from, uint32_t *run_to,
                          uint32_t *begun, uint32_t *ended);

#endif
