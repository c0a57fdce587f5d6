/*
 * shaderobj.c: VK_EXT_shader_object. vkCreateShadersEXT instruments SPIR-V
 * shaders through the same Go call as vkCreateShaderModule and pads their
 * set-layout list up to the layer's slot (the layer's empty layout, then
 * its own at the slot), as pipeline layouts are padded; a list that already
 * reaches the slot leaves the shader uninstrumented, with a warning. Each
 * instrumented shader gets a layer-owned VkPipelineLayout made from its
 * padded list and its push-constant ranges (one per distinct list and
 * ranges, cached until the device goes): vkCmdBindShadersEXT (cmdbuf.c,
 * through gpuavdbg_shaderobj_layout) makes it the bind point's layout, so
 * that the layer's set is bound before the next action as for an
 * instrumented pipeline. Binary shaders pass through.
 */
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "descriptors.h"
#include "pipeline.h"
#include "shaderobj.h"
#include "_cgo_export.h"

/* The app's create info of an instrumented shader object, deep-copied, so
 * that the layer can make its uninstrumented twin when the app asks for the
 * shader's binary data: the binary the app gets must be one it can use
 * without the layer. One allocation: the struct, then its arrays. */
typedef struct so_source {
    VkShaderCreateInfoEXT ci; /* pointers into this allocation */
    VkSpecializationInfo spec;
} so_source;

/* What the layer knows about one shader object. */
typedef struct so_info {
    VkShaderStageFlagBits stage;
    VkPipelineLayout layout; /* the layer's layout for its padded list, or 0 */
    int instrumented;        /* runs instrumented code: bind the set */
    so_source *source;       /* instrumented: the app's create info */
    VkShaderEXT twin;        /* its uninstrumented twin, made on demand */
} so_info;

/* so_copy_source deep-copies a SPIR-V create info (NULL: out of memory).
 * The twin is made alone: it drops VK_SHADER_CREATE_LINK_STAGE_BIT_EXT. */
static so_source *so_copy_source(const VkShaderCreateInfoEXT *ci)
{
    const VkSpecializationInfo *sp = ci->pSpecializationInfo;
    size_t name = strlen(ci->pName ? ci->pName : "main") + 1;
    size_t need = sizeof(so_source) + ci->codeSize + ci->setLayoutCount * sizeof(VkDescriptorSetLayout) +
                  ci->pushConstantRangeCount * sizeof(VkPushConstantRange) +
                  (sp ? sp->mapEntryCount * sizeof(VkSpecializationMapEntry) + sp->dataSize : 0) + name + 16;
    so_source *s = calloc(1, need);
    if (!s)
        return NULL;
    unsigned char *p = (unsigned char *)(s + 1);
#define TAKE(dst, src, bytes)                       \
    do {                                            \
        memcpy(p, (src), (bytes));                  \
        (dst) = (void *)p;                          \
        p += ((bytes) + 7) & ~(size_t)7;            \
    } while (0)
    s->ci = *ci;
    s->ci.pNext = NULL;
    s->ci.flags &= ~(VkShaderCreateFlagsEXT)VK_SHADER_CREATE_LINK_STAGE_BIT_EXT;
    TAKE(s->ci.pCode, ci->pCode, ci->codeSize);
    TAKE(s->ci.pSetLayouts, ci->pSetLayouts, ci->setLayoutCount * sizeof(VkDescriptorSetLayout));
    TAKE(s->ci.pPushConstantRanges, ci->pPushConstantRanges, ci->pushConstantRangeCount * sizeof(VkPushConstantRange));
    TAKE(s->ci.pName, ci->pName ? ci->pName : "main", name);
    s->ci.pSpecializationInfo = NULL;
    if (sp) {
        s->spec = *sp;
        TAKE(s->spec.pMapEntries, sp->pMapEntries, sp->mapEntryCount * sizeof(VkSpecializationMapEntry));
        TAKE(s->spec.pData, sp->pData, sp->dataSize);
        s->ci.pSpecializationInfo = &s->spec;
    }
#undef TAKE
    return s;
}

