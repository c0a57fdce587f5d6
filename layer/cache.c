/*
 * cache.c: pipeline caches. The app's VkPipelineCache must only ever hold
 * what the app would have put in it without the layer: its data is saved
 * by the app and fed to later runs, with or without the layer. So every
 * app cache gets a layer-owned shadow cache, created with it and destroyed
 * with it; pipelines the layer builds with its padded layout (and so with
 * instrumented shaders) are created with the shadow, and
 * vkGetPipelineCacheData (not intercepted) returns the app cache's own
 * data. vkMergePipelineCaches merges the app caches and their shadows
 * alike. When the shadow cannot be made, those pipelines use no cache.
 * Across processes: when the app reads its cache's data, Go keeps the
 * shadow's data (and the instrumentation results) in a file named by the
 * app data's digest; a cache created from the same data later starts its
 * shadow with the kept data (layer/shadowcache.go).
 */
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "cache.h"
#include "_cgo_export.h"

/* shadow is the value of device_data.caches. */
typedef struct shadow {
    VkPipelineCache cache;
    uint32_t used; /* vkCreate*Pipelines calls that used it */
} shadow;

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreatePipelineCache(VkDevice device, const VkPipelineCacheCreateInfo *ci,
                                                            const VkAllocationCallbacks *alloc,
                                                            VkPipelineCache *pCache)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.CreatePipelineCache(device, ci, alloc, pCache);
    if (r != VK_SUCCESS || !dd->set_layout)
        return r;
    /* The app's initial data holds pipelines built from its own shaders
     * and layouts: nothing the layer builds can hit it. The shadow starts
     * with what an earlier run kept beside the same data, else empty. */
    VkPipelineCacheCreateInfo sci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
        .flags = ci->flags & VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT,
    };
    void *kept = NULL;
    size_t nkept = 0;
    if (ci->initialDataSize > 0 && ci->pInitialData &&
        goShadowCacheLoad(GPUAVDBG_H(device), (void *)ci->pInitialData, ci->initialDataSize, &kept, &nkept)) {
        sci.initialDataSize = nkept;
        sci.pInitialData = kept;
    }
    shadow *sh = calloc(1, sizeof *sh);
    VkResult sr = sh ? dd->disp.CreatePipelineCache(device, &sci, NULL, &sh->cache) : VK_ERROR_OUT_OF_HOST_MEMORY;
    if (sr != VK_SUCCESS && kept && sh) { /* data the driver refuses: an empty shadow */
        sci.initialDataSize = 0;
        sci.pInitialData = NULL;
        sr = dd->disp.CreatePipelineCache(device, &sci, NULL, &sh->cache);
    }
    free(kept);
    if (sr != VK_SUCCESS) {
        free(sh);
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING,
                      "pipeline cache 0x%llx: cannot create the layer's shadow cache (%d): instrumented pipelines "
                      "made with it are not cached",
                      (unsigned long long)GPUAVDBG_H(*pCache), (int)sr);
        return r;
    }
    pthread_mutex_lock(&dd->lock);
    int ok = hmap_put(&dd->caches, GPUAVDBG_H(*pCache), sh);
    pthread_mutex_unlock(&dd->lock);
    if (!ok) {
        dd->disp.DestroyPipelineCache(device, sh->cache, NULL);
        free(sh);
    }
    return r;
}

/* shadow_of returns the shadow of cache (VK_NULL_HANDLE: none), counting
 * a use when use. */
static VkPipelineCache shadow_of(device_data *dd, VkPipelineCache cache, int use)
{
    if (!cache)
        return VK_NULL_HANDLE;
    pthread_mutex_lock(&dd->lock);
    shadow *sh = hmap_get(&dd->caches, GPUAVDBG_H(cache));
    VkPipelineCache s = sh ? sh->cache : VK_NULL_HANDLE;
    if (sh && use)
        sh->used++;
    pthread_mutex_unlock(&dd->lock);
    return s;
}

VkPipelineCache gpuavdbg_cache_for(device_data *dd, VkPipelineCache cache, int instrumented)
{
    if (!instrumented || !cache)
        return cache;
    return shadow_of(dd, cache, 1); /* VK_NULL_HANDLE when it has none */
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyPipelineCache(VkDevice device, VkPipelineCache cache,
                                                         const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    if (cache) {
        pthread_mutex_lock(&dd->lock);
        shadow *sh = hmap_del(&dd->caches, GPUAVDBG_H(cache));
        pthread_mutex_unlock(&dd->lock);
        if (sh) {
            if (sh->used > 0)
                gpuavdbg_logf(GPUAVDBG_LOG_INFO,
                              "pipeline cache 0x%llx: %u pipeline creations with instrumented shaders used the "
                              "layer's shadow cache; the app's cache holds none of them",
                              (unsigned long long)GPUAVDBG_H(cache), sh->used);
            dd->disp.DestroyPipelineCache(device, sh->cache, NULL);
            free(sh);
        }
    }
    dd->disp.DestroyPipelineCache(device, cache, alloc);
}

/* vkGetPipelineCacheData returns the app cache's own data; once the app
 * has read it whole, its shadow's data is kept beside it (Go). */
static VKAPI_ATTR VkResult VKAPI_CALL icpt_GetPipelineCacheData(VkDevice device, VkPipelineCache cache, size_t *size,
                                                             void *data)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.GetPipelineCacheData(device, cache, size, data);
    if (r != VK_SUCCESS || !data || *size == 0)
        return r;
    VkPipelineCache s = shadow_of(dd, cache, 0);
    size_t n = 0;
    void *sd = NULL;
    if (s && dd->disp.GetPipelineCacheData(device, s, &n, NULL) == VK_SUCCESS && n > 0 && (sd = malloc(n)) != NULL &&
        dd->disp.GetPipelineCacheData(device, s, &n, sd) != VK_SUCCESS)
        n = 0;
    goShadowCacheSave(GPUAVDBG_H(device), data, *size, sd, n);
    free(sd);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_MergePipelineCaches(VkDevice device, VkPipelineCache dst, uint32_t n,
                                                            const VkPipelineCache *srcs)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.MergePipelineCaches(device, dst, n, srcs);
    VkPipelineCache sdst = shadow_of(dd, dst, 0);
    if (r != VK_SUCCESS || !sdst || n == 0)
        return r;
    VkPipelineCache small[8];
    VkPipelineCache *ss = n <= 8 ? small : malloc(n * sizeof *ss);
    if (!ss)
        return r; /* the shadows stay apart: only caching suffers */
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        VkPipelineCache s = shadow_of(dd, srcs[i], 0);
        if (s)
            ss[k++] = s;
    }
    if (k > 0)
        dd->disp.MergePipelineCaches(device, sdst, k, ss);
    if (ss != small)
        free(ss);
    return r;
}

void gpuavdbg_caches_teardown(device_data *dd)
{
    pthread_mutex_lock(&dd->lock);
    for (size_t i = 0; i < dd->caches.cap; i++) {
        shadow *sh = dd->caches.slots[i].val;
        if (!dd->caches.slots[i].key || !sh)
            continue;
        if (dd->disp.DestroyPipelineCache)
            dd->disp.DestroyPipelineCache(dd->device, sh->cache, NULL);
        free(sh);
    }
    hmap_free(&dd->caches);
    pthread_mutex_unlock(&dd->lock);
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CreatePipelineCache),
    GPUAVDBG_ICPT(DestroyPipelineCache),
    GPUAVDBG_ICPT(GetPipelineCacheData),
    GPUAVDBG_ICPT(MergePipelineCaches),
};

PFN_vkVoidFunction gpuavdbg_cache_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}
