/*
 * cmdchecks.c: the command checks on the CPU (docs/decisions/command-checks.md).
 * The layer follows the index and vertex buffers the app binds and the
 * vertex input state of its pipelines, and checks at each draw what the
 * parameters say: firstIndex + indexCount against the bound index buffer
 * (index_buffer_oob), the vertices and instances a non-indexed draw
 * fetches against the bound vertex buffers (vertex_fetch_oob), and the
 * counts of indirect commands against their buffers (indirect_command). A
 * failure becomes a layer record, kept with the command buffer and read at
 * each submit; unless on_error is execute the draw is skipped or its count clamped. What
 * only the GPU knows (the contents of indirect buffers) goes to the
 * pre-pass (prepass.c) as a job.
 *
 * The command-buffer owner (cmdbuf.c) intercepts the commands and calls
 * the hooks below (cmdchecks.h); nothing here calls into Go per command.
 */
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "addresses.h"
#include "cmdchecks.h"
#include "descriptors.h"
#include "prepass.h"
#include "_cgo_export.h"

/* Vertex bindings and attributes the layer follows (maxVertexInputBindings
 * is at least 16; 32 on the devices tested). */
#define GPUAVDBG_CC_VB 32u

/* A vertex binding (instance: VK_VERTEX_INPUT_RATE_INSTANCE) and a vertex
 * attribute (size: its format's bytes, 0 when the layer does not know). */
typedef struct cc_binding {
    uint32_t binding, stride, instance, divisor;
} cc_binding;
typedef struct cc_attr {
    uint32_t location, binding, size, offset;
} cc_attr;

/* A vertex input state: a pipeline's, or vkCmdSetVertexInputEXT's. */
typedef struct cc_vi {
    uint32_t nbind, nattr;
    cc_binding bind[GPUAVDBG_CC_VB];
    cc_attr attr[GPUAVDBG_CC_VB];
    int dynamic_input;  /* VK_DYNAMIC_STATE_VERTEX_INPUT_EXT: use the command buffer's */
    int dynamic_stride; /* VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE: strides from vkCmdBindVertexBuffers2 */
} cc_vi;

typedef struct cc_dev {
    uint32_t checks;    /* GPUAVDBG_CC_* */
    int first_instance; /* the app enabled drawIndirectFirstInstance */
    int robust2;        /* robustBufferAccess2: index reads past the end are defined */
    int robust;         /* robustBufferAccess(2): vertex fetches past the end are defined */
    uint32_t max_draw_indirect;
    uint32_t told;      /* notices given once per device (CC_TOLD_*) */
} cc_dev;

/* Notices a device gives once. */
enum {
    CC_TOLD_ADDRESS = 8,
    CC_TOLD_VERTEX_LIBRARY = 32,
    CC_TOLD_VERTEX_DIVISOR = 512,
    CC_TOLD_VERTEX_SLOTS = 1024,
};

/* A vertex buffer bound: end is offset + the bound size; stride is
 * vkCmdBindVertexBuffers2's (has_stride). */
typedef struct cc_vb {
    VkBuffer buf;
    VkDeviceSize offset, end, stride;
    int has_stride;
} cc_vb;

typedef struct cc_cb {
    /* the index buffer bound: end is offset + the bound size */
    VkBuffer ib;
    VkDeviceSize ib_offset, ib_end;
    uint32_t ib_size; /* bytes per index */
    /* the vertex buffers bound */
    cc_vb vb[GPUAVDBG_CC_VB];
    cc_vi *dyn_vi; /* vkCmdSetVertexInputEXT's, or NULL */
    /* records made on the CPU, GPUAVDBG_LAYER_RECORD_WORDS words each */
    uint32_t *rec;
    uint32_t nrec, cap_rec, dropped;
    /* vertex_fetch_oob in the vertex shader: the vertex tables of this
     * recording one after the other (gpuav/inputs.go: N, then N location
     * entries), vlast the word offset + 1 of the last one (a draw with the
     * same state shares it), and per action the offset + 1 of its table
     * (0: none), written into the descriptor state at submit. */
    uint32_t *vt;
    uint32_t nvt, cap_vt, vlast;
    uint32_t *vact;
    uint32_t nvact, cap_vact;
    /* The last buffer looked up (cc_buffer): a recording's
     * indirect draws mostly read one buffer. */
    VkBuffer last_buf;
    VkDeviceSize last_size;
    int last_copyable;
} cc_cb;

/* saturate32 is v, or UINT32_MAX when it does not fit. */
static inline uint32_t saturate32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* ---- device ------------------------------------------------------------------ */

static int has_extension(const VkDeviceCreateInfo *ci, const char *name)
{
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        if (ci->ppEnabledExtensionNames[i] && strcmp(ci->ppEnabledExtensionNames[i], name) == 0)
            return 1;
    return 0;
}

/* app_features reads the features the checks depend on from the app's
 * create info. */
static void app_features(cc_dev *c, const VkDeviceCreateInfo *ci)
{
    if (ci->pEnabledFeatures)
        c->first_instance = ci->pEnabledFeatures->drawIndirectFirstInstance;
    for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext) {
        switch (p->sType) {
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2:
            c->first_instance |= ((const VkPhysicalDeviceFeatures2 *)p)->features.drawIndirectFirstInstance;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT:
            c->robust2 |= ((const VkPhysicalDeviceRobustness2FeaturesEXT *)p)->robustBufferAccess2;
            break;
        default: break;
        }
    }
}

/* device_limits fills the pre-pass limits block; mesh and ray tracing
 * properties are asked for only when the app enabled their extensions. */
