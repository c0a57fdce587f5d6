/*
 * variants.c: the fast and precise variants of a pipeline
 * (docs/decisions/precise-variant.md).
 *
 * An instrumented module with binding facts has two variants (gpuav's
 * precise switch): the precise one (every check as before), whose words Go
 * builds on first need (the app's VkShaderModule holds the original words:
 * gpuavdbg_precise_module), and the fast one, whose facts are taken for
 * granted (no lookups, no precise checks behind them). A compute pipeline
 * whose create info the layer can copy is created with the fast one (a
 * module the layer makes for the call), and the layer keeps a deep copy
 * of its create info and the facts its module takes for granted. Before an action, when the pipeline
 * or the sets bound since the last evaluation changed, the facts are
 * tested against the bound sets (descriptors.c, the floors the submit
 * writes; each command buffer remembers the results per variant and set
 * while nothing they read changes); when one fails the precise variant (the app's create info, its
 * deferred modules replaced by modules of their precise words) is bound down the chain, made on
 * first need.
 * The app's shader module and pipeline layout are kept alive (their
 * destruction deferred) while a pipeline may still need them.
 */
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "descriptors.h"
#include "facts.h"
#include "modules.h"
#include "variants.h"
#include "_cgo_export.h"

/* g_vlock guards every device's held map and the count of precise
 * variants made. */
static pthread_mutex_t g_vlock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t g_precise_made;
static uint64_t g_variant_ids; /* the last variant's id */

struct gpuavdbg_variant {
    pthread_mutex_t lock; /* guards precise and failed */
    int graphics;         /* gci, else ci */
    uint64_t id;          /* unique in the process: names its facts' results (descriptors.c) */
    VkPipeline pipeline;  /* the app's (fast) pipeline, once created */
    gpuavdbg_fact *facts;
    uint32_t nfacts;
    uint32_t fact_sets; /* the set indices the facts read (GPUAVDBG_SET_BIT) */
    uint32_t nact;      /* its action facts: their indices in facts */
    uint32_t act[GPUAVDBG_ACTION_FACTS];
    VkPipeline precise; /* made on first need */
    int failed;         /* making it failed (reported) */
    /* The deep copy: everything the create info points to is owned here. */
    VkComputePipelineCreateInfo ci;
    VkGraphicsPipelineCreateInfo gci;
    void **blocks;
    uint32_t nblocks, cap_blocks;
};

/* ---- held objects: destruction deferred while a variant needs them ---- */

enum { HELD_MODULE, HELD_LAYOUT, HELD_RENDER_PASS };

typedef struct held {
    uint32_t refs;
    int pending; /* the app destroyed it */
    int kind;    /* HELD_* */
    int has_alloc;
    VkAllocationCallbacks alloc;
} held;

/* destroy_now destroys a held object down the chain. A module is
 * forgotten by Go first (it stayed known for its precise words,
 * goShaderDestroyed's held), before the driver may give its handle to a
 * new module. */
static void destroy_now(device_data *dd, uint64_t h, const held *x)
{
    const VkAllocationCallbacks *a = x->has_alloc ? &x->alloc : NULL;
    if (x->kind == HELD_MODULE) {
        goShaderDestroyed(GPUAVDBG_H(dd->device), h, 0);
        dd->disp.DestroyShaderModule(dd->device, (VkShaderModule)(uintptr_t)h, a);
    } else if (x->kind == HELD_LAYOUT)
        dd->disp.DestroyPipelineLayout(dd->device, (VkPipelineLayout)(uintptr_t)h, a);
    else
        dd->disp.DestroyRenderPass(dd->device, (VkRenderPass)(uintptr_t)h, a);
}

/* hold takes a reference to h; 0 when out of memory. */
static int hold(device_data *dd, uint64_t h, int kind)
{
    held *x = hmap_get(&dd->held, h);
    if (!x) {
        x = calloc(1, sizeof *x);
        if (!x || !hmap_put(&dd->held, h, x)) {
            free(x);
            return 0;
        }
        x->kind = kind;
    }
    x->refs++;
    return 1;
}

/* release drops one reference, destroying the object if the app has. */
static void release(device_data *dd, uint64_t h)
{
    held *x = hmap_get(&dd->held, h);
    if (!x || --x->refs > 0)
        return;
    hmap_del(&dd->held, h);
    if (x->pending)
        destroy_now(dd, h, x);
    free(x);
}

int gpuavdbg_variant_defer_destroy(device_data *dd, uint64_t h, const VkAllocationCallbacks *alloc)
{
    pthread_mutex_lock(&g_vlock);
    held *x = h ? hmap_get(&dd->held, h) : NULL;
    if (x) {
        x->pending = 1;
        x->has_alloc = alloc != NULL;
        if (alloc)
            x->alloc = *alloc;
    }
    pthread_mutex_unlock(&g_vlock);
    return x != NULL;
}

/* ---- the deep copy ------------------------------------------------------ */

/* keep returns a copy of n bytes at src that the variant owns; NULL when
 * out of memory (or n is 0). */
