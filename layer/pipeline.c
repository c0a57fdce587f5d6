/*
 * pipeline.c: shader modules, pipeline layouts and pipelines
 * (docs/decisions/reserve-slot.md, docs/decisions/layout-conflicts.md).
 * Shader modules are instrumented by Go at creation; a module with a fast
 * variant is deferred: the driver's module holds its original words, and
 * each pipeline with a padded layout gets a module of the fast variant's
 * words (variants.c) or of the precise variant's, which Go builds on
 * first need (precise_stages; docs/decisions/precise-variant-on-first-need.md).
 * Pipeline layouts get
 * the layer's descriptor set at the slot, padded with empty set layouts;
 * a layout that already uses the slot is left alone, and pipelines made
 * with it get uninstrumented copies of their modules, made here from the
 * original SPIR-V that Go kept. Every pipeline is remembered with its
 * layout and whether its actions need the layer's set bound. A pipeline
 * the driver refuses with instrumented stages is made again from the
 * app's (create_with_fallback; docs/decisions/refused-pipelines.md).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "cache.h"
#include "cmdchecks.h"
#include "descriptors.h"
#include "modules.h"
#include "pipeline.h"
#include "prepass.h"
#include "variants.h"
#include "_cgo_export.h"

/* ---- shader modules ---------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo *ci,
                                                           const VkAllocationCallbacks *alloc,
                                                           VkShaderModule *pModule)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (!ci->pCode || ci->codeSize == 0 || ci->codeSize % 4 != 0) {
        /* Not SPIR-V words: the driver reports it, and the session has the
         * module with the reason it went unchecked. */
        VkResult r = dd->disp.CreateShaderModule(device, ci, alloc, pModule);
        goShaderUnchecked(GPUAVDBG_H(device), (uint8_t *)ci->pCode, ci->pCode ? ci->codeSize : 0, ci->codeSize,
                          r == VK_SUCCESS ? GPUAVDBG_H(*pModule) : 0, (int32_t)r);
        return r;
    }

    uint32_t *words = NULL;
    size_t nwords = 0;
    int deferred = 0;
    /* Go copies the original, instruments it and returns C-malloc'd words,
     * or NULL to pass the original through; deferred: a module with a fast
     * variant, whose pipelines get the precise or the fast variant's words
     * in a module of their own (precise_stages, variants.c), the driver's
     * module holding the original. */
    uint32_t id = goInstrumentShader(GPUAVDBG_H(device), gpuavdbg_instrumenting(dd), dd->slot, (uint32_t *)ci->pCode,
                                     ci->codeSize / 4, 1, &words, &nwords, &deferred);
    VkResult r;
    int instrumented = 0;
    char *note = NULL;
    if (deferred) {
        r = dd->disp.CreateShaderModule(device, ci, alloc, pModule);
        instrumented = r == VK_SUCCESS;
    } else if (words && nwords > 0) {
        VkShaderModuleCreateInfo c = *ci;
        c.pCode = words;
        c.codeSize = nwords * 4;
        r = dd->disp.CreateShaderModule(device, &c, alloc, pModule);
        instrumented = r == VK_SUCCESS;
        if (r != VK_SUCCESS && r != VK_ERROR_DEVICE_LOST) {
            /* The app gets its module, uninstrumented
             * (docs/decisions/never-take-the-app-down.md). */
            note = "the driver rejected the instrumented module; the original runs uninstrumented";
            r = dd->disp.CreateShaderModule(device, ci, alloc, pModule);
        }
    } else {
        r = dd->disp.CreateShaderModule(device, ci, alloc, pModule);
    }
    free(words);
    goShaderCreated(GPUAVDBG_H(device), id, r == VK_SUCCESS ? GPUAVDBG_H(*pModule) : 0, (int32_t)r, instrumented,
                    note ? note : "");
    return r;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyShaderModule(VkDevice device, VkShaderModule module,
                                                        const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    /* A pipeline that may still make its precise variant keeps it. */
    int held = gpuavdbg_variant_defer_destroy(dd, GPUAVDBG_H(module), alloc);
    if (!held)
        dd->disp.DestroyShaderModule(device, module, alloc);
    if (module)
        goShaderDestroyed(GPUAVDBG_H(device), GPUAVDBG_H(module), held);
}

/* ---- pipeline layouts -------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreatePipelineLayout(VkDevice device, const VkPipelineLayoutCreateInfo *ci,
                                                             const VkAllocationCallbacks *alloc,
                                                             VkPipelineLayout *pLayout)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (!dd->set_layout)
        return dd->disp.CreatePipelineLayout(device, ci, alloc, pLayout);

    /* A layout of descriptor-buffer set layouts takes only such layouts:
     * the layer's set is then pushed (resources.c). */
    int db = 0, push = 0;
    for (uint32_t i = 0; i < ci->setLayoutCount; i++) {
        uint32_t kind = gpuavdbg_desc_layout_kind(ci->pSetLayouts[i]);
        db |= (kind & GPUAVDBG_DSL_DB) != 0;
        push |= (kind & GPUAVDBG_DSL_PUSH) != 0;
    }
    VkResult r;
    int state = GPUAVDBG_LAYOUT_CONFLICT;
    const char *unserved = !db ? NULL
                           : !dd->set_layout_db
                               ? dd->db_reason
                               : push ? "it has a push-descriptor set, and the layer needs the one a layout may have"
                                      : NULL;
    if (unserved) {
        state = GPUAVDBG_LAYOUT_DB_UNSUPPORTED;
        r = dd->disp.CreatePipelineLayout(device, ci, alloc, pLayout);
        if (r == VK_SUCCESS)
            gpuavdbg_logf(GPUAVDBG_LOG_ERROR,
                          "pipeline layout 0x%llx uses descriptor buffers, which the layer cannot serve there (%s): "
                          "pipelines created with it run unchecked",
                          (unsigned long long)GPUAVDBG_H(*pLayout), unserved);
    } else if (ci->setLayoutCount <= dd->slot) {
        VkDescriptorSetLayout sets[GPUAVDBG_MAX_SLOT + 1];
        for (uint32_t i = 0; i < ci->setLayoutCount; i++)
            sets[i] = ci->pSetLayouts[i];
        for (uint32_t i = ci->setLayoutCount; i < dd->slot; i++)
            sets[i] = db ? dd->empty_layout_db : dd->empty_layout;
        sets[dd->slot] = db ? dd->set_layout_db : dd->set_layout;
        VkPipelineLayoutCreateInfo c = *ci;
        c.setLayoutCount = dd->slot + 1;
        c.pSetLayouts = sets;
        r = dd->disp.CreatePipelineLayout(device, &c, alloc, pLayout);
        if (r == VK_SUCCESS) {
            state = db ? GPUAVDBG_LAYOUT_PADDED_PUSH : GPUAVDBG_LAYOUT_PADDED;
        } else {
            /* E.g. the app's sets plus ours exceed a per-layout limit. */
            r = dd->disp.CreatePipelineLayout(device, ci, alloc, pLayout);
            if (r == VK_SUCCESS)
                gpuavdbg_logf(GPUAVDBG_LOG_ERROR,
                              "pipeline layout 0x%llx: adding the layer's descriptor set failed; pipelines "
                              "created with it run uninstrumented shaders",
                              (unsigned long long)GPUAVDBG_H(*pLayout));
        }
    } else {
        r = dd->disp.CreatePipelineLayout(device, ci, alloc, pLayout);
        if (r == VK_SUCCESS)
            gpuavdbg_logf(GPUAVDBG_LOG_ERROR,
                          "pipeline layout 0x%llx uses %u descriptor sets, including set %u that the layer needs: "
                          "pipelines created with it run uninstrumented shaders. Use fewer sets, or turn on "
                          "reserve-slot (VK_LAYER_GPUAV_DBG_RESERVE_SLOT=1) so the app sees maxBoundDescriptorSets - 1",
                          (unsigned long long)GPUAVDBG_H(*pLayout), ci->setLayoutCount, dd->slot);
    }
    if (r == VK_SUCCESS) {
        pthread_mutex_lock(&dd->lock);
        hmap_put(&dd->layouts, GPUAVDBG_H(*pLayout), (void *)(uintptr_t)state);
        pthread_mutex_unlock(&dd->lock);
        gpuavdbg_desc_pipeline_layout_created(*pLayout, ci); /* push set layouts (descriptors.c) */
    }
    return r;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyPipelineLayout(VkDevice device, VkPipelineLayout layout,
                                                          const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    if (layout) {
        pthread_mutex_lock(&dd->lock);
        hmap_del(&dd->layouts, GPUAVDBG_H(layout));
        pthread_mutex_unlock(&dd->lock);
        gpuavdbg_desc_pipeline_layout_destroyed(layout);
        gpuavdbg_prepass_layout_destroyed(dd, layout);
    }
    if (!gpuavdbg_variant_defer_destroy(dd, GPUAVDBG_H(layout), alloc))
        dd->disp.DestroyPipelineLayout(device, layout, alloc);
}

