/*
 * cmdbuf.c: the command-buffer owner, and the hot path. It owns the life
 * of command buffers (allocate, begin, end, reset, free, pools) and every
 * vkCmd* command the layer intercepts: one intercept per command, which
 * calls the rooms that need the command through their hooks
 * (descriptors.h, cmdchecks.h, prepass.h, variants.h, shaderobj.h) and
 * which no room calls back (docs/layer-map.md). The layer tracks the
 * pipeline bound at each bind point and, before every draw or dispatch
 * whose pipeline is instrumented, binds its descriptor set for that action
 * (the set whose action buffer slot holds the action's index); it appends
 * the action (index, command, pipeline, debug-label path) to a growable
 * array that the submit hands to Go. No call into Go happens here
 * (docs/decisions/layer-in-go-with-c.md).
 *
 * Command buffer state is touched by the recording thread only (Vulkan
 * requires external synchronization of a command buffer), and by the
 * submitting thread once the command buffer is pending.
 */
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "accel.h"
#include "cmdbuf.h"
#include "cmdchecks.h"
#include "crumbs.h"
#include "depthcopy.h"
#include "descriptors.h"
#include "prepass.h"
#include "resources.h"
#include "shaderobj.h"
#include "submit.h"
#include "variants.h"

/* ---- state ------------------------------------------------------------------ */

static void cb_reset(cb_state *cs)
{
    cs->nactions = 0;
    cs->ninstrumented = 0;
    cs->nbinds = 0;
    cs->nchecked = cs->nprecise = 0;
    for (uint32_t i = 0; i < cs->nstack; i++)
        free(cs->stack[i]);
    cs->nstack = 0;
    for (uint32_t i = 0; i < cs->npaths; i++)
        free(cs->paths[i]);
    cs->npaths = 0;
    cs->cur_path = GPUAVDBG_NO_LABEL;
    cs->path_dirty = 1;
    cs->nexecuted = 0;
    gpuavdbg_cc_reset(cs);
    gpuavdbg_prepass_reset(cs);
    gpuavdbg_accel_reset(cs);
    memset(cs->bound, 0, sizeof cs->bound);
    memset(cs->set_layout, 0, sizeof cs->set_layout);
    memset(cs->app_layout, 0, sizeof cs->app_layout);
    gpuavdbg_desc_cb_reset(cs);
    cs->pc_known = 0;
    cs->pc_gen++;
}

static void cb_free(cb_state *cs)
{
    cb_reset(cs);
    gpuavdbg_unit_release(cs->dd, cs->unit);
    gpuavdbg_desc_cb_free(cs);
    gpuavdbg_cc_free(cs);
    gpuavdbg_prepass_free(cs);
    gpuavdbg_accel_free(cs);
    gpuavdbg_crumbs_free(cs);
    free(cs->actions);
    free(cs->stack);
    free(cs->paths);
    free(cs->executed);
    free(cs->executed_at);
    free(cs);
}

/* grow makes room for one more element in *arr (of *cap elements). */
static int grow(void **arr, uint32_t *cap, uint32_t len, size_t elem)
{
    if (len < *cap)
        return 1;
    uint32_t ncap = *cap ? *cap * 2 : 16;
    void *n = realloc(*arr, (size_t)ncap * elem);
    if (!n)
        return 0;
    *arr = n;
    *cap = ncap;
    return 1;
}

/* The label path of the next action, as an index into cs->paths. */
static uint32_t current_label(cb_state *cs)
{
    if (cs->nstack == 0)
        return GPUAVDBG_NO_LABEL;
    if (!cs->path_dirty)
        return cs->cur_path;
    size_t n = 0;
    for (uint32_t i = 0; i < cs->nstack; i++)
        n += strlen(cs->stack[i]) + 1;
    char *path = malloc(n);
    if (!path || !grow((void **)&cs->paths, &cs->cap_paths, cs->npaths, sizeof *cs->paths)) {
        free(path);
        return GPUAVDBG_NO_LABEL;
    }
    char *p = path;
    for (uint32_t i = 0; i < cs->nstack; i++) {
        size_t l = strlen(cs->stack[i]);
        memcpy(p, cs->stack[i], l);
        p += l;
        *p++ = GPUAVDBG_LABEL_SEP;
    }
    p[-1] = '\0';
    cs->paths[cs->npaths] = path;
    cs->cur_path = cs->npaths++;
    cs->path_dirty = 0;
    return cs->cur_path;
}

static int bind_point_index(VkPipelineBindPoint bp)
{
    switch (bp) {
    case VK_PIPELINE_BIND_POINT_GRAPHICS: return 0;
    case VK_PIPELINE_BIND_POINT_COMPUTE: return 1;
    case VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR: return 2;
    default: return -1;
    }
}

/* bind_layer_set makes the layer's set of the action slot of action idx
 * the one bound at bind point bp for pipeline b. */
static void bind_layer_set(cb_state *cs, const bound_pipeline *b, VkPipelineBindPoint bp, int bi, uint32_t idx)
{
    const device_data *dd = cs->dd;
    uint32_t slot = idx < GPUAVDBG_ACTION_SLOTS - 1 ? idx : GPUAVDBG_ACTION_SLOTS - 1;
    if (b->push) {
        /* A descriptor-buffer pipeline: the set is pushed, before every
         * action (the app's descriptor-buffer commands are not followed);
         * the next bind of a set is a real one. */
        gpuavdbg_unit_push(dd, cs->unit, cs->cb, bp, b->layout, slot);
        cs->set_layout[bi] = VK_NULL_HANDLE;
        cs->nbinds++;
    } else if (cs->set_layout[bi] != b->layout || cs->set_slot[bi] != slot) {
        /* Actions past the last action slot share it: bind once for them
         * while the app leaves the set alone and keeps the layout. */
        VkDescriptorSet set = gpuavdbg_unit_action_set((device_data *)dd, cs->unit, slot);
        dd->disp.CmdBindDescriptorSets(cs->cb, bp, b->layout, dd->slot, 1, &set, 0, NULL);
        cs->set_layout[bi] = b->layout;
        cs->set_slot[bi] = slot;
        cs->nbinds++;
    }
}

/* before_action records an action and, when the variant of its
 * pipeline bound down the chain uses the layer's descriptor set, binds the
 * set of its action slot and snapshots the sets it sees. A variant that
 * uses nothing of the set (a fast variant whose facts decide every check:
 * docs/decisions/no-bind-for-check-free-variants.md) can write no record,
 * so its action binds nothing; it still takes its action index, so that
 * the records of the next action that does bind name their action
 * exactly. */
static void before_action(cb_state *cs, gpuavdbg_cmd cmd, VkPipelineBindPoint bp)
{
    if (!cs)
        return;
    int bi = bind_point_index(bp);
    const bound_pipeline *b = bi >= 0 ? &cs->bound[bi] : NULL;
    uint32_t idx = cs->nactions;
    gpuavdbg_action a = {
        .pipeline = b ? b->pipeline : 0,
        .pipeline_serial = b ? b->serial : 0,
        .index = idx,
        .command = (uint32_t)cmd,
        .label = current_label(cs),
        .instrumented = 0,
    };
    if (b && b->instrumented && cs->unit) {
        if ((b->facts_dirty & b->fact_sets) || b->has_act) /* the fast or the precise variant (variants.c) */
            gpuavdbg_variant_choose(cs, bp, bi);
        if (cs->unit != cs->dd->sink) { /* the sink's records are never read */
            cs->nchecked++;
            cs->nprecise += b->pipeline && b->down != b->pipeline;
        }
        /* Shader objects (pipeline 0) and precise variants always use it. */
        if (b->reads_set || !b->pipeline || b->down != b->pipeline) {
            bind_layer_set(cs, b, bp, bi, idx);
            a.instrumented = 1;
            cs->ninstrumented++;
            gpuavdbg_desc_cb_action(cs, bi, idx); /* the sets this action sees (binding 2) */
        }
    }
    /* Out of memory: the bind above still keeps the shaders safe; only the
     * attribution of later records suffers. */
    if (grow((void **)&cs->actions, &cs->cap_actions, cs->nactions, sizeof *cs->actions))
        cs->actions[cs->nactions++] = a;
    gpuavdbg_crumbs_before(cs, idx); /* the breadcrumb before it (crumbs.h) */
}

