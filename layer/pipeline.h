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

#endif