static int layout_state(device_data *dd, VkPipelineLayout layout)
{
    pthread_mutex_lock(&dd->lock);
    int state = (int)(uintptr_t)hmap_get(&dd->layouts, GPUAVDBG_H(layout));
    pthread_mutex_unlock(&dd->lock);
    return state;
}

/* padded reports whether a layout has the layer's set (bound or pushed). */
static int padded(device_data *dd, VkPipelineLayout layout)
{
    int state = layout_state(dd, layout);
    return state == GPUAVDBG_LAYOUT_PADDED || state == GPUAVDBG_LAYOUT_PADDED_PUSH;
}

/* ---- pipelines ---------------------------------------------------------------- */

/* scope_outs returns, for n create infos with a padded layout, which the
 * scope leaves out for good at creation (goPipelineScope: by their
 * modules' names; docs/decisions/scope-by-name.md): those are created as
 * with an unpadded layout, from their modules' original words. NULL when
 * none is (or out of memory: all are instrumented). */
#define SCOPE_OUTS(dd, ci, n, stages_of, nstages_of, linked)                                               \
    ({                                                                                                      \
        uint8_t *outs_ = NULL;                                                                              \
        for (uint32_t i_ = 0; (dd)->set_layout && i_ < (n); i_++) {                                         \
            if ((ci)[i_].layout && !linked((ci)[i_]) && padded((dd), (ci)[i_].layout) &&                    \
                scope_out((dd), stages_of((ci)[i_]), nstages_of((ci)[i_])) && (outs_ || (outs_ = calloc((n), 1)))) \
                outs_[i_] = 1;                                                                              \
        }                                                                                                   \
        outs_;                                                                                              \
    })

/* scope_out asks Go whether a pipeline of these stages is out of the
 * scope for good. */
static int scope_out(device_data *dd, const VkPipelineShaderStageCreateInfo *stages, uint32_t n)
{
    uint64_t small[8], *mods = n <= 8 ? small : malloc(n * sizeof *mods);
    if (!mods)
        return 0;
    uint32_t k = 0;
    for (uint32_t s = 0; s < n; s++)
        if (stages[s].module)
            mods[k++] = GPUAVDBG_H(stages[s].module);
    int out = goPipelineScope(GPUAVDBG_H(dd->device), mods, k);
    if (mods != small)
        free(mods);
    return out;
}

/* pad_of: pipeline i's layout is padded and the scope keeps it. */
static int pad_of(device_data *dd, VkPipelineLayout layout, const uint8_t *outs, uint32_t i)
{
    return !(outs && outs[i]) && padded(dd, layout);
}

/* The stages of a create info, and whether it links libraries (a linked
 * pipeline runs their code: the scope decides it after creation, in
 * goPipelineCreated). */
#define COMPUTE_STAGES(c) (&(c).stage)
#define COMPUTE_NSTAGES(c) 1u
#define COMPUTE_LINKED(c) 0
#define STAGES(c) ((c).pStages)
#define NSTAGES(c) ((c).stageCount)
#define GFX_LINKED(c) (find_libraries((c).pNext) != NULL)
#define RT_LINKED(c) ((c).pLibraryInfo && (c).pLibraryInfo->libraryCount)

/* scratch holds what one vkCreate*Pipelines call made: uninstrumented
 * modules to destroy and copied create infos to free afterwards. */
typedef struct scratch {
    VkShaderModule *modules;
    uint32_t nmodules, cap_modules;
    /* inline: modules made for stages given inline, known to Go */
    VkShaderModule *inl;
    uint32_t ninl, cap_inl;
    /* pre[k]: a module of the precise words of app[k] (also in modules) */
    VkShaderModule *pre, *app;
    uint32_t npre, cap_pre, napp, cap_app;
    void **blocks;
    uint32_t nblocks, cap_blocks;
} scratch;

static int push(void **arr, uint32_t *n, uint32_t *cap, size_t elem, const void *value)
{
    if (*n == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 8;
        void *g = realloc(*arr, ncap * elem);
        if (!g)
            return 0;
        *arr = g;
        *cap = ncap;
    }
    memcpy((char *)*arr + (size_t)*n * elem, value, elem);
    (*n)++;
    return 1;
}

/* scratch_copy returns a registered copy of n elements of size elem. */
static void *scratch_copy(scratch *sc, const void *src, size_t n, size_t elem)
{
    void *p = malloc(n * elem);
    if (!p)
        return NULL;
    memcpy(p, src, n * elem);
    if (!push((void **)&sc->blocks, &sc->nblocks, &sc->cap_blocks, sizeof p, &p)) {
        free(p);
        return NULL;
    }
    return p;
}

static void scratch_free(device_data *dd, scratch *sc)
{
    for (uint32_t i = 0; i < sc->nmodules; i++)
        dd->disp.DestroyShaderModule(dd->device, sc->modules[i], NULL);
    for (uint32_t i = 0; i < sc->ninl; i++)
        icpt_DestroyShaderModule(dd->device, sc->inl[i], NULL);
    free(sc->inl);
    for (uint32_t i = 0; i < sc->nblocks; i++)
        free(sc->blocks[i]);
    free(sc->modules);
    free(sc->blocks);
    free(sc->pre);
    free(sc->app);
}

/* replace_stages returns a copy of stages in which every module Go keeps
 * other words for (module_from_go: the original words of an instrumented
 * module, or with precise the precise words of a deferred one) is
 * replaced by a module of them, destroyed after the call; NULL when there
 * is none (or when out of memory, which it reports). A precise module is
 * remembered as the module it replaced (app_stages). */
