/*
 * prepass.c: the command checks' pre-pass over indirect buffers
 * (docs/decisions/command-checks.md). While the app records an indirect
 * command, the layer writes a job into the command buffer's pre-pass
 * buffer (binding 4 of its set, gpuav/prepass.go) and notes which bytes of
 * the app's indirect and count buffers to copy there. The pre-pass runs
 * outside render passes: right before a vkCmdDispatchIndirect or
 * vkCmdTraceRaysIndirect*, whose action then reads the layer's checked
 * copy, and right after the render pass for indirect draws, which it
 * reports on but cannot stop (no dispatch may come between a draw and the
 * start of its render pass). A run is: a barrier, vkCmdCopyBuffer of the
 * app's bytes, a barrier, the pre-pass compute shader (one workgroup per
 * job, vkCmdDispatchBase from the first job), a barrier, and the app's
 * compute pipeline bound again.
 *
 * The pre-pass pipeline is made per pipeline layout: the layout the app's
 * compute sets were bound with (padded with the layer's set, as every
 * layout is), so that binding the layer's set disturbs none of the app's
 * sets, nor its push constants; the app's compute pipeline is bound again
 * afterwards. With no compute state the layer's own layout serves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "prepass.h"
#include "prepass_pack.h"
#include "resources.h"
#include "prepass_spv_gen.h"
#include "prepass_accel_spv_gen.h"

/* Notices a device gives once. */
enum {
    TOLD_FULL = 1,
    TOLD_LAYOUT = 2,
    TOLD_SECONDARY = 4,
    TOLD_COPY = 16,
    TOLD_FAILED = 128,
    TOLD_DESCRIPTOR_BUFFER = 256,
};

/* The pre-pass of a device (dd->pp): the limits block the command checks
 * computed, and its pipelines, guarded by dd->lock. */
typedef struct pp_dev {
    int wanted; /* GPUAVDBG_PREPASS_WANT_*: which of its shaders the checks on the device use */
    uint32_t limits[GPUAVDBG_PREPASS_LIMIT_WORDS];
    VkShaderModule module;       /* indirect.comp */
    VkShaderModule accel_module; /* accel.comp, made only when wanted */
    VkPipelineLayout own_layout; /* sets below the slot empty, the layer's at the slot */
    hmap pipes;                  /* VkPipelineLayout -> VkPipeline */
    hmap accel_pipes;            /* VkPipelineLayout -> VkPipeline of accel.comp */
    VkPipeline *retired;         /* pipelines of destroyed layouts, destroyed with the device */
    uint32_t nretired, cap_retired;
    int failed;       /* the pre-pass could not be set up: said once, when needed */
    char failure[256]; /* why */
    uint32_t told;    /* notices given once per device (TOLD_*) */
} pp_dev;

/* The pre-pass of a recording (cs->pp, made on first use): the packed
 * jobs, the first not run yet, whether it ran, and whether the recording
 * is inside a suspended dynamic render pass (no pre-pass now). */
typedef struct pp_cb {
    pp_pack pack;
    uint32_t first_pending;
    int ran;
    int suspended;
} pp_cb;

/* ---- device ------------------------------------------------------------------ */

void gpuavdbg_prepass_device_created(device_data *dd, const uint32_t *limits, int wanted)
{
    pp_dev *p = calloc(1, sizeof *p);
    if (!p)
        return;
    memcpy(p->limits, limits, sizeof p->limits);
    p->wanted = wanted;
    dd->pp = p;
}

void gpuavdbg_prepass_device_destroyed(device_data *dd)
{
    free(dd->pp);
    dd->pp = NULL;
}

/* ---- set-up ---------------------------------------------------------------------- */

/* make_module creates a pre-pass module (spv, nwords words) with its
 * descriptor set number changed to the layer's slot. */
static VkResult make_module(device_data *dd, const uint32_t *spv, uint32_t nwords, VkShaderModule *m)
{
    uint32_t *words = malloc((size_t)nwords * 4);
    if (!words)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    memcpy(words, spv, (size_t)nwords * 4);
    for (uint32_t i = 5; i < nwords;) {
        uint32_t n = words[i] >> 16, op = words[i] & 0xFFFF;
        if (n == 0)
            break;
        if (op == 71 /* OpDecorate */ && n == 4 && words[i + 2] == 34 /* DescriptorSet */)
            words[i + 3] = dd->slot;
        i += n;
    }
    VkShaderModuleCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = (size_t)nwords * 4,
        .pCode = words,
    };
    VkResult r = dd->disp.CreateShaderModule(dd->device, &ci, NULL, m);
    free(words);
    return r;
}