/* after_action writes the breadcrumb after action (its index), once the
 * action is called down or skipped. */
static inline void after_action(cb_state *cs, uint32_t action)
{
    if (cs)
        gpuavdbg_crumbs_after(cs, action);
}

/* ---- allocation and lifetime -------------------------------------------- */

/* The last command-buffer serial given (cb_state.serial): 0 is none. */
static uint64_t g_cb_serial;

static VKAPI_ATTR VkResult VKAPI_CALL icpt_AllocateCommandBuffers(VkDevice device,
                                                               const VkCommandBufferAllocateInfo *ai,
                                                               VkCommandBuffer *cbs)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.AllocateCommandBuffers(device, ai, cbs);
    if (r != VK_SUCCESS)
        return r;
    int lost = 0;
    for (uint32_t i = 0; i < ai->commandBufferCount; i++) {
        cb_state *cs = calloc(1, sizeof *cs);
        if (!cs) {
            lost++;
            continue;
        }
        cs->cb = cbs[i];
        cs->serial = __atomic_add_fetch(&g_cb_serial, 1, __ATOMIC_RELAXED);
        cs->dd = dd;
        cs->pool = ai->commandPool;
        cs->secondary = ai->level == VK_COMMAND_BUFFER_LEVEL_SECONDARY;
        cs->cur_path = GPUAVDBG_NO_LABEL;
        cs->path_dirty = 1;
        cb_state *old;
        if (!gpuavdbg_cb_put(cbs[i], cs, &old)) {
            free(cs);
            lost++;
            continue;
        }
        if (old) /* a handle the app never freed (e.g. its pool was reset away) */
            cb_free(old);
    }
    if (lost)
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "out of memory: %d command buffers are not validated", lost);
    return r;
}

static void forget(device_data *dd, VkCommandBuffer cb)
{
    gpuavdbg_pending_flush_cb(dd, gpuavdbg_cb_get(cb));
    cb_state *cs = gpuavdbg_cb_del(cb);
    if (cs)
        cb_free(cs);
}

static VKAPI_ATTR void VKAPI_CALL icpt_FreeCommandBuffers(VkDevice device, VkCommandPool pool, uint32_t n,
                                                       const VkCommandBuffer *cbs)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    for (uint32_t i = 0; i < n; i++)
        if (cbs[i])
            forget(dd, cbs[i]);
    dd->disp.FreeCommandBuffers(device, pool, n, cbs);
}

/* flush_pool reads the pending records of every command buffer of pool
 * (of the device, with pool == 0) before they are reset or freed. The app
 * synchronizes the pool, so no command buffer of it goes away meanwhile. */
static void flush_pool(device_data *dd, VkCommandPool pool)
{
    gpuavdbg_pending_flush_pool(dd, pool);
    cb_state **list = NULL;
    size_t n = gpuavdbg_cb_list(dd, pool, &list);
    for (size_t i = 0; i < n; i++)
        gpuavdbg_pending_flush_cb(dd, list[i]);
    free(list);
}

/* each_in_pool resets every command buffer of pool; with del, it removes
 * them from the map and frees them. */
static void each_in_pool(device_data *dd, VkCommandPool pool, int del)
{
    flush_pool(dd, pool);
    gpuavdbg_cb_each(dd, pool, del, del ? cb_free : cb_reset);
}

