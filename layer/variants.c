/*
 * variants.c: the fast and precise variants of a pipeline
 * (docs/decisions/precise-variant.md).
 *
 * An instrumented module with binding facts has two variants (gpuav's
 * precise switch): the precise one, which the app's VkShaderModule holds
 * (every check as before), and the fast one, whose facts are taken for
 * granted (no lookups, no precise checks behind them). A compute pipeline
 * whose create info the layer can copy is created with the fast one (a
 * module the layer makes for the call), and the layer keeps a deep copy
 * of its create info and the facts its module takes for granted. Before an action, when the pipeline
 * or the sets bound since the last evaluation changed, the facts are
 * tested against the bound sets (descriptors.c, the floors the submit
 * writes); when one fails the precise variant (the app's create info and
 * module) is bound down the chain, made on first need.
 * The app's shader module and pipeline layout are kept alive (their
 * destruction deferred) while a pipeline may still need them.
 */
#include <stdlib.h>
#include <string.h>

#include "layer.h"
#include "_cgo_export.h"

/* g_vlock guards every device's held map and the count of precise
 * variants made. */
static pthread_mutex_t g_vlock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t g_precise_made;

struct gpuavdbg_variant {
    pthread_mutex_t lock; /* guards precise and failed */
    VkPipeline pipeline; /* the app's (fast) pipeline, once created */
    gpuavdbg_fact *facts;
    uint32_t nfacts;
    VkPipeline precise; /* made on first need */
    int failed;         /* making it failed (reported) */
    /* The deep copy: everything the create info points to is owned here. */
    VkComputePipelineCreateInfo ci;
    VkSpecializationInfo spec;
    void *blocks[8];
    uint32_t nblocks;
};

/* ---- held objects: destruction deferred while a variant needs them ---- */

typedef struct held {
    uint32_t refs;
    int pending; /* the app destroyed it */
    int module;  /* a VkShaderModule, else a VkPipelineLayout */
    int has_alloc;
    VkAllocationCallbacks alloc;
} held;

/* hold takes a reference to h; 0 when out of memory. */
static int hold(device_data *dd, uint64_t h, int module)
{
    held *x = hmap_get(&dd->held, h);
    if (!x) {
        x = calloc(1, sizeof *x);
        if (!x || !hmap_put(&dd->held, h, x)) {
            free(x);
            return 0;
        }
        x->module = module;
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
    if (x->pending) {
        const VkAllocationCallbacks *a = x->has_alloc ? &x->alloc : NULL;
        if (x->module)
            dd->disp.DestroyShaderModule(dd->device, (VkShaderModule)(uintptr_t)h, a);
        else
            dd->disp.DestroyPipelineLayout(dd->device, (VkPipelineLayout)(uintptr_t)h, a);
    }
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

/* keep registers a block the variant owns; 0 when out of room or memory. */
static void *keep(gpuavdbg_variant *v, const void *src, size_t n)
{
    if (v->nblocks == sizeof v->blocks / sizeof v->blocks[0] || n == 0)
        return NULL;
    void *p = malloc(n);
    if (!p)
        return NULL;
    memcpy(p, src, n);
    v->blocks[v->nblocks++] = p;
    return p;
}

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

/* copy_spec copies a specialization info into v->spec; 0 when out of
 * memory. */
static int copy_spec(gpuavdbg_variant *v, const VkSpecializationInfo *s)
{
    if (!s)
        return 1;
    v->spec = *s;
    if (s->mapEntryCount &&
        !(v->spec.pMapEntries = keep(v, s->pMapEntries, s->mapEntryCount * sizeof *s->pMapEntries)))
        return 0;
    if (s->dataSize && !(v->spec.pData = keep(v, s->pData, s->dataSize)))
        return 0;
    return 1;
}

/* copy_compute makes v->ci a deep copy of ci: the precise variant's
 * create info. */
static int copy_compute(gpuavdbg_variant *v, const VkComputePipelineCreateInfo *ci)
{
    v->ci = *ci;
    /* A derivative's base, and a request to fail rather than compile, are
     * the app's creation's business, not the variant's. */
    v->ci.flags &= ~(VkPipelineCreateFlags)(VK_PIPELINE_CREATE_DERIVATIVE_BIT |
                                            VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT |
                                            VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT);
    v->ci.basePipelineHandle = VK_NULL_HANDLE;
    v->ci.basePipelineIndex = -1;
    if (ci->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR)
        return 0;
    if (!copy_chain(v, ci->pNext, &v->ci.pNext) || !copy_chain(v, ci->stage.pNext, &v->ci.stage.pNext))
        return 0;
    const char *name = ci->stage.pName ? ci->stage.pName : "main";
    if (!(v->ci.stage.pName = keep(v, name, strlen(name) + 1)))
        return 0;
    if (!copy_spec(v, ci->stage.pSpecializationInfo))
        return 0;
    v->ci.stage.pSpecializationInfo = ci->stage.pSpecializationInfo ? &v->spec : NULL;
    return 1;
}

static void variant_free_copy(gpuavdbg_variant *v)
{
    for (uint32_t i = 0; i < v->nblocks; i++)
        free(v->blocks[i]);
    free(v->facts);
    pthread_mutex_destroy(&v->lock);
    free(v);
}

gpuavdbg_variant *gpuavdbg_variant_compute(device_data *dd, const VkComputePipelineCreateInfo *ci,
                                           VkShaderModule *fast)
{
    *fast = VK_NULL_HANDLE;
    if (!ci->stage.module || !ci->layout)
        return NULL; /* inline code: its module goes with the call */
    uint32_t n = 0;
    size_t nwords = 0;
    gpuavdbg_fact *facts = NULL;
    uint32_t *words = NULL;
    if (!goModuleFacts(GPUAVDBG_H(dd->device), GPUAVDBG_H(ci->stage.module), &facts, &n, &words, &nwords))
        return NULL;
    gpuavdbg_variant *v = calloc(1, sizeof *v);
    if (v)
        pthread_mutex_init(&v->lock, NULL);
    VkShaderModuleCreateInfo mci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = nwords * 4, .pCode = words};
    if (!v || !copy_compute(v, ci) || dd->disp.CreateShaderModule(dd->device, &mci, NULL, fast) != VK_SUCCESS) {
        /* Not decided on the CPU: the pipeline is created with the
         * precise variant, as before. */
        *fast = VK_NULL_HANDLE;
        free(facts);
        free(words);
        if (v)
            variant_free_copy(v);
        return NULL;
    }
    free(words);
    v->facts = facts;
    v->nfacts = n;
    pthread_mutex_lock(&g_vlock);
    int mod = hold(dd, GPUAVDBG_H(ci->stage.module), 1);
    int lay = mod && hold(dd, GPUAVDBG_H(ci->layout), 0);
    if (mod && !lay)
        release(dd, GPUAVDBG_H(ci->stage.module));
    pthread_mutex_unlock(&g_vlock);
    if (!lay) { /* out of memory: created as given, precise */
        dd->disp.DestroyShaderModule(dd->device, *fast, NULL);
        *fast = VK_NULL_HANDLE;
        variant_free_copy(v);
        return NULL;
    }
    return v;
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
    release(dd, GPUAVDBG_H(v->ci.stage.module));
    release(dd, GPUAVDBG_H(v->ci.layout));
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
        const VkAllocationCallbacks *a = x->has_alloc ? &x->alloc : NULL;
        if (x->pending && x->module)
            dd->disp.DestroyShaderModule(dd->device, (VkShaderModule)(uintptr_t)h, a);
        else if (x->pending)
            dd->disp.DestroyPipelineLayout(dd->device, (VkPipelineLayout)(uintptr_t)h, a);
        free(x);
    }
    hmap_free(&dd->held);
    pthread_mutex_unlock(&g_vlock);
}