static const VkPipelineShaderStageCreateInfo *replace_stages(device_data *dd, scratch *sc,
                                                             const VkPipelineShaderStageCreateInfo *stages,
                                                             uint32_t n, int precise)
{
    VkPipelineShaderStageCreateInfo *copy = NULL;
    for (uint32_t s = 0; s < n; s++) {
        VkShaderModule m = gpuavdbg_module_from_go(dd, stages[s].module, precise);
        if (!m)
            continue;
        if (!copy)
            copy = scratch_copy(sc, stages, n, sizeof *stages);
        if (!copy || !push((void **)&sc->modules, &sc->nmodules, &sc->cap_modules, sizeof m, &m)) {
            dd->disp.DestroyShaderModule(dd->device, m, NULL);
            gpuavdbg_logf(precise ? GPUAVDBG_LOG_UNCHECKED : GPUAVDBG_LOG_ERROR,
                          precise ? "out of memory substituting instrumented shaders: a pipeline stage runs its "
                                    "original code, unchecked"
                                  : "out of memory substituting uninstrumented shaders");
            continue;
        }
        /* The pair is only for remembering: without it the pipeline is
         * reported with the module the layer made. */
        if (precise && push((void **)&sc->pre, &sc->npre, &sc->cap_pre, sizeof m, &m) &&
            !push((void **)&sc->app, &sc->napp, &sc->cap_app, sizeof stages[s].module, &stages[s].module))
            sc->npre--;
        copy[s].module = m;
    }
    return copy;
}

/* substitute: every instrumented module replaced by an uninstrumented one
 * (replace_stages). */
static const VkPipelineShaderStageCreateInfo *substitute(device_data *dd, scratch *sc,
                                                         const VkPipelineShaderStageCreateInfo *stages, uint32_t n)
{
    return replace_stages(dd, sc, stages, n, 0);
}

/* precise_stages: every deferred module replaced by a module of its
 * precise words (replace_stages). */
static const VkPipelineShaderStageCreateInfo *precise_stages(device_data *dd, scratch *sc,
                                                             const VkPipelineShaderStageCreateInfo *stages,
                                                             uint32_t n)
{
    return replace_stages(dd, sc, stages, n, 1);
}

/* app_stages returns stages as the pipeline is remembered: each module
 * precise_stages made replaced by the module it stands for (in a scratch
 * copy; stages itself when there is none). */
static const VkPipelineShaderStageCreateInfo *app_stages(scratch *sc, const VkPipelineShaderStageCreateInfo *stages,
                                                         uint32_t n)
{
    VkPipelineShaderStageCreateInfo *copy = NULL;
    for (uint32_t s = 0; s < n && sc->npre; s++)
        for (uint32_t k = 0; k < sc->npre; k++) {
            if (stages[s].module != sc->pre[k])
                continue;
            if (!copy && !(copy = scratch_copy(sc, stages, n, sizeof *stages)))
                return stages;
            copy[s].module = sc->app[k];
        }
    return copy ? copy : stages;
}

/* inline_module makes, for a stage given inline (module VK_NULL_HANDLE
 * and a VkShaderModuleCreateInfo in pNext: maintenance5, graphics pipeline
 * libraries), a shader module through vkCreateShaderModule's own path
 * (instrumented, reported to Go as a module of its own), and rewrites
 * *stage to use it with the VkShaderModuleCreateInfo taken out of a copied
 * pNext chain. It returns 0 when the stage is left as the app gave it. */
static int inline_module(device_data *dd, scratch *sc, VkPipelineShaderStageCreateInfo *stage)
{
    if (stage->module)
        return 0;
    const VkBaseInStructure *smci = NULL;
    int known = 1;
    for (const VkBaseInStructure *p = stage->pNext; p && !smci; p = p->pNext) {
        if (p->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)
            smci = p;
        else if (!gpuavdbg_stage_pnext_size(p->sType))
            known = 0;
    }
    if (!smci)
        return 0; /* e.g. a module identifier: nothing the layer can see */
    if (!known) {
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING,
                      "a pipeline stage's inline shader code follows a structure the layer does not know in its "
                      "pNext chain: that stage runs uninstrumented");
        return 0;
    }
    /* Copy the structures before the VkShaderModuleCreateInfo; the rest of
     * the chain (after it) is the app's, shared. */
    const void *rest = smci->pNext;
    VkBaseOutStructure *head = NULL, *tail = NULL;
    for (const VkBaseInStructure *p = stage->pNext; p != smci; p = p->pNext) {
        VkBaseOutStructure *c = scratch_copy(sc, p, 1, gpuavdbg_stage_pnext_size(p->sType));
        if (!c)
            return 0;
        gpuavdbg_chain_append(&head, &tail, c);
    }
    VkShaderModuleCreateInfo mci = *(const VkShaderModuleCreateInfo *)smci;
    mci.pNext = NULL;
    VkShaderModule m = VK_NULL_HANDLE;
    if (icpt_CreateShaderModule(dd->device, &mci, NULL, &m) != VK_SUCCESS || !m)
        return 0; /* the driver reports the bad code when the pipeline is made */
    if (!push((void **)&sc->inl, &sc->ninl, &sc->cap_inl, sizeof m, &m)) {
        icpt_DestroyShaderModule(dd->device, m, NULL);
        return 0;
    }
    if (tail)
        tail->pNext = (VkBaseOutStructure *)rest;
    stage->pNext = head ? (const void *)head : rest;
    stage->module = m;
    /* A VkDebugUtilsObjectNameInfoEXT in the stage names its inline module. */
    for (const VkBaseInStructure *p = stage->pNext; p; p = p->pNext) {
        const VkDebugUtilsObjectNameInfoEXT *ni = (const void *)p;
        if (p->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT && ni->pObjectName)
            goSetObjectName(GPUAVDBG_H(dd->device), VK_OBJECT_TYPE_SHADER_MODULE, GPUAVDBG_H(m), 0,
                            (char *)ni->pObjectName);
    }
    return 1;
}

/* inline_stages returns a copy of stages in which every stage given inline
 * uses a module the layer made (see inline_module), or NULL when no stage
 * is inline. */
static const VkPipelineShaderStageCreateInfo *inline_stages(device_data *dd, scratch *sc,
                                                            const VkPipelineShaderStageCreateInfo *stages, uint32_t n)
{
    VkPipelineShaderStageCreateInfo *copy = NULL;
    for (uint32_t s = 0; s < n; s++) {
        if (stages[s].module)
            continue;
        if (!copy && !(copy = scratch_copy(sc, stages, n, sizeof *stages)))
            return NULL;
        inline_module(dd, sc, &copy[s]);
    }
    return copy;
}

/* prepare_stages: the stages a pipeline is created with: inline stages
 * made modules for a padded layout, instrumented modules swapped for
 * uninstrumented copies for any other; NULL when unchanged. */
static const VkPipelineShaderStageCreateInfo *prepare_stages(device_data *dd, scratch *sc, int padded,
                                                             const VkPipelineShaderStageCreateInfo *stages,
                                                             uint32_t n)
{
    return padded ? inline_stages(dd, sc, stages, n) : substitute(dd, sc, stages, n);
}

/* has_shader_groups says whether a graphics pipeline's pNext chain has
 * shader groups of their own stages (VK_NV_device_generated_commands). */
static int has_shader_groups(const void *pNext)
{
    for (const VkBaseInStructure *s = pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_SHADER_GROUPS_CREATE_INFO_NV)
            return 1;
    return 0;
}

static const VkPipelineLibraryCreateInfoKHR *find_libraries(const void *pNext)
{
    for (const VkBaseInStructure *s = pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR)
            return (const VkPipelineLibraryCreateInfoKHR *)s;
    return NULL;
}

/* ---- the pipeline word (docs/decisions/pipeline-word.md) ---------------------- */