void gpuavdbg_cb_forget_device(device_data *dd)
{
    each_in_pool(dd, VK_NULL_HANDLE, 1);
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyCommandPool(VkDevice device, VkCommandPool pool,
                                                       const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    if (pool)
        each_in_pool(dd, pool, 1);
    dd->disp.DestroyCommandPool(device, pool, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_ResetCommandPool(VkDevice device, VkCommandPool pool,
                                                         VkCommandPoolResetFlags flags)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (pool)
        each_in_pool(dd, pool, 0);
    return dd->disp.ResetCommandPool(device, pool, flags);
}

/* ---- recording -------------------------------------------------------------- */

#define CMD_PROLOGUE(cb)                                                 \
    cb_state *cs = gpuavdbg_cb_get(cb);                                  \
    device_data *dd = cs ? cs->dd : gpuavdbg_device_get(cb);             \
    if (!dd)                                                             \
        return

static VKAPI_ATTR VkResult VKAPI_CALL icpt_BeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo *bi)
{
    cb_state *cs = gpuavdbg_cb_get(cb);
    device_data *dd = cs ? cs->dd : gpuavdbg_device_get(cb);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (cs) {
        gpuavdbg_pending_flush_cb(dd, cs);
        cb_reset(cs);
        cs->simultaneous = bi && (bi->flags & VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
        /* Units exist whenever the device set-up succeeded, even after a
         * later failure stopped instrumenting new shaders: pipelines made
         * before it still need the set bound. */
        /* After an allocation failure, command buffers begun from then on
         * record into the sink: their errors are no longer reported. */
        if (cs->unit && cs->unit != dd->sink && __atomic_load_n(&dd->alloc_failed, __ATOMIC_ACQUIRE)) {
            gpuavdbg_unit_release(dd, cs->unit);
            cs->unit = NULL;
        }
        if (!cs->unit && dd->set_layout)
            cs->unit = gpuavdbg_unit_acquire(dd);
        gpuavdbg_unit_inputs_grow(dd, cs->unit); /* input buffers a submit found too small */
        gpuavdbg_crumbs_begin(cs, bi);
    }
    return dd->disp.BeginCommandBuffer(cb, bi);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_EndCommandBuffer(VkCommandBuffer cb)
{
    cb_state *cs = gpuavdbg_cb_get(cb);
    device_data *dd = cs ? cs->dd : gpuavdbg_device_get(cb);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    int prepass = cs && gpuavdbg_prepass_end(cs); /* the pre-pass wrote records */
    if (cs)
        gpuavdbg_crumbs_end(cs); /* the last breadcrumb (crumbs.h) */
    if (cs && gpuavdbg_tests.binds) /* a test hook: the layer's binds are not visible to the app */
        gpuavdbg_logf(GPUAVDBG_LOG_INFO, "test: command buffer 0x%llx: %u actions, %u used the layer's set, %u binds of it",
                      (unsigned long long)GPUAVDBG_H(cb), cs->nactions, cs->ninstrumented, cs->nbinds);
    if (cs && cs->unit && !cs->secondary && (cs->ninstrumented > 0 || cs->nexecuted > 0 || prepass)) {
        /* Make the shaders' writes visible to the host: a fence wait alone
         * does not. Secondaries run inside a primary, which has this. */
        VkMemoryBarrier mb = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
            .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
            .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
        };
        dd->disp.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
                                    0, NULL, 0, NULL);
    }
    return dd->disp.EndCommandBuffer(cb);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_ResetCommandBuffer(VkCommandBuffer cb, VkCommandBufferResetFlags flags)
{
    cb_state *cs = gpuavdbg_cb_get(cb);
    device_data *dd = cs ? cs->dd : gpuavdbg_device_get(cb);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (cs) {
        gpuavdbg_pending_flush_cb(dd, cs);
        cb_reset(cs);
    }
    return dd->disp.ResetCommandBuffer(cb, flags);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint bp, VkPipeline pipeline)
{
    CMD_PROLOGUE(cb);
    int bi = bind_point_index(bp);
    if (cs && bi >= 0) {
        bound_pipeline *b = &cs->bound[bi];
        b->pipeline = GPUAVDBG_H(pipeline);
        pthread_mutex_lock(&dd->lock);
        const pipeline_info *pi = hmap_get(&dd->pipelines, GPUAVDBG_H(pipeline));
        b->serial = pi ? pi->serial : 0;
        b->layout = pi ? pi->layout : VK_NULL_HANDLE;
        b->instrumented = pi ? pi->instrumented : 0;
        b->reads_set = pi ? pi->reads_set : 1;
        b->vi = pi ? pi->vi : NULL;
        b->has_task = pi ? pi->has_task : 0;
        b->push = pi ? pi->push : 0;
        b->var = pi ? pi->var : NULL;
        pthread_mutex_unlock(&dd->lock);
        b->fact_sets = gpuavdbg_variant_fact_sets(b->var);
        b->has_act = gpuavdbg_variant_has_action_facts(b->var);
        b->down = GPUAVDBG_H(pipeline);
        b->facts_dirty = GPUAVDBG_ALL_SETS;
    }
    dd->disp.CmdBindPipeline(cb, bp, pipeline);
}

/* ---- shader objects --------------------------------------------------------------- */

/* stage_slot maps a shader stage to its bind point index (graphics 0,
 * compute 1) and its slot in bound_pipeline.shaders. */
static int stage_slot(VkShaderStageFlagBits stage, int *bi)
{
    *bi = 0;
    switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return 0;
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return 1;
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return 2;
    case VK_SHADER_STAGE_GEOMETRY_BIT: return 3;
    case VK_SHADER_STAGE_FRAGMENT_BIT: return 4;
    case VK_SHADER_STAGE_TASK_BIT_EXT: return 5;
    case VK_SHADER_STAGE_MESH_BIT_EXT: return 6;
    case VK_SHADER_STAGE_COMPUTE_BIT: *bi = 1; return 0;
    default: return -1;
    }
}

/* vkCmdBindShadersEXT: the shaders bound at a bind point replace its
 * pipeline (the last bind of either wins). The bind point's layout is the
 * layer's layout of its first instrumented stage (all of them have the
 * layer's set at the slot: shaderobj.c), so that before_action binds the
 * set. */
static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindShadersEXT(VkCommandBuffer cb, uint32_t n,
                                                         const VkShaderStageFlagBits *stages,
                                                         const VkShaderEXT *shaders)
{
    CMD_PROLOGUE(cb);
    if (!dd->disp.CmdBindShadersEXT)
        return;
    if (cs && stages) {
        int touched[2] = {0, 0};
        for (uint32_t i = 0; i < n; i++) {
            int bi;
            int si = stage_slot(stages[i], &bi);
            if (si < 0)
                continue;
            bound_pipeline *b = &cs->bound[bi];
            if (b->pipeline) { /* a pipeline was bound since: its stages replaced these */
                memset(b->shaders, 0, sizeof b->shaders);
                b->pipeline = 0;
                b->serial = 0;
                b->var = NULL;
                b->fact_sets = 0;
            }
            b->shaders[si] = shaders ? shaders[i] : VK_NULL_HANDLE;
            touched[bi] = 1;
        }
        for (int bi = 0; bi < 2; bi++) {
            if (!touched[bi])
                continue;
            bound_pipeline *b = &cs->bound[bi];
            b->push = 0;
            b->layout = gpuavdbg_shaderobj_layout(dd, b->shaders);
            b->instrumented = b->layout != VK_NULL_HANDLE;
        }
    }
    dd->disp.CmdBindShadersEXT(cb, n, stages, shaders);
}

/* ---- descriptor binds of the app ------------------------------------------------ */

/* disturbed forgets that the layer's set is bound at bind point bp (all,
 * with bp < 0): the app's binds may have disturbed it (different layouts
 * for lower sets make the higher ones incompatible). */
static void disturbed(cb_state *cs, int bi)
{
    if (!cs)
        return;
    if (bi < 0) {
        memset(cs->set_layout, 0, sizeof cs->set_layout);
        memset(cs->app_layout, 0, sizeof cs->app_layout);
    } else {
        cs->set_layout[bi] = VK_NULL_HANDLE;
        memset(cs->app_layout[bi], 0, sizeof cs->app_layout[bi]);
    }
}

/* app_bound notes that the app bound sets first..first+n-1 at bind point
 * bi with layout, and forgets the layer's set unless the bind leaves it in
 * place. Vulkan's pipeline layout compatibility rules: binding set N
 * disturbs the sets numbered above N only when set N was last bound with a
 * layout not compatible with the new one for set N, and a layout is
 * compatible with itself. So when every set bound was last bound with the
 * same layout handle, the layer's set (numbered above all of the app's)
 * stays bound and the next action need not bind it again: the common loop
 * of a bind and a draw costs one bind per draw, not two, once the actions
 * share the last action slot
 * (docs/decisions/binds-that-keep-the-layers-set.md). Anything else counts
 * as disturbing it. */
static void app_bound(cb_state *cs, int bi, VkPipelineLayout layout, uint32_t first, uint32_t n)
{
    if (!cs || bi < 0 || bi >= (int)GPUAVDBG_BIND_POINTS)
        return;
    int keep = first < GPUAVDBG_APP_SETS && n <= GPUAVDBG_APP_SETS - first && first + n <= cs->dd->slot;
    for (uint32_t i = 0; keep && i < n; i++)
        keep = cs->app_layout[bi][first + i] == layout;
    if (!keep)
        disturbed(cs, bi);
    for (uint32_t i = 0; i < n && first + i < GPUAVDBG_APP_SETS; i++)
        cs->app_layout[bi][first + i] = layout;
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindDescriptorSets(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                                          VkPipelineLayout layout, uint32_t first, uint32_t n,
                                                          const VkDescriptorSet *sets, uint32_t ndyn,
                                                          const uint32_t *dyn)
{
    CMD_PROLOGUE(cb);
    int bi = bind_point_index(bp);
    app_bound(cs, bi, layout, first, n);
    gpuavdbg_desc_cb_bind(cs, bi, first, n, sets, ndyn, dyn);
    dd->disp.CmdBindDescriptorSets(cb, bp, layout, first, n, sets, ndyn, dyn);
}

/* push_writes records a push of descriptor writes at bind point bp, for
 * both names of the command. */
static void push_writes(cb_state *cs, VkPipelineBindPoint bp, VkPipelineLayout layout, uint32_t set, uint32_t n,
                        const VkWriteDescriptorSet *writes)
{
    int bi = bind_point_index(bp);
    if (bi >= 0)
        disturbed(cs, bi);
    gpuavdbg_desc_cb_push_writes(cs, bi, layout, set, n, writes);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushDescriptorSetKHR(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                                            VkPipelineLayout layout, uint32_t set, uint32_t n,
                                                            const VkWriteDescriptorSet *writes)
{
    CMD_PROLOGUE(cb);
    push_writes(cs, bp, layout, set, n, writes);
    dd->disp.CmdPushDescriptorSetKHR(cb, bp, layout, set, n, writes);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer cb,
                                                                        VkDescriptorUpdateTemplate tmpl,
                                                                        VkPipelineLayout layout, uint32_t set,
                                                                        const void *data)
{
    CMD_PROLOGUE(cb);
    disturbed(cs, -1); /* the template knows the bind point */
    gpuavdbg_desc_cb_push_template(cs, tmpl, layout, set, data);
    dd->disp.CmdPushDescriptorSetWithTemplateKHR(cb, tmpl, layout, set, data);
}

/* Vulkan 1.4 core names of the push-descriptor commands. */
static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushDescriptorSet(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                                         VkPipelineLayout layout, uint32_t set, uint32_t n,
                                                         const VkWriteDescriptorSet *writes)
{
    CMD_PROLOGUE(cb);
    push_writes(cs, bp, layout, set, n, writes);
    dd->disp.CmdPushDescriptorSet(cb, bp, layout, set, n, writes);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushDescriptorSetWithTemplate(VkCommandBuffer cb,
                                                                     VkDescriptorUpdateTemplate tmpl,
                                                                     VkPipelineLayout layout, uint32_t set,
                                                                     const void *data)
{
    CMD_PROLOGUE(cb);
    disturbed(cs, -1);
    gpuavdbg_desc_cb_push_template(cs, tmpl, layout, set, data);
    dd->disp.CmdPushDescriptorSetWithTemplate(cb, tmpl, layout, set, data);
}

/* VK_KHR_maintenance6 (core 1.4): the info structures name shader stages,
 * not a bind point; a command applies to every bind point whose stages it
 * names. */
#define GPUAVDBG_STAGES_RAY_TRACING                                                                      \
    (VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_ANY_HIT_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR | \
     VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR | VK_SHADER_STAGE_CALLABLE_BIT_KHR)
#define GPUAVDBG_STAGES_GRAPHICS (VK_SHADER_STAGE_ALL_GRAPHICS | 0x40u /* task */ | 0x80u /* mesh */)

static int stages_bind_point(VkShaderStageFlags stages, int bi)
{
    switch (bi) {
    case 0: return (stages & GPUAVDBG_STAGES_GRAPHICS) != 0;
    case 1: return (stages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    case 2: return (stages & GPUAVDBG_STAGES_RAY_TRACING) != 0;
    }
    return 0;
}

static void bind_sets2(VkCommandBuffer cb, const VkBindDescriptorSetsInfoKHR *info, int khr)
{
    CMD_PROLOGUE(cb);
    PFN_vkCmdBindDescriptorSets2 next = khr ? dd->disp.CmdBindDescriptorSets2KHR : dd->disp.CmdBindDescriptorSets2;
    if (info)
        for (int bi = 0; bi < (int)GPUAVDBG_BIND_POINTS; bi++)
            if (stages_bind_point(info->stageFlags, bi)) {
                app_bound(cs, bi, info->layout, info->firstSet, info->descriptorSetCount);
                gpuavdbg_desc_cb_bind(cs, bi, info->firstSet, info->descriptorSetCount, info->pDescriptorSets,
                                      info->dynamicOffsetCount, info->pDynamicOffsets);
            }
    next(cb, info);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindDescriptorSets2(VkCommandBuffer cb, const VkBindDescriptorSetsInfoKHR *info)
{
    bind_sets2(cb, info, 0);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindDescriptorSets2KHR(VkCommandBuffer cb,
                                                              const VkBindDescriptorSetsInfoKHR *info)
{
    bind_sets2(cb, info, 1);
}

/* ---- push constants ------------------------------------------------------------ */

/* pushed keeps the words of a push (offset and size are multiples of 4)
 * for the action facts (variants.c). */
static void pushed(cb_state *cs, uint32_t offset, uint32_t size, const void *values)
{
    if (!cs || !values)
        return;
    for (uint32_t i = 0; i < size / 4; i++) {
        uint32_t w = offset / 4 + i;
        if (w >= GPUAVDBG_PC_WORDS)
            break;
        memcpy(&cs->pc[w], (const char *)values + 4 * i, 4);
        cs->pc_known |= 1ull << w;
    }
    cs->pc_gen++;
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushConstants(VkCommandBuffer cb, VkPipelineLayout layout,
                                                      VkShaderStageFlags stages, uint32_t offset, uint32_t size,
                                                      const void *values)
{
    CMD_PROLOGUE(cb);
    pushed(cs, offset, size, values);
    dd->disp.CmdPushConstants(cb, layout, stages, offset, size, values);
}

static void push_constants2(VkCommandBuffer cb, const VkPushConstantsInfoKHR *info, int khr)
{
    CMD_PROLOGUE(cb);
    if (info)
        pushed(cs, info->offset, info->size, info->pValues);
    (khr ? dd->disp.CmdPushConstants2KHR : dd->disp.CmdPushConstants2)(cb, info);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushConstants2(VkCommandBuffer cb, const VkPushConstantsInfoKHR *info)
{
    push_constants2(cb, info, 0);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushConstants2KHR(VkCommandBuffer cb, const VkPushConstantsInfoKHR *info)
{
    push_constants2(cb, info, 1);
}

static void push_set2(VkCommandBuffer cb, const VkPushDescriptorSetInfoKHR *info, int khr)
{
    CMD_PROLOGUE(cb);
    PFN_vkCmdPushDescriptorSet2 next = khr ? dd->disp.CmdPushDescriptorSet2KHR : dd->disp.CmdPushDescriptorSet2;
    if (info)
        for (int bi = 0; bi < (int)GPUAVDBG_BIND_POINTS; bi++)
            if (stages_bind_point(info->stageFlags, bi)) {
                disturbed(cs, bi);
                gpuavdbg_desc_cb_push_writes(cs, bi, info->layout, info->set, info->descriptorWriteCount,
                                             info->pDescriptorWrites);
            }
    next(cb, info);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushDescriptorSet2(VkCommandBuffer cb, const VkPushDescriptorSetInfoKHR *info)
{
    push_set2(cb, info, 0);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushDescriptorSet2KHR(VkCommandBuffer cb, const VkPushDescriptorSetInfoKHR *info)
{
    push_set2(cb, info, 1);
}

static void push_template2(VkCommandBuffer cb, const VkPushDescriptorSetWithTemplateInfoKHR *info, int khr)
{
    CMD_PROLOGUE(cb);
    PFN_vkCmdPushDescriptorSetWithTemplate2 next =
        khr ? dd->disp.CmdPushDescriptorSetWithTemplate2KHR : dd->disp.CmdPushDescriptorSetWithTemplate2;
    disturbed(cs, -1); /* the template knows the bind point */
    if (info)
        gpuavdbg_desc_cb_push_template(cs, info->descriptorUpdateTemplate, info->layout, info->set, info->pData);
    next(cb, info);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushDescriptorSetWithTemplate2(VkCommandBuffer cb,
                                                                      const VkPushDescriptorSetWithTemplateInfoKHR *info)
{
    push_template2(cb, info, 0);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdPushDescriptorSetWithTemplate2KHR(
    VkCommandBuffer cb, const VkPushDescriptorSetWithTemplateInfoKHR *info)
{
    push_template2(cb, info, 1);
}

/* Descriptor buffers: the layer reads the sets from them
 * (docs/decisions/descriptor-buffers.md). */
static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindDescriptorBuffersEXT(VkCommandBuffer cb, uint32_t n,
                                                                const VkDescriptorBufferBindingInfoEXT *infos)
{
    CMD_PROLOGUE(cb);
    disturbed(cs, -1);
    gpuavdbg_desc_cb_bind_buffers(cs, n, infos);
    dd->disp.CmdBindDescriptorBuffersEXT(cb, n, infos);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdSetDescriptorBufferOffsetsEXT(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                                                     VkPipelineLayout layout, uint32_t first,
                                                                     uint32_t n, const uint32_t *indices,
                                                                     const VkDeviceSize *offsets)
{
    CMD_PROLOGUE(cb);
    disturbed(cs, -1);
    gpuavdbg_desc_cb_set_offsets(cs, bind_point_index(bp), layout, first, n, indices, offsets);
    dd->disp.CmdSetDescriptorBufferOffsetsEXT(cb, bp, layout, first, n, indices, offsets);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdSetDescriptorBufferOffsets2EXT(VkCommandBuffer cb,
                                                                      const VkSetDescriptorBufferOffsetsInfoEXT *info)
{
    CMD_PROLOGUE(cb);
    disturbed(cs, -1);
    if (info)
        for (int bi = 0; bi < (int)GPUAVDBG_BIND_POINTS; bi++)
            if (stages_bind_point(info->stageFlags, bi))
                gpuavdbg_desc_cb_set_offsets(cs, bi, info->layout, info->firstSet, info->setCount,
                                             info->pBufferIndices, info->pOffsets);
    dd->disp.CmdSetDescriptorBufferOffsets2EXT(cb, info);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindDescriptorBufferEmbeddedSamplersEXT(VkCommandBuffer cb,
                                                                               VkPipelineBindPoint bp,
                                                                               VkPipelineLayout layout, uint32_t set)
{
    CMD_PROLOGUE(cb);
    disturbed(cs, -1);
    gpuavdbg_desc_cb_embedded_samplers(cs, bind_point_index(bp), layout, set);
    dd->disp.CmdBindDescriptorBufferEmbeddedSamplersEXT(cb, bp, layout, set);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindDescriptorBufferEmbeddedSamplers2EXT(
    VkCommandBuffer cb, const VkBindDescriptorBufferEmbeddedSamplersInfoEXT *info)
{
    CMD_PROLOGUE(cb);
    disturbed(cs, -1);
    if (info)
        for (int bi = 0; bi < (int)GPUAVDBG_BIND_POINTS; bi++)
            if (stages_bind_point(info->stageFlags, bi))
                gpuavdbg_desc_cb_embedded_samplers(cs, bi, info->layout, info->set);
    dd->disp.CmdBindDescriptorBufferEmbeddedSamplers2EXT(cb, info);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdExecuteCommands(VkCommandBuffer cb, uint32_t n, const VkCommandBuffer *cbs)
{
    CMD_PROLOGUE(cb);
    disturbed(cs, -1); /* the primary's bindings are undefined after it */
    if (cs)
        for (uint32_t i = 0; i < n; i++) {
            uint32_t cap = cs->cap_executed;
            if (!grow((void **)&cs->executed, &cap, cs->nexecuted, sizeof *cs->executed))
                break;
            if (cap != cs->cap_executed) {
                uint32_t *at = realloc(cs->executed_at, cap * sizeof *at);
                if (!at)
                    break;
                cs->executed_at = at;
                cs->cap_executed = cap;
            }
            cs->executed_at[cs->nexecuted] = cs->nactions;
            cs->executed[cs->nexecuted++] = cbs[i];
        }
    dd->disp.CmdExecuteCommands(cb, n, cbs);
}

/* ---- actions ---------------------------------------------------------------- */

const char *gpuavdbg_cmd_name(uint32_t cmd)
{
#define NAME(id, name) [GPUAVDBG_CMD_##id] = name,
    static const char *const names[GPUAVDBG_CMD_COUNT] = {GPUAVDBG_CMDS(NAME)};
#undef NAME
    return cmd < GPUAVDBG_CMD_COUNT ? names[cmd] : NULL;
}

#define GFX VK_PIPELINE_BIND_POINT_GRAPHICS
#define CMP VK_PIPELINE_BIND_POINT_COMPUTE
#define RT VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR

/* ACTION defines the intercept of an action command no room checks:
 * record it, bind the layer's set when needed, call down. PARAMS and ARGS
 * are parenthesized. */
#define ACTION(fn, cmd, bp, PARAMS, ARGS)                    \
    static VKAPI_ATTR void VKAPI_CALL icpt_##fn PARAMS      \
    {                                                        \
        CMD_PROLOGUE(cb);                                    \
        uint32_t action = cs ? cs->nactions : 0;             \
        before_action(cs, GPUAVDBG_CMD_##cmd, bp);           \
        dd->disp.fn ARGS;                                    \
        after_action(cs, action);                            \
    }

/* ---- draws ---------------------------------------------------------------------- */

/* The direct draws: the command checks (cmdchecks.h) look at their
 * parameters once the action is recorded, and may skip them. */
static VKAPI_ATTR void VKAPI_CALL icpt_CmdDraw(VkCommandBuffer cb, uint32_t vertexCount, uint32_t instanceCount,
                                               uint32_t firstVertex, uint32_t firstInstance)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    before_action(cs, GPUAVDBG_CMD_DRAW, GFX);
    if (!(cs && gpuavdbg_cc_draw(cs, action, vertexCount, instanceCount, firstVertex, firstInstance)))
        dd->disp.CmdDraw(cb, vertexCount, instanceCount, firstVertex, firstInstance);
    after_action(cs, action);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdDrawIndexed(VkCommandBuffer cb, uint32_t indexCount, uint32_t instanceCount,
                                                      uint32_t firstIndex, int32_t vertexOffset, uint32_t firstInstance)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    before_action(cs, GPUAVDBG_CMD_DRAW_INDEXED, GFX);
    if (!(cs && gpuavdbg_cc_draw_indexed(cs, action, indexCount, instanceCount, firstIndex, firstInstance)))
        dd->disp.CmdDrawIndexed(cb, indexCount, instanceCount, firstIndex, vertexOffset, firstInstance);
    after_action(cs, action);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdDrawMultiEXT(VkCommandBuffer cb, uint32_t n, const VkMultiDrawInfoEXT *info,
                                                       uint32_t instanceCount, uint32_t firstInstance, uint32_t stride)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    before_action(cs, GPUAVDBG_CMD_DRAW_MULTI, GFX);
    uint32_t nkept = 0;
    VkMultiDrawInfoEXT *kept =
        cs ? gpuavdbg_cc_draw_multi(cs, action, n, info, instanceCount, firstInstance, stride, &nkept) : NULL;
    if (!kept)
        dd->disp.CmdDrawMultiEXT(cb, n, info, instanceCount, firstInstance, stride);
    else if (nkept > 0)
        dd->disp.CmdDrawMultiEXT(cb, nkept, kept, instanceCount, firstInstance, sizeof *kept);
    free(kept);
    after_action(cs, action);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdDrawMultiIndexedEXT(VkCommandBuffer cb, uint32_t n,
                                                              const VkMultiDrawIndexedInfoEXT *info,
                                                              uint32_t instanceCount, uint32_t firstInstance,
                                                              uint32_t stride, const int32_t *vertexOffset)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    before_action(cs, GPUAVDBG_CMD_DRAW_MULTI_INDEXED, GFX);
    VkMultiDrawIndexedInfoEXT *kept = NULL;
    uint32_t nkept = 0;
    if (cs && gpuavdbg_cc_draw_multi_indexed(cs, action, n, info, instanceCount, firstInstance, stride, &kept, &nkept)) {
        after_action(cs, action);
        return;
    }
    if (!kept)
        dd->disp.CmdDrawMultiIndexedEXT(cb, n, info, instanceCount, firstInstance, stride, vertexOffset);
    else if (nkept > 0)
        dd->disp.CmdDrawMultiIndexedEXT(cb, nkept, kept, instanceCount, firstInstance, sizeof *kept, vertexOffset);
    free(kept);
    after_action(cs, action);
}

/* INDIRECT defines an indirect draw's intercept: the command checks may
 * clamp its count (N, a parameter: drawCount or maxDrawCount) and hand its
 * commands to the pre-pass. CB, CO: the count buffer and offset
 * (VK_NULL_HANDLE, 0 for the forms without). PARAMS and ARGS are
 * parenthesized. */
#define INDIRECT(fn, cmd_id, N, CB, CO, PARAMS, ARGS)                                                         \
    static VKAPI_ATTR void VKAPI_CALL icpt_##fn PARAMS                                                        \
    {                                                                                                         \
        CMD_PROLOGUE(cb);                                                                                     \
        uint32_t action = cs ? cs->nactions : 0;                                                              \
        before_action(cs, GPUAVDBG_CMD_##cmd_id, GFX);                                                        \
        if (cs)                                                                                               \
            gpuavdbg_cc_draw_indirect(cs, action, GPUAVDBG_CMD_##cmd_id, buffer, offset, &N, stride, CB, CO); \
        dd->disp.fn ARGS;                                                                                     \
        after_action(cs, action);                                                                             \
    }
#define DRAW_PARAMS (VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset, uint32_t drawCount, uint32_t stride)
#define DRAW_ARGS (cb, buffer, offset, drawCount, stride)
#define DRAW(fn, cmd_id) INDIRECT(fn, cmd_id, drawCount, VK_NULL_HANDLE, 0, DRAW_PARAMS, DRAW_ARGS)
DRAW(CmdDrawIndirect, DRAW_INDIRECT)
DRAW(CmdDrawIndexedIndirect, DRAW_INDEXED_INDIRECT)
DRAW(CmdDrawMeshTasksIndirectEXT, DRAW_MESH_TASKS_INDIRECT)
#define COUNT_PARAMS                                                                                           \
    (VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset, VkBuffer countBuffer, VkDeviceSize countOffset, \
     uint32_t maxDrawCount, uint32_t stride)
#define COUNT_ARGS (cb, buffer, offset, countBuffer, countOffset, maxDrawCount, stride)
#define COUNT(fn, cmd_id) INDIRECT(fn, cmd_id, maxDrawCount, countBuffer, countOffset, COUNT_PARAMS, COUNT_ARGS)
COUNT(CmdDrawIndirectCount, DRAW_INDIRECT_COUNT)
COUNT(CmdDrawIndirectCountKHR, DRAW_INDIRECT_COUNT)
COUNT(CmdDrawIndirectCountAMD, DRAW_INDIRECT_COUNT)
COUNT(CmdDrawIndexedIndirectCount, DRAW_INDEXED_INDIRECT_COUNT)
COUNT(CmdDrawIndexedIndirectCountKHR, DRAW_INDEXED_INDIRECT_COUNT)
COUNT(CmdDrawIndexedIndirectCountAMD, DRAW_INDEXED_INDIRECT_COUNT)
COUNT(CmdDrawMeshTasksIndirectCountEXT, DRAW_MESH_TASKS_INDIRECT_COUNT)
/* The draws no room checks. */
ACTION(CmdDrawMeshTasksIndirectCountNV, DRAW_MESH_TASKS_INDIRECT_COUNT_NV, GFX, COUNT_PARAMS, COUNT_ARGS)
#undef COUNT
#undef COUNT_PARAMS
#undef COUNT_ARGS
#undef DRAW
#undef DRAW_PARAMS
#undef DRAW_ARGS
#undef INDIRECT

ACTION(CmdDrawIndirectByteCountEXT, DRAW_INDIRECT_BYTE_COUNT, GFX,
       (VkCommandBuffer cb, uint32_t instanceCount, uint32_t firstInstance, VkBuffer counterBuffer,
        VkDeviceSize counterBufferOffset, uint32_t counterOffset, uint32_t vertexStride),
       (cb, instanceCount, firstInstance, counterBuffer, counterBufferOffset, counterOffset, vertexStride))
ACTION(CmdDrawMeshTasksEXT, DRAW_MESH_TASKS, GFX, (VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z),
       (cb, x, y, z))
ACTION(CmdDrawMeshTasksNV, DRAW_MESH_TASKS_NV, GFX, (VkCommandBuffer cb, uint32_t taskCount, uint32_t firstTask),
       (cb, taskCount, firstTask))
ACTION(CmdDrawMeshTasksIndirectNV, DRAW_MESH_TASKS_INDIRECT_NV, GFX,
       (VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset, uint32_t drawCount, uint32_t stride),
       (cb, buffer, offset, drawCount, stride))
ACTION(CmdDrawClusterHUAWEI, DRAW_CLUSTER, GFX, (VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z),
       (cb, x, y, z))
ACTION(CmdDrawClusterIndirectHUAWEI, DRAW_CLUSTER_INDIRECT, GFX,
       (VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset), (cb, buffer, offset))

/* ---- dispatches ------------------------------------------------------------------ */

/* before_dispatch records a direct dispatch, whose grid the action facts
 * read (variants.c): its largest WorkgroupID, base + count - 1. */
static void before_dispatch(cb_state *cs, gpuavdbg_cmd cmd, uint32_t bx, uint32_t by, uint32_t bz, uint32_t x,
                            uint32_t y, uint32_t z)
{
    if (!cs)
        return;
    cs->act = (gpuavdbg_action_params){.known = 1, .empty = !x || !y || !z};
    if (!cs->act.empty) {
        cs->act.wg_max[0] = (uint64_t)bx + x - 1;
        cs->act.wg_max[1] = (uint64_t)by + y - 1;
        cs->act.wg_max[2] = (uint64_t)bz + z - 1;
    }
    before_action(cs, cmd, CMP);
    cs->act = (gpuavdbg_action_params){0};
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    before_dispatch(cs, GPUAVDBG_CMD_DISPATCH, 0, 0, 0, x, y, z);
    dd->disp.CmdDispatch(cb, x, y, z);
    after_action(cs, action);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdDispatchBase(VkCommandBuffer cb, uint32_t bx, uint32_t by, uint32_t bz,
                                                       uint32_t x, uint32_t y, uint32_t z)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    before_dispatch(cs, GPUAVDBG_CMD_DISPATCH_BASE, bx, by, bz, x, y, z);
    dd->disp.CmdDispatchBase(cb, bx, by, bz, x, y, z);
    after_action(cs, action);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdDispatchBaseKHR(VkCommandBuffer cb, uint32_t bx, uint32_t by, uint32_t bz,
                                                          uint32_t x, uint32_t y, uint32_t z)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    before_dispatch(cs, GPUAVDBG_CMD_DISPATCH_BASE, bx, by, bz, x, y, z);
    dd->disp.CmdDispatchBaseKHR(cb, bx, by, bz, x, y, z);
    after_action(cs, action);
}

/* vkCmdDispatchIndirect: the command checks (their pre-pass) go before the
 * action, whose bind of the layer's set at the compute bind point they
 * would otherwise undo; the action is recorded even when it is skipped. */
static VKAPI_ATTR void VKAPI_CALL icpt_CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    int skip = cs && gpuavdbg_cc_dispatch_indirect(cs, action, &buffer, &offset);
    before_action(cs, GPUAVDBG_CMD_DISPATCH_INDIRECT, CMP);
    if (!skip)
        dd->disp.CmdDispatchIndirect(cb, buffer, offset);
    after_action(cs, action);
}

/* ---- trace rays ------------------------------------------------------------------- */

ACTION(CmdTraceRaysKHR, TRACE_RAYS, RT,
       (VkCommandBuffer cb, const VkStridedDeviceAddressRegionKHR *raygen, const VkStridedDeviceAddressRegionKHR *miss,
        const VkStridedDeviceAddressRegionKHR *hit, const VkStridedDeviceAddressRegionKHR *callable, uint32_t w,
        uint32_t h, uint32_t d),
       (cb, raygen, miss, hit, callable, w, h, d))
ACTION(CmdTraceRaysNV, TRACE_RAYS_NV, RT,
       (VkCommandBuffer cb, VkBuffer raygenBuf, VkDeviceSize raygenOff, VkBuffer missBuf, VkDeviceSize missOff,
        VkDeviceSize missStride, VkBuffer hitBuf, VkDeviceSize hitOff, VkDeviceSize hitStride, VkBuffer callBuf,
        VkDeviceSize callOff, VkDeviceSize callStride, uint32_t w, uint32_t h, uint32_t d),
       (cb, raygenBuf, raygenOff, missBuf, missOff, missStride, hitBuf, hitOff, hitStride, callBuf, callOff,
        callStride, w, h, d))

/* The indirect trace rays: the command checks read the command at its
 * device address before the action (their pre-pass goes first). */
static VKAPI_ATTR void VKAPI_CALL icpt_CmdTraceRaysIndirectKHR(VkCommandBuffer cb,
                                                               const VkStridedDeviceAddressRegionKHR *raygen,
                                                               const VkStridedDeviceAddressRegionKHR *miss,
                                                               const VkStridedDeviceAddressRegionKHR *hit,
                                                               const VkStridedDeviceAddressRegionKHR *callable,
                                                               VkDeviceAddress addr)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    if (cs)
        addr = gpuavdbg_cc_trace_rays_indirect(cs, action, GPUAVDBG_CMD_TRACE_RAYS_INDIRECT, addr);
    before_action(cs, GPUAVDBG_CMD_TRACE_RAYS_INDIRECT, RT);
    dd->disp.CmdTraceRaysIndirectKHR(cb, raygen, miss, hit, callable, addr);
    after_action(cs, action);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdTraceRaysIndirect2KHR(VkCommandBuffer cb, VkDeviceAddress addr)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    if (cs)
        addr = gpuavdbg_cc_trace_rays_indirect(cs, action, GPUAVDBG_CMD_TRACE_RAYS_INDIRECT2, addr);
    before_action(cs, GPUAVDBG_CMD_TRACE_RAYS_INDIRECT2, RT);
    dd->disp.CmdTraceRaysIndirect2KHR(cb, addr);
    after_action(cs, action);
}

#undef GFX
#undef CMP
#undef RT
#undef ACTION

/* ---- acceleration-structure builds and buffer-to-image copies ------------------------ */

/* The builds and copies are actions of no bind point: recorded so that
 * the records of their checks (accel.c, depthcopy.c: run in the pre-pass
 * before them) name them, their labels and their index. */
#define NO_BIND_POINT VK_PIPELINE_BIND_POINT_MAX_ENUM

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBuildAccelerationStructuresKHR(
    VkCommandBuffer cb, uint32_t n, const VkAccelerationStructureBuildGeometryInfoKHR *infos,
    const VkAccelerationStructureBuildRangeInfoKHR *const *ranges)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    accel_patch p;
    int patched = cs && gpuavdbg_accel_build(cs, action, n, infos, ranges, &p);
    before_action(cs, GPUAVDBG_CMD_BUILD_AS, NO_BIND_POINT);
    if (patched) {
        dd->disp.CmdBuildAccelerationStructuresKHR(cb, n, p.infos, p.pranges);
        gpuavdbg_accel_patch_free(&p);
    } else {
        dd->disp.CmdBuildAccelerationStructuresKHR(cb, n, infos, ranges);
    }
    after_action(cs, action);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBuildAccelerationStructuresIndirectKHR(
    VkCommandBuffer cb, uint32_t n, const VkAccelerationStructureBuildGeometryInfoKHR *infos,
    const VkDeviceAddress *addrs, const uint32_t *strides, const uint32_t *const *max_counts)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    if (cs)
        gpuavdbg_accel_build_indirect(cs);
    before_action(cs, GPUAVDBG_CMD_BUILD_AS_INDIRECT, NO_BIND_POINT);
    dd->disp.CmdBuildAccelerationStructuresIndirectKHR(cb, n, infos, addrs, strides, max_counts);
    after_action(cs, action);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdCopyBufferToImage(VkCommandBuffer cb, VkBuffer src, VkImage dst,
                                                            VkImageLayout layout, uint32_t n,
                                                            const VkBufferImageCopy *regions)
{
    CMD_PROLOGUE(cb);
    uint32_t action = cs ? cs->nactions : 0;
    depth_split s;
    int split = cs && gpuavdbg_depth_copy(cs, action, src, dst, n, regions, NULL, &s);
    before_action(cs, GPUAVDBG_CMD_COPY_BUFFER_TO_IMAGE, NO_BIND_POINT);
    if (!split) {
        dd->disp.CmdCopyBufferToImage(cb, src, dst, layout, n, regions);
    } else {
        if (s.napp)
            dd->disp.CmdCopyBufferToImage(cb, src, dst, layout, s.napp, s.app1);
        if (s.nlayer)
            dd->disp.CmdCopyBufferToImage(cb, s.buffer, dst, layout, s.nlayer, s.layer1);
        gpuavdbg_depth_split_free(&s);
    }
    after_action(cs, action);
}

/* copy2 is vkCmdCopyBufferToImage2 and its KHR alias (down). */
static void copy2(cb_state *cs, VkCommandBuffer cb, const VkCopyBufferToImageInfo2 *info,
                  gpuavdbg_cmd cmd, PFN_vkCmdCopyBufferToImage2 down)
{
    uint32_t action = cs ? cs->nactions : 0;
    depth_split s;
    int split = cs && info &&
                gpuavdbg_depth_copy(cs, action, info->srcBuffer, info->dstImage, info->regionCount, NULL,
                                    info->pRegions, &s);
    before_action(cs, cmd, NO_BIND_POINT);
    if (!split) {
        down(cb, info);
        after_action(cs, action);
        return;
    }
    VkCopyBufferToImageInfo2 part = *info;
    if (s.napp) {
        part.regionCount = s.napp;
        part.pRegions = s.app2;
        down(cb, &part);
    }
    if (s.nlayer) {
        part.srcBuffer = s.buffer;
        part.regionCount = s.nlayer;
        part.pRegions = s.layer2;
        down(cb, &part);
    }
    gpuavdbg_depth_split_free(&s);
    after_action(cs, action);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdCopyBufferToImage2(VkCommandBuffer cb, const VkCopyBufferToImageInfo2 *info)
{
    CMD_PROLOGUE(cb);
    copy2(cs, cb, info, GPUAVDBG_CMD_COPY_BUFFER_TO_IMAGE2, dd->disp.CmdCopyBufferToImage2);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdCopyBufferToImage2KHR(VkCommandBuffer cb,
                                                                const VkCopyBufferToImageInfo2 *info)
{
    CMD_PROLOGUE(cb);
    copy2(cs, cb, info, GPUAVDBG_CMD_COPY_BUFFER_TO_IMAGE2_KHR, dd->disp.CmdCopyBufferToImage2KHR);
}

#undef NO_BIND_POINT

/* ---- index and vertex buffers (the command checks) --------------------------------- */

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindIndexBuffer(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset,
                                                          VkIndexType type)
{
    CMD_PROLOGUE(cb);
    if (cs)
        gpuavdbg_cc_bind_index(cs, buffer, offset, VK_WHOLE_SIZE, type);
    dd->disp.CmdBindIndexBuffer(cb, buffer, offset, type);
}

#define BIND_INDEX2(fn)                                                                                  \
    static VKAPI_ATTR void VKAPI_CALL icpt_##fn(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset, \
                                                VkDeviceSize size, VkIndexType type)                     \
    {                                                                                                    \
        CMD_PROLOGUE(cb);                                                                                \
        if (cs)                                                                                          \
            gpuavdbg_cc_bind_index(cs, buffer, offset, size, type);                                      \
        dd->disp.fn(cb, buffer, offset, size, type);                                                     \
    }
BIND_INDEX2(CmdBindIndexBuffer2KHR)
BIND_INDEX2(CmdBindIndexBuffer2)
#undef BIND_INDEX2

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBindVertexBuffers(VkCommandBuffer cb, uint32_t first, uint32_t n,
                                                            const VkBuffer *bufs, const VkDeviceSize *offsets)
{
    CMD_PROLOGUE(cb);
    if (cs)
        gpuavdbg_cc_bind_vertex(cs, first, n, bufs, offsets, NULL, NULL);
    dd->disp.CmdBindVertexBuffers(cb, first, n, bufs, offsets);
}

#define BIND_VERTEX2(fn)                                                                                             \
    static VKAPI_ATTR void VKAPI_CALL icpt_##fn(VkCommandBuffer cb, uint32_t first, uint32_t n, const VkBuffer *bufs, \
                                                const VkDeviceSize *offsets, const VkDeviceSize *sizes,               \
                                                const VkDeviceSize *strides)                                          \
    {                                                                                                                \
        CMD_PROLOGUE(cb);                                                                                            \
        if (cs)                                                                                                      \
            gpuavdbg_cc_bind_vertex(cs, first, n, bufs, offsets, sizes, strides);                                    \
        dd->disp.fn(cb, first, n, bufs, offsets, sizes, strides);                                                    \
    }
BIND_VERTEX2(CmdBindVertexBuffers2)
BIND_VERTEX2(CmdBindVertexBuffers2EXT)
#undef BIND_VERTEX2

static VKAPI_ATTR void VKAPI_CALL icpt_CmdSetVertexInputEXT(VkCommandBuffer cb, uint32_t nb,
                                                            const VkVertexInputBindingDescription2EXT *bs,
                                                            uint32_t na,
                                                            const VkVertexInputAttributeDescription2EXT *as)
{
    CMD_PROLOGUE(cb);
    if (cs)
        gpuavdbg_cc_set_vertex_input(cs, nb, bs, na, as);
    dd->disp.CmdSetVertexInputEXT(cb, nb, bs, na, as);
}

/* ---- render passes (the pre-pass of the draws in them) ------------------------------ */

#define END_PASS(fn, PARAMS, ARGS)                          \
    static VKAPI_ATTR void VKAPI_CALL icpt_##fn PARAMS     \
    {                                                       \
        CMD_PROLOGUE(cb);                                   \
        dd->disp.fn ARGS;                                   \
        if (cs) {                                           \
            gpuavdbg_prepass_render_pass_ended(cs);         \
            gpuavdbg_crumbs_pass_end(cs);                   \
        }                                                   \
    }
END_PASS(CmdEndRenderPass, (VkCommandBuffer cb), (cb))
END_PASS(CmdEndRenderPass2, (VkCommandBuffer cb, const VkSubpassEndInfo *info), (cb, info))
END_PASS(CmdEndRenderPass2KHR, (VkCommandBuffer cb, const VkSubpassEndInfo *info), (cb, info))
END_PASS(CmdEndRendering, (VkCommandBuffer cb), (cb))
END_PASS(CmdEndRenderingKHR, (VkCommandBuffer cb), (cb))
#undef END_PASS

#define BEGIN_RENDERING(fn)                                                                     \
    static VKAPI_ATTR void VKAPI_CALL icpt_##fn(VkCommandBuffer cb, const VkRenderingInfo *info) \
    {                                                                                           \
        CMD_PROLOGUE(cb);                                                                       \
        if (cs) {                                                                               \
            gpuavdbg_prepass_begin_rendering(cs, info);                                         \
            gpuavdbg_crumbs_pass_begin(cs, info ? info->flags : 0);                             \
        }                                                                                       \
        dd->disp.fn(cb, info);                                                                  \
    }
BEGIN_RENDERING(CmdBeginRendering)
BEGIN_RENDERING(CmdBeginRenderingKHR)
#undef BEGIN_RENDERING

/* vkCmdBeginRenderPass*: the breadcrumb of the pass (crumbs.h). */
#define BEGIN_PASS(fn, PARAMS, ARGS)                        \
    static VKAPI_ATTR void VKAPI_CALL icpt_##fn PARAMS     \
    {                                                       \
        CMD_PROLOGUE(cb);                                   \
        if (cs)                                             \
            gpuavdbg_crumbs_pass_begin(cs, 0);              \
        dd->disp.fn ARGS;                                   \
    }
BEGIN_PASS(CmdBeginRenderPass, (VkCommandBuffer cb, const VkRenderPassBeginInfo *info, VkSubpassContents c),
           (cb, info, c))
BEGIN_PASS(CmdBeginRenderPass2,
           (VkCommandBuffer cb, const VkRenderPassBeginInfo *info, const VkSubpassBeginInfo *sb), (cb, info, sb))
BEGIN_PASS(CmdBeginRenderPass2KHR,
           (VkCommandBuffer cb, const VkRenderPassBeginInfo *info, const VkSubpassBeginInfo *sb), (cb, info, sb))
#undef BEGIN_PASS

/* ---- debug labels ------------------------------------------------------------ */

static VKAPI_ATTR void VKAPI_CALL icpt_CmdBeginDebugUtilsLabelEXT(VkCommandBuffer cb, const VkDebugUtilsLabelEXT *label)
{
    CMD_PROLOGUE(cb);
    if (cs && label) {
        char *name = strdup(label->pLabelName ? label->pLabelName : "");
        if (name && grow((void **)&cs->stack, &cs->cap_stack, cs->nstack, sizeof *cs->stack)) {
            cs->stack[cs->nstack++] = name;
            cs->path_dirty = 1;
        } else {
            free(name);
        }
    }
    if (dd->disp.CmdBeginDebugUtilsLabelEXT)
        dd->disp.CmdBeginDebugUtilsLabelEXT(cb, label);
}

static VKAPI_ATTR void VKAPI_CALL icpt_CmdEndDebugUtilsLabelEXT(VkCommandBuffer cb)
{
    CMD_PROLOGUE(cb);
    /* A label may end in another command buffer than it began in. */
    if (cs && cs->nstack > 0) {
        free(cs->stack[--cs->nstack]);
        cs->path_dirty = 1;
    }
    if (dd->disp.CmdEndDebugUtilsLabelEXT)
        dd->disp.CmdEndDebugUtilsLabelEXT(cb);
}

/* ---- intercepts --------------------------------------------------------------- */

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(AllocateCommandBuffers),
    GPUAVDBG_ICPT(FreeCommandBuffers),
    GPUAVDBG_ICPT(DestroyCommandPool),
    GPUAVDBG_ICPT(ResetCommandPool),
    GPUAVDBG_ICPT(BeginCommandBuffer),
    GPUAVDBG_ICPT(EndCommandBuffer),
    GPUAVDBG_ICPT(ResetCommandBuffer),
    GPUAVDBG_ICPT(CmdBindPipeline),
    GPUAVDBG_ICPT(CmdBindShadersEXT),
    GPUAVDBG_ICPT(CmdExecuteCommands),
    GPUAVDBG_ICPT(CmdBindDescriptorSets),
    GPUAVDBG_ICPT(CmdPushDescriptorSetKHR),
    GPUAVDBG_ICPT(CmdPushDescriptorSetWithTemplateKHR),
    GPUAVDBG_ICPT(CmdPushDescriptorSet),
    GPUAVDBG_ICPT(CmdPushDescriptorSetWithTemplate),
    GPUAVDBG_ICPT(CmdPushDescriptorSet2),
    GPUAVDBG_ICPT(CmdPushDescriptorSet2KHR),
    GPUAVDBG_ICPT(CmdPushDescriptorSetWithTemplate2),
    GPUAVDBG_ICPT(CmdPushDescriptorSetWithTemplate2KHR),
    GPUAVDBG_ICPT(CmdBindDescriptorSets2),
    GPUAVDBG_ICPT(CmdBindDescriptorSets2KHR),
    GPUAVDBG_ICPT(CmdPushConstants),
    GPUAVDBG_ICPT(CmdPushConstants2),
    GPUAVDBG_ICPT(CmdPushConstants2KHR),
    GPUAVDBG_ICPT(CmdBindDescriptorBuffersEXT),
    GPUAVDBG_ICPT(CmdSetDescriptorBufferOffsetsEXT),
    GPUAVDBG_ICPT(CmdSetDescriptorBufferOffsets2EXT),
    GPUAVDBG_ICPT(CmdBindDescriptorBufferEmbeddedSamplersEXT),
    GPUAVDBG_ICPT(CmdBindDescriptorBufferEmbeddedSamplers2EXT),
    GPUAVDBG_ICPT(CmdDraw),
    GPUAVDBG_ICPT(CmdDrawIndexed),
    GPUAVDBG_ICPT(CmdDrawMultiEXT),
    GPUAVDBG_ICPT(CmdDrawMultiIndexedEXT),
    GPUAVDBG_ICPT(CmdDrawIndirect),
    GPUAVDBG_ICPT(CmdDrawIndexedIndirect),
    GPUAVDBG_ICPT(CmdDrawIndirectCount),
    GPUAVDBG_ICPT(CmdDrawIndirectCountKHR),
    GPUAVDBG_ICPT(CmdDrawIndirectCountAMD),
    GPUAVDBG_ICPT(CmdDrawIndexedIndirectCount),
    GPUAVDBG_ICPT(CmdDrawIndexedIndirectCountKHR),
    GPUAVDBG_ICPT(CmdDrawIndexedIndirectCountAMD),
    GPUAVDBG_ICPT(CmdDrawIndirectByteCountEXT),
    GPUAVDBG_ICPT(CmdDrawMeshTasksEXT),
    GPUAVDBG_ICPT(CmdDrawMeshTasksIndirectEXT),
    GPUAVDBG_ICPT(CmdDrawMeshTasksIndirectCountEXT),
    GPUAVDBG_ICPT(CmdDrawMeshTasksNV),
    GPUAVDBG_ICPT(CmdDrawMeshTasksIndirectNV),
    GPUAVDBG_ICPT(CmdDrawMeshTasksIndirectCountNV),
    GPUAVDBG_ICPT(CmdDrawClusterHUAWEI),
    GPUAVDBG_ICPT(CmdDrawClusterIndirectHUAWEI),
    GPUAVDBG_ICPT(CmdDispatch),
    GPUAVDBG_ICPT(CmdDispatchBase),
    GPUAVDBG_ICPT(CmdDispatchBaseKHR),
    GPUAVDBG_ICPT(CmdDispatchIndirect),
    GPUAVDBG_ICPT(CmdTraceRaysKHR),
    GPUAVDBG_ICPT(CmdTraceRaysNV),
    GPUAVDBG_ICPT(CmdTraceRaysIndirectKHR),
    GPUAVDBG_ICPT(CmdTraceRaysIndirect2KHR),
    GPUAVDBG_ICPT(CmdBuildAccelerationStructuresKHR),
    GPUAVDBG_ICPT(CmdBuildAccelerationStructuresIndirectKHR),
    GPUAVDBG_ICPT(CmdCopyBufferToImage),
    GPUAVDBG_ICPT(CmdCopyBufferToImage2),
    GPUAVDBG_ICPT(CmdCopyBufferToImage2KHR),
    GPUAVDBG_ICPT(CmdBindIndexBuffer),
    GPUAVDBG_ICPT(CmdBindIndexBuffer2KHR),
    GPUAVDBG_ICPT(CmdBindIndexBuffer2),
    GPUAVDBG_ICPT(CmdBindVertexBuffers),
    GPUAVDBG_ICPT(CmdBindVertexBuffers2),
    GPUAVDBG_ICPT(CmdBindVertexBuffers2EXT),
    GPUAVDBG_ICPT(CmdSetVertexInputEXT),
    GPUAVDBG_ICPT(CmdBeginRenderPass),
    GPUAVDBG_ICPT(CmdBeginRenderPass2),
    GPUAVDBG_ICPT(CmdBeginRenderPass2KHR),
    GPUAVDBG_ICPT(CmdBeginRendering),
    GPUAVDBG_ICPT(CmdBeginRenderingKHR),
    GPUAVDBG_ICPT(CmdEndRendering),
    GPUAVDBG_ICPT(CmdEndRenderingKHR),
    GPUAVDBG_ICPT(CmdEndRenderPass),
    GPUAVDBG_ICPT(CmdEndRenderPass2),
    GPUAVDBG_ICPT(CmdEndRenderPass2KHR),
    GPUAVDBG_ICPT(CmdBeginDebugUtilsLabelEXT),
    GPUAVDBG_ICPT(CmdEndDebugUtilsLabelEXT),
};

PFN_vkVoidFunction gpuavdbg_cmdbuf_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}