static void device_limits(device_data *dd, cc_dev *c, const VkDeviceCreateInfo *ci, uint32_t *w)
{
    VkPhysicalDeviceMeshShaderPropertiesEXT mesh = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_PROPERTIES_EXT};
    VkPhysicalDeviceRayTracingPipelinePropertiesKHR rt = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    void **next = &p2.pNext;
    if (has_extension(ci, VK_EXT_MESH_SHADER_EXTENSION_NAME)) {
        *next = &mesh;
        next = &mesh.pNext;
    }
    if (has_extension(ci, VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME))
        *next = &rt;
    /* vkGetPhysicalDeviceProperties2 only when a structure is chained (the
     * extensions that add them need it), by its core name only for a
     * Vulkan 1.1 app: a Vulkan 1.0 app may call neither. */
    int v11 = dd->inst->api_version >= VK_API_VERSION_1_1;
    PFN_vkGetPhysicalDeviceProperties2 get = v11 && dd->inst->disp.GetPhysicalDeviceProperties2
                                                 ? dd->inst->disp.GetPhysicalDeviceProperties2
                                                 : dd->inst->disp.GetPhysicalDeviceProperties2KHR;
    if (p2.pNext && get)
        get(dd->physical, &p2);
    else if (dd->inst->disp.GetPhysicalDeviceProperties)
        dd->inst->disp.GetPhysicalDeviceProperties(dd->physical, &p2.properties);
    const VkPhysicalDeviceLimits *l = &p2.properties.limits;
    for (int i = 0; i < 3; i++) {
        w[GPUAVDBG_PREPASS_LIMIT_COMPUTE_COUNT + i] = l->maxComputeWorkGroupCount[i];
        w[GPUAVDBG_PREPASS_LIMIT_TASK_COUNT + i] = mesh.maxTaskWorkGroupCount[i];
        w[GPUAVDBG_PREPASS_LIMIT_MESH_COUNT + i] = mesh.maxMeshWorkGroupCount[i];
        w[GPUAVDBG_PREPASS_LIMIT_RAY_DIMS + i] =
            saturate32((uint64_t)l->maxComputeWorkGroupCount[i] * l->maxComputeWorkGroupSize[i]);
    }
    w[GPUAVDBG_PREPASS_LIMIT_TASK_COUNT + 3] = mesh.maxTaskWorkGroupTotalCount;
    w[GPUAVDBG_PREPASS_LIMIT_MESH_COUNT + 3] = mesh.maxMeshWorkGroupTotalCount;
    w[GPUAVDBG_PREPASS_LIMIT_RAY_INVOCATION] = rt.maxRayDispatchInvocationCount;
    c->max_draw_indirect = l->maxDrawIndirectCount;
    /* A test hook: lavapipe's and NVIDIA's limit is 2^32-1, which no count
     * can exceed. */
    if (gpuavdbg_tests.max_draw_indirect >= 0)
        c->max_draw_indirect = (uint32_t)gpuavdbg_tests.max_draw_indirect;
    w[GPUAVDBG_PREPASS_LIMIT_DRAW_COUNT] = c->max_draw_indirect;
    w[GPUAVDBG_PREPASS_LIMIT_FEATURES] = c->first_instance ? GPUAVDBG_PREPASS_FEATURE_FIRST_INSTANCE : 0;
}

uint32_t gpuavdbg_cc_device_created(device_data *dd, const VkDeviceCreateInfo *ci, uint32_t *limits)
{
    cc_dev *c = calloc(1, sizeof *c);
    if (!c) {
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED, "out of memory: index_buffer_oob, vertex_fetch_oob and indirect_command are off");
        return 0;
    }
    c->checks = goCommandChecks(GPUAVDBG_H(dd->inst->instance));
    c->robust = (int)dd->robust;
    app_features(c, ci);
    device_limits(dd, c, ci, limits);
    dd->cc = c;
    return c->checks;
}

void gpuavdbg_cc_device_destroyed(device_data *dd)
{
    free(dd->cc);
    dd->cc = NULL;
}

static uint32_t checks_of(const device_data *dd)
{
    return dd->cc ? dd->cc->checks : 0;
}

/* ---- pipelines' vertex input ----------------------------------------------------- */

/* format_size is the bytes of one vertex attribute of a core format, or 0
 * for formats the layer does not size (their fetches are not checked). */
static uint32_t format_size(VkFormat f)
{
    static const struct {
        int first, last;
        uint32_t size;
    } ranges[] = {
        {1, 1, 1},     {2, 8, 2},     {9, 15, 1},    {16, 22, 2},   {23, 36, 3},   {37, 69, 4},
        {70, 76, 2},   {77, 83, 4},   {84, 90, 6},   {91, 97, 8},   {98, 100, 4},  {101, 103, 8},
        {104, 106, 12}, {107, 109, 16}, {110, 112, 8}, {113, 115, 16}, {116, 118, 24}, {119, 121, 32},
        {122, 123, 4},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
        if ((int)f >= ranges[i].first && (int)f <= ranges[i].last)
            return ranges[i].size;
    return 0;
}

static const void *find_next(const void *next, VkStructureType t)
{
    for (const VkBaseInStructure *p = next; p; p = p->pNext)
        if (p->sType == t)
            return p;
    return NULL;
}

static int has_dynamic(const VkPipelineDynamicStateCreateInfo *ds, VkDynamicState s)
{
    for (uint32_t i = 0; ds && i < ds->dynamicStateCount; i++)
        if (ds->pDynamicStates[i] == s)
            return 1;
    return 0;
}

void gpuavdbg_cc_pipeline_created(device_data *dd, pipeline_info *pi, const VkGraphicsPipelineCreateInfo *ci)
{
    for (uint32_t i = 0; i < ci->stageCount; i++)
        if (ci->pStages[i].stage == VK_SHADER_STAGE_TASK_BIT_EXT)
            pi->has_task = 1;
    if (!(checks_of(dd) & GPUAVDBG_CC_VERTEX))
        return;
    int dyn_input = has_dynamic(ci->pDynamicState, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT);
    const VkPipelineVertexInputStateCreateInfo *vs = ci->pVertexInputState;
    if (!dyn_input && !vs && find_next(ci->pNext, VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR) &&
        !(__atomic_fetch_or(&dd->cc->told, CC_TOLD_VERTEX_LIBRARY, __ATOMIC_RELAXED) & CC_TOLD_VERTEX_LIBRARY))
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED, "vertex_fetch_oob: draws of pipelines linked from graphics pipeline "
                                            "libraries are not checked (the layer does not read a library's vertex "
                                            "input state) (said once per device)");
    if (!dyn_input && (!vs || vs->vertexBindingDescriptionCount == 0))
        return; /* no vertex input, or a pipeline library holds it */
    cc_vi *vi = calloc(1, sizeof *vi);
    if (!vi)
        return;
    vi->dynamic_input = dyn_input;
    vi->dynamic_stride = has_dynamic(ci->pDynamicState, VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE);
    if (!dyn_input) {
        const VkPipelineVertexInputDivisorStateCreateInfoEXT *div = NULL;
        for (const VkBaseInStructure *p = vs->pNext; p; p = p->pNext)
            if (p->sType == VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT)
                div = (const VkPipelineVertexInputDivisorStateCreateInfoEXT *)p;
        for (uint32_t i = 0; i < vs->vertexBindingDescriptionCount && vi->nbind < GPUAVDBG_CC_VB; i++) {
            const VkVertexInputBindingDescription *b = &vs->pVertexBindingDescriptions[i];
            uint32_t divisor = 1;
            for (uint32_t k = 0; div && k < div->vertexBindingDivisorCount; k++)
                if (div->pVertexBindingDivisors[k].binding == b->binding)
                    divisor = div->pVertexBindingDivisors[k].divisor;
            vi->bind[vi->nbind++] = (cc_binding){b->binding, b->stride,
                                                           b->inputRate == VK_VERTEX_INPUT_RATE_INSTANCE, divisor};
        }
        for (uint32_t i = 0; i < vs->vertexAttributeDescriptionCount && vi->nattr < GPUAVDBG_CC_VB; i++) {
            const VkVertexInputAttributeDescription *a = &vs->pVertexAttributeDescriptions[i];
            vi->attr[vi->nattr++] = (cc_attr){a->location, a->binding, format_size(a->format), a->offset};
        }
    }
    pi->vi = vi;
}