/* so_free_info frees a shader's info, destroying its twin. */
static void so_free_info(device_data *dd, so_info *info)
{
    if (!info)
        return;
    if (info->twin && dd->disp.DestroyShaderEXT)
        dd->disp.DestroyShaderEXT(dd->device, info->twin, NULL);
    free(info->source);
    free(info);
}

/* One cached layer-owned pipeline layout. */
typedef struct so_layout {
    uint32_t nsets, npc;
    VkDescriptorSetLayout sets[GPUAVDBG_MAX_SLOT + 1];
    VkPushConstantRange *pc;
    VkPipelineLayout layout;
} so_layout;

/* Binary data the layer handed out (a twin's), and the create info it came
 * from: a shader the app creates from those bytes in this run is made from
 * the SPIR-V instead, and instrumented. */
typedef struct so_binary {
    size_t size;
    unsigned char *bytes;
    so_source *source;
} so_binary;

typedef struct shaderobj_dev {
    hmap shaders;  /* VkShaderEXT -> so_info* */
    hmap binaries; /* FNV-1a hash of the bytes (never 0) -> so_binary* */
    so_layout **layouts;
    uint32_t nlayouts, cap_layouts;
    int binary_data_warned; /* vkGetShaderBinaryDataEXT of an instrumented shader: warned once */
} shaderobj_dev;

/* so_dev returns dd's shader-object state, made on first use; callers
 * hold dd->lock. */
static shaderobj_dev *so_dev(device_data *dd)
{
    if (!dd->shaderobj)
        dd->shaderobj = calloc(1, sizeof *dd->shaderobj);
    return dd->shaderobj;
}

void gpuavdbg_shaderobj_teardown(device_data *dd)
{
    shaderobj_dev *so = dd->shaderobj;
    if (!so)
        return;
    for (size_t i = 0; i < so->shaders.cap; i++)
        if (so->shaders.slots[i].key)
            so_free_info(dd, so->shaders.slots[i].val);
    hmap_free(&so->shaders);
    for (size_t i = 0; i < so->binaries.cap; i++)
        if (so->binaries.slots[i].key) {
            so_binary *b = so->binaries.slots[i].val;
            free(b->bytes);
            free(b->source);
            free(b);
        }
    hmap_free(&so->binaries);
    for (uint32_t i = 0; i < so->nlayouts; i++) {
        dd->disp.DestroyPipelineLayout(dd->device, so->layouts[i]->layout, NULL);
        free(so->layouts[i]->pc);
        free(so->layouts[i]);
    }
    free(so->layouts);
    free(so);
    dd->shaderobj = NULL;
}

/* padded_layout returns the layer's pipeline layout for the padded set
 * list sets[0..nsets) and push-constant ranges pc[0..npc), made on first
 * use, or VK_NULL_HANDLE when the driver refuses it. */
static VkPipelineLayout padded_layout(device_data *dd, const VkDescriptorSetLayout *sets, uint32_t nsets,
                                      const VkPushConstantRange *pc, uint32_t npc)
{
    VkPipelineLayout out = VK_NULL_HANDLE;
    pthread_mutex_lock(&dd->lock);
    shaderobj_dev *so = so_dev(dd);
    if (!so)
        goto done;
    for (uint32_t i = 0; i < so->nlayouts; i++) {
        const so_layout *l = so->layouts[i];
        if (l->nsets == nsets && l->npc == npc && !memcmp(l->sets, sets, nsets * sizeof *sets) &&
            (npc == 0 || !memcmp(l->pc, pc, npc * sizeof *pc))) {
            out = l->layout;
            goto done;
        }
    }
    if (so->nlayouts == so->cap_layouts) {
        uint32_t ncap = so->cap_layouts ? so->cap_layouts * 2 : 8;
        so_layout **g = realloc(so->layouts, ncap * sizeof *g);
        if (!g)
            goto done;
        so->layouts = g;
        so->cap_layouts = ncap;
    }
    so_layout *l = calloc(1, sizeof *l);
    VkPushConstantRange *pcc = npc ? malloc(npc * sizeof *pcc) : NULL;
    if (!l || (npc && !pcc)) {
        free(l);
        free(pcc);
        goto done;
    }
    if (npc)
        memcpy(pcc, pc, npc * sizeof *pc);
    memcpy(l->sets, sets, nsets * sizeof *sets);
    l->nsets = nsets;
    l->npc = npc;
    l->pc = pcc;
    VkPipelineLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = nsets,
        .pSetLayouts = sets,
        .pushConstantRangeCount = npc,
        .pPushConstantRanges = pc,
    };
    /* The driver's own entry point: this layout is the layer's, never seen
     * by the app, so it is not recorded in dd->layouts. */
    if (dd->disp.CreatePipelineLayout(dd->device, &ci, NULL, &l->layout) != VK_SUCCESS || !l->layout) {
        free(pcc);
        free(l);
        goto done;
    }
    so->layouts[so->nlayouts++] = l;
    out = l->layout;