void gpuavdbg_prepass_setup(device_data *dd)
{
    pp_dev *c = dd->pp;
    if (!c || !c->wanted)
        return;
    const char *what = "vkCreateShaderModule";
    VkResult r = VK_ERROR_INITIALIZATION_FAILED;
    if (!dd->disp.CmdDispatchBase && !dd->disp.CmdDispatchBaseKHR) {
        what = dd->dispatch_base_why[0] ? dd->dispatch_base_why : "the driver lacks vkCmdDispatchBase";
        r = VK_SUCCESS;
        goto fail;
    }
    if (!dd->disp.CreateComputePipelines || !dd->disp.CmdCopyBuffer) {
        what = "the driver lacks vkCreateComputePipelines or vkCmdCopyBuffer";
        r = VK_SUCCESS;
        goto fail;
    }
    r = make_module(dd, gpuavdbg_prepass_spv, GPUAVDBG_PREPASS_SPV_WORDS, &c->module);
    if (r != VK_SUCCESS)
        goto fail;
    /* The builds' shader reads the app's memory through device addresses:
     * only where the app enabled them (accel.c asks for it then). */
    if ((c->wanted & GPUAVDBG_PREPASS_WANT_ACCEL) &&
        make_module(dd, gpuavdbg_prepass_accel_spv, GPUAVDBG_PREPASS_ACCEL_SPV_WORDS, &c->accel_module) != VK_SUCCESS) {
        c->accel_module = VK_NULL_HANDLE;
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                      "acceleration_structure_build: the layer's pre-pass over builds could not be made: builds are not checked");
    }
    VkDescriptorSetLayout sets[GPUAVDBG_MAX_SLOT + 1];
    for (uint32_t i = 0; i < dd->slot; i++)
        sets[i] = dd->empty_layout;
    sets[dd->slot] = dd->set_layout;
    VkPipelineLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = dd->slot + 1,
        .pSetLayouts = sets,
    };
    what = "vkCreatePipelineLayout";
    r = dd->disp.CreatePipelineLayout(dd->device, &li, NULL, &c->own_layout);
    if (r == VK_SUCCESS)
        return;
fail:
    /* Said when a command needs the pre-pass (tell_failed): an app that
     * records no indirect command loses nothing. */
    c->failed = 1;
    if (r == VK_SUCCESS) /* a function the device lacks: what says which */
        snprintf(c->failure, sizeof c->failure, "%s", what);
    else
        snprintf(c->failure, sizeof c->failure, "%s: %d", what, (int)r);
}

void gpuavdbg_prepass_teardown(device_data *dd)
{
    pp_dev *c = dd->pp;
    if (!c)
        return;
    for (size_t i = 0; i < c->pipes.cap; i++)
        if (c->pipes.slots[i].key)
            dd->disp.DestroyPipeline(dd->device, (VkPipeline)c->pipes.slots[i].val, NULL);
    hmap_free(&c->pipes);
    for (size_t i = 0; i < c->accel_pipes.cap; i++)
        if (c->accel_pipes.slots[i].key)
            dd->disp.DestroyPipeline(dd->device, (VkPipeline)c->accel_pipes.slots[i].val, NULL);
    hmap_free(&c->accel_pipes);
    for (uint32_t i = 0; i < c->nretired; i++)
        dd->disp.DestroyPipeline(dd->device, c->retired[i], NULL);
    free(c->retired);
    c->retired = NULL;
    c->nretired = c->cap_retired = 0;
    if (c->own_layout)
        dd->disp.DestroyPipelineLayout(dd->device, c->own_layout, NULL);
    if (c->module)
        dd->disp.DestroyShaderModule(dd->device, c->module, NULL);
    if (c->accel_module)
        dd->disp.DestroyShaderModule(dd->device, c->accel_module, NULL);
    c->own_layout = VK_NULL_HANDLE;
    c->module = VK_NULL_HANDLE;
    c->accel_module = VK_NULL_HANDLE;
}

/* A pipeline made with a layout the app destroys may still be used by a
 * pending command buffer: it is destroyed with the device. */