void gpuavdbg_cc_pipeline_freed(pipeline_info *pi)
{
    if (pi)
        free(pi->vi);
}

/* ---- per command buffer -------------------------------------------------------- */

static cc_cb *cc_get(cb_state *cs)
{
    if (!cs->cc)
        cs->cc = calloc(1, sizeof *cs->cc);
    return cs->cc;
}

/* cc_buffer is gpuavdbg_buffer_info for the command checks of a recording,
 * with the last answer kept. */
static VkDeviceSize cc_buffer(cb_state *cs, VkBuffer b, int *copyable)
{
    cc_cb *c = cc_get(cs);
    if (!c)
        return gpuavdbg_buffer_info(b, copyable);
    if (c->last_buf != b || !b) {
        c->last_size = gpuavdbg_buffer_info(b, &c->last_copyable);
        c->last_buf = b;
    }
    if (copyable)
        *copyable = c->last_copyable;
    return c->last_size;
}

void gpuavdbg_cc_reset(cb_state *cs)
{
    cc_cb *c = cs->cc;
    if (!c)
        return;
    free(c->dyn_vi);
    uint32_t *rec = c->rec, cap = c->cap_rec;
    uint32_t *vt = c->vt, *vact = c->vact, cap_vt = c->cap_vt, cap_vact = c->cap_vact;
    memset(c, 0, sizeof *c);
    c->rec = rec;
    c->cap_rec = cap;
    c->vt = vt;
    c->cap_vt = cap_vt;
    c->vact = vact;
    c->cap_vact = cap_vact;
}

void gpuavdbg_cc_free(cb_state *cs)
{
    if (!cs->cc)
        return;
    free(cs->cc->dyn_vi);
    free(cs->cc->rec);
    free(cs->cc->vt);
    free(cs->cc->vact);
    free(cs->cc);
    cs->cc = NULL;
}

/* Records one recording keeps on the CPU; more count as dropped. */
#define CC_MAX_RECORDS 4096u

/* cc_record appends a layer record made on the CPU. */
static void cc_record(cb_state *cs, uint32_t action, uint32_t code, uint32_t stage, uint32_t w0, uint32_t w1,
                      uint32_t w2, const uint32_t p[7])
{
    cc_cb *c = cc_get(cs);
    if (!c)
        return;
    if (c->nrec == c->cap_rec) {
        uint32_t ncap = c->cap_rec ? c->cap_rec * 2 : 8;
        uint32_t *n = ncap <= CC_MAX_RECORDS ? realloc(c->rec, (size_t)ncap * GPUAVDBG_LAYER_RECORD_WORDS * 4) : NULL;
        if (!n) {
            c->dropped++;
            return;
        }
        c->rec = n;
        c->cap_rec = ncap;
    }
    uint32_t *r = c->rec + (size_t)c->nrec++ * GPUAVDBG_LAYER_RECORD_WORDS;
    r[GPUAVDBG_LAYER_ACTION_WORD] = action;
    r[GPUAVDBG_LAYER_CODE_WORD] = code;
    r[GPUAVDBG_LAYER_STAGE_WORD] = stage;
    r[GPUAVDBG_LAYER_STAGE0_WORD] = w0;
    r[GPUAVDBG_LAYER_STAGE0_WORD + 1] = w1;
    r[GPUAVDBG_LAYER_STAGE0_WORD + 2] = w2;
    memcpy(r + GPUAVDBG_LAYER_PARAM0_WORD, p, 7 * sizeof *p);
}

int gpuavdbg_cc_has_records(const cb_state *cs)
{
    return (cs->cc && (cs->cc->nrec > 0 || cs->cc->dropped > 0)) || gpuavdbg_prepass_ran(cs);
}

const uint32_t *gpuavdbg_cc_records(const cb_state *cs, uint32_t *nwords, uint32_t *dropped)
{
    *nwords = cs->cc ? cs->cc->nrec * GPUAVDBG_LAYER_RECORD_WORDS : 0;
    *dropped = cs->cc ? cs->cc->dropped : 0;
    return cs->cc ? cs->cc->rec : NULL;
}

/* ---- binds -------------------------------------------------------------------- */

static uint32_t index_size(VkIndexType t)
{
    switch ((int)t) {
    case VK_INDEX_TYPE_UINT16: return 2;
    case VK_INDEX_TYPE_UINT32: return 4;
    case VK_INDEX_TYPE_UINT8_EXT: return 1;
    }
    return 0;
}

