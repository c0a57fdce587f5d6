/*
 * descriptors.h: the app's descriptor state for the descriptor checks
 * (descriptors.c): set layouts, pools, sets, updates, the liveness and
 * sizes of buffers, views and samplers (it owns vkCreateBuffer and
 * vkDestroyBuffer), the descriptors vkGetDescriptorEXT returned, and per
 * command buffer the sets bound at each action (descriptor sets, pushed
 * sets, sets in descriptor buffers).
 */
#ifndef GPUAVDBG_DESCRIPTORS_H
#define GPUAVDBG_DESCRIPTORS_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_descriptors_intercept(const char *name);

/* gpuavdbg_buffer_info returns a live buffer's size (0 when unknown) and
 * whether the layer may copy from it. */
VkDeviceSize gpuavdbg_buffer_info(VkBuffer b, int *copyable);

/* Pipeline layouts (pipeline.c): their push-descriptor set layouts. */
void gpuavdbg_desc_pipeline_layout_created(VkPipelineLayout pl, const VkPipelineLayoutCreateInfo *ci);
void gpuavdbg_desc_pipeline_layout_destroyed(VkPipelineLayout pl);
/* gpuavdbg_desc_layout_kind: GPUAVDBG_DSL_PUSH and GPUAVDBG_DSL_DB bits of
 * a set layout's create flags (0 for one the layer did not see);
 * gpuavdbg_desc_layout_alive: the app has not destroyed the set layout. */
#define GPUAVDBG_DSL_PUSH 1u
#define GPUAVDBG_DSL_DB 2u
uint32_t gpuavdbg_desc_layout_kind(VkDescriptorSetLayout l);
int gpuavdbg_desc_layout_alive(VkDescriptorSetLayout l);

/* The command-buffer owner's hooks (cmdbuf.c): the app's binds and pushes
 * at bind point bi, an action that uses the layer's set (its sets are
 * snapshot), and the command buffer's reset and free. */
void gpuavdbg_desc_cb_bind(cb_state *cs, int bi, uint32_t first, uint32_t n, const VkDescriptorSet *sets,
                           uint32_t ndyn, const uint32_t *dyn);
void gpuavdbg_desc_cb_push_writes(cb_state *cs, int bi, VkPipelineLayout pl, uint32_t set, uint32_t n,
                                  const VkWriteDescriptorSet *w);
void gpuavdbg_desc_cb_push_template(cb_state *cs, VkDescriptorUpdateTemplate tmpl, VkPipelineLayout pl,
                                    uint32_t set, const void *data);
/* Descriptor buffers (docs/decisions/descriptor-buffers.md): the buffers
 * bound (vkCmdBindDescriptorBuffersEXT), the sets' offsets in them at bind
 * point bi with pipeline layout pl (vkCmdSetDescriptorBufferOffsetsEXT and
 * its info form), a set of embedded immutable samplers
 * (vkCmdBindDescriptorBufferEmbeddedSamplersEXT). */
void gpuavdbg_desc_cb_bind_buffers(cb_state *cs, uint32_t n, const VkDescriptorBufferBindingInfoEXT *infos);
void gpuavdbg_desc_cb_set_offsets(cb_state *cs, int bi, VkPipelineLayout pl, uint32_t first, uint32_t n,
                                  const uint32_t *indices, const VkDeviceSize *offsets);
void gpuavdbg_desc_cb_embedded_samplers(cb_state *cs, int bi, VkPipelineLayout pl, uint32_t set);
void gpuavdbg_desc_cb_action(cb_state *cs, int bi, uint32_t action);
void gpuavdbg_desc_cb_reset(cb_state *cs);
void gpuavdbg_desc_cb_free(cb_state *cs);

/* gpuavdbg_desc_facts_hold tests facts against the sets bound at bind
 * point bi as the shaders' gpuav_binding_fact would: 1 when every one
 * holds, else 0 with the index of the first that fails in *failed and its
 * binding's floor in *floor. variant names the facts (an id no other
 * facts array ever has): the command buffer remembers results per
 * variant and set while no set, write or resource changes. An action
 * buffer fact is tested here with its constant bound only, and its
 * binding's floor goes into act_floor (in the order of the action facts,
 * at most GPUAVDBG_ACTION_FACTS) for variants.c to test at each action;
 * an action index fact reads no set, its act_floor is its length - 1. */
int gpuavdbg_desc_facts_hold(cb_state *cs, int bi, uint64_t variant, const gpuavdbg_fact *facts, uint32_t n,
                             uint32_t *failed, uint32_t *floor, uint32_t *act_floor);

/* gpuavdbg_desc_write_state writes the descriptor state (binding 2) into
 * words (cap words) before a submit, its valid word left 0, and returns
 * the words used (more than cap: it did not fit). It reserves the count
 * words of the per-action vertex table offsets at *vtable (count in
 * *count), which the command checks fill after it (submit.c). */
uint32_t gpuavdbg_desc_write_state(device_data *dd, cb_state *cs, uint32_t *words, uint32_t cap, uint32_t *vtable,
                                   uint32_t *count);
/* gpuavdbg_desc_tell logs, as unchecked, what the descriptor-buffer sets
 * read by gpuavdbg_desc_write_state left unchecked (each cause once per
 * buffer); the submit calls it outside its lock. */
void gpuavdbg_desc_tell(void);
/* gpuavdbg_desc_cb_submitted reads again, at each submit of cs (listed or
 * not: a command buffer whose fast variants bind nothing is not), the
 * descriptor-buffer sets its fast variants' facts held on at recording, and
 * tells (gpuavdbg_desc_tell) when one changed. */
void gpuavdbg_desc_cb_submitted(cb_state *cs);

/* The device owner's (device.c): the descriptor-buffer properties, where
 * the app enabled VK_EXT_descriptor_buffer. */
void gpuavdbg_desc_device_created(device_data *dd, const VkDeviceCreateInfo *ci);
void gpuavdbg_desc_teardown(device_data *dd);

#endif