void gpuavdbg_prepass_layout_destroyed(device_data *dd, VkPipelineLayout layout)
{
    pp_dev *c = dd->pp;
    if (!c || !layout)
        return;
    pthread_mutex_lock(&dd->lock);
    for (int k = 0; k < 2; k++) {
        VkPipeline p = (VkPipeline)hmap_del(k ? &c->accel_pipes : &c->pipes, GPUAVDBG_H(layout));
        if (p && c->nretired == c->cap_retired) {
            uint32_t ncap = c->cap_retired ? c->cap_retired * 2 : 8;
            VkPipeline *g = realloc(c->retired, ncap * sizeof *g);
            if (g) {
                c->retired = g;
                c->cap_retired = ncap;
            }
        }
        if (p && c->nretired < c->cap_retired)
            c->retired[c->nretired++] = p;
    }
    pthread_mutex_unlock(&dd->lock);
}

/* pipeline_for returns the pre-pass pipeline (accel: of the builds'
 * shader) for layout, making it on first use, or VK_NULL_HANDLE. */
static VkPipeline pipeline_for(device_data *dd, VkPipelineLayout layout, int accel)
{
    pp_dev *c = dd->pp;
    hmap *pipes = accel ? &c->accel_pipes : &c->pipes;
    pthread_mutex_lock(&dd->lock);
    VkPipeline p = (VkPipeline)hmap_get(pipes, GPUAVDBG_H(layout));
    if (!p) {
        VkComputePipelineCreateInfo ci = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                      .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                      .module = accel ? c->accel_module : c->module,
                      .pName = "main"},
            .layout = layout,
        };
        VkResult r = dd->disp.CreateComputePipelines(dd->device, VK_NULL_HANDLE, 1, &ci, NULL, &p);
        if (r != VK_SUCCESS) {
            p = VK_NULL_HANDLE;
            gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED, "indirect_command: the pre-pass pipeline could not be made (%d)", (int)r);
        } else if (!hmap_put(pipes, GPUAVDBG_H(layout), p)) {
            dd->disp.DestroyPipeline(dd->device, p, NULL);
            p = VK_NULL_HANDLE;
        }
    }
    pthread_mutex_unlock(&dd->lock);
    return p;
}

/* ---- jobs -------------------------------------------------------------------------- */

/* pp_get returns the pre-pass state of a recording, made on first use. */
static pp_cb *pp_get(cb_state *cs)
{
    if (!cs->pp)
        cs->pp = calloc(1, sizeof *cs->pp);
    return cs->pp;
}

/* tell logs a notice once per device. */
static void tell(device_data *dd, uint32_t which, const char *text)
{
    if (!(__atomic_fetch_or(&dd->pp->told, which, __ATOMIC_RELAXED) & which))
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED, "%s (said once per device)", text);
}

/* full notes a job that did not fit: the buffer grows at the next
 * vkBeginCommandBuffer to need words. */
static void full(cb_state *cs, uint64_t need)
{
    out_unit *u = cs->unit;
    uint64_t want = need + need / 2;
    if (want > UINT32_MAX / 4)
        want = UINT32_MAX / 4;
    if (want > u->in_need[GPUAVDBG_INPUT_CMD])
        u->in_need[GPUAVDBG_INPUT_CMD] = (uint32_t)want;
    tell(cs->dd, TOLD_FULL,
         "indirect_command: the pre-pass buffer of a command buffer is full: the indirect commands past it are not "
         "checked in this recording; it grows at the next vkBeginCommandBuffer");
}

uint32_t gpuavdbg_prepass_add(cb_state *cs, const pp_job *job, int copyable)
{
    device_data *dd = cs->dd;
    pp_cb *c = pp_get(cs);
    out_unit *u = cs->unit;
    if (!c || !dd->pp || !u || u == dd->sink)
        return 0; /* no unit: instrumentation is off on the device, which says so */
    if (dd->pp->failed || !dd->pp->module) {
        if (!(__atomic_fetch_or(&dd->pp->told, TOLD_FAILED, __ATOMIC_RELAXED) & TOLD_FAILED))
            gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                          "indirect_command and the indirect draws of index_buffer_oob are not checked on this device: "
                          "the layer's pre-pass could not be set up (%s)",
                          dd->pp->failure[0] ? dd->pp->failure : "no pre-pass pipeline");
        return 0;
    }
    if (!copyable) {
        tell(dd, TOLD_COPY,
             "indirect_command: an indirect or count buffer was created without VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT "
             "in VkBufferCreateInfo::usage (or with VkBufferUsageFlags2CreateInfoKHR): the layer cannot copy it, its "
             "commands are not checked");
        return 0;
    }
    uint32_t cap;
    uint32_t *w = gpuavdbg_unit_input(u, GPUAVDBG_INPUT_CMD, &cap);
    if (!w)
        return 0;
    uint32_t src = 0;
    uint64_t need = 0;
    int r = gpuavdbg_pack_job(&c->pack, w, cap, dd->pp->limits, job, &src, &need);
    if (r == GPUAVDBG_PACK_FULL)
        full(cs, need);
    return r == GPUAVDBG_PACK_OK ? src : 0;
}