void gpuavdbg_cc_bind_index(cb_state *cs, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size, VkIndexType type)
{
    if (!(checks_of(cs->dd) & (GPUAVDBG_CC_INDEX | GPUAVDBG_CC_INDIRECT)))
        return;
    cc_cb *c = cc_get(cs);
    if (!c)
        return;
    VkDeviceSize whole = buffer ? gpuavdbg_buffer_info(buffer, NULL) : 0;
    c->ib = whole ? buffer : VK_NULL_HANDLE; /* unknown buffers (or none, maintenance6) are not checked */
    c->ib_offset = offset;
    c->ib_end = size == VK_WHOLE_SIZE || offset + size > whole ? whole : offset + size;
    c->ib_size = index_size(type);
    if (!c->ib_size)
        c->ib = VK_NULL_HANDLE;
}

void gpuavdbg_cc_bind_vertex(cb_state *cs, uint32_t first, uint32_t n, const VkBuffer *bufs,
                             const VkDeviceSize *offsets, const VkDeviceSize *sizes, const VkDeviceSize *strides)
{
    if (!(checks_of(cs->dd) & GPUAVDBG_CC_VERTEX))
        return;
    cc_cb *c = cc_get(cs);
    for (uint32_t i = 0; c && i < n && first + i < GPUAVDBG_CC_VB; i++) {
        cc_vb *v = &c->vb[first + i];
        VkDeviceSize whole = bufs[i] ? gpuavdbg_buffer_info(bufs[i], NULL) : 0;
        v->buf = whole ? bufs[i] : VK_NULL_HANDLE;
        v->offset = offsets[i];
        VkDeviceSize size = sizes ? sizes[i] : VK_WHOLE_SIZE;
        v->end = size == VK_WHOLE_SIZE || offsets[i] + size > whole ? whole : offsets[i] + size;
        v->has_stride = strides != NULL;
        v->stride = strides ? strides[i] : 0;
    }
}

void gpuavdbg_cc_set_vertex_input(cb_state *cs, uint32_t nb, const VkVertexInputBindingDescription2EXT *bs,
                                  uint32_t na, const VkVertexInputAttributeDescription2EXT *as)
{
    cc_cb *c = (checks_of(cs->dd) & GPUAVDBG_CC_VERTEX) ? cc_get(cs) : NULL;
    cc_vi *vi = c ? (c->dyn_vi ? c->dyn_vi : calloc(1, sizeof *vi)) : NULL;
    if (!vi)
        return;
    memset(vi, 0, sizeof *vi);
    for (uint32_t i = 0; i < nb && vi->nbind < GPUAVDBG_CC_VB; i++)
        vi->bind[vi->nbind++] =
            (cc_binding){bs[i].binding, bs[i].stride, bs[i].inputRate == VK_VERTEX_INPUT_RATE_INSTANCE, bs[i].divisor};
    for (uint32_t i = 0; i < na && vi->nattr < GPUAVDBG_CC_VB; i++)
        vi->attr[vi->nattr++] = (cc_attr){as[i].location, as[i].binding, format_size(as[i].format), as[i].offset};
    c->dyn_vi = vi;
}

/* ---- the checks on the CPU --------------------------------------------------------- */

/* safe says whether a failed check skips the command. */
static int safe(const device_data *dd)
{
    return (checks_of(dd) & GPUAVDBG_CC_SAFE) != 0;
}

/* check_index checks firstIndex + indexCount of draw `draw` of action
 * against the bound index buffer; returns 1 when the draw must be skipped. */
static int check_index(cb_state *cs, uint32_t action, uint32_t draw, uint32_t first, uint32_t count)
{
    cc_cb *c = cs->cc;
    if (!(checks_of(cs->dd) & GPUAVDBG_CC_INDEX) || !c || !c->ib || count == 0)
        return 0;
    uint64_t avail = (c->ib_end > c->ib_offset ? c->ib_end - c->ib_offset : 0) / c->ib_size;
    if ((uint64_t)first + count <= avail)
        return 0;
    int robust = cs->dd->cc->robust2;
    int skip = safe(cs->dd) && !robust;
    uint32_t flags = (skip ? GPUAVDBG_INDEX_SKIPPED : 0) | (robust ? GPUAVDBG_INDEX_ROBUST : 0);
    uint32_t p[7] = {first, count, c->ib_size, saturate32(c->ib_offset), saturate32(c->ib_end), flags,
                     saturate32(avail)};
    cc_record(cs, action, GPUAVDBG_CODE_INDEX_BUFFER_OOB, GPUAVDBG_MODEL_COMMAND, draw, 0, 0, p);
    return skip;
}

/* The vertex input state a draw uses: the bound pipeline's, or the
 * command buffer's dynamic one. */
static const cc_vi *draw_vi(cb_state *cs, int *dynamic_stride)
{
    *dynamic_stride = 0;
    if (!cs->bound[0].pipeline) /* shader objects: vertex input is dynamic state */
        return cs->bound[0].shaders[0] && cs->cc ? cs->cc->dyn_vi : NULL;
    const cc_vi *vi = cs->bound[0].vi;
    if (!vi)
        return NULL;
    *dynamic_stride = vi->dynamic_stride;
    return vi->dynamic_input ? (cs->cc ? cs->cc->dyn_vi : NULL) : vi;
}

/* A draw's range of vertices and instances. */
typedef struct draw_range {
    uint32_t first_vertex, vertices, first_instance, instances;
    int vertex_rate; /* the vertex indices are known (non-indexed draw) */
} draw_range;

/* check_attribute checks attribute a (of binding b) over the draw's
 * indices; returns 1 when it fetches past its buffer. */
