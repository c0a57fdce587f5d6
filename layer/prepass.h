/*
 * prepass.h: the command checks' pre-pass over indirect buffers
 * (prepass.c; docs/decisions/command-checks.md). Its jobs are packed by
 * prepass_pack.c.
 */
#ifndef GPUAVDBG_PREPASS_H
#define GPUAVDBG_PREPASS_H

#include "state.h"
#include "prepass_pack.h"

/* Which of the pre-pass's shaders a device's checks use: the indirect one
 * (indirect_command, index_buffer_oob, depth_copy_range), the builds' one
 * (acceleration_structure_build, where the app enabled it). */
enum { GPUAVDBG_PREPASS_WANT_INDIRECT = 1, GPUAVDBG_PREPASS_WANT_ACCEL = 2 };

/* A device's pre-pass, all by the device owner (device.c): made with the
 * limits block the command checks computed (GPUAVDBG_PREPASS_LIMIT_WORDS
 * words) and which shaders their checks use (GPUAVDBG_PREPASS_WANT_*), its pipeline set up once the
 * layer's set layouts exist, torn down (also when set-up fails), freed. */
void gpuavdbg_prepass_device_created(device_data *dd, const uint32_t *limits, int wanted);
void gpuavdbg_prepass_setup(device_data *dd);
void gpuavdbg_prepass_teardown(device_data *dd);
void gpuavdbg_prepass_device_destroyed(device_data *dd);
/* A pipeline made with a layout the app destroys may still be used by a
 * pending command buffer: it is destroyed with the device (pipeline.c). */
void gpuavdbg_prepass_layout_destroyed(device_data *dd, VkPipelineLayout layout);

/* gpuavdbg_prepass_add adds a job (copyable: the layer may copy its
 * indirect and count buffers); it returns the word offset of the copied
 * command in the pre-pass buffer, or 0 when the job could not be added
 * (the pre-pass buffer is full, the buffer cannot be copied from, no
 * pre-pass on this device: each said once). */
uint32_t gpuavdbg_prepass_add(cb_state *cs, const pp_job *job, int copyable);
/* gpuavdbg_prepass_run records the pre-pass of the jobs not run yet
 * (outside a render pass): copies, the dispatch, barriers, and the app's
 * compute state back. It returns 0 when it could not (those jobs are not
 * checked, said once: their copies were not made, so an action must read
 * the app's buffer). */
int gpuavdbg_prepass_run(cb_state *cs);
/* The build and copy checks' (accel.c, depthcopy.c) use of the pre-pass:
 * gpuavdbg_prepass_add_raw adds a job written from its raw words (a copy of
 * job->buf's bytes made when it has one, *src its word), 1 when added;
 * gpuavdbg_prepass_data reserves n words of the data region that the layer
 * writes (*word: their first), NULL when full; gpuavdbg_prepass_words the
 * pre-pass buffer's words (the live table is written at submit);
 * gpuavdbg_prepass_run_builds runs the pending build jobs with the builds'
 * shader, ygroups workgroups each; gpuavdbg_prepass_pending: jobs wait;
 * gpuavdbg_prepass_builds: the builds' shader exists on the device. */
int gpuavdbg_prepass_add_raw(cb_state *cs, const pp_job *job, uint32_t *src);
uint32_t *gpuavdbg_prepass_data(cb_state *cs, uint32_t n, uint32_t *word);
uint32_t *gpuavdbg_prepass_words(cb_state *cs, uint32_t *cap);
int gpuavdbg_prepass_run_builds(cb_state *cs, uint32_t ygroups);
/* gpuavdbg_prepass_run_copies is gpuavdbg_prepass_run for depth copies
 * (its notices name depth_copy_range). */
int gpuavdbg_prepass_run_copies(cb_state *cs);
int gpuavdbg_prepass_pending(const cb_state *cs);
int gpuavdbg_prepass_builds(const device_data *dd);
/* gpuavdbg_prepass_buffer returns the unit's pre-pass buffer and its
 * device address (0 without one). */
VkBuffer gpuavdbg_prepass_buffer(cb_state *cs, VkDeviceAddress *address);

/* The command-buffer owner's hooks (cmdbuf.c): a dynamic render pass
 * begins (a suspending one defers the pre-pass), a render pass ends (the
 * pre-pass of the draws in it runs), vkEndCommandBuffer (returns 1 when
 * the pre-pass ran: the host barrier is needed), the command buffer's
 * reset and free. gpuavdbg_prepass_ran: the pre-pass ran in the recording
 * (submit reads its records). */
void gpuavdbg_prepass_begin_rendering(cb_state *cs, const VkRenderingInfo *info);
void gpuavdbg_prepass_render_pass_ended(cb_state *cs);
int gpuavdbg_prepass_end(cb_state *cs);
int gpuavdbg_prepass_ran(const cb_state *cs);
void gpuavdbg_prepass_reset(cb_state *cs);
void gpuavdbg_prepass_free(cb_state *cs);

#endif
