/*
 * variants.h: the fast and precise variants of a pipeline (variants.c;
 * docs/decisions/precise-variant.md) and the render passes they copy.
 */
#ifndef GPUAVDBG_VARIANTS_H
#define GPUAVDBG_VARIANTS_H

#include "state.h"

typedef struct gpuavdbg_variant gpuavdbg_variant;

PFN_vkVoidFunction gpuavdbg_variant_intercept(const char *name);

/* gpuavdbg_variant_compute returns the variants of a compute pipeline
 * about to be created (a deep copy of ci, the facts, its module and layout
 * held) and in *fast a module of the fast variant's words, to create it
 * with and destroy after; NULL when it is created as given.
 * gpuavdbg_variant_graphics: the same for a graphics pipeline (dynamic
 * rendering only), fast[i] a module for stage i (VK_NULL_HANDLE: keep the
 * app's), ci->stageCount of them. */
gpuavdbg_variant *gpuavdbg_variant_compute(device_data *dd, const VkComputePipelineCreateInfo *ci,
                                           VkShaderModule *fast);
gpuavdbg_variant *gpuavdbg_variant_graphics(device_data *dd, const VkGraphicsPipelineCreateInfo *ci,
                                            VkShaderModule *fast);
void gpuavdbg_variant_created(gpuavdbg_variant *v, VkPipeline p);
void gpuavdbg_variant_free(device_data *dd, gpuavdbg_variant *v);
/* gpuavdbg_variant_defer_destroy: 1 when a variant holds the module,
 * layout or render pass h (the layer destroys it when the last one lets
 * go). */
int gpuavdbg_variant_defer_destroy(device_data *dd, uint64_t h, const VkAllocationCallbacks *alloc);
void gpuavdbg_variant_teardown(device_data *dd);

/* gpuavdbg_variant_choose binds, before an action at bind point bi, the
 * variant the bound sets and the action's parameters call for, when the
 * pipeline, a set its facts read or the parameters changed (cmdbuf.c). */
void gpuavdbg_variant_choose(cb_state *cs, VkPipelineBindPoint bp, int bi);
/* gpuavdbg_variant_fact_sets: the set indices v's facts read (bit i: set
 * i; GPUAVDBG_ALL_SETS when one is past set 31), 0 for NULL;
 * gpuavdbg_variant_has_action_facts: v has facts tested at each action. */
uint32_t gpuavdbg_variant_fact_sets(const gpuavdbg_variant *v);
int gpuavdbg_variant_has_action_facts(const gpuavdbg_variant *v);

#endif