static int check_attribute(cb_state *cs, uint32_t action, uint32_t draw, const draw_range *r, uint32_t a_loc,
                           uint32_t a_size, uint32_t a_off, uint32_t binding, const cc_binding *b,
                           int dyn_stride)
{
    cc_cb *c = cs->cc;
    if (binding >= GPUAVDBG_CC_VB || !c->vb[binding].buf || a_size == 0)
        return 0;
    const cc_vb *v = &c->vb[binding];
    uint64_t stride = dyn_stride && v->has_stride ? v->stride : b->stride;
    uint64_t lo, n;
    if (b->instance) {
        lo = r->first_instance;
        n = r->instances == 0 ? 0 : b->divisor == 0 ? 1 : (r->instances - 1) / b->divisor + 1;
    } else {
        lo = r->first_vertex;
        n = r->vertex_rate ? r->vertices : 0;
    }
    if (n == 0 || r->instances == 0)
        return 0;
    uint64_t base = v->offset + a_off, end = v->end;
    if (base + (lo + n - 1) * stride + a_size <= end)
        return 0;
    /* the first index that fetches past the end */
    uint64_t idx = lo;
    if (stride > 0 && base + a_size <= end) {
        idx = (end - base - a_size) / stride + 1;
        if (idx < lo)
            idx = lo;
    }
    int robust = cs->dd->cc->robust;
    int skip = safe(cs->dd) && !robust;
    uint32_t flags = (b->instance ? GPUAVDBG_VERTEX_INSTANCE_RATE : 0) | (skip ? GPUAVDBG_VERTEX_SKIPPED : 0) |
                     (robust ? GPUAVDBG_VERTEX_ROBUST : 0) | (saturate32(stride) << GPUAVDBG_VERTEX_STRIDE_SHIFT);
    uint32_t p[7] = {a_loc, binding, saturate32(base + idx * stride), a_size, saturate32(end), saturate32(idx), flags};
    /* The vertex stage's coordinates: the vertex and instance index. */
    uint32_t vertex = b->instance ? r->first_vertex : saturate32(idx);
    uint32_t instance = b->instance ? saturate32(r->first_instance + (idx - lo) * (b->divisor ? b->divisor : 1))
                                    : r->first_instance;
    cc_record(cs, action, GPUAVDBG_CODE_VERTEX_FETCH_OOB, 0 /* vertex */, vertex, instance, draw, p);
    return skip;
}

/* check_vertex checks every attribute of the draw; returns 1 when the draw
 * must be skipped. */
static int check_vertex(cb_state *cs, uint32_t action, uint32_t draw, const draw_range *r)
{
    if (!(checks_of(cs->dd) & GPUAVDBG_CC_VERTEX) || !cs->cc)
        return 0;
    int dyn_stride;
    const cc_vi *vi = draw_vi(cs, &dyn_stride);
    int skip = 0;
    for (uint32_t i = 0; vi && i < vi->nattr; i++)
        for (uint32_t k = 0; k < vi->nbind; k++)
            if (vi->bind[k].binding == vi->attr[i].binding)
                skip |= check_attribute(cs, action, draw, r, vi->attr[i].location, vi->attr[i].size,
                                        vi->attr[i].offset, vi->attr[i].binding, &vi->bind[k], dyn_stride);
    return skip;
}

/* ---- the vertex shader's check ------------------------------------------------------ */

/* grow_words makes room for n more words in *w (used *used, capacity
 * *cap); 0 when out of memory. */
static int grow_words(uint32_t **w, uint32_t used, uint32_t *cap, uint32_t n)
{
    if (used + n <= *cap)
        return 1;
    uint64_t ncap = *cap ? *cap : 64;
    while (ncap < (uint64_t)used + n)
        ncap *= 2;
    if (ncap > UINT32_MAX / 4)
        return 0;
    uint32_t *g = realloc(*w, (size_t)ncap * 4);
    if (!g)
        return 0;
    *w = g;
    *cap = (uint32_t)ncap;
    return 1;
}

/* vertex_entry fills location entry e (GPUAVDBG_VERTEX_ENTRY_WORDS words)
 * of attribute a, fetched from binding b: the limit of the index that
 * fetches it inside the bound range. The instance-rate attributes of a
 * direct draw are checked on the CPU (cpu_instances), and a divisor other
 * than 1 makes the instance index not the fetch index: no limit (said
 * once for an indirect draw). */
static void vertex_entry(cb_state *cs, uint32_t *e, const cc_attr *a, const cc_binding *b, int dyn_stride,
                         int cpu_instances)
{
    const cc_vb *v = a->binding < GPUAVDBG_CC_VB ? &cs->cc->vb[a->binding] : NULL;
    if (!v || !v->buf || a->size == 0)
        return;
    if (b->instance && !cpu_instances && b->divisor != 1 &&
        !(__atomic_fetch_or(&cs->dd->cc->told, CC_TOLD_VERTEX_DIVISOR, __ATOMIC_RELAXED) & CC_TOLD_VERTEX_DIVISOR))
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED, "vertex_fetch_oob: the instance-rate attributes of indirect draws whose "
                                            "binding has a divisor other than 1 are not checked (said once per device)");
    if (b->instance && (cpu_instances || b->divisor != 1))
        return;
    uint64_t stride = dyn_stride && v->has_stride ? v->stride : b->stride;
    uint64_t base = v->offset + a->offset, end = v->end;
    uint64_t limit = 0; /* the first index fetches past the end: none is inside */
    if (base + a->size <= end && stride == 0)
        limit = GPUAVDBG_VERTEX_NO_LIMIT; /* every index fetches the same bytes, inside */
    else if (base + a->size <= end)
        limit = (end - base - a->size) / stride + 1;
    e[GPUAVDBG_VERTEX_LIMIT] =
        stride && limit >= GPUAVDBG_VERTEX_NO_LIMIT ? GPUAVDBG_VERTEX_NO_LIMIT - 1 : (uint32_t)limit;
    e[GPUAVDBG_VERTEX_BASE] = saturate32(base);
    e[GPUAVDBG_VERTEX_END] = saturate32(end);
    e[GPUAVDBG_VERTEX_STRIDE] = saturate32(stride);
    e[GPUAVDBG_VERTEX_BINDING] = a->binding;
    e[GPUAVDBG_VERTEX_SIZE] = a->size;
    e[GPUAVDBG_VERTEX_FLAGS] = (b->instance ? GPUAVDBG_VERTEX_INSTANCE_RATE : 0) |
                               (cs->dd->cc->robust ? GPUAVDBG_VERTEX_ROBUST : 0);
    e[GPUAVDBG_VERTEX_RATE] = b->instance;
}

/* vertex_table makes the vertex table of a draw whose vertex indices the
 * layer does not see (indexed and indirect draws) for the vertex shader's
 * check (gpuav/inputs.go), or reuses the last one when it is the same. */