/* ---- running ------------------------------------------------------------------------ */

/* compute_layout is the layout to bind the layer's set with at the compute
 * bind point: the one the app's compute sets were bound with, else its
 * compute pipeline's, else the layer's own; VK_NULL_HANDLE when that
 * layout does not have the layer's set at the slot (*state says why: a
 * descriptor-buffer layout, GPUAVDBG_LAYOUT_PADDED_PUSH, has it pushed,
 * which a pipeline without descriptor buffers cannot bind). */
static VkPipelineLayout compute_layout(cb_state *cs, int *state)
{
    device_data *dd = cs->dd;
    VkPipelineLayout l = VK_NULL_HANDLE;
    for (uint32_t s = 0; s < dd->slot && s < GPUAVDBG_APP_SETS && !l; s++)
        l = cs->app_layout[1][s];
    if (!l)
        l = cs->bound[1].layout;
    *state = GPUAVDBG_LAYOUT_PADDED;
    if (!l)
        return dd->pp->own_layout;
    pthread_mutex_lock(&dd->lock);
    *state = (int)(uintptr_t)hmap_get(&dd->layouts, GPUAVDBG_H(l));
    pthread_mutex_unlock(&dd->lock);
    return *state == GPUAVDBG_LAYOUT_PADDED ? l : VK_NULL_HANDLE;
}