done:
    pthread_mutex_unlock(&dd->lock);
    return out;
}

/* How vkCreateShadersEXT treats one create info. */
enum {
    SO_PASS = 0,     /* binary or unusable code: the app's, untouched */
    SO_ORIGINAL,     /* SPIR-V known to Go, running uninstrumented */
    SO_INSTRUMENTED, /* instrumented words, padded list */
};

/* binary_hash is the FNV-1a hash of binary data, never 0 (hmap keys). */
static uint64_t binary_hash(const void *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ ((const unsigned char *)data)[i]) * 0x100000001b3ull;
    return h ? h : 1;
}

/* remember_binary records binary data handed out for a twin made from src
 * (which it takes over, or frees). */
static void remember_binary(device_data *dd, so_source *src, const void *data, size_t size)
{
    uint64_t h = binary_hash(data, size);
    so_binary *b = NULL;
    pthread_mutex_lock(&dd->lock);
    shaderobj_dev *so = so_dev(dd);
    if (so && !hmap_get(&so->binaries, h) && (b = calloc(1, sizeof *b)) && (b->bytes = malloc(size ? size : 1))) {
        memcpy(b->bytes, data, size);
        b->size = size;
        b->source = src;
        if (hmap_put(&so->binaries, h, b))
            src = NULL;
        else
            free(b->bytes);
    }
    pthread_mutex_unlock(&dd->lock);
    if (src) {
        if (b)
            free(b);
        free(src);
    }
}

/* map_binaries returns a copy of ci in which every create info of binary
 * data the layer handed out in this run is made SPIR-V again, from the
 * source of that binary, so that the shader is instrumented; NULL when
 * there is none (*mapped: how many). The copy points into the device's
 * so_binary entries, which live until the device goes. */
static VkShaderCreateInfoEXT *map_binaries(device_data *dd, uint32_t n, const VkShaderCreateInfoEXT *ci,
                                           uint32_t *mapped)
{
    *mapped = 0;
    VkShaderCreateInfoEXT *copy = NULL;
    pthread_mutex_lock(&dd->lock);
    shaderobj_dev *so = dd->shaderobj;
    for (uint32_t i = 0; so && so->binaries.cap && i < n; i++) {
        if (ci[i].codeType != VK_SHADER_CODE_TYPE_BINARY_EXT || !ci[i].pCode)
            continue;
        const so_binary *b = hmap_get(&so->binaries, binary_hash(ci[i].pCode, ci[i].codeSize));
        if (!b || b->size != ci[i].codeSize || memcmp(b->bytes, ci[i].pCode, b->size) ||
            b->source->ci.stage != ci[i].stage)
            continue;
        if (!copy && !(copy = malloc(n * sizeof *copy)))
            break;
        if (*mapped == 0)
            memcpy(copy, ci, n * sizeof *copy);
        const VkShaderCreateInfoEXT *src = &b->source->ci;
        copy[i].codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
        copy[i].pCode = src->pCode;
        copy[i].codeSize = src->codeSize;
        copy[i].pName = src->pName;
        copy[i].pSpecializationInfo = src->pSpecializationInfo;
        (*mapped)++;
    }
    pthread_mutex_unlock(&dd->lock);
    return copy;
}