static void vertex_table(cb_state *cs, uint32_t action, int cpu_instances)
{
    int dyn_stride;
    const cc_vi *vi = (checks_of(cs->dd) & GPUAVDBG_CC_VERTEX) && cs->cc ? draw_vi(cs, &dyn_stride) : NULL;
    if (!vi || vi->nattr == 0)
        return;
    cc_cb *c = cs->cc;
    if (action < c->nvact)
        return;
    uint32_t nloc = 0;
    for (uint32_t i = 0; i < vi->nattr; i++)
        if (vi->attr[i].location < 64 && vi->attr[i].location + 1 > nloc)
            nloc = vi->attr[i].location + 1;
    uint32_t need = 1 + nloc * GPUAVDBG_VERTEX_ENTRY_WORDS;
    if (!grow_words(&c->vt, c->nvt, &c->cap_vt, need) || !grow_words(&c->vact, c->nvact, &c->cap_vact, action + 1 - c->nvact))
        return; /* out of memory: the action has no table, its fetches pass */
    uint32_t *t = c->vt + c->nvt;
    memset(t, 0, (size_t)need * 4);
    t[0] = nloc;
    for (uint32_t l = 0; l < nloc; l++)
        t[1 + l * GPUAVDBG_VERTEX_ENTRY_WORDS + GPUAVDBG_VERTEX_LIMIT] = GPUAVDBG_VERTEX_NO_LIMIT;
    for (uint32_t i = 0; i < vi->nattr; i++)
        for (uint32_t k = 0; k < vi->nbind && vi->attr[i].location < nloc; k++)
            if (vi->bind[k].binding == vi->attr[i].binding)
                vertex_entry(cs, t + 1 + vi->attr[i].location * GPUAVDBG_VERTEX_ENTRY_WORDS, &vi->attr[i], &vi->bind[k],
                             dyn_stride, cpu_instances);
    const uint32_t *last = c->vlast ? c->vt + c->vlast - 1 : NULL;
    if (!last || last[0] != nloc || memcmp(last, t, (size_t)need * 4) != 0) {
        c->vlast = c->nvt + 1;
        c->nvt += need;
    }
    while (c->nvact < action)
        c->vact[c->nvact++] = 0;
    c->vact[c->nvact++] = c->vlast;
}

/* gpuavdbg_cc_write_vertex writes the per-action vertex table offsets
 * (count words at table) and the tables after words[at]; it returns the
 * words used. Actions past the last action slot share it: their table
 * is the last slot's only when they all have the same (else none, said
 * once). */
uint32_t gpuavdbg_cc_write_vertex(cb_state *cs, uint32_t *words, uint32_t cap, uint32_t at, uint32_t table,
                                  uint32_t count)
{
    const cc_cb *c = cs->cc;
    uint32_t n = c ? c->nvact : 0;
    if (n == 0 || c->nvt == 0)
        return at;
    uint64_t end = (uint64_t)at + c->nvt;
    if (end <= cap)
        memcpy(words + at, c->vt, (size_t)c->nvt * 4);
    for (uint32_t a = 0; a < count && a < n && (uint64_t)table + a < cap; a++) {
        uint32_t v = c->vact[a];
        if (a == GPUAVDBG_ACTION_SLOTS - 1)
            for (uint32_t b = a + 1; b < n; b++)
                if (c->vact[b] != v) {
                    v = 0;
                    if (!(__atomic_fetch_or(&cs->dd->cc->told, CC_TOLD_VERTEX_SLOTS, __ATOMIC_RELAXED) &
                          CC_TOLD_VERTEX_SLOTS))
                        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                                      "vertex_fetch_oob: the indexed and indirect draws past the %uth of a command "
                                      "buffer with different vertex buffers or input state are not checked (said "
                                      "once per device)",
                                      GPUAVDBG_ACTION_SLOTS - 1);
                    break;
                }
        words[table + a] = v ? at + v - 1 : 0;
    }
    return end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
}

/* ---- draws: hooks of the command-buffer owner ------------------------------------- */

int gpuavdbg_cc_draw_checked(cb_state *cs, uint32_t action, uint32_t vertexCount, uint32_t instanceCount,
                             uint32_t firstVertex, uint32_t firstInstance)
{
    draw_range r = {firstVertex, vertexCount, firstInstance, instanceCount, 1};
    return check_vertex(cs, action, 0, &r);
}

int gpuavdbg_cc_draw_indexed_checked(cb_state *cs, uint32_t action, uint32_t indexCount, uint32_t instanceCount,
                                     uint32_t firstIndex, uint32_t firstInstance)
{
    draw_range r = {0, 0, firstInstance, instanceCount, 0};
    int skip = check_index(cs, action, 0, firstIndex, indexCount);
    skip |= check_vertex(cs, action, 0, &r);
    if (!skip)
        vertex_table(cs, action, 1);
    return skip;
}

VkMultiDrawInfoEXT *gpuavdbg_cc_draw_multi(cb_state *cs, uint32_t action, uint32_t n, const VkMultiDrawInfoEXT *info,
                                           uint32_t instanceCount, uint32_t firstInstance, uint32_t stride,
                                           uint32_t *nkept)
{
    VkMultiDrawInfoEXT *kept = NULL;
    *nkept = 0;
    for (uint32_t i = 0; info && i < n; i++) {
        const VkMultiDrawInfoEXT *d = (const VkMultiDrawInfoEXT *)((const char *)info + (size_t)i * stride);
        draw_range r = {d->firstVertex, d->vertexCount, firstInstance, instanceCount, 1};
        int skip = check_vertex(cs, action, i, &r);
        if (skip && !kept && (kept = malloc((size_t)n * sizeof *kept)) != NULL)
            for (uint32_t k = 0; k < i; k++)
                kept[(*nkept)++] = *(const VkMultiDrawInfoEXT *)((const char *)info + (size_t)k * stride);
        if (kept && !skip)
            kept[(*nkept)++] = *d;
    }
    return kept;
}