const VkSpecializationInfo *gpuavdbg_spec_with_word(const VkSpecializationInfo *spec, uint32_t word, void **block)
{
    *block = NULL;
    uint32_t n = spec ? spec->mapEntryCount : 0;
    size_t size = spec && spec->pData ? spec->dataSize : 0;
    for (uint32_t i = 0; i < n; i++)
        if (spec->pMapEntries[i].constantID == GPUAVDBG_PIPELINE_WORD_SPEC_ID)
            return spec;
    size_t off = (size + 3) & ~(size_t)3;
    char *b = malloc(sizeof(VkSpecializationInfo) + (n + 1) * sizeof(VkSpecializationMapEntry) + off + sizeof word);
    if (!b)
        return spec;
    VkSpecializationInfo *si = (VkSpecializationInfo *)b;
    VkSpecializationMapEntry *e = (VkSpecializationMapEntry *)(b + sizeof *si);
    char *data = (char *)(e + n + 1);
    if (n)
        memcpy(e, spec->pMapEntries, n * sizeof *e);
    memset(data, 0, off);
    if (size)
        memcpy(data, spec->pData, size);
    memcpy(data + off, &word, sizeof word);
    e[n].constantID = GPUAVDBG_PIPELINE_WORD_SPEC_ID;
    e[n].offset = (uint32_t)off;
    e[n].size = sizeof word;
    si->mapEntryCount = n + 1;
    si->pMapEntries = e;
    si->dataSize = off + sizeof word;
    si->pData = data;
    *block = b;
    return si;
}

/* with_word returns a scratch copy of stages in which every stage of mask
 * has the pipeline word word among its specialization constants; NULL
 * when word is 0, and when out of memory (said as unchecked). */
static const VkPipelineShaderStageCreateInfo *with_word(scratch *sc, const VkPipelineShaderStageCreateInfo *stages,
                                                        uint32_t n, VkShaderStageFlags mask, uint32_t word)
{
    if (!word || !n)
        return NULL;
    VkPipelineShaderStageCreateInfo *copy = scratch_copy(sc, stages, n, sizeof *stages);
    for (uint32_t s = 0; copy && s < n; s++) {
        if (!(copy[s].stage & mask))
            continue;
        void *b = NULL;
        copy[s].pSpecializationInfo = gpuavdbg_spec_with_word(copy[s].pSpecializationInfo, word, &b);
        if (b && !push((void **)&sc->blocks, &sc->nblocks, &sc->cap_blocks, sizeof b, &b)) {
            free(b);
            copy = NULL;
        }
    }
    if (!copy)
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED, "out of memory giving a pipeline's shaders its flags: the checks that "
                                              "depend on them (trace_ray's skip flags, mesh_task_payload) pass there");
    return copy;
}

/* rt_word is a ray-tracing pipeline's word: its skip flags. */
static uint32_t rt_word(VkPipelineCreateFlags flags)
{
    return (flags & VK_PIPELINE_CREATE_RAY_TRACING_SKIP_AABBS_BIT_KHR ? GPUAVDBG_PIPELINE_SKIP_AABBS : 0) |
           (flags & VK_PIPELINE_CREATE_RAY_TRACING_SKIP_TRIANGLES_BIT_KHR ? GPUAVDBG_PIPELINE_SKIP_TRIANGLES : 0);
}

/* mesh_word is a graphics pipeline's word for its mesh stage: no task
 * stage beside it (the two are in one create info, or one pre-rasterization
 * library). */
static uint32_t mesh_word(const VkPipelineShaderStageCreateInfo *stages, uint32_t n)
{
    int mesh = 0, task = 0;
    for (uint32_t s = 0; s < n; s++) {
        mesh |= stages[s].stage == VK_SHADER_STAGE_MESH_BIT_EXT;
        task |= stages[s].stage == VK_SHADER_STAGE_TASK_BIT_EXT;
    }
    return mesh && !task ? GPUAVDBG_PIPELINE_NO_TASK : 0;
}

/* WORD_STAGE_ARRAYS gives the stages of mask of the create infos with a
 * padded layout their pipeline's word (wordof(i), with_word), in copy. */
#define WORD_STAGE_ARRAYS(dd, sc, ci, n, copy, mask, wordof)                                                \
    for (uint32_t i_ = 0; (dd)->set_layout && i_ < (n); i_++) {                                             \
        if (!padded((dd), (ci)[i_].layout))                                                                 \
            continue;                                                                                       \
        const VkPipelineShaderStageCreateInfo *st_ = with_word(                                             \
            (sc), (copy) ? (copy)[i_].pStages : (ci)[i_].pStages, (ci)[i_].stageCount, (mask), (wordof));   \
        if (st_ && !(copy))                                                                                 \
            (copy) = scratch_copy((sc), (ci), (n), sizeof *(ci));                                           \
        if (st_ && (copy))                                                                                  \
            (copy)[i_].pStages = st_;                                                                       \
    }

/* remember tells Go about a new pipeline and records it for
 * vkCmdBindPipeline. The layer binds its set before the pipeline's actions
 * when its layout has the set and any of its shaders (or of its libraries)
 * may be instrumented. A pipeline linked from libraries (libs) is reported
 * with its libraries' stages; flags tell a library (Go keeps its stages
 * until it is destroyed). scoped_out: the scope left it out at creation.
 * refused, when not 0, is the VkResult the driver
 * refused the pipeline with, instrumented: it was created from the app's
 * original stages (create_with_fallback) and runs unchecked. */
static void remember(device_data *dd, VkPipeline p, VkPipelineLayout layout, VkPipelineBindPoint bp,
                     const VkPipelineShaderStageCreateInfo *stages, uint32_t nstages,
                     const VkPipelineLibraryCreateInfoKHR *libs, VkPipelineCreateFlags flags,
                     const VkGraphicsPipelineCreateInfo *gfx, gpuavdbg_variant *var, int scoped_out,
                     int32_t refused)
{
    int libraries = libs && libs->libraryCount > 0;
    int is_library = (flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) != 0;
    gpuavdbg_stage small[8];
    gpuavdbg_stage *st = nstages <= 8 ? small : malloc(nstages * sizeof *st);
    if (!st) {
        st = small;
        nstages = 8;
    }
    for (uint32_t i = 0; i < nstages; i++) {
        st[i].module = GPUAVDBG_H(stages[i].module);
        st[i].stage = (uint32_t)stages[i].stage;
        st[i].entry = stages[i].pName ? stages[i].pName : "";
    }
    int state = layout_state(dd, layout), reads_set = 1;
    uint64_t serial = 0;
    int wants = goPipelineCreated(GPUAVDBG_H(dd->device), GPUAVDBG_H(p), GPUAVDBG_H(layout), (uint32_t)bp, st,
                                  nstages, state, libraries ? (uint64_t *)libs->pLibraries : NULL,
                                  libraries ? libs->libraryCount : 0, is_library, var != NULL, scoped_out, refused,
                                  &reads_set, &serial);
    if (st != small)
        free(st);
    pipeline_info *pi = malloc(sizeof *pi);
    if (!pi) {
        gpuavdbg_variant_free(dd, var);
        return;
    }
    pi->serial = serial;
    pi->var = var;
    if (var)
        gpuavdbg_variant_created(var, p);
    pi->layout = layout;
    pi->bind_point = bp;
    pi->instrumented = (state == GPUAVDBG_LAYOUT_PADDED || state == GPUAVDBG_LAYOUT_PADDED_PUSH) && (wants || libraries) &&
                       !scoped_out;
    pi->reads_set = reads_set;
    pi->push = state == GPUAVDBG_LAYOUT_PADDED_PUSH;
    pi->library = is_library;
    pi->vi = NULL;
    pi->has_task = 0;
    if (gfx) /* the command checks: vertex input state, task stage */
        gpuavdbg_cc_pipeline_created(dd, pi, gfx);
    pthread_mutex_lock(&dd->lock);
    pipeline_info *old = hmap_get(&dd->pipelines, GPUAVDBG_H(p));
    int put = hmap_put(&dd->pipelines, GPUAVDBG_H(p), pi);
    pthread_mutex_unlock(&dd->lock);
    pipeline_info *gone = put ? old : pi;
    gpuavdbg_cc_pipeline_freed(gone);
    if (gone)
        gpuavdbg_variant_free(dd, gone->var);
    free(gone);
}