static VkResult create_shaders(device_data *dd, VkDevice device, uint32_t n, const VkShaderCreateInfoEXT *ci,
                               const VkAllocationCallbacks *alloc, VkShaderEXT *shaders);

/* vkCreateShadersEXT: shaders from binary data the layer handed out in this
 * run are made from their SPIR-V (and instrumented); then create_shaders. */
static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateShadersEXT(VkDevice device, uint32_t n,
                                                         const VkShaderCreateInfoEXT *ci,
                                                         const VkAllocationCallbacks *alloc, VkShaderEXT *shaders)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd || !dd->disp.CreateShadersEXT)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (n == 0)
        return dd->disp.CreateShadersEXT(device, n, ci, alloc, shaders);
    uint32_t mapped = 0;
    VkShaderCreateInfoEXT *from_binary = gpuavdbg_instrumenting(dd) ? map_binaries(dd, n, ci, &mapped) : NULL;
    if (mapped)
        gpuavdbg_logf(GPUAVDBG_LOG_INFO,
                      "%u shader object(s) created from binary data the layer handed out in this run: made from "
                      "their SPIR-V instead, so that they are checked",
                      mapped);
    VkResult r = create_shaders(dd, device, n, from_binary ? from_binary : ci, alloc, shaders);
    free(from_binary);
    return r;
}

/* create_shaders instruments the SPIR-V shaders of a vkCreateShadersEXT
 * call and calls down. */