static void *keep(gpuavdbg_variant *v, const void *src, size_t n)
{
    if (n == 0)
        return NULL;
    if (v->nblocks == v->cap_blocks) {
        uint32_t cap = v->cap_blocks ? v->cap_blocks * 2 : 16;
        void **b = realloc(v->blocks, cap * sizeof *b);
        if (!b)
            return NULL;
        v->blocks = b;
        v->cap_blocks = cap;
    }
    void *p = malloc(n);
    if (!p)
        return NULL;
    memcpy(p, src, n);
    v->blocks[v->nblocks++] = p;
    return p;
}

/* KEEP(v, dst, src, n) points dst at a kept copy of n elements of src
 * (NULL stays NULL); it returns 0 from the calling function when out of
 * memory. */
#define KEEP(v, dst, src, n)                                                  \
    do {                                                                     \
        if ((src) && (n) && !((dst) = keep((v), (src), (n) * sizeof *(src)))) \
            return 0;                                                        \
        if (!(src) || !(n))                                                  \
            (dst) = NULL;                                                    \
    } while (0)

/* known_size is the size of a pNext structure the copy knows (0: unknown,
 * the pipeline gets no variant): a stage's (gpuavdbg_stage_pnext_size) or
 * creation feedback. *drop says the copy leaves it out: an output, a name
 * for the app's own object, a validation cache of the app's. */
static size_t known_size(VkStructureType t, int *drop)
{
    *drop = t == VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO ||
            t == VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT ||
            t == VK_STRUCTURE_TYPE_SHADER_MODULE_VALIDATION_CACHE_CREATE_INFO_EXT;
    if (t == VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)
        return sizeof(VkPipelineCreationFeedbackCreateInfo);
    return gpuavdbg_stage_pnext_size(t);
}

/* copy_chain copies a pNext chain of known structures into v; 0 when a
 * structure is unknown (or out of memory). */
static int copy_chain(gpuavdbg_variant *v, const void *next, const void **out)
{
    VkBaseOutStructure *head = NULL, *tail = NULL;
    for (const VkBaseInStructure *p = next; p; p = p->pNext) {
        int drop;
        size_t n = known_size(p->sType, &drop);
        if (!n)
            return 0;
        if (drop)
            continue;
        VkBaseOutStructure *c = keep(v, p, n);
        if (!c)
            return 0;
        gpuavdbg_chain_append(&head, &tail, c);
    }
    *out = head;
    return 1;
}

/* copy_stage makes *out a deep copy of the stage in. */
static int copy_stage(gpuavdbg_variant *v, const VkPipelineShaderStageCreateInfo *in, VkPipelineShaderStageCreateInfo *out)
{
    *out = *in;
    if (!in->module || !copy_chain(v, in->pNext, &out->pNext))
        return 0; /* inline code, or a structure the copy does not know */
    const char *name = in->pName ? in->pName : "main";
    if (!(out->pName = keep(v, name, strlen(name) + 1)))
        return 0;
    const VkSpecializationInfo *s = in->pSpecializationInfo;
    if (!s)
        return 1;
    VkSpecializationInfo *c = keep(v, s, sizeof *s);
    if (!c)
        return 0;
    KEEP(v, c->pMapEntries, s->pMapEntries, s->mapEntryCount);
    if (s->dataSize && !(c->pData = keep(v, s->pData, s->dataSize)))
        return 0;
    out->pSpecializationInfo = c;
    return 1;
}

/* Flags the variant leaves out: a derivative's base, and a request to fail
 * rather than compile, are the app's creation's business. */
#define NOT_COPIED_FLAGS                                                                                      \
    (VK_PIPELINE_CREATE_DERIVATIVE_BIT | VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT | \
     VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)

/* copy_compute makes v->ci a deep copy of ci: the precise variant's
 * create info. */
static int copy_compute(gpuavdbg_variant *v, const VkComputePipelineCreateInfo *ci)
{
    v->ci = *ci;
    v->ci.flags &= ~(VkPipelineCreateFlags)NOT_COPIED_FLAGS;
    v->ci.basePipelineHandle = VK_NULL_HANDLE;
    v->ci.basePipelineIndex = -1;
    if (ci->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR)
        return 0;
    return copy_chain(v, ci->pNext, &v->ci.pNext) && copy_stage(v, &ci->stage, &v->ci.stage);
}

/* ---- graphics: a copy that never reads what the create info ignores ---- */

static int has_dynamic(const VkGraphicsPipelineCreateInfo *ci, VkDynamicState d)
{
    const VkPipelineDynamicStateCreateInfo *ds = ci->pDynamicState;
    for (uint32_t i = 0; ds && i < ds->dynamicStateCount; i++)
        if (ds->pDynamicStates[i] == d)
            return 1;
    return 0;
}

static int has_stage(const VkGraphicsPipelineCreateInfo *ci, VkShaderStageFlags stages)
{
    for (uint32_t i = 0; i < ci->stageCount; i++)
        if (ci->pStages[i].stage & stages)
            return 1;
    return 0;
}

