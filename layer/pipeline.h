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

#endif