/* precise returns the precise variant, made on first need, or
 * VK_NULL_HANDLE when it cannot be made (reported once). */
static VkPipeline precise(device_data *dd, gpuavdbg_variant *v, const gpuavdbg_fact *f, uint32_t floor)
{
    pthread_mutex_lock(&v->lock);
    VkPipeline p = v->precise;
    int make = !p && !v->failed;
    VkResult r = VK_SUCCESS;
    if (make) {
        r = dd->disp.CreateComputePipelines(dd->device, VK_NULL_HANDLE, 1, &v->ci, NULL, &p);
        if (r == VK_SUCCESS)
            v->precise = p;
        else
            v->failed = 1, p = VK_NULL_HANDLE;
    }
    pthread_mutex_unlock(&v->lock);
    pthread_mutex_lock(&g_vlock);
    uint64_t made = make && r == VK_SUCCESS ? ++g_precise_made : g_precise_made;
    pthread_mutex_unlock(&g_vlock);
    if (make && r == VK_SUCCESS)
        gpuavdbg_logf(GPUAVDBG_LOG_INFO,
                      "compute pipeline 0x%llx: set %u binding %u has a floor of %u where its shaders' bounded "
                      "accesses need %u (and %u elements): its precise variant was created (precise variants "
                      "created: %llu)",
                      (unsigned long long)GPUAVDBG_H(v->pipeline), f->set, f->binding, floor, f->bound, f->length,
                      (unsigned long long)made);
    else if (make)
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED,
                      "compute pipeline 0x%llx: creating its precise variant failed (VkResult %d): the bounded "
                      "accesses of its actions whose facts fail run unchecked",
                      (unsigned long long)GPUAVDBG_H(v->pipeline), (int)r);
    return p;
}

void gpuavdbg_variant_choose(cb_state *cs, VkPipelineBindPoint bp, int bi)
{
    bound_pipeline *b = &cs->bound[bi];
    if (!b->facts_dirty || !b->var)
        return;
    b->facts_dirty = 0;
    gpuavdbg_variant *v = b->var;
    uint32_t failed = 0, floor = 0;
    VkPipeline want = (VkPipeline)(uintptr_t)b->pipeline;
    if (!gpuavdbg_desc_facts_hold(cs, bi, v->facts, v->nfacts, &failed, &floor)) {
        VkPipeline p = precise(cs->dd, v, &v->facts[failed], floor);
        if (p)
            want = p;
    }
    if (GPUAVDBG_H(want) != b->down) {
        cs->dd->disp.CmdBindPipeline(cs->cb, bp, want);
        b->down = GPUAVDBG_H(want);
    }
}
