/*
 * submit.c: queue submission. Before calling down, the layer clears the
 * output buffers of the submitted command buffers (and of the secondaries
 * they execute); after, it waits for the queue and hands every command
 * buffer that has records to Go in one call per submit.
 */
#include <stdlib.h>
#include <string.h>

#include "layer.h"
#include "_cgo_export.h"

static uint64_t g_submits;

uint64_t gpuavdbg_submit_count(void)
{
    return __atomic_load_n(&g_submits, __ATOMIC_RELAXED);
}

typedef struct submit_list {
    cb_state **cs;
    uint32_t n, cap;
    int oom; /* some command buffers are missing: their records are lost */
} submit_list;

/* add_cb lists cb, when it has instrumented actions, and the secondaries
 * it executes (depth bounds nesting, VK_EXT_nested_command_buffer). */
static void add_cb(submit_list *l, VkCommandBuffer cb, int depth)
{
    cb_state *cs = gpuavdbg_cb_get(cb);
    if (!cs || depth > 8)
        return;
    int listed = !cs->unit || cs->ninstrumented == 0;
    for (uint32_t i = 0; i < l->n && !listed; i++)
        listed = l->cs[i] == cs;
    if (!listed) {
        if (l->n == l->cap) {
            uint32_t ncap = l->cap ? l->cap * 2 : 16;
            cb_state **g = realloc(l->cs, ncap * sizeof *g);
            if (!g) {
                l->oom = 1;
                return;
            }
            l->cs = g;
            l->cap = ncap;
        }
        l->cs[l->n++] = cs;
    }
    for (uint32_t i = 0; i < cs->nexecuted; i++)
        add_cb(l, cs->executed[i], depth + 1);
}

/* before clears the output buffers of the listed command buffers. */
static void before(submit_list *l)
{
    for (uint32_t i = 0; i < l->n; i++)
        gpuavdbg_unit_zero(l->cs[i]->unit);
}

/* after waits for the queue and hands the records to Go. */
static void after(device_data *dd, VkQueue queue, uint64_t submit, submit_list *l)
{
    if (l->n == 0)
        return;
    /* Walking skeleton: wait for the whole queue after every submit that
     * has instrumented command buffers (as Khronos GPU-AV did). Issue 5
     * replaces this with a fence per submit, read asynchronously. */
    VkResult r = dd->disp.QueueWaitIdle(queue);
    if (r != VK_SUCCESS) {
        gpuavdbg_logf(GPUAVDBG_LOG_ERROR, "submit %llu: vkQueueWaitIdle failed (%d): its records are not read",
                      (unsigned long long)submit, (int)r);
        return;
    }
    gpuavdbg_submit_cb small[16];
    gpuavdbg_submit_cb *out = l->n <= 16 ? small : malloc(l->n * sizeof *out);
    if (!out)
        return;
    uint32_t n = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        const cb_state *cs = l->cs[i];
        const uint32_t *w = cs->unit->words;
        if (w[0] == 0 && w[1] == 0)
            continue; /* nothing written, nothing dropped */
        out[n++] = (gpuavdbg_submit_cb){
            .handle = GPUAVDBG_H(cs->cb),
            .words = w,
            .nwords = GPUAVDBG_OUTPUT_WORDS,
            .nactions = cs->nactions,
            .actions = cs->actions,
            .labels = cs->paths,
            .nlabels = cs->npaths,
            .secondary = (uint32_t)cs->secondary,
        };
    }
    if (n > 0)
        goSubmitDone(GPUAVDBG_H(queue), submit, out, n);
    if (out != small)
        free(out);
}

static VkResult submit1(device_data *dd, PFN_vkQueueSubmit fn, VkQueue queue, uint32_t n, const VkSubmitInfo *si,
                        VkFence fence)
{
    submit_list l = {0};
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < si[i].commandBufferCount; j++)
            add_cb(&l, si[i].pCommandBuffers[j], 0);
    before(&l);
    VkResult r = fn(queue, n, si, fence);
    uint64_t submit = __atomic_add_fetch(&g_submits, 1, __ATOMIC_RELAXED);
    if (r == VK_SUCCESS)
        after(dd, queue, submit, &l);
    if (l.oom)
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "submit %llu: out of memory: some command buffers are not read",
                      (unsigned long long)submit);
    free(l.cs);
    return r;
}

static VkResult submit2(device_data *dd, PFN_vkQueueSubmit2 fn, VkQueue queue, uint32_t n, const VkSubmitInfo2 *si,
                        VkFence fence)
{
    submit_list l = {0};
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < si[i].commandBufferInfoCount; j++)
            add_cb(&l, si[i].pCommandBufferInfos[j].commandBuffer, 0);
    before(&l);
    VkResult r = fn(queue, n, si, fence);
    uint64_t submit = __atomic_add_fetch(&g_submits, 1, __ATOMIC_RELAXED);
    if (r == VK_SUCCESS)
        after(dd, queue, submit, &l);
    if (l.oom)
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "submit %llu: out of memory: some command buffers are not read",
                      (unsigned long long)submit);
    free(l.cs);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL gl_QueueSubmit(VkQueue queue, uint32_t n, const VkSubmitInfo *si, VkFence fence)
{
    device_data *dd = gpuavdbg_device_get(queue);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    return submit1(dd, dd->disp.QueueSubmit, queue, n, si, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL gl_QueueSubmit2(VkQueue queue, uint32_t n, const VkSubmitInfo2 *si,
                                                     VkFence fence)
{
    device_data *dd = gpuavdbg_device_get(queue);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    return submit2(dd, dd->disp.QueueSubmit2, queue, n, si, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL gl_QueueSubmit2KHR(VkQueue queue, uint32_t n, const VkSubmitInfo2 *si,
                                                        VkFence fence)
{
    device_data *dd = gpuavdbg_device_get(queue);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    return submit2(dd, dd->disp.QueueSubmit2KHR, queue, n, si, fence);
}

PFN_vkVoidFunction gpuavdbg_submit_intercept(const char *name)
{
    if (strcmp(name, "vkQueueSubmit") == 0)
        return (PFN_vkVoidFunction)gl_QueueSubmit;
    if (strcmp(name, "vkQueueSubmit2") == 0)
        return (PFN_vkVoidFunction)gl_QueueSubmit2;
    if (strcmp(name, "vkQueueSubmit2KHR") == 0)
        return (PFN_vkVoidFunction)gl_QueueSubmit2KHR;
    return NULL;
}