/* remembered(dd, copy, ci, i, field) is &field of the create info pipeline i
 * is reported with: the copy's for a padded layout (inline stages show the
 * modules the layer made for them), else the app's (substituted
 * uninstrumented copies are reported as the app's modules). */
#define remembered(dd, copy, ci, i, field, outs)                                                        \
    ((copy) && pad_of((dd), (ci)[i].layout, (outs), (i)) ? &(copy)[i].field : &(ci)[i].field)

/* PREPARE_STAGE_ARRAYS prepares the pStages of n create infos of any type
 * that has layout, pStages and stageCount (graphics, ray tracing KHR):
 * copy becomes a scratch copy of ci holding the prepared stages once one
 * pipeline needs them, and any_padded says whether some layout is padded. */
#define PREPARE_STAGE_ARRAYS(dd, sc, ci, n, copy, any_padded, outs)                                         \
    for (uint32_t i_ = 0; (dd)->set_layout && i_ < (n); i_++) {                                             \
        int padded_ = pad_of((dd), (ci)[i_].layout, (outs), i_);                                            \
        (any_padded) |= padded_;                                                                            \
        const VkPipelineShaderStageCreateInfo *st_ =                                                        \
            prepare_stages((dd), (sc), padded_, (ci)[i_].pStages, (ci)[i_].stageCount);                     \
        if (st_ && !(copy))                                                                                 \
            (copy) = scratch_copy((sc), (ci), (n), sizeof *(ci));                                           \
        if (st_ && (copy))                                                                                  \
            (copy)[i_].pStages = st_;                                                                       \
    }

/* PRECISE_STAGE_ARRAYS gives the stages of the create infos with a padded
 * layout (graphics, ray tracing KHR) that still hold a deferred module the
 * precise variant's words (precise_stages), in copy. */
#define PRECISE_STAGE_ARRAYS(dd, sc, ci, n, copy, outs)                                                        \
    for (uint32_t i_ = 0; (dd)->set_layout && i_ < (n); i_++) {                                             \
        if (!pad_of((dd), (ci)[i_].layout, (outs), i_))                                                     \
            continue;                                                                                       \
        const VkPipelineShaderStageCreateInfo *st_ = precise_stages(                                        \
            (dd), (sc), (copy) ? (copy)[i_].pStages : (ci)[i_].pStages, (ci)[i_].stageCount);               \
        if (st_ && !(copy))                                                                                 \
            (copy) = scratch_copy((sc), (ci), (n), sizeof *(ci));                                           \
        if (st_ && (copy))                                                                                  \
            (copy)[i_].pStages = st_;                                                                       \
    }

/* ---- a pipeline the driver refuses with the layer's code ----------------------
 * (docs/decisions/refused-pipelines.md) A driver may refuse a pipeline
 * with instrumented stages where it takes the app's own (a compiler's
 * limit or bug: VK_ERROR_UNKNOWN, VK_ERROR_INVALID_SHADER_NV, ...). Each
 * pipeline refused so is created again, once, from the app's original
 * stages, and runs unchecked (goPipelineCreated's refused); the others of
 * the call are kept as made. */

/* refusal says whether a vkCreate*Pipelines result may be the driver
 * refusing the layer's code: an error other than running out of memory
 * or losing the device (which the app would meet without the layer too).
 * A success code (VK_PIPELINE_COMPILE_REQUIRED for a pipeline that asked
 * to fail rather than compile) refuses nothing. */
static int refusal(VkResult r)
{
    return r < 0 && r != VK_ERROR_OUT_OF_HOST_MEMORY && r != VK_ERROR_OUT_OF_DEVICE_MEMORY &&
           r != VK_ERROR_DEVICE_LOST;
}

/* VkPipelineCreateFlags2CreateInfo (maintenance5, Vulkan 1.4): where a
 * create info chains it, its flags replace the create info's. */
#define STYPE_CREATE_FLAGS_2 ((VkStructureType)1000470005)
typedef struct create_flags2 {
    VkStructureType sType;
    const void *pNext;
    uint64_t flags;
} create_flags2;

/* One vkCreate*Pipelines call, for create_with_fallback: its create
 * infos (size bytes each; the app's, and as the layer sent them), where
 * their fields are, and how to call down and to make a create info of the
 * app's original stages. */
typedef struct pipeline_call {
    device_data *dd;
    scratch *sc;
    VkPipelineCache cache;
    const VkAllocationCallbacks *alloc;
    uint32_t n;
    size_t size, off_flags, off_base_handle, off_base_index;
    const void *app, *sent;
    VkResult (*create)(const struct pipeline_call *c, uint32_t n, const void *ci, VkPipeline *pipes);
    /* original writes into out the app's create info app with its
     * original stages (an instrumented module replaced by a module of its
     * original words, a deferred or inline one given back) and returns 1
     * when sent carried the layer's code, 0 when it did not. */
    int (*original)(device_data *dd, scratch *sc, const void *app, const void *sent, void *out);
} pipeline_call;

#define AT(c, base, i) ((const char *)(base) + (size_t)(i) * (c)->size)
#define FIELD(type, p, off) (*(type *)((char *)(p) + (off)))

/* early_return says whether create info ci asks creation to stop at its
 * failure (VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT). */