int gpuavdbg_cc_draw_multi_indexed(cb_state *cs, uint32_t action, uint32_t n, const VkMultiDrawIndexedInfoEXT *info,
                                   uint32_t instanceCount, uint32_t firstInstance, uint32_t stride,
                                   VkMultiDrawIndexedInfoEXT **kept_out, uint32_t *nkept)
{
    VkMultiDrawIndexedInfoEXT *kept = NULL;
    *nkept = 0;
    *kept_out = NULL;
    draw_range r = {0, 0, firstInstance, instanceCount, 0};
    if (check_vertex(cs, action, 0, &r))
        return 1; /* the instances fetch past a vertex buffer */
    vertex_table(cs, action, 1);
    for (uint32_t i = 0; info && i < n; i++) {
        const VkMultiDrawIndexedInfoEXT *d =
            (const VkMultiDrawIndexedInfoEXT *)((const char *)info + (size_t)i * stride);
        int skip = check_index(cs, action, i, d->firstIndex, d->indexCount);
        if (skip && !kept && (kept = malloc((size_t)n * sizeof *kept)) != NULL)
            for (uint32_t k = 0; k < i; k++)
                kept[(*nkept)++] = *(const VkMultiDrawIndexedInfoEXT *)((const char *)info + (size_t)k * stride);
        if (kept && !skip)
            kept[(*nkept)++] = *d;
    }
    *kept_out = kept;
    return 0;
}

/* ---- indirect commands ------------------------------------------------------------ */

/* fit is the number of commands of cmd_size bytes at offset + k * stride
 * that lie inside a buffer of size bytes. */
static uint64_t fit(VkDeviceSize size, VkDeviceSize offset, uint32_t stride, uint32_t cmd_size)
{
    if (offset + cmd_size > size)
        return 0;
    if (stride == 0)
        return UINT32_MAX;
    return (size - offset - cmd_size) / stride + 1;
}

/* overrun records an indirect command range past the end of its buffer
 * (which: GPUAVDBG_OVERRUN_*) and returns the count to call down with. */
static uint32_t overrun(cb_state *cs, uint32_t action, uint32_t which, uint32_t count, uint32_t stride,
                        VkDeviceSize offset, uint32_t cmd_size, VkDeviceSize size, uint64_t fits)
{
    int skip = safe(cs->dd);
    uint32_t p[7] = {count, stride, saturate32(offset), cmd_size, saturate32(size),
                     which | ((skip ? GPUAVDBG_INDIRECT_SKIPPED : 0) << 8), saturate32(fits)};
    cc_record(cs, action, GPUAVDBG_CODE_INDIRECT_BUFFER_OVERRUN, GPUAVDBG_MODEL_COMMAND, 0, 0, 0, p);
    return skip ? (uint32_t)fits : count;
}

/* add_job hands a job to the pre-pass, with whether the layer may copy
 * its buffers; it returns the word of its commands' checked copy, or 0. */
static uint32_t add_job(cb_state *cs, const pp_job *j)
{
    int copyable = 0, count_copyable = 1;
    cc_buffer(cs, j->buf, &copyable);
    if (j->count_buf)
        gpuavdbg_buffer_info(j->count_buf, &count_copyable);
    return gpuavdbg_prepass_add(cs, j, copyable && count_copyable);
}

/* An indirect draw: its form and the checks that look at its commands. */
typedef struct indirect_draw {
    uint32_t kind;     /* GPUAVDBG_PREPASS_KIND_* */
    uint32_t cmd_size; /* the command structure's size */
    int count_form;
} indirect_draw;

/* indirect_draw_prepare checks an indirect draw's counts on the CPU,
 * clamps them unless on_error is execute (*n: drawCount or maxDrawCount) and adds its
 * pre-pass job. */
static void indirect_draw_prepare(cb_state *cs, uint32_t action, const indirect_draw *f, VkBuffer buffer,
                                  VkDeviceSize offset, uint32_t *n, uint32_t stride, VkBuffer count_buf,
                                  VkDeviceSize count_offset)
{
    device_data *dd = cs->dd;
    uint32_t checks = checks_of(dd);
    int indexed = f->kind == GPUAVDBG_PREPASS_KIND_DRAW_INDEXED;
    if (f->kind != GPUAVDBG_PREPASS_KIND_MESH)
        vertex_table(cs, action, 0);
    if (!(checks & GPUAVDBG_CC_INDIRECT) && !(indexed && (checks & GPUAVDBG_CC_INDEX)))
        return;
    VkDeviceSize size = cc_buffer(cs, buffer, NULL);
    if (!size)
        return;
    uint32_t eff_stride = *n > 1 || f->count_form ? stride : f->cmd_size;
    uint64_t fits = fit(size, offset, eff_stride, f->cmd_size);
    if ((checks & GPUAVDBG_CC_INDIRECT) && *n > fits)
        *n = overrun(cs, action, f->count_form ? GPUAVDBG_OVERRUN_MAX_DRAW_COUNT : GPUAVDBG_OVERRUN_DRAW_COUNT, *n,
                     stride, offset, f->cmd_size, size, fits);
    if (f->count_form && safe(dd) && *n > dd->cc->max_draw_indirect)
        *n = dd->cc->max_draw_indirect; /* the pre-pass reports a count above it */
    uint32_t copied = *n < fits ? *n : (uint32_t)fits;
    /* A plain vkCmdDrawIndirect with drawIndirectFirstInstance has nothing
     * left for the GPU to find. */
    int nothing = f->kind == GPUAVDBG_PREPASS_KIND_DRAW && !f->count_form && dd->cc->first_instance;
    if (!(checks & GPUAVDBG_CC_INDIRECT) && !indexed)
        nothing = 1;
    if (copied == 0 || nothing)
        return;
    cc_cb *c = cc_get(cs);
    pp_job j = {
        .action = action,
        .kind = f->kind | (f->count_form ? GPUAVDBG_PREPASS_FLAG_COUNT : 0) | (safe(dd) ? GPUAVDBG_PREPASS_FLAG_SAFE : 0) |
                ((checks & GPUAVDBG_CC_INDIRECT) ? GPUAVDBG_PREPASS_FLAG_INDIRECT : 0),
        .buf = buffer, .offset = offset, .size = size,
        .n = copied, .stride = eff_stride, .cmd_size = f->cmd_size,
        .count_buf = count_buf, .count_offset = count_offset, .max_draw = *n, .fit = saturate32(fits),
    };
    /* A task shader: the pipeline's, or a task shader object (stage index 5). */
    if (f->kind == GPUAVDBG_PREPASS_KIND_MESH &&
        (cs->bound[0].pipeline ? cs->bound[0].has_task : cs->bound[0].shaders[5] != VK_NULL_HANDLE))
        j.kind |= GPUAVDBG_PREPASS_FLAG_TASK;
    if (indexed && !(checks & GPUAVDBG_CC_INDEX)) {
        j.indices = UINT32_MAX; /* index_buffer_oob is off */
    } else if (indexed && c && c->ib) {
        j.indices = saturate32((c->ib_end > c->ib_offset ? c->ib_end - c->ib_offset : 0) / c->ib_size);
        j.index_size = c->ib_size;
        j.index_offset = c->ib_offset;
        j.index_end = c->ib_end;
    } else if (indexed) {
        j.indices = UINT32_MAX; /* no index buffer the layer knows */
    }
    add_job(cs, &j);
}

