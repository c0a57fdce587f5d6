/*
 * pipeline.h: shader modules, pipeline layouts and pipelines (pipeline.c).
 */
#ifndef GPUAVDBG_PIPELINE_H
#define GPUAVDBG_PIPELINE_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_pipeline_intercept(const char *name);
/* gpuavdbg_pipelines_teardown forgets the device's pipelines (their
 * variants freed) and layouts (the device owner's teardown). */
void gpuavdbg_pipelines_teardown(device_data *dd);

/* gpuavdbg_pipeline_serial returns the serial of the live pipeline with
 * this handle (goPipelineCreated's), or 0 for one the layer does not know:
 * a debug name set on the handle names that pipeline
 * (docs/decisions/attribution-by-identity.md). */
uint64_t gpuavdbg_pipeline_serial(device_data *dd, uint64_t pipeline);

/* gpuavdbg_spec_with_word returns spec with the pipeline word added: the
 * specialization constant GPUAVDBG_PIPELINE_WORD_SPEC_ID of value word
 * (gpuav/pipeline_word.go), in one malloc'd block (*block, which the
 * caller frees after the create call); spec itself, *block NULL, when spec
 * already names that constant or memory runs out. */
const VkSpecializationInfo *gpuavdbg_spec_with_word(const VkSpecializationInfo *spec, uint32_t word, void **block);

#endif
