/*
 * cache.h: the layer's shadow pipeline caches (cache.c).
 */
#ifndef GPUAVDBG_CACHE_H
#define GPUAVDBG_CACHE_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_cache_intercept(const char *name);
/* gpuavdbg_cache_for returns the cache to create pipelines with: the
 * app's, or for instrumented ones its shadow (or VK_NULL_HANDLE). */
VkPipelineCache gpuavdbg_cache_for(device_data *dd, VkPipelineCache cache, int instrumented);
void gpuavdbg_caches_teardown(device_data *dd);

#endif