static VkResult create_shaders(device_data *dd, VkDevice device, uint32_t n, const VkShaderCreateInfoEXT *ci,
                               const VkAllocationCallbacks *alloc, VkShaderEXT *shaders)
{

    typedef VkDescriptorSetLayout padded_sets[GPUAVDBG_MAX_SLOT + 1];
    VkShaderCreateInfoEXT *copy = malloc(n * sizeof *copy);
    padded_sets *sets = calloc(n, sizeof *sets);
    uint32_t *ids = calloc(n, sizeof *ids);
    int *kind = calloc(n, sizeof *kind);
    uint32_t **words = calloc(n, sizeof *words);
    const char **why = calloc(n, sizeof *why); /* replaces Go's warning when set */
    VkPipelineLayout *layouts = calloc(n, sizeof *layouts);
    void **specs = calloc(n, sizeof *specs); /* the pipeline word's (gpuavdbg_spec_with_word) */
    if (!copy || !sets || !ids || !kind || !words || !why || !layouts || !specs) {
        free(specs);
        free(copy);
        free(sets);
        free(ids);
        free(kind);
        free(words);
        free(why);
        free(layouts);
        gpuavdbg_logf(GPUAVDBG_LOG_ERROR, "out of memory: %u shader objects run uninstrumented", n);
        return dd->disp.CreateShadersEXT(device, n, ci, alloc, shaders);
    }
    memcpy(copy, ci, n * sizeof *copy);
    int any_instr = 0;
    const int instrumenting = gpuavdbg_instrumenting(dd) && dd->set_layout;
    for (uint32_t i = 0; i < n; i++) {
        if (ci[i].codeType == VK_SHADER_CODE_TYPE_BINARY_EXT)
            continue; /* goShaderObjectBinary, once the driver made it */
        if (ci[i].codeType != VK_SHADER_CODE_TYPE_SPIRV_EXT || !ci[i].pCode || ci[i].codeSize == 0 ||
            ci[i].codeSize % 4 != 0 || ((uintptr_t)ci[i].pCode & 3) != 0)
            continue; /* the driver reports it */
        kind[i] = SO_ORIGINAL;
        int enabled = instrumenting;
        for (uint32_t s = 0; enabled && s < ci[i].setLayoutCount; s++)
            if (gpuavdbg_desc_layout_kind(ci[i].pSetLayouts[s]) & GPUAVDBG_DSL_DB) {
                enabled = 0;
                why[i] = "its set layouts are descriptor-buffer layouts, which the layer does not pad for shader "
                         "objects: it runs uninstrumented";
                gpuavdbg_logf(GPUAVDBG_LOG_ERROR,
                              "a shader object (stage 0x%x) uses descriptor buffers, which the layer does not "
                              "serve for shader objects: it runs uninstrumented",
                              (unsigned)ci[i].stage);
            }
        if (enabled && ci[i].setLayoutCount > dd->slot) {
            enabled = 0;
            why[i] = "its set layouts use the descriptor set the layer needs: it runs uninstrumented";
            gpuavdbg_logf(GPUAVDBG_LOG_ERROR,
                          "a shader object (stage 0x%x) uses %u descriptor set layouts, including set %u that the "
                          "layer needs: it runs uninstrumented. Use fewer sets, or turn on reserve-slot "
                          "(VK_LAYER_GPUAV_DBG_RESERVE_SLOT=1) so the app sees maxBoundDescriptorSets - 1",
                          (unsigned)ci[i].stage, ci[i].setLayoutCount, dd->slot);
        }
        if (enabled) {
            for (uint32_t s = 0; s < ci[i].setLayoutCount; s++)
                sets[i][s] = ci[i].pSetLayouts[s];
            for (uint32_t s = ci[i].setLayoutCount; s < dd->slot; s++)
                sets[i][s] = dd->empty_layout;
            sets[i][dd->slot] = dd->set_layout;
            layouts[i] = padded_layout(dd, sets[i], dd->slot + 1, ci[i].pPushConstantRanges,
                                       ci[i].pushConstantRangeCount);
            if (!layouts[i]) {
                enabled = 0;
                why[i] = "adding the layer's descriptor set to its set layouts failed: it runs uninstrumented";
                gpuavdbg_logf(GPUAVDBG_LOG_WARNING,
                              "a shader object (stage 0x%x): adding the layer's descriptor set to its set layouts "
                              "failed: it runs uninstrumented",
                              (unsigned)ci[i].stage);
            }
        }
        size_t nw = 0;
        int deferred = 0; /* never for shader objects (later 0) */
        ids[i] = goInstrumentShader(GPUAVDBG_H(device), enabled, dd->slot, (uint32_t *)ci[i].pCode,
                                    ci[i].codeSize / 4, 0, &words[i], &nw, &deferred);
        if (!words[i] || nw == 0)
            continue;
        kind[i] = SO_INSTRUMENTED;
        any_instr = 1;
        copy[i].pCode = words[i];
        copy[i].codeSize = nw * 4;
        copy[i].setLayoutCount = dd->slot + 1;
        copy[i].pSetLayouts = sets[i];
        /* A mesh shader made to run without a task shader: its pipeline
         * word says so (docs/decisions/pipeline-word.md). */
        if (ci[i].stage == VK_SHADER_STAGE_MESH_BIT_EXT && (ci[i].flags & VK_SHADER_CREATE_NO_TASK_SHADER_BIT_EXT))
            copy[i].pSpecializationInfo =
                gpuavdbg_spec_with_word(ci[i].pSpecializationInfo, GPUAVDBG_PIPELINE_NO_TASK, &specs[i]);
    }
    /* Linked shaders are created together; a stage Go left alone gets the
     * padded list of its instrumented partners too, so that the linked
     * stages keep one set-layout list. */
    int linked_instr = 0;
    for (uint32_t i = 0; i < n; i++)
        linked_instr |= kind[i] == SO_INSTRUMENTED && (ci[i].flags & VK_SHADER_CREATE_LINK_STAGE_BIT_EXT);
    for (uint32_t i = 0; linked_instr && i < n; i++)
        if (kind[i] == SO_ORIGINAL && (ci[i].flags & VK_SHADER_CREATE_LINK_STAGE_BIT_EXT) && layouts[i]) {
            copy[i].setLayoutCount = dd->slot + 1;
            copy[i].pSetLayouts = sets[i];
        }

    VkResult r = dd->disp.CreateShadersEXT(device, n, any_instr ? copy : ci, alloc, shaders);
    int32_t refused = 0;
    int *retried = NULL;
    if (r < 0 && r != VK_ERROR_OUT_OF_HOST_MEMORY && r != VK_ERROR_OUT_OF_DEVICE_MEMORY && r != VK_ERROR_DEVICE_LOST &&
        any_instr && (retried = calloc(n, sizeof *retried))) {
        /* The driver refused the layer's code (an error other than memory
         * or a lost device): the shaders it did not make are made again
         * from the app's create infos, in one call (linked stages fail and
         * are made together); those it made are kept. The app gets its
         * shaders, the instrumented ones running their original code
         * (docs/decisions/never-take-the-app-down.md). */
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++)
            if (!shaders[i]) {
                copy[m] = ci[i];
                retried[i] = 1;
                m++;
            }
        refused = (int32_t)r;
        VkShaderEXT *made = m ? calloc(m, sizeof *made) : NULL;
        if (made) {
            r = dd->disp.CreateShadersEXT(device, m, copy, alloc, made);
            for (uint32_t i = 0, k = 0; i < n; i++)
                if (retried[i]) {
                    shaders[i] = made[k++];
                    layouts[i] = VK_NULL_HANDLE;
                    if (kind[i] == SO_INSTRUMENTED)
                        kind[i] = SO_ORIGINAL;
                    else
                        retried[i] = 0; /* its own failure or success: no note */
                }
        }
        free(made);
    }
    for (uint32_t i = 0; i < n; i++) {
        /* Shaders that failed are VK_NULL_HANDLE; the others are the app's
         * even when the call failed. */
        VkShaderEXT s = shaders[i];
        if (kind[i] != SO_PASS)
            goShaderObjectCreated(GPUAVDBG_H(device), ids[i], GPUAVDBG_H(s), kind[i] == SO_INSTRUMENTED,
                                  (char *)(why[i] ? why[i] : ""), retried && retried[i] ? refused : 0);
        else if (ci[i].codeType == VK_SHADER_CODE_TYPE_SPIRV_EXT)
            /* Not SPIR-V words: in the session with the reason, as a module. */
            goShaderUnchecked(GPUAVDBG_H(device), (uint8_t *)ci[i].pCode, ci[i].pCode ? ci[i].codeSize : 0,
                              ci[i].codeSize, GPUAVDBG_H(s), (int32_t)(s ? VK_SUCCESS : r));
        else if (ci[i].codeType == VK_SHADER_CODE_TYPE_BINARY_EXT && s)
            /* The driver's code, which the layer cannot instrument: in the
             * session as a shader left unchecked, with the reason. */
            goShaderObjectBinary(GPUAVDBG_H(device), GPUAVDBG_H(s), (uint32_t)ci[i].stage);
        free(words[i]);
        if (!s)
            continue;
        so_info *info = malloc(sizeof *info);
        if (!info)
            continue;
        info->stage = ci[i].stage;
        info->instrumented = kind[i] == SO_INSTRUMENTED;
        info->layout = info->instrumented ? layouts[i] : VK_NULL_HANDLE;
        info->source = info->instrumented ? so_copy_source(&ci[i]) : NULL;
        info->twin = VK_NULL_HANDLE;
        pthread_mutex_lock(&dd->lock);
        shaderobj_dev *so = so_dev(dd);
        so_info *old = so ? hmap_get(&so->shaders, GPUAVDBG_H(s)) : NULL;
        if (so && hmap_put(&so->shaders, GPUAVDBG_H(s), info))
            so_free_info(dd, old);
        else
            so_free_info(dd, info);
        pthread_mutex_unlock(&dd->lock);
    }
    free(retried);
    free(copy);
    free(sets);
    free(ids);
    free(kind);
    free(words);
    free(why);
    free(layouts);
    for (uint32_t i = 0; i < n; i++)
        free(specs[i]);
    free(specs);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyShaderEXT(VkDevice device, VkShaderEXT shader,
                                                     const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd || !dd->disp.DestroyShaderEXT)
        return;
    if (shader) {
        pthread_mutex_lock(&dd->lock);
        if (dd->shaderobj)
            so_free_info(dd, hmap_del(&dd->shaderobj->shaders, GPUAVDBG_H(shader)));
        pthread_mutex_unlock(&dd->lock);
    }
    dd->disp.DestroyShaderEXT(device, shader, alloc);
}