/* KEEP_STATE(v, field, ci, use) copies ci->field (a state structure with
 * no pNext) into v->gci when use, else leaves it NULL; it returns 0 from
 * the calling function when the structure has a pNext chain. */
#define KEEP_STATE(v, field, ci, use)                          \
    do {                                                       \
        (v)->gci.field = NULL;                                 \
        if ((use) && (ci)->field) {                            \
            if ((ci)->field->pNext)                            \
                return 0;                                      \
            KEEP((v), (v)->gci.field, (ci)->field, 1);         \
        }                                                      \
    } while (0)

/* raster_pnext_size: the rasterization state's pNext structures the copy
 * knows (no pointers in them), or 0. */
static size_t raster_pnext_size(VkStructureType t)
{
    switch (t) {
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT:
        return sizeof(VkPipelineRasterizationLineStateCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT:
        return sizeof(VkPipelineRasterizationProvokingVertexStateCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT:
        return sizeof(VkPipelineRasterizationDepthClipStateCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_CONSERVATIVE_STATE_CREATE_INFO_EXT:
        return sizeof(VkPipelineRasterizationConservativeStateCreateInfoEXT);
    default:
        return 0;
    }
}

/* copy_raster copies the rasterization state and its known pNext chain. */
static int copy_raster(gpuavdbg_variant *v, const VkPipelineRasterizationStateCreateInfo *rs)
{
    v->gci.pRasterizationState = NULL;
    if (!rs)
        return 1;
    VkPipelineRasterizationStateCreateInfo *c = keep(v, rs, sizeof *rs);
    if (!c)
        return 0;
    VkBaseOutStructure *head = NULL, *tail = NULL;
    for (const VkBaseInStructure *p = rs->pNext; p; p = p->pNext) {
        size_t n = raster_pnext_size(p->sType);
        VkBaseOutStructure *e = n ? keep(v, p, n) : NULL;
        if (!e)
            return 0;
        gpuavdbg_chain_append(&head, &tail, e);
    }
    c->pNext = head;
    v->gci.pRasterizationState = c;
    return 1;
}

/* copy_rendering copies ci's pNext chain (pipeline rendering info, with
 * its formats; robustness; creation feedback left out) and says which
 * attachments the pipeline renders to. */
static int copy_rendering(gpuavdbg_variant *v, const VkGraphicsPipelineCreateInfo *ci, int *color, int *depth)
{
    *color = *depth = 0;
    VkBaseOutStructure *head = NULL, *tail = NULL;
    for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext) {
        if (p->sType == VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)
            continue;
        VkBaseOutStructure *e = NULL;
        if (p->sType == VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO) {
            if (ci->renderPass)
                return 0; /* ignored, so its formats may not be there to read */
            const VkPipelineRenderingCreateInfo *r = (const void *)p;
            VkPipelineRenderingCreateInfo *c = keep(v, r, sizeof *r);
            if (!c)
                return 0;
            KEEP(v, c->pColorAttachmentFormats, r->pColorAttachmentFormats, r->colorAttachmentCount);
            *color = r->colorAttachmentCount > 0;
            *depth = r->depthAttachmentFormat != VK_FORMAT_UNDEFINED || r->stencilAttachmentFormat != VK_FORMAT_UNDEFINED;
            e = (VkBaseOutStructure *)c;
        } else if (p->sType == VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT) {
            e = keep(v, p, sizeof(VkPipelineRobustnessCreateInfoEXT));
        }
        if (!e)
            return 0;
        gpuavdbg_chain_append(&head, &tail, e);
    }
    v->gci.pNext = head;
    return 1;
}

/* copy_viewport copies the viewport state, its arrays unless dynamic. */
static int copy_viewport(gpuavdbg_variant *v, const VkGraphicsPipelineCreateInfo *ci)
{
    const VkPipelineViewportStateCreateInfo *vp = ci->pViewportState;
    v->gci.pViewportState = NULL;
    if (!vp)
        return 1;
    if (vp->pNext)
        return 0;
    VkPipelineViewportStateCreateInfo *c = keep(v, vp, sizeof *vp);
    if (!c)
        return 0;
    int dv = has_dynamic(ci, VK_DYNAMIC_STATE_VIEWPORT) || has_dynamic(ci, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
    int ds = has_dynamic(ci, VK_DYNAMIC_STATE_SCISSOR) || has_dynamic(ci, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
    KEEP(v, c->pViewports, dv ? NULL : vp->pViewports, vp->viewportCount);
    KEEP(v, c->pScissors, ds ? NULL : vp->pScissors, vp->scissorCount);
    v->gci.pViewportState = c;
    return 1;
}

/* copy_output copies the multisample, depth-stencil and colour-blend
 * states, each only where the pipeline uses it. */
static int copy_output(gpuavdbg_variant *v, const VkGraphicsPipelineCreateInfo *ci, int discard, int color, int depth)
{
    const VkPipelineMultisampleStateCreateInfo *ms = ci->pMultisampleState;
    KEEP_STATE(v, pMultisampleState, ci, !discard);
    if (v->gci.pMultisampleState && ms->pSampleMask && !has_dynamic(ci, VK_DYNAMIC_STATE_SAMPLE_MASK_EXT)) {
        if (has_dynamic(ci, VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT))
            return 0;
        VkPipelineMultisampleStateCreateInfo *c = (VkPipelineMultisampleStateCreateInfo *)v->gci.pMultisampleState;
        KEEP(v, c->pSampleMask, ms->pSampleMask, ((uint32_t)ms->rasterizationSamples + 31) / 32);
    }
    KEEP_STATE(v, pDepthStencilState, ci, !discard && depth);
    const VkPipelineColorBlendStateCreateInfo *cb = ci->pColorBlendState;
    KEEP_STATE(v, pColorBlendState, ci, !discard && color);
    if (v->gci.pColorBlendState) {
        if (has_dynamic(ci, VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT) ||
            has_dynamic(ci, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT) ||
            has_dynamic(ci, VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT) ||
            has_dynamic(ci, VK_DYNAMIC_STATE_COLOR_BLEND_ADVANCED_EXT))
            return 0; /* which of pAttachments is read depends on them */
        VkPipelineColorBlendStateCreateInfo *c = (VkPipelineColorBlendStateCreateInfo *)v->gci.pColorBlendState;
        KEEP(v, c->pAttachments, cb->pAttachments, cb->attachmentCount);
    }
    return 1;
}

/* Render passes: what each subpass renders to, for the copy (a pipeline's
 * depth-stencil and colour-blend states are ignored, and may be invalid
 * pointers, where its subpass has no such attachments). */
enum { USES_COLOR = 1, USES_DEPTH = 2, USES_UNCLEAR = 4 };

typedef struct rp_info {
    uint32_t n;
    uint8_t use[]; /* per subpass: USES_* */
} rp_info;

static uint8_t uses(uint32_t ncolor, int any_color, int depth)
{
    return (uint8_t)((any_color ? USES_COLOR : ncolor ? USES_UNCLEAR : 0) | (depth ? USES_DEPTH : 0));
}

/* RP_INFO returns a new rp_info of a VkRenderPassCreateInfo or ...2 (the
 * same field names), or NULL when out of memory. */
#define RP_INFO(ci)                                                                                      \
    ({                                                                                                  \
        rp_info *i_ = malloc(sizeof *i_ + (ci)->subpassCount);                                          \
        for (uint32_t s_ = 0; i_ && s_ < (ci)->subpassCount; s_++) {                                    \
            int any_ = 0;                                                                               \
            for (uint32_t a_ = 0; a_ < (ci)->pSubpasses[s_].colorAttachmentCount; a_++)                 \
                any_ |= (ci)->pSubpasses[s_].pColorAttachments[a_].attachment != VK_ATTACHMENT_UNUSED;  \
            i_->use[s_] = uses((ci)->pSubpasses[s_].colorAttachmentCount, any_,                         \
                               (ci)->pSubpasses[s_].pDepthStencilAttachment &&                          \
                                   (ci)->pSubpasses[s_].pDepthStencilAttachment->attachment !=          \
                                       VK_ATTACHMENT_UNUSED);                                           \
        }                                                                                               \
        if (i_)                                                                                         \
            i_->n = (ci)->subpassCount;                                                                 \
        i_;                                                                                             \
    })

/* rp_created remembers a new render pass's info (NULL: untracked, its
 * pipelines are created precise). */
static void rp_created(device_data *dd, VkRenderPass rp, rp_info *info)
{
    pthread_mutex_lock(&g_vlock);
    if (!info || !hmap_put(&dd->render_passes, GPUAVDBG_H(rp), info))
        free(info);
    pthread_mutex_unlock(&g_vlock);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateRenderPass(VkDevice device, const VkRenderPassCreateInfo *ci,
                                                         const VkAllocationCallbacks *alloc, VkRenderPass *rp)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.CreateRenderPass(device, ci, alloc, rp);
    if (r == VK_SUCCESS)
        rp_created(dd, *rp, RP_INFO(ci));
    return r;
}

static VkResult create_render_pass2(PFN_vkCreateRenderPass2 fn, device_data *dd, VkDevice device,
                                    const VkRenderPassCreateInfo2 *ci, const VkAllocationCallbacks *alloc,
                                    VkRenderPass *rp)
{
    VkResult r = fn(device, ci, alloc, rp);
    if (r == VK_SUCCESS)
        rp_created(dd, *rp, RP_INFO(ci));
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateRenderPass2(VkDevice device, const VkRenderPassCreateInfo2 *ci,
                                                          const VkAllocationCallbacks *alloc, VkRenderPass *rp)
{
    device_data *dd = gpuavdbg_device_get(device);
    return dd ? create_render_pass2(dd->disp.CreateRenderPass2, dd, device, ci, alloc, rp)
              : VK_ERROR_INITIALIZATION_FAILED;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateRenderPass2KHR(VkDevice device, const VkRenderPassCreateInfo2 *ci,
                                                             const VkAllocationCallbacks *alloc, VkRenderPass *rp)
{
    device_data *dd = gpuavdbg_device_get(device);
    return dd ? create_render_pass2(dd->disp.CreateRenderPass2KHR, dd, device, ci, alloc, rp)
              : VK_ERROR_INITIALIZATION_FAILED;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyRenderPass(VkDevice device, VkRenderPass rp,
                                                      const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    if (rp) {
        pthread_mutex_lock(&g_vlock);
        free(hmap_del(&dd->render_passes, GPUAVDBG_H(rp)));
        pthread_mutex_unlock(&g_vlock);
    }
    if (!gpuavdbg_variant_defer_destroy(dd, GPUAVDBG_H(rp), alloc))
        dd->disp.DestroyRenderPass(device, rp, alloc);
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CreateRenderPass),
    GPUAVDBG_ICPT(CreateRenderPass2),
    GPUAVDBG_ICPT(CreateRenderPass2KHR),
    GPUAVDBG_ICPT(DestroyRenderPass),
};

PFN_vkVoidFunction gpuavdbg_variant_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}

/* subpass_uses says what ci's subpass renders to; 0 when the layer does
 * not know (a render pass it did not see made, a subpass whose colour
 * attachments are all unused). */
static int subpass_uses(device_data *dd, const VkGraphicsPipelineCreateInfo *ci, int *color, int *depth)
{
    pthread_mutex_lock(&g_vlock);
    const rp_info *info = hmap_get(&dd->render_passes, GPUAVDBG_H(ci->renderPass));
    uint8_t u = info && ci->subpass < info->n ? info->use[ci->subpass] : USES_UNCLEAR;
    pthread_mutex_unlock(&g_vlock);
    *color = (u & USES_COLOR) != 0;
    *depth = (u & USES_DEPTH) != 0;
    return !(u & USES_UNCLEAR);
}

/* copy_graphics makes v->gci a deep copy of a graphics pipeline's create
 * info, reading no structure the create info lets the app leave invalid;
 * 0 for anything else (libraries, a render pass the layer did not see
 * made or whose subpass it cannot tell, a structure it does not know). */
static int copy_graphics(device_data *dd, gpuavdbg_variant *v, const VkGraphicsPipelineCreateInfo *ci)
{
    v->gci = *ci;
    v->gci.flags &= ~(VkPipelineCreateFlags)NOT_COPIED_FLAGS;
    v->gci.basePipelineHandle = VK_NULL_HANDLE;
    v->gci.basePipelineIndex = -1;
    if ((ci->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) || !ci->pRasterizationState || !ci->stageCount)
        return 0;
    int color, depth;
    if (!copy_rendering(v, ci, &color, &depth) || (ci->renderPass && !subpass_uses(dd, ci, &color, &depth)))
        return 0;
    VkPipelineShaderStageCreateInfo *st = keep(v, ci->pStages, ci->stageCount * sizeof *st);
    if (!st)
        return 0;
    for (uint32_t i = 0; i < ci->stageCount; i++)
        if (!copy_stage(v, &ci->pStages[i], &st[i]))
            return 0;
    v->gci.pStages = st;
    int mesh = has_stage(ci, VK_SHADER_STAGE_MESH_BIT_EXT | VK_SHADER_STAGE_TASK_BIT_EXT);
    int discard = ci->pRasterizationState->rasterizerDiscardEnable &&
                  !has_dynamic(ci, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE);
    const VkPipelineVertexInputStateCreateInfo *vi = ci->pVertexInputState;
    KEEP_STATE(v, pVertexInputState, ci, !mesh && !has_dynamic(ci, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT));
    if (v->gci.pVertexInputState) {
        VkPipelineVertexInputStateCreateInfo *c = (VkPipelineVertexInputStateCreateInfo *)v->gci.pVertexInputState;
        KEEP(v, c->pVertexBindingDescriptions, vi->pVertexBindingDescriptions, vi->vertexBindingDescriptionCount);
        KEEP(v, c->pVertexAttributeDescriptions, vi->pVertexAttributeDescriptions, vi->vertexAttributeDescriptionCount);
    }
    KEEP_STATE(v, pInputAssemblyState, ci, !mesh);
    KEEP_STATE(v, pTessellationState, ci,
               has_stage(ci, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT));
    if (!copy_raster(v, ci->pRasterizationState) || (!discard && !copy_viewport(v, ci)))
        return 0;
    if (discard)
        v->gci.pViewportState = NULL;
    if (!copy_output(v, ci, discard, color, depth))
        return 0;
    const VkPipelineDynamicStateCreateInfo *dy = ci->pDynamicState;
    KEEP_STATE(v, pDynamicState, ci, 1);
    if (v->gci.pDynamicState) {
        VkPipelineDynamicStateCreateInfo *c = (VkPipelineDynamicStateCreateInfo *)v->gci.pDynamicState;
        KEEP(v, c->pDynamicStates, dy->pDynamicStates, dy->dynamicStateCount);
    }
    return 1;
}

static void variant_free_copy(gpuavdbg_variant *v)
{
    for (uint32_t i = 0; i < v->nblocks; i++)
        free(v->blocks[i]);
    free(v->blocks);
    free(v->facts);
    pthread_mutex_destroy(&v->lock);
    free(v);
}

/* stages returns v's copied stages and their count. */
static const VkPipelineShaderStageCreateInfo *stages(const gpuavdbg_variant *v, uint32_t *n)
{
    *n = v->graphics ? v->gci.stageCount : 1;
    return v->graphics ? v->gci.pStages : &v->ci.stage;
}

static VkPipelineLayout layout_of(const gpuavdbg_variant *v)
{
    return v->graphics ? v->gci.layout : v->ci.layout;
}

/* release_all lets go of v's modules and layout (g_vlock held); held
 * says how many of them (stages first, then the layout) were taken. */
static void release_all(device_data *dd, const gpuavdbg_variant *v, uint32_t held_n)
{
    uint32_t n;
    const VkPipelineShaderStageCreateInfo *st = stages(v, &n);
    for (uint32_t i = 0; i < n && i < held_n; i++)
        release(dd, GPUAVDBG_H(st[i].module));
    if (held_n > n)
        release(dd, GPUAVDBG_H(layout_of(v)));
    if (held_n > n + 1 && v->graphics && v->gci.renderPass)
        release(dd, GPUAVDBG_H(v->gci.renderPass));
}

/* hold_all holds v's modules and layout; 0 (nothing held) when out of
 * memory. */
static int hold_all(device_data *dd, const gpuavdbg_variant *v)
{
    uint32_t n, i = 0;
    const VkPipelineShaderStageCreateInfo *st = stages(v, &n);
    pthread_mutex_lock(&g_vlock);
    while (i < n && hold(dd, GPUAVDBG_H(st[i].module), HELD_MODULE))
        i++;
    if (i == n && hold(dd, GPUAVDBG_H(layout_of(v)), HELD_LAYOUT))
        i++;
    VkRenderPass rp = v->graphics ? v->gci.renderPass : VK_NULL_HANDLE;
    int ok = i == n + 1 && (!rp || hold(dd, GPUAVDBG_H(rp), HELD_RENDER_PASS));
    if (!ok)
        release_all(dd, v, i);
    pthread_mutex_unlock(&g_vlock);
    return ok;
}

static int is_action_fact(const gpuavdbg_fact *f)
{
    return f->kind == GPUAVDBG_FACT_BUFFER_ACTION || f->kind == GPUAVDBG_FACT_INDEX_ACTION;
}

/* fast_module adds the facts of module's fast variant to v's and makes a
 * module of its words in *fast; 1 when made, 0 when the module has no fast
 * variant, -1 when making it failed. */
static int fast_module(device_data *dd, gpuavdbg_variant *v, VkShaderModule module, VkShaderModule *fast)
{
    *fast = VK_NULL_HANDLE;
    uint32_t n = 0;
    size_t nwords = 0;
    gpuavdbg_fact *facts = NULL;
    uint32_t *words = NULL;
    if (!goModuleFacts(GPUAVDBG_H(dd->device), GPUAVDBG_H(module), &facts, &n, &words, &nwords))
        return 0;
    VkShaderModuleCreateInfo mci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = nwords * 4, .pCode = words};
    uint32_t nact = v->nact;
    for (uint32_t i = 0; i < n; i++)
        nact += is_action_fact(&facts[i]);
    /* More action facts than a command buffer keeps floors for: the
     * pipeline stays precise. */
    gpuavdbg_fact *all = nact <= GPUAVDBG_ACTION_FACTS ? realloc(v->facts, (v->nfacts + n) * sizeof *all) : NULL;
    int ok = all && dd->disp.CreateShaderModule(dd->device, &mci, NULL, fast) == VK_SUCCESS;
    if (all) {
        v->facts = all;
        if (ok) {
            memcpy(all + v->nfacts, facts, n * sizeof *all);
            for (uint32_t i = 0; i < n; i++) {
                v->fact_sets |= GPUAVDBG_SET_BIT(facts[i].set);
                if (is_action_fact(&facts[i]))
                    v->act[v->nact++] = v->nfacts + i;
            }
            v->nfacts += n;
        }
    }
    free(facts);
    free(words);
    if (!ok)
        *fast = VK_NULL_HANDLE;
    return ok ? 1 : -1;
}

/* finish makes the fast stages (fast[i] a module made for stage i, or the
 * app's) and holds what the precise variant needs; NULL (all undone) when
 * no stage has a fast variant or anything fails: the pipeline is then
 * created as given, precise. */
static gpuavdbg_variant *finish(device_data *dd, gpuavdbg_variant *v, int copied, VkShaderModule *fast)
{
    uint32_t n, made = 0;
    const VkPipelineShaderStageCreateInfo *st = stages(v, &n);
    int ok = copied;
    for (uint32_t i = 0; i < n; i++)
        fast[i] = VK_NULL_HANDLE;
    for (uint32_t i = 0; ok && i < n; i++) {
        int r = fast_module(dd, v, st[i].module, &fast[i]);
        made += r == 1;
        ok = r >= 0;
    }
    if (ok && made && hold_all(dd, v))
        return v;
    for (uint32_t i = 0; i < n; i++)
        if (fast[i])
            dd->disp.DestroyShaderModule(dd->device, fast[i], NULL), fast[i] = VK_NULL_HANDLE;
    variant_free_copy(v);
    return NULL;
}

static gpuavdbg_variant *new_variant(int graphics)
{
    gpuavdbg_variant *v = calloc(1, sizeof *v);
    if (v) {
        pthread_mutex_init(&v->lock, NULL);
        v->graphics = graphics;
        v->id = __atomic_add_fetch(&g_variant_ids, 1, __ATOMIC_RELAXED);
    }
    return v;
}

gpuavdbg_variant *gpuavdbg_variant_compute(device_data *dd, const VkComputePipelineCreateInfo *ci,
                                           VkShaderModule *fast)
{
    *fast = VK_NULL_HANDLE;
    gpuavdbg_variant *v = ci->stage.module && ci->layout ? new_variant(0) : NULL;
    return v ? finish(dd, v, copy_compute(v, ci), fast) : NULL;
}

gpuavdbg_variant *gpuavdbg_variant_graphics(device_data *dd, const VkGraphicsPipelineCreateInfo *ci,
                                            VkShaderModule *fast)
{
    for (uint32_t i = 0; i < ci->stageCount; i++)
        fast[i] = VK_NULL_HANDLE;
    gpuavdbg_variant *v = ci->layout && ci->stageCount ? new_variant(1) : NULL;
    return v ? finish(dd, v, copy_graphics(dd, v, ci), fast) : NULL;
}

void gpuavdbg_variant_created(gpuavdbg_variant *v, VkPipeline p)
{
    v->pipeline = p;
}

void gpuavdbg_variant_free(device_data *dd, gpuavdbg_variant *v)
{
    if (!v)
        return;
    if (v->precise)
        dd->disp.DestroyPipeline(dd->device, v->precise, NULL);
    pthread_mutex_lock(&g_vlock);
    release_all(dd, v, UINT32_MAX);
    pthread_mutex_unlock(&g_vlock);
    variant_free_copy(v);
}

void gpuavdbg_variant_teardown(device_data *dd)
{
    /* Objects the app destroyed while a pipeline it never destroyed still
     * held them: destroyed with the device. */
    pthread_mutex_lock(&g_vlock);
    for (size_t i = 0; i < dd->held.cap; i++) {
        held *x = dd->held.slots[i].val;
        uint64_t h = dd->held.slots[i].key;
        if (!h || !x)
            continue;
        if (x->pending)
            destroy_now(dd, h, x);
        free(x);
    }
    hmap_free(&dd->held);
    for (size_t i = 0; i < dd->render_passes.cap; i++)
        free(dd->render_passes.slots[i].val);
    hmap_free(&dd->render_passes);
    pthread_mutex_unlock(&g_vlock);
}

/* create_precise creates v's precise variant from its copied create info,
 * each deferred module (gpuavdbg_precise_module) replaced by a module of
 * its precise words for the call. */
static VkResult create_precise(device_data *dd, gpuavdbg_variant *v, VkPipeline *p)
{
    uint32_t n;
    const VkPipelineShaderStageCreateInfo *st = stages(v, &n);
    VkPipelineShaderStageCreateInfo *copy = malloc(n * sizeof *copy);
    VkShaderModule *mods = calloc(n, sizeof *mods);
    VkResult r = VK_ERROR_OUT_OF_HOST_MEMORY;
    if (copy && mods) {
        memcpy(copy, st, n * sizeof *copy);
        for (uint32_t i = 0; i < n; i++)
            if ((mods[i] = gpuavdbg_precise_module(dd, st[i].module)))
                copy[i].module = mods[i];
        if (v->graphics) {
            VkGraphicsPipelineCreateInfo g = v->gci;
            g.pStages = copy;
            r = dd->disp.CreateGraphicsPipelines(dd->device, VK_NULL_HANDLE, 1, &g, NULL, p);
        } else {
            VkComputePipelineCreateInfo c = v->ci;
            c.stage = copy[0];
            r = dd->disp.CreateComputePipelines(dd->device, VK_NULL_HANDLE, 1, &c, NULL, p);
        }
        for (uint32_t i = 0; i < n; i++)
            if (mods[i])
                dd->disp.DestroyShaderModule(dd->device, mods[i], NULL);
    }
    free(copy);
    free(mods);
    return r;
}

/* precise returns the precise variant, made on first need, or
 * VK_NULL_HANDLE when it cannot be made (reported once). f is the fact
 * that failed, floor its binding's floor and need what the fact needed
 * (an action fact's bound at the action; UINT64_MAX: not known there). */
static VkPipeline precise(device_data *dd, gpuavdbg_variant *v, const gpuavdbg_fact *f, uint32_t floor, uint64_t need)
{
    pthread_mutex_lock(&v->lock);
    VkPipeline p = v->precise;
    int make = !p && !v->failed;
    VkResult r = VK_SUCCESS;
    if (make) {
        r = create_precise(dd, v, &p);
        if (r == VK_SUCCESS)
            v->precise = p;
        else
            v->failed = 1, p = VK_NULL_HANDLE;
    }
    pthread_mutex_unlock(&v->lock);
    pthread_mutex_lock(&g_vlock);
    uint64_t made = make && r == VK_SUCCESS ? ++g_precise_made : g_precise_made;
    pthread_mutex_unlock(&g_vlock);
    const char *kind = v->graphics ? "graphics" : "compute";
    unsigned long long h = (unsigned long long)GPUAVDBG_H(v->pipeline);
    if (make && r == VK_SUCCESS && !is_action_fact(f))
        gpuavdbg_logf(GPUAVDBG_LOG_INFO,
                      "%s pipeline 0x%llx: set %u binding %u has a floor of %u where its shaders' bounded "
                      "accesses need %u (and %u elements): its precise variant was created (precise variants "
                      "created: %llu)",
                      kind, h, f->set, f->binding, floor, f->bound, f->length, (unsigned long long)made);
    else if (make && r == VK_SUCCESS && need == UINT64_MAX)
        gpuavdbg_logf(GPUAVDBG_LOG_INFO,
                      "%s pipeline 0x%llx: set %u binding %u: its shaders' accesses bounded by the action's grid "
                      "or push constants are not decided for this action (the grid of an indirect dispatch or a "
                      "draw, a word never pushed, or a bound of 2^31 or more): its precise variant was created "
                      "(precise variants created: %llu)",
                      kind, h, f->set, f->binding, (unsigned long long)made);
    else if (make && r == VK_SUCCESS && f->kind == GPUAVDBG_FACT_INDEX_ACTION)
        gpuavdbg_logf(GPUAVDBG_LOG_INFO,
                      "%s pipeline 0x%llx: set %u binding %u: its shaders' descriptor index reaches %llu of %u "
                      "elements at this action: its precise variant was created (precise variants created: %llu)",
                      kind, h, f->set, f->binding, (unsigned long long)need, f->length, (unsigned long long)made);
    else if (make && r == VK_SUCCESS)
        gpuavdbg_logf(GPUAVDBG_LOG_INFO,
                      "%s pipeline 0x%llx: set %u binding %u has a floor of %u where its shaders' accesses need "
                      "%llu at this action: its precise variant was created (precise variants created: %llu)",
                      kind, h, f->set, f->binding, floor, (unsigned long long)need, (unsigned long long)made);
    else if (make)
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                      "%s pipeline 0x%llx: creating its precise variant failed (VkResult %d): the bounded "
                      "accesses of its actions whose facts fail run unchecked",
                      kind, h, (int)r);
    return p;
}

uint32_t gpuavdbg_variant_fact_sets(const gpuavdbg_variant *v)
{
    return v ? v->fact_sets : 0;
}

int gpuavdbg_variant_has_action_facts(const gpuavdbg_variant *v)
{
    return v && v->nact;
}

/* act_test tests v's action facts at the action's parameters
 * (facts.h), unless the same grid and pushes were tested last. */
static void act_test(bound_pipeline *b, const gpuavdbg_variant *v, const cb_state *cs)
{
    const gpuavdbg_action_params *ap = &cs->act;
    if (b->act_valid && b->act_pc_gen == cs->pc_gen && !memcmp(&b->act_params, ap, sizeof *ap))
        return;
    b->act_valid = 1;
    b->act_params = *ap;
    b->act_pc_gen = cs->pc_gen;
    b->act_failed =
        gpuavdbg_action_facts_fail(v->facts, v->act, v->nact, b->act_floor, ap, cs->pc, cs->pc_known, &b->act_need);
}

void gpuavdbg_variant_choose(cb_state *cs, VkPipelineBindPoint bp, int bi)
{
    bound_pipeline *b = &cs->bound[bi];
    gpuavdbg_variant *v = b->var;
    if (!v)
        return;
    if (b->facts_dirty & b->fact_sets) {
        b->facts_dirty = 0;
        b->act_valid = 0;
        b->sets_ok = !v->nfacts || gpuavdbg_desc_facts_hold(cs, bi, v->id, v->facts, v->nfacts, &b->sets_failed,
                                                            &b->sets_floor, b->act_floor);
    }
    const gpuavdbg_fact *f = NULL;
    uint32_t floor = 0;
    uint64_t need = 0;
    if (!b->sets_ok) {
        f = &v->facts[b->sets_failed];
        floor = b->sets_floor;
    } else if (v->nact) {
        act_test(b, v, cs);
        if (b->act_failed >= 0) {
            f = &v->facts[v->act[b->act_failed]];
            floor = b->act_floor[b->act_failed];
            need = b->act_need;
        }
    }
    VkPipeline want = (VkPipeline)(uintptr_t)b->pipeline;
    if (f) {
        VkPipeline p = precise(cs->dd, v, f, floor, need);
        if (p)
            want = p;
    }
    if (GPUAVDBG_H(want) != b->down) {
        cs->dd->disp.CmdBindPipeline(cs->cb, bp, want);
        b->down = GPUAVDBG_H(want);
    }
}
