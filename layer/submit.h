/*
 * submit.h: queue submission and reading the records back (submit.c).
 */
#ifndef GPUAVDBG_SUBMIT_H
#define GPUAVDBG_SUBMIT_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_submit_intercept(const char *name);
/* gpuavdbg_submit_count: the submits so far (the bye). */
uint64_t gpuavdbg_submit_count(void);
/* gpuavdbg_pending_init / _teardown set up and free a device's pending
 * list and fence pool; teardown reads what is left first. */
void gpuavdbg_pending_init(device_data *dd);
void gpuavdbg_pending_teardown(device_data *dd);
/* gpuavdbg_pending_flush_cb reads the records of the submission cs is
 * pending in (waiting for it), so that cs can be reset, re-recorded or
 * freed; gpuavdbg_pending_flush_pool does it for the submissions holding a
 * command buffer of pool. */
void gpuavdbg_pending_flush_cb(device_data *dd, cb_state *cs);
void gpuavdbg_pending_flush_pool(device_data *dd, VkCommandPool pool);
/* gpuavdbg_pending_drain reads every queued submission of dd whose
 * fence signals before deadline_ns (gpuavdbg_now_ns's clock), oldest
 * first, and returns how many it could not read (their records are
 * dropped): at process exit and at vkDestroyDevice, the app's last
 * submits it never waited for (docs/decisions/unwaited-submits.md). */
#define GPUAVDBG_DRAIN_NS (1500ull * 1000000ull)
uint32_t gpuavdbg_pending_drain(device_data *dd, uint64_t deadline_ns);
/* gpuavdbg_now_ns: CLOCK_MONOTONIC in ns. */
uint64_t gpuavdbg_now_ns(void);

/* For Go (layer/chelpers.go): the submit-to-records latency (submissions
 * read, total and maximum ns), and what the process's submits held,
 * counted at each successful submit: the command buffers submitted (a
 * secondary once per primary that executed it), their actions, those
 * whose pipeline (or shader objects) ran instrumented, and of those the
 * actions of a pipeline with a fast variant that ran its precise one. */
void gpuavdbg_latency(uint64_t *n, uint64_t *sum_ns, uint64_t *max_ns);
typedef struct gpuavdbg_coverage {
    uint64_t command_buffers, actions, instrumented, precise;
} gpuavdbg_coverage;
void gpuavdbg_coverage_counts(gpuavdbg_coverage *out);

#endif
