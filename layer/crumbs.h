/*
 * crumbs.h: breadcrumbs (crumbs.c): markers the GPU writes into
 * host-visible, coherent memory before and after each action, or each
 * region of actions (the device's granularity), read while the GPU is
 * stuck (docs/decisions/watchdog-and-breadcrumbs.md). A room of floor 3:
 * cmdbuf.c calls its hooks, submit.c reads the markers, device.c makes and
 * frees its per-device table.
 */
#ifndef GPUAVDBG_CRUMBS_H
#define GPUAVDBG_CRUMBS_H

#include "crumbs_marks.h"
#include "state.h"

/* A command buffer's breadcrumbs: its marker slot (crumbs_marks.h says
 * what its two words hold) and its recording's marks (rec: where they go,
 * the regions). */
typedef struct crumb_cb {
    VkBuffer buf;
    VkDeviceSize off;
    volatile uint32_t *words;
    uint32_t slot;
    crumb_rec rec;
} crumb_cb;

/* The device's table (device.c): watchdog_ns 0 turns breadcrumbs and the
 * watchdog off; setting is the breadcrumbs setting (GPUAVDBG_CRUMBS_*),
 * resolved against the device: a CPU device (cpu_device) marks actions
 * unless asked otherwise
 * (gpuavdbg_crumbs_granularity). The granularity is the device's
 * (GPUAVDBG_CRUMBS_ACTIONS or _PASSES; 0 without breadcrumbs). */
void gpuavdbg_crumbs_device_created(device_data *dd, uint64_t watchdog_ns, uint32_t setting, int cpu_device);
void gpuavdbg_crumbs_teardown(device_data *dd);
uint64_t gpuavdbg_crumbs_watchdog_ns(const device_data *dd);
uint32_t gpuavdbg_crumbs_granularity_of(const device_data *dd);

/* The command-buffer owner's hooks (cmdbuf.c): at vkBeginCommandBuffer
 * (after its reset), before an action is called down (action: its
 * index), after it, before a render pass begins (flags: a dynamic render
 * pass's VkRenderingFlags, 0 for a render pass object) and after it ends,
 * and at vkEndCommandBuffer before calling it down; free with the command
 * buffer. With pass granularity an action gets no mark: a region is
 * marked before its first action (outside a render pass) and at its end
 * (the next render pass, or vkEndCommandBuffer), a render pass around it;
 * nothing comes between a suspended render pass and its resumption. */
void gpuavdbg_crumbs_begin(cb_state *cs, const VkCommandBufferBeginInfo *bi);
void gpuavdbg_crumbs_mark(cb_state *cs, uint32_t action, int after);
static inline void gpuavdbg_crumbs_before(cb_state *cs, uint32_t action)
{
    if (cs->crumb && cs->crumb->rec.hook)
        gpuavdbg_crumbs_mark(cs, action, 0);
}
static inline void gpuavdbg_crumbs_after(cb_state *cs, uint32_t action)
{
    if (cs->crumb && cs->crumb->rec.hook)
        gpuavdbg_crumbs_mark(cs, action, 1);
}
void gpuavdbg_crumbs_pass_begin(cb_state *cs, VkRenderingFlags flags);
void gpuavdbg_crumbs_pass_end(cb_state *cs);
void gpuavdbg_crumbs_end(cb_state *cs);
void gpuavdbg_crumbs_free(cb_state *cs);

/* For submit.c: whether cs recorded markers; clearing its slot before a
 * submit; and, from the markers, the actions completed ([0, *completed))
 * and running ([*run_from, *run_to)), *region 1 when those are a region's
 * (crumbs_marks.h); it returns 0 when cs has no markers, or none yet
 * written inside a render pass it resumed (unknown). */
static inline int gpuavdbg_crumbs_used(const cb_state *cs)
{
    return cs->crumb && cs->crumb->rec.used;
}
void gpuavdbg_crumbs_zero(cb_state *cs);
int gpuavdbg_crumbs_state(const cb_state *cs, uint32_t *completed, uint32_t *run_from, uint32_t *run_to, int *region,
                          uint32_t *begun, uint32_t *ended);

#endif