static int early_return(const pipeline_call *c, const void *ci)
{
    uint64_t flags = FIELD(const VkPipelineCreateFlags, ci, c->off_flags);
    for (const VkBaseInStructure *p = ((const VkBaseInStructure *)ci)->pNext; p; p = p->pNext)
        if (p->sType == STYPE_CREATE_FLAGS_2)
            flags = ((const create_flags2 *)p)->flags;
    return (flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0;
}

/* rebase points the derivative info (at position k of a retried batch of
 * the pipelines idx) at its base: its new index when retried with it, the
 * base's handle when made, else no base. */
static void rebase(const pipeline_call *c, void *info, uint32_t k, const uint32_t *idx, const VkPipeline *pipes)
{
    VkPipelineCreateFlags *flags = &FIELD(VkPipelineCreateFlags, info, c->off_flags);
    int32_t *base = &FIELD(int32_t, info, c->off_base_index);
    if (!(*flags & VK_PIPELINE_CREATE_DERIVATIVE_BIT) || *base < 0)
        return;
    for (uint32_t j = 0; j < k; j++)
        if (idx[j] == (uint32_t)*base) {
            *base = (int32_t)j;
            return;
        }
    VkPipeline h = (uint32_t)*base < c->n ? pipes[*base] : VK_NULL_HANDLE;
    FIELD(VkPipeline, info, c->off_base_handle) = h;
    *base = -1;
    if (!h)
        *flags &= ~(VkPipelineCreateFlags)VK_PIPELINE_CREATE_DERIVATIVE_BIT;
}

/* create_with_fallback calls down with the create infos as sent; when the
 * result may be a refusal, each pipeline that failed with the layer's code
 * is created again from the app's original stages, in a call of those
 * alone (refused[i] gets the result it was refused with), and nothing
 * else is retried: a pipeline that failed with the app's own code keeps
 * its failure. A pipeline whose failure stopped the call
 * (VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) left those after it
 * unmade: they are made in the retry when it was refused, and stay unmade
 * when it failed on its own, as without the layer. It returns what the
 * app gets: VK_SUCCESS when every pipeline was made, else the result of
 * the call that left one unmade. */
static VkResult create_with_fallback(const pipeline_call *c, VkPipeline *pipes, int32_t *refused)
{
    VkResult r = c->create(c, c->n, c->sent, pipes);
    if (!refusal(r) || !c->dd->set_layout || c->n == 0)
        return r;
    uint32_t n = c->n;
    uint8_t *orig = calloc(n, 1);
    uint32_t *idx = malloc(n * sizeof *idx), *redo = malloc(n * sizeof *redo);
    char *origs = malloc(n * c->size), *infos = malloc(n * c->size);
    VkPipeline *made = malloc(n * sizeof *made);
    if (!orig || !idx || !redo || !origs || !infos || !made) {
        gpuavdbg_logf(GPUAVDBG_LOG_ERROR, "out of memory retrying pipelines the driver refused (VkResult %d) "
                                          "with the layer's code: the app gets the driver's result", (int)r);
        goto done;
    }
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    uint32_t nidx = n;
    VkResult last = r, out = VK_SUCCESS;
    int retried = 0;
    for (;;) {
        /* The first pipeline of this call left unmade; if it asked to
         * stop there, those after it were not tried. */
        uint32_t stop = nidx;
        for (uint32_t k = 0; k < nidx && stop == nidx; k++)
            if (!pipes[idx[k]])
                stop = early_return(c, AT(c, c->app, idx[k])) ? k : nidx + 1;
        int stop_redone = 0;
        uint32_t nredo = 0;
        for (uint32_t k = 0; k < nidx; k++) {
            uint32_t i = idx[k];
            if (pipes[i])
                continue;
            int tried = stop >= nidx || k <= stop;
            if (tried && !orig[i] && refusal(last) &&
                c->original(c->dd, c->sc, AT(c, c->app, i), AT(c, c->sent, i), origs + (size_t)i * c->size)) {
                orig[i] = 1;
                refused[i] = (int32_t)last;
                redo[nredo++] = i;
                stop_redone |= k == stop;
            } else if (!tried && stop_redone) {
                redo[nredo++] = i;
            } else if (out == VK_SUCCESS || (out > 0 && last < 0)) {
                out = last; /* unmade as without the layer */
            }
        }
        if (!nredo)
            break;
        retried = 1;
        for (uint32_t k = 0; k < nredo; k++) {
            uint32_t i = redo[k];
            void *info = infos + (size_t)k * c->size;
            memcpy(info, orig[i] ? origs + (size_t)i * c->size : AT(c, c->sent, i), c->size);
            rebase(c, info, k, redo, pipes);
        }
        for (uint32_t k = 0; k < nredo; k++)
            made[k] = VK_NULL_HANDLE;
        last = c->create(c, nredo, infos, made);
        for (uint32_t k = 0; k < nredo; k++)
            pipes[redo[k]] = made[k];
        uint32_t *t = idx;
        idx = redo, redo = t, nidx = nredo;
    }
    if (retried)
        r = out;
done:
    free(orig);
    free(idx);
    free(redo);
    free(origs);
    free(infos);
    free(made);
    return r;
}

static VkResult create_compute(const pipeline_call *c, uint32_t n, const void *ci, VkPipeline *pipes)
{
    return c->dd->disp.CreateComputePipelines(c->dd->device, c->cache, n, ci, c->alloc, pipes);
}

static VkResult create_graphics(const pipeline_call *c, uint32_t n, const void *ci, VkPipeline *pipes)
{
    return c->dd->disp.CreateGraphicsPipelines(c->dd->device, c->cache, n, ci, c->alloc, pipes);
}

static VkResult create_ray_tracing(const pipeline_call *c, uint32_t n, const void *ci, VkPipeline *pipes)
{
    return c->dd->disp.CreateRayTracingPipelinesKHR(c->dd->device, VK_NULL_HANDLE, c->cache, n, ci, c->alloc, pipes);
}

/* original_stages gives out (the app's stages, or those of uninstrumented
 * copies) and says whether sent carried the layer's code: a padded layout
 * whose stages the layer changed or whose modules are instrumented. */
static int original_stages(device_data *dd, scratch *sc, VkPipelineLayout layout,
                           const VkPipelineShaderStageCreateInfo *app, const VkPipelineShaderStageCreateInfo *sent,
                           uint32_t n, const VkPipelineShaderStageCreateInfo **out)
{
    *out = app;
    if (!n || !padded(dd, layout))
        return 0;
    const VkPipelineShaderStageCreateInfo *st = substitute(dd, sc, app, n);
    if (st)
        *out = st;
    int changed = st != NULL;
    for (uint32_t s = 0; s < n && !changed; s++)
        changed = sent[s].module != app[s].module || sent[s].pNext != app[s].pNext;
    return changed;
}

static int original_compute(device_data *dd, scratch *sc, const void *app, const void *sent, void *out)
{
    const VkComputePipelineCreateInfo *a = app, *s = sent;
    VkComputePipelineCreateInfo *o = out;
    const VkPipelineShaderStageCreateInfo *st;
    *o = *a;
    int carried = original_stages(dd, sc, a->layout, &a->stage, &s->stage, 1, &st);
    o->stage = *st;
    return carried;
}

static int original_graphics(device_data *dd, scratch *sc, const void *app, const void *sent, void *out)
{
    const VkGraphicsPipelineCreateInfo *a = app, *s = sent;
    VkGraphicsPipelineCreateInfo *o = out;
    *o = *a;
    return original_stages(dd, sc, a->layout, a->pStages, s->pStages, a->stageCount, &o->pStages);
}

static int original_ray_tracing(device_data *dd, scratch *sc, const void *app, const void *sent, void *out)
{
    const VkRayTracingPipelineCreateInfoKHR *a = app, *s = sent;
    VkRayTracingPipelineCreateInfoKHR *o = out;
    *o = *a;
    return original_stages(dd, sc, a->layout, a->pStages, s->pStages, a->stageCount, &o->pStages);
}

/* PIPELINE_CALL(type, fn) is a pipeline_call of n create infos of type. */
#define PIPELINE_CALL(type, fn, dd_, sc_, cache_, alloc_, n_, app_, sent_)                                     \
    ((pipeline_call){.dd = (dd_), .sc = (sc_), .cache = (cache_), .alloc = (alloc_), .n = (n_),                 \
                     .size = sizeof(type), .off_flags = offsetof(type, flags),                                 \
                     .off_base_handle = offsetof(type, basePipelineHandle),                                    \
                     .off_base_index = offsetof(type, basePipelineIndex), .app = (app_), .sent = (sent_),      \
                     .create = create_##fn, .original = original_##fn})

/* fast_variant: when compute pipeline i's facts can be decided on the CPU
 * (variants.c), *var gets its variants and pipeline i is created as the
 * fast one (a module of the fast variant's words, in a scratch copy of ci;
 * destroyed after the call). */
static void fast_variant(device_data *dd, scratch *sc, const VkComputePipelineCreateInfo *ci, uint32_t n, uint32_t i,
                         VkComputePipelineCreateInfo **copy, gpuavdbg_variant **var)
{
    VkShaderModule fast = VK_NULL_HANDLE;
    gpuavdbg_variant *v = gpuavdbg_variant_compute(dd, &ci[i], &fast);
    if (!v)
        return;
    if (!*copy)
        *copy = scratch_copy(sc, ci, n, sizeof *ci);
    if (!*copy || !push((void **)&sc->modules, &sc->nmodules, &sc->cap_modules, sizeof fast, &fast)) {
        dd->disp.DestroyShaderModule(dd->device, fast, NULL);
        gpuavdbg_variant_free(dd, v);
        return;
    }
    (*copy)[i].stage.module = fast;
    *var = v;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t n,
                                                               const VkComputePipelineCreateInfo *ci,
                                                               const VkAllocationCallbacks *alloc,
                                                               VkPipeline *pipes)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkComputePipelineCreateInfo *copy = NULL;
    scratch sc = {0};
    int any_padded = 0;
    gpuavdbg_variant **vars = dd->set_layout && n ? calloc(n, sizeof *vars) : NULL;
    uint8_t *outs = SCOPE_OUTS(dd, ci, n, COMPUTE_STAGES, COMPUTE_NSTAGES, COMPUTE_LINKED);
    for (uint32_t i = 0; dd->set_layout && i < n; i++) {
        int pad = pad_of(dd, ci[i].layout, outs, i);
        any_padded |= pad;
        const VkPipelineShaderStageCreateInfo *st = prepare_stages(dd, &sc, pad, &ci[i].stage, 1);
        if (st && !copy)
            copy = scratch_copy(&sc, ci, n, sizeof *ci);
        if (st && copy)
            copy[i].stage = *st;
        if (pad && !st && vars)
            fast_variant(dd, &sc, ci, n, i, &copy, &vars[i]);
        const VkPipelineShaderStageCreateInfo *pre =
            pad && !(vars && vars[i]) ? precise_stages(dd, &sc, copy ? &copy[i].stage : &ci[i].stage, 1) : NULL;
        if (pre && !copy)
            copy = scratch_copy(&sc, ci, n, sizeof *ci);
        if (pre && copy)
            copy[i].stage = *pre;
    }
    int32_t *refused = n ? calloc(n, sizeof *refused) : NULL;
    pipeline_call call = PIPELINE_CALL(VkComputePipelineCreateInfo, compute, dd, &sc,
                                       gpuavdbg_cache_for(dd, cache, any_padded), alloc, n, ci, copy ? copy : ci);
    VkResult r = refused ? create_with_fallback(&call, pipes, refused) : create_compute(&call, n, call.sent, pipes);
    for (uint32_t i = 0; i < n; i++) {
        gpuavdbg_variant *v = vars ? vars[i] : NULL;
        int32_t why = refused ? refused[i] : 0;
        VkPipelineShaderStageCreateInfo st = *app_stages(&sc, remembered(dd, copy, ci, i, stage, outs), 1);
        if (v) /* reported with the app's module, not the fast variant's */
            st.module = ci[i].stage.module;
        if (why) /* the app's pipeline: no variant */
            gpuavdbg_variant_free(dd, v), v = NULL;
        if (pipes[i])
            remember(dd, pipes[i], ci[i].layout, VK_PIPELINE_BIND_POINT_COMPUTE, &st, 1, NULL, ci[i].flags, NULL, v,
                     outs && outs[i], why);
        else
            gpuavdbg_variant_free(dd, v);
    }
    free(refused);
    free(vars);
    free(outs);
    scratch_free(dd, &sc);
    return r;
}

/* fast_graphics is fast_variant for graphics pipeline i: its stages with
 * a fast variant get a module of its words, in a scratch copy of its
 * stages. */
static void fast_graphics(device_data *dd, scratch *sc, const VkGraphicsPipelineCreateInfo *ci, uint32_t n, uint32_t i,
                          VkGraphicsPipelineCreateInfo **copy, gpuavdbg_variant **var)
{
    uint32_t ns = ci[i].stageCount;
    VkShaderModule *fast = ns ? calloc(ns, sizeof *fast) : NULL;
    gpuavdbg_variant *v = fast ? gpuavdbg_variant_graphics(dd, &ci[i], fast) : NULL;
    VkPipelineShaderStageCreateInfo *st = v ? scratch_copy(sc, ci[i].pStages, ns, sizeof *st) : NULL;
    if (st && !*copy)
        *copy = scratch_copy(sc, ci, n, sizeof *ci);
    int ok = st && *copy;
    for (uint32_t s = 0; v && s < ns; s++) {
        if (!fast[s])
            continue;
        if (ok && push((void **)&sc->modules, &sc->nmodules, &sc->cap_modules, sizeof fast[s], &fast[s])) {
            st[s].module = fast[s];
            continue;
        }
        dd->disp.DestroyShaderModule(dd->device, fast[s], NULL);
        ok = 0;
    }
    free(fast);
    if (!ok) {
        gpuavdbg_variant_free(dd, v);
        return;
    }
    (*copy)[i].pStages = st;
    *var = v;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateGraphicsPipelines(VkDevice device, VkPipelineCache cache, uint32_t n,
                                                                const VkGraphicsPipelineCreateInfo *ci,
                                                                const VkAllocationCallbacks *alloc,
                                                                VkPipeline *pipes)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkGraphicsPipelineCreateInfo *copy = NULL;
    scratch sc = {0};
    int any_padded = 0;
    uint8_t *outs = SCOPE_OUTS(dd, ci, n, STAGES, NSTAGES, GFX_LINKED);
    PREPARE_STAGE_ARRAYS(dd, &sc, ci, n, copy, any_padded, outs);
    /* The fast variants keep their create info for the precise variant's
     * pipeline: they take it with the pipeline word. */
    VkGraphicsPipelineCreateInfo *worded = NULL;
    WORD_STAGE_ARRAYS(dd, &sc, ci, n, worded, VK_SHADER_STAGE_MESH_BIT_EXT,
                      mesh_word(ci[i_].pStages, ci[i_].stageCount));
    gpuavdbg_variant **vars = dd->set_layout && n ? calloc(n, sizeof *vars) : NULL;
    for (uint32_t i = 0; vars && i < n; i++)
        if (pad_of(dd, ci[i].layout, outs, i) && (!copy || copy[i].pStages == ci[i].pStages))
            fast_graphics(dd, &sc, worded ? worded : ci, n, i, &copy, &vars[i]);
    PRECISE_STAGE_ARRAYS(dd, &sc, ci, n, copy, outs);
    WORD_STAGE_ARRAYS(dd, &sc, ci, n, copy, VK_SHADER_STAGE_MESH_BIT_EXT,
                      mesh_word(ci[i_].pStages, ci[i_].stageCount));
    for (uint32_t i = 0; dd->set_layout && i < n; i++)
        if (pad_of(dd, ci[i].layout, outs, i) && has_shader_groups(ci[i].pNext))
            gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                          "a graphics pipeline's shader groups (VK_NV_device_generated_commands) run the original "
                          "code of their modules that have a fast variant, unchecked: the layer substitutes "
                          "instrumented modules in its stages only");
    int32_t *refused = n ? calloc(n, sizeof *refused) : NULL;
    pipeline_call call = PIPELINE_CALL(VkGraphicsPipelineCreateInfo, graphics, dd, &sc,
                                       gpuavdbg_cache_for(dd, cache, any_padded), alloc, n, ci, copy ? copy : ci);
    VkResult r = refused ? create_with_fallback(&call, pipes, refused) : create_graphics(&call, n, call.sent, pipes);
    for (uint32_t i = 0; i < n; i++) {
        gpuavdbg_variant *v = vars ? vars[i] : NULL;
        int32_t why = refused ? refused[i] : 0;
        /* reported with the app's modules, not the fast variant's */
        const VkPipelineShaderStageCreateInfo *st =
            v ? ci[i].pStages : app_stages(&sc, *remembered(dd, copy, ci, i, pStages, outs), ci[i].stageCount);
        if (why) /* the app's pipeline: no variant */
            gpuavdbg_variant_free(dd, v), v = NULL;
        if (pipes[i])
            remember(dd, pipes[i], ci[i].layout, VK_PIPELINE_BIND_POINT_GRAPHICS, st, ci[i].stageCount,
                     find_libraries(ci[i].pNext), ci[i].flags, &ci[i], v, outs && outs[i], why);
        else
            gpuavdbg_variant_free(dd, v);
    }
    free(refused);
    free(vars);
    free(outs);
    scratch_free(dd, &sc);
    return r;
}

/* Ray tracing pipelines are instrumented like the others (the layer binds
 * its set before vkCmdTraceRays*). The layer must see the pipeline handles
 * to remember them, so a deferred creation runs at once and returns
 * VK_OPERATION_NOT_DEFERRED_KHR, which the spec allows. */
static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateRayTracingPipelinesKHR(VkDevice device, VkDeferredOperationKHR deferred,
                                                                     VkPipelineCache cache, uint32_t n,
                                                                     const VkRayTracingPipelineCreateInfoKHR *ci,
                                                                     const VkAllocationCallbacks *alloc,
                                                                     VkPipeline *pipes)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkRayTracingPipelineCreateInfoKHR *copy = NULL;
    scratch sc = {0};
    int any_padded = 0;
    uint8_t *outs = SCOPE_OUTS(dd, ci, n, STAGES, NSTAGES, RT_LINKED);
    PREPARE_STAGE_ARRAYS(dd, &sc, ci, n, copy, any_padded, outs);
    PRECISE_STAGE_ARRAYS(dd, &sc, ci, n, copy, outs);
    WORD_STAGE_ARRAYS(dd, &sc, ci, n, copy, VK_SHADER_STAGE_ALL, rt_word(ci[i_].flags));
    int32_t *refused = n ? calloc(n, sizeof *refused) : NULL;
    pipeline_call call = PIPELINE_CALL(VkRayTracingPipelineCreateInfoKHR, ray_tracing, dd, &sc,
                                       gpuavdbg_cache_for(dd, cache, any_padded), alloc, n, ci, copy ? copy : ci);
    VkResult r = refused ? create_with_fallback(&call, pipes, refused) : create_ray_tracing(&call, n, call.sent, pipes);
    if (deferred && r == VK_SUCCESS)
        r = VK_OPERATION_NOT_DEFERRED_KHR;
    for (uint32_t i = 0; i < n; i++)
        if (pipes[i])
            remember(dd, pipes[i], ci[i].layout, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR,
                     app_stages(&sc, *remembered(dd, copy, ci, i, pStages, outs), ci[i].stageCount), ci[i].stageCount,
                     ci[i].pLibraryInfo, ci[i].flags, NULL, NULL, outs && outs[i], refused ? refused[i] : 0);
    free(refused);
    free(outs);
    scratch_free(dd, &sc);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateRayTracingPipelinesNV(VkDevice device, VkPipelineCache cache,
                                                                    uint32_t n,
                                                                    const VkRayTracingPipelineCreateInfoNV *ci,
                                                                    const VkAllocationCallbacks *alloc,
                                                                    VkPipeline *pipes)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkRayTracingPipelineCreateInfoNV *copy = NULL;
    scratch sc = {0};
    for (uint32_t i = 0; i < n; i++) {
        const VkPipelineShaderStageCreateInfo *st = substitute(dd, &sc, ci[i].pStages, ci[i].stageCount);
        if (st && !copy)
            copy = scratch_copy(&sc, ci, n, sizeof *ci);
        if (st && copy)
            copy[i].pStages = st;
    }
    VkResult r = dd->disp.CreateRayTracingPipelinesNV(device, gpuavdbg_cache_for(dd, cache, dd->set_layout != 0), n,
                                                      copy ? copy : ci, alloc, pipes);
    scratch_free(dd, &sc);
    for (uint32_t i = 0; i < n; i++)
        if (pipes[i])
            remember(dd, pipes[i], ci[i].layout, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, ci[i].pStages,
                     ci[i].stageCount, NULL, 0, NULL, NULL, 0, 0);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                                    const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    if (pipeline) {
        pthread_mutex_lock(&dd->lock);
        pipeline_info *pi = hmap_del(&dd->pipelines, GPUAVDBG_H(pipeline));
        pthread_mutex_unlock(&dd->lock);
        if (pi) /* its stages' shaders (records' code ids), the library it is */
            goPipelineDestroyed(GPUAVDBG_H(device), GPUAVDBG_H(pipeline), pi->serial);
        gpuavdbg_cc_pipeline_freed(pi);
        dd->disp.DestroyPipeline(device, pipeline, alloc);
        if (pi) /* after the pipeline: it may hold the same module and layout */
            gpuavdbg_variant_free(dd, pi->var);
        free(pi);
        return;
    }
    dd->disp.DestroyPipeline(device, pipeline, alloc);
}