static void barrier(device_data *dd, VkCommandBuffer cb, VkPipelineStageFlags src, VkAccessFlags src_access,
                    VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src_access,
                          .dstAccessMask = dst_access};
    dd->disp.CmdPipelineBarrier(cb, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* restore binds the app's compute pipeline (or shader object) again: the
 * variant of it bound last (variants.c). */
static void restore(cb_state *cs)
{
    device_data *dd = cs->dd;
    const bound_pipeline *b = &cs->bound[1];
    if (b->pipeline) {
        uint64_t p = b->down ? b->down : b->pipeline;
        dd->disp.CmdBindPipeline(cs->cb, VK_PIPELINE_BIND_POINT_COMPUTE, (VkPipeline)(uintptr_t)p);
    } else if (b->shaders[0] && dd->disp.CmdBindShadersEXT) {
        VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
        dd->disp.CmdBindShadersEXT(cs->cb, 1, &stage, &b->shaders[0]);
    }
}

/* copy_all records the pending copies into dst: one vkCmdCopyBuffer per
 * run of copies from the same buffer. */
static void copy_all(device_data *dd, VkCommandBuffer cb, pp_pack *c, VkBuffer dst)
{
    VkBufferCopy small[64];
    for (uint32_t i = 0; i < c->ncopies;) {
        uint32_t n = 1;
        while (i + n < c->ncopies && c->copies[i + n].src == c->copies[i].src)
            n++;
        VkBufferCopy *r = n <= 64 ? small : malloc(n * sizeof *r);
        uint32_t k = r ? n : 1;
        if (!r)
            r = small;
        for (uint32_t j = 0; j < k; j++)
            r[j] = (VkBufferCopy){c->copies[i + j].offset, (VkDeviceSize)c->copies[i + j].dst_word * 4,
                                  c->copies[i + j].size};
        dd->disp.CmdCopyBuffer(cb, c->copies[i].src, dst, k, r);
        if (r != small)
            free(r);
        i += k;
    }
    c->ncopies = 0;
}

/* run records the pre-pass of the jobs not run yet: with accel, the
 * builds' shader over build jobs (ygroups workgroups per job), else the
 * indirect shader. */
static int run(cb_state *cs, int accel, uint32_t ygroups, const char *check)
{
    device_data *dd = cs->dd;
    pp_cb *c = cs->pp;
    if (!c || c->first_pending >= c->pack.njobs)
        return 1;
    uint32_t first = c->first_pending, n = c->pack.njobs - first;
    c->first_pending = c->pack.njobs;
    int state;
    VkPipelineLayout layout = compute_layout(cs, &state);
    VkPipeline pipe = layout && (!accel || dd->pp->accel_module) ? pipeline_for(dd, layout, accel) : VK_NULL_HANDLE;
    if (!pipe) {
        char text[320];
        if (state == GPUAVDBG_LAYOUT_PADDED_PUSH) {
            snprintf(text, sizeof text,
                     "%s: commands not checked: the app's compute state uses descriptor buffers, which the pre-pass (a "
                     "pipeline with descriptor sets) would disturb",
                     check);
            tell(dd, TOLD_DESCRIPTOR_BUFFER, text);
        } else if (!layout) {
            snprintf(text, sizeof text,
                     "%s: commands not checked: the app's compute state uses a pipeline layout without the layer's set (its "
                     "slot is taken, or shader objects), which the pre-pass would disturb",
                     check);
            tell(dd, TOLD_LAYOUT, text);
        }
        c->pack.ncopies = 0;
        return 0;
    }
    VkCommandBuffer cb = cs->cb;
    out_unit *u = cs->unit;
    if (accel) {
        /* The app's writes of what the builds read (its own barrier named
         * the build stage, not the layer's compute shader). */
        barrier(dd, cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    } else {
        barrier(dd, cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT);
        copy_all(dd, cb, &c->pack, u->in_buffer[GPUAVDBG_INPUT_CMD]);
        barrier(dd, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
    uint32_t slot = cs->nactions < GPUAVDBG_ACTION_SLOTS - 1 ? cs->nactions : GPUAVDBG_ACTION_SLOTS - 1;
    VkDescriptorSet set = gpuavdbg_unit_action_set(dd, u, slot);
    dd->disp.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    dd->disp.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, dd->slot, 1, &set, 0, NULL);
    cs->set_layout[1] = layout;
    cs->set_slot[1] = slot;
    uint32_t y = accel ? (ygroups ? ygroups : 1) : 1;
    if (dd->disp.CmdDispatchBase)
        dd->disp.CmdDispatchBase(cb, first, 0, 0, n, y, 1);
    else
        dd->disp.CmdDispatchBaseKHR(cb, first, 0, 0, n, y, 1);
    if (accel) {
        /* The builds read the layer's copy of the instances. */
        barrier(dd, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR);
    } else {
        /* The checked copies are read as indirect commands or copied from;
         * the app's later writes to its buffers wait for the copies that
         * read them. */
        barrier(dd, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT,
                VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    }
    restore(cs);
    c->ran = 1;
    return 1;
}

int gpuavdbg_prepass_run(cb_state *cs)
{
    return run(cs, 0, 1, "indirect_command");
}

int gpuavdbg_prepass_run_copies(cb_state *cs)
{
    return run(cs, 0, 1, "depth_copy_range");
}

int gpuavdbg_prepass_run_builds(cb_state *cs, uint32_t ygroups)
{
    return run(cs, 1, ygroups, "acceleration_structure_build");
}

int gpuavdbg_prepass_pending(const cb_state *cs)
{
    return cs->pp && cs->pp->first_pending < cs->pp->pack.njobs;
}

int gpuavdbg_prepass_builds(const device_data *dd)
{
    return dd->pp && dd->pp->accel_module && !dd->pp->failed;
}

/* add_common checks that the pre-pass can take a job, and returns its
 * state and the pre-pass buffer's words, or NULL. */
static pp_cb *add_common(cb_state *cs, uint32_t **w, uint32_t *cap)
{
    device_data *dd = cs->dd;
    pp_cb *c = pp_get(cs);
    out_unit *u = cs->unit;
    if (!c || !dd->pp || !u || u == dd->sink)
        return NULL;
    if (dd->pp->failed || !dd->pp->module) {
        if (!(__atomic_fetch_or(&dd->pp->told, TOLD_FAILED, __ATOMIC_RELAXED) & TOLD_FAILED))
            gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                          "the command checks' pre-pass could not be set up on this device (%s): indirect_command, "
                          "acceleration_structure_build and depth_copy_range are not checked",
                          dd->pp->failure[0] ? dd->pp->failure : "no pre-pass pipeline");
        return NULL;
    }
    *w = gpuavdbg_unit_input(u, GPUAVDBG_INPUT_CMD, cap);
    return *w ? c : NULL;
}

int gpuavdbg_prepass_add_raw(cb_state *cs, const pp_job *job, uint32_t *src)
{
    uint32_t *w, cap;
    pp_cb *c = add_common(cs, &w, &cap);
    if (!c)
        return 0;
    uint64_t need = 0;
    int r = gpuavdbg_pack_job(&c->pack, w, cap, cs->dd->pp->limits, job, src, &need);
    if (r == GPUAVDBG_PACK_FULL)
        full(cs, need);
    return r == GPUAVDBG_PACK_OK;
}

uint32_t *gpuavdbg_prepass_data(cb_state *cs, uint32_t n, uint32_t *word)
{
    uint32_t *w, cap;
    pp_cb *c = add_common(cs, &w, &cap);
    if (!c)
        return NULL;
    uint64_t need = 0;
    int r = gpuavdbg_pack_data(&c->pack, w, cap, cs->dd->pp->limits, n, word, &need);
    if (r == GPUAVDBG_PACK_FULL)
        full(cs, need);
    return r == GPUAVDBG_PACK_OK ? w + *word : NULL;
}

uint32_t *gpuavdbg_prepass_words(cb_state *cs, uint32_t *cap)
{
    *cap = 0;
    return cs->unit && cs->unit != cs->dd->sink ? gpuavdbg_unit_input(cs->unit, GPUAVDBG_INPUT_CMD, cap) : NULL;
}

VkBuffer gpuavdbg_prepass_buffer(cb_state *cs, VkDeviceAddress *address)
{
    device_data *dd = cs->dd;
    VkBuffer b = cs->unit ? cs->unit->in_buffer[GPUAVDBG_INPUT_CMD] : VK_NULL_HANDLE;
    if (address) {
        *address = 0;
        PFN_vkGetBufferDeviceAddress get =
            dd->disp.GetBufferDeviceAddress ? dd->disp.GetBufferDeviceAddress : dd->disp.GetBufferDeviceAddressKHR;
        if (b && get && dd->bda) {
            VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b};
            *address = get(dd->device, &ai);
        }
    }
    return b;
}

/* ---- render passes and the recording's end ------------------------------------ */

void gpuavdbg_prepass_begin_rendering(cb_state *cs, const VkRenderingInfo *info)
{
    /* A dynamic render pass begun with VK_RENDERING_SUSPENDING_BIT goes on
     * in a later one: no command of the layer may come between. */
    int suspending = info && (info->flags & VK_RENDERING_SUSPENDING_BIT);
    if (cs->pp)
        cs->pp->suspended = suspending;
    else if (suspending && pp_get(cs))
        cs->pp->suspended = 1;
}

void gpuavdbg_prepass_render_pass_ended(cb_state *cs)
{
    if (cs->pp && !cs->pp->suspended && cs->pp->first_pending < cs->pp->pack.njobs)
        gpuavdbg_prepass_run(cs);
}

int gpuavdbg_prepass_end(cb_state *cs)
{
    pp_cb *c = cs->pp;
    if (!c)
        return 0;
    uint32_t left = c->pack.njobs - c->first_pending;
    if (left > 0 && !(__atomic_fetch_or(&cs->dd->pp->told, TOLD_SECONDARY, __ATOMIC_RELAXED) & TOLD_SECONDARY))
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                      "indirect_command: %u indirect draws of command buffer 0x%llx are not checked: they are inside a "
                      "render pass that does not end in it (a secondary command buffer, or a suspended render pass); "
                      "the layer's pre-pass runs after the render pass ends (said once per device)",
                      left, (unsigned long long)GPUAVDBG_H(cs->cb));
    c->first_pending = c->pack.njobs;
    c->pack.ncopies = 0;
    return c->ran;
}

int gpuavdbg_prepass_ran(const cb_state *cs)
{
    return cs->pp && cs->pp->ran;
}

void gpuavdbg_prepass_reset(cb_state *cs)
{
    pp_cb *c = cs->pp;
    if (!c)
        return;
    gpuavdbg_pack_reset(&c->pack);
    c->first_pending = 0;
    c->ran = 0;
    c->suspended = 0;
}

void gpuavdbg_prepass_free(cb_state *cs)
{
    if (!cs->pp)
        return;
    free(cs->pp->pack.copies);
    free(cs->pp);
    cs->pp = NULL;
}