void gpuavdbg_cc_draw_indirect(cb_state *cs, uint32_t action, gpuavdbg_cmd cmd, VkBuffer buffer, VkDeviceSize offset,
                               uint32_t *n, uint32_t stride, VkBuffer count_buf, VkDeviceSize count_offset)
{
    indirect_draw f;
    switch (cmd) {
    case GPUAVDBG_CMD_DRAW_INDIRECT: f = (indirect_draw){GPUAVDBG_PREPASS_KIND_DRAW, 16, 0}; break;
    case GPUAVDBG_CMD_DRAW_INDEXED_INDIRECT: f = (indirect_draw){GPUAVDBG_PREPASS_KIND_DRAW_INDEXED, 20, 0}; break;
    case GPUAVDBG_CMD_DRAW_MESH_TASKS_INDIRECT: f = (indirect_draw){GPUAVDBG_PREPASS_KIND_MESH, 12, 0}; break;
    case GPUAVDBG_CMD_DRAW_INDIRECT_COUNT: f = (indirect_draw){GPUAVDBG_PREPASS_KIND_DRAW, 16, 1}; break;
    case GPUAVDBG_CMD_DRAW_INDEXED_INDIRECT_COUNT: f = (indirect_draw){GPUAVDBG_PREPASS_KIND_DRAW_INDEXED, 20, 1}; break;
    case GPUAVDBG_CMD_DRAW_MESH_TASKS_INDIRECT_COUNT: f = (indirect_draw){GPUAVDBG_PREPASS_KIND_MESH, 12, 1}; break;
    default: return;
    }
    indirect_draw_prepare(cs, action, &f, buffer, offset, n, stride, count_buf, count_offset);
}

/* indirect_single adds the pre-pass job of a dispatch or trace rays
 * command (cmd_size bytes at offset of buffer) and runs it; it returns the
 * word offset of the checked copy the action must read, or 0 to read the
 * app's (not checked, or on_error execute). */
static uint32_t indirect_single(cb_state *cs, uint32_t action, uint32_t kind, VkBuffer buffer, VkDeviceSize offset,
                                uint32_t cmd_size)
{
    device_data *dd = cs->dd;
    VkDeviceSize size = cc_buffer(cs, buffer, NULL);
    pp_job j = {.action = action,
                .kind = kind | GPUAVDBG_PREPASS_FLAG_INDIRECT | (safe(dd) ? GPUAVDBG_PREPASS_FLAG_SAFE : 0), .buf = buffer,
                .offset = offset, .size = size, .n = 1, .stride = cmd_size, .cmd_size = cmd_size, .fit = 1};
    uint32_t src = add_job(cs, &j);
    if (!src || !gpuavdbg_prepass_run(cs))
        return 0; /* not checked (said once): the action reads the app's buffer */
    return safe(dd) ? src : 0;
}

int gpuavdbg_cc_dispatch_indirect(cb_state *cs, uint32_t action, VkBuffer *buffer, VkDeviceSize *offset)
{
    device_data *dd = cs->dd;
    uint32_t src = 0;
    if (checks_of(dd) & GPUAVDBG_CC_INDIRECT) {
        VkDeviceSize size = cc_buffer(cs, *buffer, NULL);
        if (size && *offset + 12 > size) {
            overrun(cs, action, GPUAVDBG_OVERRUN_OFFSET, 1, 12, *offset, 12, size, 0);
            if (safe(dd))
                return 1;
        } else if (size) {
            src = indirect_single(cs, action, GPUAVDBG_PREPASS_KIND_DISPATCH, *buffer, *offset, 12);
        }
    }
    if (src) {
        *buffer = gpuavdbg_prepass_buffer(cs, NULL);
        *offset = (VkDeviceSize)src * 4;
    }
    return 0;
}

/* trace_rays_src checks the trace rays command at a device address (the
 * app's buffer is found from it) and returns the address to call down
 * with. */
static VkDeviceAddress trace_rays_src(cb_state *cs, uint32_t action, uint32_t kind, VkDeviceAddress addr,
                                      uint32_t cmd_size)
{
    device_data *dd = cs->dd;
    if (!(checks_of(dd) & GPUAVDBG_CC_INDIRECT))
        return addr;
    VkBuffer buffer;
    uint64_t offset;
    if (!gpuavdbg_addr_lookup(dd, addr, cmd_size, &buffer, &offset)) {
        if (!(__atomic_fetch_or(&dd->cc->told, CC_TOLD_ADDRESS, __ATOMIC_RELAXED) & CC_TOLD_ADDRESS))
            gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                          "indirect_command: the trace rays command at device address 0x%llx is in no buffer whose "
                          "address the app obtained: not checked (said once per device)",
                          (unsigned long long)addr);
        return addr;
    }
    uint32_t src = indirect_single(cs, action, kind, buffer, offset, cmd_size);
    VkDeviceAddress base = 0;
    if (src)
        gpuavdbg_prepass_buffer(cs, &base);
    return src && base ? base + (VkDeviceAddress)src * 4 : addr;
}

VkDeviceAddress gpuavdbg_cc_trace_rays_indirect(cb_state *cs, uint32_t action, gpuavdbg_cmd cmd,
                                                VkDeviceAddress addr)
{
    if (cmd == GPUAVDBG_CMD_TRACE_RAYS_INDIRECT2)
        return trace_rays_src(cs, action, GPUAVDBG_PREPASS_KIND_TRACE_RAYS2, addr,
                              (uint32_t)sizeof(VkTraceRaysIndirectCommand2KHR));
    return trace_rays_src(cs, action, GPUAVDBG_PREPASS_KIND_TRACE_RAYS, addr, 12);
}
