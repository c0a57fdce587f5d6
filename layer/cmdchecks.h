/*
 * cmdchecks.h: the command checks on the CPU (cmdchecks.c;
 * docs/decisions/command-checks.md): index_buffer_oob, vertex_fetch_oob
 * and the CPU half of indirect_command. The command-buffer owner
 * (cmdbuf.c) intercepts the commands and calls these hooks; a hook that
 * returns 1 says the command must be skipped (a failed check, on_error not
 * execute). The GPU half of indirect_command is the pre-pass (prepass.h).
 */
#ifndef GPUAVDBG_CMDCHECKS_H
#define GPUAVDBG_CMDCHECKS_H

#include "state.h"

/* The command checks a device runs (goCommandChecks, which
 * exports.go computes from the settings) and the safe mode: the
 * GPUAVDBG_CC_* bits of shared_gen.h (layer/internal/abi). */

/* The device owner's hooks (device.c): the checks a device runs
 * (goCommandChecks: returned, 0 when out of memory), the features and
 * limits they depend on, and the pre-pass's limits block
 * (GPUAVDBG_PREPASS_LIMIT_WORDS words into limits); freeing them. */
uint32_t gpuavdbg_cc_device_created(device_data *dd, const VkDeviceCreateInfo *ci, uint32_t *limits);
void gpuavdbg_cc_device_destroyed(device_data *dd);
/* pipeline.c: a graphics pipeline's vertex input state and task stage
 * (pi->vi, pi->has_task), and freeing them. */
void gpuavdbg_cc_pipeline_created(device_data *dd, pipeline_info *pi, const VkGraphicsPipelineCreateInfo *ci);
void gpuavdbg_cc_pipeline_freed(pipeline_info *pi);

/* ---- hooks of the command-buffer owner (cmdbuf.c); cs is never NULL ---- */

/* The app's index and vertex buffer binds and dynamic vertex input. */
void gpuavdbg_cc_bind_index(cb_state *cs, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size, VkIndexType type);
void gpuavdbg_cc_bind_vertex(cb_state *cs, uint32_t first, uint32_t n, const VkBuffer *bufs,
                             const VkDeviceSize *offsets, const VkDeviceSize *sizes, const VkDeviceSize *strides);
void gpuavdbg_cc_set_vertex_input(cb_state *cs, uint32_t nb, const VkVertexInputBindingDescription2EXT *bs,
                                  uint32_t na, const VkVertexInputAttributeDescription2EXT *as);

/* Direct draws of action `action` (recorded already): 1 to skip. A
 * recording in which the command checks have nothing (cs->cc: no index or
 * vertex buffer bound, no record) has nothing to check: the inline test
 * spares the draw a call. */
int gpuavdbg_cc_draw_checked(cb_state *cs, uint32_t action, uint32_t vertexCount, uint32_t instanceCount,
                             uint32_t firstVertex, uint32_t firstInstance);
int gpuavdbg_cc_draw_indexed_checked(cb_state *cs, uint32_t action, uint32_t indexCount, uint32_t instanceCount,
                                     uint32_t firstIndex, uint32_t firstInstance);
static inline int gpuavdbg_cc_draw(cb_state *cs, uint32_t action, uint32_t vertexCount, uint32_t instanceCount,
                                   uint32_t firstVertex, uint32_t firstInstance)
{
    return cs->cc && gpuavdbg_cc_draw_checked(cs, action, vertexCount, instanceCount, firstVertex, firstInstance);
}
static inline int gpuavdbg_cc_draw_indexed(cb_state *cs, uint32_t action, uint32_t indexCount,
                                           uint32_t instanceCount, uint32_t firstIndex, uint32_t firstInstance)
{
    return cs->cc &&
           gpuavdbg_cc_draw_indexed_checked(cs, action, indexCount, instanceCount, firstIndex, firstInstance);
}
/* Multi draws: NULL to call down as given, else the draws to keep
 * (malloc'd, tightly packed, *nkept of them; none: nothing goes down),
 * which the caller frees. The indexed form returns 1 when the whole
 * command is skipped (its instances fetch past a vertex buffer). */
VkMultiDrawInfoEXT *gpuavdbg_cc_draw_multi(cb_state *cs, uint32_t action, uint32_t n, const VkMultiDrawInfoEXT *info,
                                           uint32_t instanceCount, uint32_t firstInstance, uint32_t stride,
                                           uint32_t *nkept);
int gpuavdbg_cc_draw_multi_indexed(cb_state *cs, uint32_t action, uint32_t n, const VkMultiDrawIndexedInfoEXT *info,
                                   uint32_t instanceCount, uint32_t firstInstance, uint32_t stride,
                                   VkMultiDrawIndexedInfoEXT **kept, uint32_t *nkept);
/* An indirect draw of command cmd (vkCmdDraw(Indexed)Indirect(Count),
 * vkCmdDrawMeshTasksIndirect(Count)EXT): its counts checked on the CPU,
 * *n (drawCount or maxDrawCount) clamped unless on_error is execute, its
 * commands handed to the pre-pass. count_buf is VK_NULL_HANDLE for the
 * forms without a count buffer. */
void gpuavdbg_cc_draw_indirect(cb_state *cs, uint32_t action, gpuavdbg_cmd cmd, VkBuffer buffer, VkDeviceSize offset,
                               uint32_t *n, uint32_t stride, VkBuffer count_buf, VkDeviceSize count_offset);
/* vkCmdDispatchIndirect, before its action is recorded (the pre-pass
 * runs first): 1 to skip; else *buffer and *offset are what to call down
 * with (the layer's checked copy, or the app's). */
int gpuavdbg_cc_dispatch_indirect(cb_state *cs, uint32_t action, VkBuffer *buffer, VkDeviceSize *offset);
/* vkCmdTraceRaysIndirectKHR / Indirect2KHR (cmd), before its action is
 * recorded: the device address to call down with. */
VkDeviceAddress gpuavdbg_cc_trace_rays_indirect(cb_state *cs, uint32_t action, gpuavdbg_cmd cmd,
                                                VkDeviceAddress addr);
/* The command buffer's reset and free. */
void gpuavdbg_cc_reset(cb_state *cs);
void gpuavdbg_cc_free(cb_state *cs);

/* ---- submit (submit.c) --------------------------------------------------- */

/* gpuavdbg_cc_has_records: the command buffer needs reading at submit
 * (CPU records, or the pre-pass ran). gpuavdbg_cc_records returns the CPU
 * records (n words) and the records the layer could not keep. */
int gpuavdbg_cc_has_records(const cb_state *cs);
const uint32_t *gpuavdbg_cc_records(const cb_state *cs, uint32_t *nwords, uint32_t *dropped);
/* gpuavdbg_cc_write_vertex writes vertex_fetch_oob's per-action vertex
 * table offsets (count words at table) and the tables from words[at], in
 * the descriptor state; it returns the words used (may exceed cap). */
uint32_t gpuavdbg_cc_write_vertex(cb_state *cs, uint32_t *words, uint32_t cap, uint32_t at, uint32_t table,
                                  uint32_t count);

#endif