uint64_t gpuavdbg_pipeline_serial(device_data *dd, uint64_t pipeline)
{
    pthread_mutex_lock(&dd->lock);
    const pipeline_info *pi = hmap_get(&dd->pipelines, pipeline);
    uint64_t serial = pi ? pi->serial : 0;
    pthread_mutex_unlock(&dd->lock);
    return serial;
}

/* ---- teardown ---------------------------------------------------------------- */

void gpuavdbg_pipelines_teardown(device_data *dd)
{
    pthread_mutex_lock(&dd->lock);
    for (size_t i = 0; i < dd->pipelines.cap; i++)
        if (dd->pipelines.slots[i].key) {
            pipeline_info *pi = dd->pipelines.slots[i].val;
            gpuavdbg_cc_pipeline_freed(pi);
            if (pi)
                gpuavdbg_variant_free(dd, pi->var);
            free(pi);
        }
    hmap_free(&dd->pipelines);
    gpuavdbg_variant_teardown(dd);
    hmap_free(&dd->layouts);
    pthread_mutex_unlock(&dd->lock);
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CreateShaderModule),
    GPUAVDBG_ICPT(DestroyShaderModule),
    GPUAVDBG_ICPT(CreatePipelineLayout),
    GPUAVDBG_ICPT(DestroyPipelineLayout),
    GPUAVDBG_ICPT(CreateComputePipelines),
    GPUAVDBG_ICPT(CreateGraphicsPipelines),
    GPUAVDBG_ICPT(CreateRayTracingPipelinesKHR),
    GPUAVDBG_ICPT(CreateRayTracingPipelinesNV),
    GPUAVDBG_ICPT(DestroyPipeline),
};

PFN_vkVoidFunction gpuavdbg_pipeline_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}