/* twin_of returns the uninstrumented twin of an instrumented shader,
 * making it on first use from the app's create info (VK_NULL_HANDLE: not
 * instrumented, or the twin cannot be made: a set layout the app gave is
 * gone, or the driver refused). Called with dd->lock held. */
static VkShaderEXT twin_of(device_data *dd, so_info *info, int *failed)
{
    *failed = 0;
    if (!info || !info->instrumented)
        return VK_NULL_HANDLE;
    if (info->twin)
        return info->twin;
    *failed = 1;
    if (!info->source)
        return VK_NULL_HANDLE;
    for (uint32_t i = 0; i < info->source->ci.setLayoutCount; i++)
        if (!gpuavdbg_desc_layout_alive(info->source->ci.pSetLayouts[i]))
            return VK_NULL_HANDLE;
    VkShaderEXT t = VK_NULL_HANDLE;
    if (dd->disp.CreateShadersEXT(dd->device, 1, &info->source->ci, NULL, &t) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    *failed = 0;
    info->twin = t;
    return t;
}

/* vkGetShaderBinaryDataEXT of an instrumented shader returns the binary of
 * its uninstrumented twin, made from the app's create info, so that a
 * shader the app makes from it later, with or without the layer, runs the
 * app's code (docs/decisions/shader-object-binaries.md). Where the twin
 * cannot be made, the instrumented shader's binary goes out, with a
 * warning (once). */
static VKAPI_ATTR VkResult VKAPI_CALL icpt_GetShaderBinaryDataEXT(VkDevice device, VkShaderEXT shader, size_t *size,
                                                               void *data)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd || !dd->disp.GetShaderBinaryDataEXT)
        return VK_ERROR_INITIALIZATION_FAILED;
    pthread_mutex_lock(&dd->lock);
    shaderobj_dev *so = dd->shaderobj;
    so_info *info = so ? hmap_get(&so->shaders, GPUAVDBG_H(shader)) : NULL;
    int failed = 0;
    VkShaderEXT twin = twin_of(dd, info, &failed);
    int warn = failed && !so->binary_data_warned;
    if (warn)
        so->binary_data_warned = 1;
    /* The source of the data handed out, kept to recognise it later. */
    so_source *src = twin && data ? so_copy_source(&info->source->ci) : NULL;
    pthread_mutex_unlock(&dd->lock);
    if (warn)
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING,
                      "vkGetShaderBinaryDataEXT: shader object 0x%llx is instrumented and the layer cannot make its "
                      "uninstrumented twin (a set layout it was created with is gone, or the driver refused), so its "
                      "binary data contains the layer's instrumentation, which writes through descriptor set %u: a "
                      "shader created from that binary (with or without the layer) runs it without the layer's set "
                      "bound. Save shader binaries from a run without the layer",
                      (unsigned long long)GPUAVDBG_H(shader), dd->slot);
    VkResult r = dd->disp.GetShaderBinaryDataEXT(device, twin ? twin : shader, size, data);
    if (src && r == VK_SUCCESS)
        remember_binary(dd, src, data, *size);
    else
        free(src);
    return r;
}

VkPipelineLayout gpuavdbg_shaderobj_layout(device_data *dd, const VkShaderEXT *shaders)
{
    VkPipelineLayout layout = VK_NULL_HANDLE;
    pthread_mutex_lock(&dd->lock);
    const shaderobj_dev *so = dd->shaderobj;
    for (int si = 0; so && si < GPUAVDBG_SO_STAGES && !layout; si++) {
        const so_info *info = shaders[si] ? hmap_get(&so->shaders, GPUAVDBG_H(shaders[si])) : NULL;
        if (info && info->instrumented && info->layout)
            layout = info->layout;
    }
    pthread_mutex_unlock(&dd->lock);
    return layout;
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CreateShadersEXT),
    GPUAVDBG_ICPT(DestroyShaderEXT),
    GPUAVDBG_ICPT(GetShaderBinaryDataEXT),
};

PFN_vkVoidFunction gpuavdbg_shaderobj_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}
