/*
 * descriptors.c: the app's descriptor state, for the descriptor checks
 * (binding 2 of the layer's set; layout in gpuav/inputs.go).
 *
 * Tracked on the host: set layouts (binding types, counts, flags), sets
 * (variable descriptor counts resolved at allocation), every write and
 * copy (vkUpdateDescriptorSets, update templates), pools (free, reset,
 * destroy), and resource liveness: every VkBuffer, VkImageView,
 * VkBufferView and VkSampler gets a resource id at creation; destroying
 * it marks the id dead. Per command buffer, the sets bound at each bind
 * point are snapshot when an instrumented action is recorded (only when
 * the binds changed since the last one), in C, with no call into Go.
 * Before a submit, gpuavdbg_desc_write_state lays out the state the
 * shaders read, one block per distinct set (with its dynamic offsets).
 *
 * One lock (g_lock) guards all of it: descriptor updates may come from any
 * thread. Push descriptors (vkCmdPushDescriptorSetKHR and its template
 * form) are tracked per command buffer: each push makes a set of the push
 * layout of that set index (pipeline layouts keep copies of their push set
 * layouts) owned by the command buffer until it is recorded again.
 *
 * Descriptor buffers (VK_EXT_descriptor_buffer,
 * docs/decisions/descriptor-buffers.md): every vkGetDescriptorEXT is
 * remembered by the bytes it returned (a hash of type and bytes -> what the
 * descriptor refers to); per command buffer, the descriptor buffers bound
 * and each set's (layout, address) from vkCmdSetDescriptorBufferOffsetsEXT.
 * The set's bytes are read from the buffer's memory (memory.c) when facts
 * are tested at recording and again at submit, and each descriptor's bytes
 * are looked up: the set is then described like an allocated one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "addresses.h"
#include "descriptors.h"
#include "memory.h"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* g_gen counts the changes to what a binding fact reads (sets, their
 * contents, resources and buffer sizes): each change bumps it, with g_lock
 * held, and a fact result remembered under one generation
 * (gpuavdbg_desc_facts_hold) is reused only while it lasts. It starts at 1:
 * a zeroed memo entry never matches. */
static uint64_t g_gen = 1;

/* changed marks the state facts read as changed. Called with g_lock held. */
static void changed(void)
{
    __atomic_add_fetch(&g_gen, 1, __ATOMIC_RELEASE);
}

static uint32_t texel_size(VkFormat f);

/* ---- resources ----------------------------------------------------------- */

/* Resource ids start at 1; 0 is "never written". g_alive is a bitmap by id. */
static hmap g_res;       /* handle -> (void*)(uintptr_t)id */
static uint8_t *g_alive; /* bit per id */
static uint32_t g_next_id = 1, g_alive_cap;
/* A written descriptor whose resource the layer never saw created (e.g. a
 * handle from an extension it does not intercept): valid. */
#define RES_UNKNOWN 0xFFFFFFFEu

typedef struct buf_info {
    VkDeviceSize size;
    int copyable; /* VK_BUFFER_USAGE_TRANSFER_SRC_BIT: the pre-pass can copy from it */
} buf_info;
static hmap g_bufs; /* VkBuffer -> buf_info* */

typedef struct view_info {
    uint32_t texels; /* texel count of a buffer view */
} view_info;
static hmap g_views; /* VkBufferView -> view_info* */

static void res_created(uint64_t h)
{
    if (!h)
        return;
    uint32_t id = g_next_id;
    if (id >= RES_UNKNOWN)
        return; /* out of ids: later resources read as unknown (valid) */
    if (id / 8 >= g_alive_cap) {
        uint32_t ncap = g_alive_cap ? g_alive_cap * 2 : 4096;
        uint8_t *n = realloc(g_alive, ncap);
        if (!n)
            return;
        memset(n + g_alive_cap, 0, ncap - g_alive_cap);
        g_alive = n;
        g_alive_cap = ncap;
    }
    if (!hmap_put(&g_res, h, (void *)(uintptr_t)id))
        return;
    g_next_id++;
    g_alive[id / 8] |= (uint8_t)(1u << (id % 8));
}

static void res_destroyed(uint64_t h)
{
    if (!h)
        return;
    uint32_t id = (uint32_t)(uintptr_t)hmap_del(&g_res, h);
    if (id && id / 8 < g_alive_cap)
        g_alive[id / 8] &= (uint8_t) ~(1u << (id % 8));
}

static uint32_t res_id(uint64_t h)
{
    if (!h)
        return 0;
    uint32_t id = (uint32_t)(uintptr_t)hmap_get(&g_res, h);
    return id ? id : RES_UNKNOWN;
}

/* res_state: what the shader sees for a written element: its id, or
 * DESC_DESTROYED. */
static uint32_t res_state(uint32_t id)
{
    if (id == 0 || id == RES_UNKNOWN)
        return id;
    if (id / 8 < g_alive_cap && (g_alive[id / 8] & (1u << (id % 8))))
        return id;
    return GPUAVDBG_DESC_DESTROYED;
}

/* ---- layouts and sets ------------------------------------------------------ */

typedef struct dbinding {
    uint32_t type;  /* VkDescriptorType, GPUAVDBG_DESC_TYPE_UNUSED if absent */
    uint32_t count; /* array length (variable count resolved for sets) */
    uint32_t flags; /* VkDescriptorBindingFlags */
    uint32_t first; /* first element in the set's elems */
    uint32_t dyn;   /* dynamic buffer binding: index of its first dynamic offset */
} dbinding;

typedef struct dlayout {
    uint32_t nbind; /* highest binding + 1 */
    dbinding *b;
    uint32_t ndyn;
    int push; /* VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR */
    int db;   /* VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT */
    /* Descriptor-buffer layouts the layer can read (db_ok): per binding its
     * byte offset in the set (vkGetDescriptorSetLayoutBindingOffsetEXT) and
     * one descriptor's size (0: not read, inline uniform blocks); the
     * set's size (vkGetDescriptorSetLayoutSizeEXT). */
    int db_ok;
    VkDeviceSize *boff;
    uint32_t *bsize;
    VkDeviceSize size;
    uint32_t refs; /* copies: the pipeline layouts and command buffers holding one */
} dlayout;

/* One element of a set: the resource ids (image view and sampler for a
 * combined image sampler), and for buffers the offset and range. */
typedef struct delem {
    uint32_t id, id2;
    uint64_t buffer; /* buffers: the VkBuffer, to resolve VK_WHOLE_SIZE and dynamic offsets */
    VkDeviceSize offset, range;
    /* range is the bound range in bytes (buffers) or the texel count
     * (texel buffers) as it is: a descriptor of a descriptor buffer, made
     * from an address */
    uint32_t direct;
    /* a descriptor-buffer element whose bytes the layer does not know: the
     * checks report nothing for it (written, unknown range), and no fact
     * holds on its binding (a fast variant may read every element) */
    uint32_t unknown;
} delem;

typedef struct dset {
    uint64_t pool;
    uint32_t nbind;
    dbinding *b;
    uint32_t nelems;
    delem *e;
    uint32_t ndyn;
} dset;

static hmap g_layouts; /* VkDescriptorSetLayout -> dlayout* */
static hmap g_sets;    /* VkDescriptorSet -> dset* */

static int is_dynamic(uint32_t t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

static int is_buffer(uint32_t t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || is_dynamic(t);
}

static int is_texel(uint32_t t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

static void free_layout(dlayout *l)
{
    if (l) {
        free(l->b);
        free(l->boff);
        free(l->bsize);
        free(l);
    }
}

/* copy_layout returns a copy of l holding one reference, or NULL. */
static dlayout *copy_layout(const dlayout *l)
{
    uint32_t n = l->nbind ? l->nbind : 1;
    dlayout *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *l;
    c->b = malloc(n * sizeof *c->b);
    c->boff = l->boff ? malloc(n * sizeof *c->boff) : NULL;
    c->bsize = l->bsize ? malloc(n * sizeof *c->bsize) : NULL;
    if (!c->b || (l->boff && !c->boff) || (l->bsize && !c->bsize)) {
        c->db_ok = 0;
        free_layout(c);
        return NULL;
    }
    memcpy(c->b, l->b, l->nbind * sizeof *c->b);
    if (l->boff)
        memcpy(c->boff, l->boff, l->nbind * sizeof *c->boff);
    if (l->bsize)
        memcpy(c->bsize, l->bsize, l->nbind * sizeof *c->bsize);
    c->refs = 1;
    return c;
}

/* unref_layout drops a reference to a copy. Called with g_lock held. */
static void unref_layout(dlayout *l)
{
    if (l && --l->refs == 0)
        free_layout(l);
}

static void free_set(dset *s)
{
    if (s) {
        free(s->b);
        free(s->e);
        free(s);
    }
}

static dset *new_set(const dlayout *l, uint64_t pool, uint32_t variable)
{
    dset *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->pool = pool;
    s->nbind = l->nbind;
    s->ndyn = 0;
    s->b = calloc(l->nbind ? l->nbind : 1, sizeof *s->b);
    if (!s->b) {
        free(s);
        return NULL;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < l->nbind; i++) {
        dbinding b = l->b[i];
        if (b.type != GPUAVDBG_DESC_TYPE_UNUSED && (b.flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) &&
            i + 1 == l->nbind && variable != UINT32_MAX)
            b.count = variable;
        if (b.type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
            b.count = 1; /* one element, always "written" */
        b.first = n;
        if (b.type != GPUAVDBG_DESC_TYPE_UNUSED)
            n += b.count;
        if (is_dynamic(b.type)) {
            b.dyn = s->ndyn;
            s->ndyn += b.count;
        }
        s->b[i] = b;
    }
    s->nelems = n;
    s->e = calloc(n ? n : 1, sizeof *s->e);
    if (!s->e) {
        free_set(s);
        return NULL;
    }
    for (uint32_t i = 0; i < l->nbind; i++)
        if (s->b[i].type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
            s->e[s->b[i].first].id = RES_UNKNOWN;
    return s;
}

/* ---- writes --------------------------------------------------------------- */

/* advance moves (binding, element) past full bindings (consecutive binding
 * updates); returns 0 when past the set's end. */
static int advance(const dset *s, uint32_t *binding, uint32_t *elem)
{
    while (*binding < s->nbind &&
           (s->b[*binding].type == GPUAVDBG_DESC_TYPE_UNUSED || *elem >= s->b[*binding].count)) {
        if (s->b[*binding].type != GPUAVDBG_DESC_TYPE_UNUSED)
            *elem -= s->b[*binding].count;
        (*binding)++;
    }
    return *binding < s->nbind;
}

/* The one element a descriptor write sets, described independently of
 * where its data comes from (VkWriteDescriptorSet or a template). */
static void set_image(delem *e, uint32_t type, const VkDescriptorImageInfo *ii)
{
    memset(e, 0, sizeof *e);
    if (type == VK_DESCRIPTOR_TYPE_SAMPLER) {
        e->id = res_id(GPUAVDBG_H(ii->sampler));
    } else {
        e->id = res_id(GPUAVDBG_H(ii->imageView));
        if (type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
            e->id2 = res_id(GPUAVDBG_H(ii->sampler));
    }
}

static void set_buffer(delem *e, const VkDescriptorBufferInfo *bi)
{
    memset(e, 0, sizeof *e);
    e->id = res_id(GPUAVDBG_H(bi->buffer));
    e->buffer = GPUAVDBG_H(bi->buffer);
    e->offset = bi->offset;
    e->range = bi->range;
}

static void set_texel(delem *e, VkBufferView v)
{
    memset(e, 0, sizeof *e);
    e->id = res_id(GPUAVDBG_H(v));
    e->buffer = GPUAVDBG_H(v); /* the view, for its texel count */
}

static void set_plain(delem *e, uint64_t h)
{
    memset(e, 0, sizeof *e);
    e->id = res_id(h);
}

static void apply_write_to(dset *s, const VkWriteDescriptorSet *w)
{
    if (!s)
        return;
    uint32_t binding = w->dstBinding, elem = w->dstArrayElement;
    if (w->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
        return; /* bytes, not elements: the block counts as written */
    const VkWriteDescriptorSetAccelerationStructureKHR *as = NULL;
    for (const VkBaseInStructure *p = w->pNext; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR)
            as = (const VkWriteDescriptorSetAccelerationStructureKHR *)p;
    for (uint32_t i = 0; i < w->descriptorCount; i++, elem++) {
        if (!advance(s, &binding, &elem))
            return;
        delem *e = &s->e[s->b[binding].first + elem];
        uint32_t t = w->descriptorType;
        switch (t) {
        case VK_DESCRIPTOR_TYPE_SAMPLER:
        case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
            if (w->pImageInfo)
                set_image(e, t, &w->pImageInfo[i]);
            break;
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
            if (w->pBufferInfo)
                set_buffer(e, &w->pBufferInfo[i]);
            break;
        case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
            if (w->pTexelBufferView)
                set_texel(e, w->pTexelBufferView[i]);
            break;
        case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR:
            if (as && i < as->accelerationStructureCount)
                set_plain(e, GPUAVDBG_H(as->pAccelerationStructures[i]));
            break;
        default:
            set_plain(e, RES_UNKNOWN); /* a type the layer does not look into: written */
            e->id = RES_UNKNOWN;
            break;
        }
    }
}

static void apply_write(const VkWriteDescriptorSet *w)
{
    apply_write_to(hmap_get(&g_sets, GPUAVDBG_H(w->dstSet)), w);
}

static void apply_copy(const VkCopyDescriptorSet *c)
{
    dset *src = hmap_get(&g_sets, GPUAVDBG_H(c->srcSet));
    dset *dst = hmap_get(&g_sets, GPUAVDBG_H(c->dstSet));
    if (!src || !dst)
        return;
    uint32_t sb = c->srcBinding, se = c->srcArrayElement, db = c->dstBinding, de = c->dstArrayElement;
    for (uint32_t i = 0; i < c->descriptorCount; i++, se++, de++) {
        if (!advance(src, &sb, &se) || !advance(dst, &db, &de))
            return;
        if (src->b[sb].type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
            return;
        dst->e[dst->b[db].first + de] = src->e[src->b[sb].first + se];
    }
}

/* ---- pipeline layouts (push descriptors, descriptor buffers) ------------------ */

/* A pipeline layout's push and descriptor-buffer set layouts, copied (the
 * app may destroy a set layout while its pipeline layouts live, and a
 * pipeline layout while a command buffer that set offsets with it is
 * pending: a command buffer holds references to the copies it uses):
 * sets[i] is NULL where set i is neither. */
typedef struct dplayout {
    uint32_t n;
    dlayout **sets;
} dplayout;
static hmap g_playouts; /* VkPipelineLayout -> dplayout* */

static void free_playout(dplayout *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; i < p->n; i++)
        unref_layout(p->sets[i]);
    free(p->sets);
    free(p);
}

void gpuavdbg_desc_pipeline_layout_created(VkPipelineLayout pl, const VkPipelineLayoutCreateInfo *ci)
{
    if (!pl || !ci)
        return;
    dplayout *p = calloc(1, sizeof *p);
    if (!p)
        return;
    p->sets = calloc(ci->setLayoutCount ? ci->setLayoutCount : 1, sizeof *p->sets);
    if (!p->sets) {
        free(p);
        return;
    }
    p->n = ci->setLayoutCount;
    int any = 0;
    pthread_mutex_lock(&g_lock);
    for (uint32_t i = 0; i < ci->setLayoutCount; i++) {
        const dlayout *l = hmap_get(&g_layouts, GPUAVDBG_H(ci->pSetLayouts[i]));
        if (!l || (!l->push && !l->db))
            continue;
        p->sets[i] = copy_layout(l);
        any |= p->sets[i] != NULL;
    }
    free_playout(hmap_del(&g_playouts, GPUAVDBG_H(pl)));
    if (!any || !hmap_put(&g_playouts, GPUAVDBG_H(pl), p))
        free_playout(p);
    pthread_mutex_unlock(&g_lock);
}

void gpuavdbg_desc_pipeline_layout_destroyed(VkPipelineLayout pl)
{
    if (!pl)
        return;
    pthread_mutex_lock(&g_lock);
    free_playout(hmap_del(&g_playouts, GPUAVDBG_H(pl)));
    pthread_mutex_unlock(&g_lock);
}

/* playout_set returns the copy of set index `set` of pipeline layout pl,
 * or NULL. Called with g_lock held. */
static dlayout *playout_set(VkPipelineLayout pl, uint32_t set)
{
    const dplayout *p = hmap_get(&g_playouts, GPUAVDBG_H(pl));
    return p && set < p->n ? p->sets[set] : NULL;
}

/* push_layout returns the push set layout of set index `set` of pipeline
 * layout pl, or NULL. Called with g_lock held. */
static const dlayout *push_layout(VkPipelineLayout pl, uint32_t set)
{
    const dlayout *l = playout_set(pl, set);
    return l && l->push ? l : NULL;
}

/* ---- update templates ------------------------------------------------------ */

typedef struct dtemplate {
    int push; /* a push-descriptor template: applied to the pushed set */
    int bi;   /* push templates: the bind point index */
    uint32_t n;
    VkDescriptorUpdateTemplateEntry *entries;
} dtemplate;
static hmap g_templates;

static void apply_template(dset *s, const dtemplate *t, const void *data)
{
    if (!s || !data)
        return;
    for (uint32_t k = 0; k < t->n; k++) {
        const VkDescriptorUpdateTemplateEntry *en = &t->entries[k];
        uint32_t type = en->descriptorType;
        if (type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
            continue;
        uint32_t binding = en->dstBinding, elem = en->dstArrayElement;
        for (uint32_t i = 0; i < en->descriptorCount; i++, elem++) {
            if (!advance(s, &binding, &elem))
                break;
            delem *e = &s->e[s->b[binding].first + elem];
            const unsigned char *p = (const unsigned char *)data + en->offset + (size_t)i * en->stride;
            switch (type) {
            case VK_DESCRIPTOR_TYPE_SAMPLER:
            case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
            case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
            case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
            case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
                VkDescriptorImageInfo ii;
                memcpy(&ii, p, sizeof ii);
                set_image(e, type, &ii);
                break;
            }
            case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
            case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
            case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
            case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: {
                VkDescriptorBufferInfo bi;
                memcpy(&bi, p, sizeof bi);
                set_buffer(e, &bi);
                break;
            }
            case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
            case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
                VkBufferView v;
                memcpy(&v, p, sizeof v);
                set_texel(e, v);
                break;
            }
            default: {
                uint64_t h;
                memcpy(&h, p, sizeof h);
                set_plain(e, h);
                break;
            }
            }
        }
    }
}

/* ---- descriptor buffers: the device's sizes, the bytes of each descriptor ---- */

/* The device's descriptor-buffer properties (made where the app enabled
 * VK_EXT_descriptor_buffer; read-only afterwards). */
typedef struct desc_dev {
    VkPhysicalDeviceDescriptorBufferPropertiesEXT p;
    int robust; /* robustBufferAccess: buffer descriptors have their robust sizes */
} desc_dev;

void gpuavdbg_desc_device_created(device_data *dd, const VkDeviceCreateInfo *ci)
{
    if (!dd->descriptor_buffer || dd->desc)
        return;
    PFN_vkGetPhysicalDeviceProperties2 props2 = dd->inst->disp.GetPhysicalDeviceProperties2
                                                    ? dd->inst->disp.GetPhysicalDeviceProperties2
                                                    : dd->inst->disp.GetPhysicalDeviceProperties2KHR;
    desc_dev *x = calloc(1, sizeof *x);
    if (!x || !props2) {
        free(x);
        return; /* descriptor-buffer sets read as unknown: unchecked, with the reason */
    }
    x->p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT;
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &x->p};
    props2(dd->physical, &p2);
    if (ci && ci->pEnabledFeatures && ci->pEnabledFeatures->robustBufferAccess)
        x->robust = 1;
    for (const VkBaseInStructure *p = ci ? ci->pNext : NULL; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 &&
            ((const VkPhysicalDeviceFeatures2 *)p)->features.robustBufferAccess)
            x->robust = 1;
    dd->desc = x;
}

void gpuavdbg_desc_teardown(device_data *dd)
{
    free(dd->desc);
    dd->desc = NULL;
}

/* db_size is the size of one descriptor of a type in a descriptor buffer,
 * 0 for a type the layer does not read there. */
static uint32_t db_size(const desc_dev *x, uint32_t type)
{
    const VkPhysicalDeviceDescriptorBufferPropertiesEXT *p = &x->p;
    switch (type) {
    case VK_DESCRIPTOR_TYPE_SAMPLER: return (uint32_t)p->samplerDescriptorSize;
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        /* Without a single array, a binding holds its images then its
         * samplers: not read. */
        return p->combinedImageSamplerDescriptorSingleArray ? (uint32_t)p->combinedImageSamplerDescriptorSize : 0;
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return (uint32_t)p->sampledImageDescriptorSize;
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return (uint32_t)p->storageImageDescriptorSize;
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: return (uint32_t)p->inputAttachmentDescriptorSize;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
        return (uint32_t)(x->robust ? p->robustUniformTexelBufferDescriptorSize : p->uniformTexelBufferDescriptorSize);
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        return (uint32_t)(x->robust ? p->robustStorageTexelBufferDescriptorSize : p->storageTexelBufferDescriptorSize);
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
        return (uint32_t)(x->robust ? p->robustUniformBufferDescriptorSize : p->uniformBufferDescriptorSize);
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
        return (uint32_t)(x->robust ? p->robustStorageBufferDescriptorSize : p->storageBufferDescriptorSize);
    case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR: return (uint32_t)p->accelerationStructureDescriptorSize;
    default: return 0;
    }
}

/* db_layout_offsets asks the driver where each binding of a
 * descriptor-buffer layout lies in a set, and how big the set is; without
 * the device's sizes or the driver's functions the layout stays unread
 * (db_ok 0: its sets read as unknown). */
static void db_layout_offsets(device_data *dd, VkDescriptorSetLayout layout, dlayout *l)
{
    if (!dd->desc || !dd->disp.GetDescriptorSetLayoutBindingOffsetEXT || !dd->disp.GetDescriptorSetLayoutSizeEXT)
        return;
    uint32_t n = l->nbind ? l->nbind : 1;
    l->boff = calloc(n, sizeof *l->boff);
    l->bsize = calloc(n, sizeof *l->bsize);
    if (!l->boff || !l->bsize)
        return;
    dd->disp.GetDescriptorSetLayoutSizeEXT(dd->device, layout, &l->size);
    for (uint32_t b = 0; b < l->nbind; b++) {
        if (l->b[b].type == GPUAVDBG_DESC_TYPE_UNUSED)
            continue;
        dd->disp.GetDescriptorSetLayoutBindingOffsetEXT(dd->device, layout, b, &l->boff[b]);
        l->bsize[b] = db_size(dd->desc, l->b[b].type);
    }
    l->db_ok = 1;
}

/* What the app's vkGetDescriptorEXT calls returned: the bytes' hash (two
 * independent 64-bit hashes of the type and the bytes: the map's key and
 * a check) -> what the descriptor refers to. Entries are never removed (a
 * descriptor of a destroyed resource reads as destroyed); past
 * DBYTES_MAX entries new ones are not kept, and their bytes read as
 * unknown. */
typedef struct dbytes {
    uint64_t check;
    uint32_t type;
    delem e;
    struct dbytes *next; /* same key, another check */
} dbytes;
static hmap g_dbytes;
static uint32_t g_ndbytes;
#define DBYTES_MAX (1u << 20)

static void hash_bytes(uint32_t type, const unsigned char *p, size_t n, uint64_t *key, uint64_t *check)
{
    uint64_t a = 0xcbf29ce484222325ull ^ type, b = 0x9E3779B97F4A7C15ull * (type + 1);
    for (size_t i = 0; i < n; i++) {
        a = (a ^ p[i]) * 0x100000001b3ull;
        b = (b + p[i] + 1) * 0xff51afd7ed558ccdull;
        b ^= b >> 29;
    }
    a ^= (uint64_t)n * 0xc4ceb9fe1a85ec53ull;
    *key = a ? a : 1;
    *check = b ^ n;
}

/* dbytes_find returns what the descriptor of type with these bytes refers
 * to, or NULL. Called with g_lock held. */
static const delem *dbytes_find(uint32_t type, const unsigned char *p, size_t n)
{
    uint64_t key, check;
    hash_bytes(type, p, n, &key, &check);
    for (const dbytes *d = hmap_get(&g_dbytes, key); d; d = d->next)
        if (d->check == check && d->type == type)
            return &d->e;
    return NULL;
}

/* address_range describes a buffer descriptor made from an address: the
 * buffer that holds it (of those whose address the app took) and the
 * offset in it, else the range as it is. Called without g_lock. */
static void address_elem(device_data *dd, delem *e, const VkDescriptorAddressInfoEXT *ai, int texel)
{
    memset(e, 0, sizeof *e);
    if (!ai || !ai->address) {
        /* A null descriptor (nullDescriptor): reads return zero, writes
         * are dropped; nothing to check. */
        e->id = RES_UNKNOWN;
        e->direct = 1;
        e->range = UINT32_MAX;
        return;
    }
    VkBuffer buf = VK_NULL_HANDLE;
    uint64_t off = 0;
    int found = gpuavdbg_addr_lookup(dd, ai->address, 1, &buf, &off);
    pthread_mutex_lock(&g_lock);
    e->id = found ? res_id(GPUAVDBG_H(buf)) : RES_UNKNOWN;
    if (!texel && found) {
        e->buffer = GPUAVDBG_H(buf);
        e->offset = off;
        e->range = ai->range;
    } else {
        e->direct = 1;
        uint32_t ts = texel ? texel_size(ai->format) : 1;
        e->range = ts ? ai->range / ts : UINT32_MAX;
    }
    pthread_mutex_unlock(&g_lock);
}

static VKAPI_ATTR void VKAPI_CALL icpt_GetDescriptorEXT(VkDevice device, const VkDescriptorGetInfoEXT *gi, size_t size,
                                                      void *out)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    dd->disp.GetDescriptorEXT(device, gi, size, out);
    if (!gi || !out || !size)
        return;
    delem e;
    memset(&e, 0, sizeof e);
    uint32_t type = (uint32_t)gi->type;
    const VkDescriptorImageInfo *ii = NULL;
    switch (gi->type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: address_elem(dd, &e, gi->data.pUniformBuffer, 0); break;
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: address_elem(dd, &e, gi->data.pStorageBuffer, 0); break;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: address_elem(dd, &e, gi->data.pUniformTexelBuffer, 1); break;
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: address_elem(dd, &e, gi->data.pStorageTexelBuffer, 1); break;
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: ii = gi->data.pCombinedImageSampler; break;
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: ii = gi->data.pSampledImage; break;
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: ii = gi->data.pStorageImage; break;
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: ii = gi->data.pInputAttachmentImage; break;
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR: break;
    default: return; /* a type the layer does not read in a descriptor buffer */
    }
    uint64_t key, check;
    hash_bytes(type, out, size, &key, &check);
    pthread_mutex_lock(&g_lock);
    if (gi->type == VK_DESCRIPTOR_TYPE_SAMPLER)
        e.id = gi->data.pSampler ? res_id(GPUAVDBG_H(*gi->data.pSampler)) : RES_UNKNOWN;
    else if (gi->type == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR)
        e.id = RES_UNKNOWN; /* an address: written */
    else if (!is_buffer(type) && !is_texel(type)) {
        if (ii)
            set_image(&e, type, ii);
        else
            e.id = RES_UNKNOWN; /* a null descriptor */
        if (type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER && ii && !ii->imageView)
            e.id = RES_UNKNOWN;
    }
    dbytes *d = NULL;
    for (d = hmap_get(&g_dbytes, key); d && !(d->check == check && d->type == type);)
        d = d->next;
    if (d) {
        d->e = e; /* the same bytes: the latest call's resources */
    } else if (g_ndbytes < DBYTES_MAX && (d = malloc(sizeof *d))) {
        *d = (dbytes){.check = check, .type = type, .e = e, .next = hmap_get(&g_dbytes, key)};
        if (hmap_put(&g_dbytes, key, d))
            g_ndbytes++;
        else
            free(d);
    }
    /* No changed(): the facts remembered under g_gen are those of
     * descriptor sets, which the map does not describe. */
    pthread_mutex_unlock(&g_lock);
}

/* ---- intercepts ------------------------------------------------------------ */

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateDescriptorSetLayout(VkDevice device,
                                                                   const VkDescriptorSetLayoutCreateInfo *ci,
                                                                   const VkAllocationCallbacks *alloc,
                                                                   VkDescriptorSetLayout *out)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.CreateDescriptorSetLayout(device, ci, alloc, out);
    if (r != VK_SUCCESS)
        return r;
    const VkDescriptorSetLayoutBindingFlagsCreateInfo *fl = NULL;
    for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO)
            fl = (const VkDescriptorSetLayoutBindingFlagsCreateInfo *)p;
    uint32_t nbind = 0;
    for (uint32_t i = 0; i < ci->bindingCount; i++)
        if (ci->pBindings[i].binding + 1 > nbind)
            nbind = ci->pBindings[i].binding + 1;
    dlayout *l = calloc(1, sizeof *l);
    if (l)
        l->b = malloc((nbind ? nbind : 1) * sizeof *l->b);
    if (!l || !l->b) {
        free_layout(l);
        return r; /* out of memory: sets of this layout read as unknown */
    }
    l->nbind = nbind;
    l->push = (ci->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) != 0;
    l->db = (ci->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT) != 0;
    for (uint32_t i = 0; i < nbind; i++)
        l->b[i] = (dbinding){.type = GPUAVDBG_DESC_TYPE_UNUSED};
    for (uint32_t i = 0; i < ci->bindingCount; i++) {
        const VkDescriptorSetLayoutBinding *b = &ci->pBindings[i];
        dbinding *d = &l->b[b->binding];
        d->type = b->descriptorCount ? (uint32_t)b->descriptorType : GPUAVDBG_DESC_TYPE_UNUSED;
        d->count = b->descriptorCount;
        d->flags = fl && i < fl->bindingCount && fl->pBindingFlags ? fl->pBindingFlags[i] : 0;
        if (b->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
            d->count = 1;
    }
    if (l->db)
        db_layout_offsets(dd, *out, l);
    pthread_mutex_lock(&g_lock);
    free_layout(hmap_get(&g_layouts, GPUAVDBG_H(*out)));
    if (!hmap_put(&g_layouts, GPUAVDBG_H(*out), l))
        free_layout(l);
    pthread_mutex_unlock(&g_lock);
    return r;
}

int gpuavdbg_desc_layout_alive(VkDescriptorSetLayout layout)
{
    pthread_mutex_lock(&g_lock);
    int alive = hmap_get(&g_layouts, GPUAVDBG_H(layout)) != NULL;
    pthread_mutex_unlock(&g_lock);
    return alive;
}

uint32_t gpuavdbg_desc_layout_kind(VkDescriptorSetLayout layout)
{
    pthread_mutex_lock(&g_lock);
    const dlayout *l = hmap_get(&g_layouts, GPUAVDBG_H(layout));
    uint32_t kind = l ? (l->push ? GPUAVDBG_DSL_PUSH : 0) | (l->db ? GPUAVDBG_DSL_DB : 0) : 0;
    pthread_mutex_unlock(&g_lock);
    return kind;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyDescriptorSetLayout(VkDevice device, VkDescriptorSetLayout layout,
                                                                const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    pthread_mutex_lock(&g_lock);
    free_layout(hmap_del(&g_layouts, GPUAVDBG_H(layout)));
    pthread_mutex_unlock(&g_lock);
    dd->disp.DestroyDescriptorSetLayout(device, layout, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_AllocateDescriptorSets(VkDevice device,
                                                                const VkDescriptorSetAllocateInfo *ai,
                                                                VkDescriptorSet *sets)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.AllocateDescriptorSets(device, ai, sets);
    if (r != VK_SUCCESS)
        return r;
    const VkDescriptorSetVariableDescriptorCountAllocateInfo *vc = NULL;
    for (const VkBaseInStructure *p = ai->pNext; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO)
            vc = (const VkDescriptorSetVariableDescriptorCountAllocateInfo *)p;
    pthread_mutex_lock(&g_lock);
    for (uint32_t i = 0; i < ai->descriptorSetCount; i++) {
        const dlayout *l = hmap_get(&g_layouts, GPUAVDBG_H(ai->pSetLayouts[i]));
        if (!l)
            continue;
        /* Without the structure, a variable-count binding has 0 descriptors. */
        uint32_t variable = vc && vc->descriptorSetCount == ai->descriptorSetCount ? vc->pDescriptorCounts[i] : 0;
        dset *s = new_set(l, GPUAVDBG_H(ai->descriptorPool), variable);
        if (!s)
            continue;
        free_set(hmap_get(&g_sets, GPUAVDBG_H(sets[i])));
        if (!hmap_put(&g_sets, GPUAVDBG_H(sets[i]), s))
            free_set(s);
    }
    changed();
    pthread_mutex_unlock(&g_lock);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_FreeDescriptorSets(VkDevice device, VkDescriptorPool pool, uint32_t n,
                                                            const VkDescriptorSet *sets)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    pthread_mutex_lock(&g_lock);
    for (uint32_t i = 0; i < n; i++)
        if (sets[i])
            free_set(hmap_del(&g_sets, GPUAVDBG_H(sets[i])));
    changed();
    pthread_mutex_unlock(&g_lock);
    return dd->disp.FreeDescriptorSets(device, pool, n, sets);
}

/* forget_pool frees the sets of a pool. Called with g_lock held. */
static void forget_pool(uint64_t pool)
{
    changed();
    for (size_t i = 0; i < g_sets.cap; i++) {
        dset *s = g_sets.slots[i].val;
        if (!g_sets.slots[i].key || s->pool != pool)
            continue;
        hmap_del(&g_sets, g_sets.slots[i].key);
        free_set(s);
        i--; /* backward-shift deletion may have moved an entry into slot i */
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_ResetDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                             VkDescriptorPoolResetFlags flags)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    pthread_mutex_lock(&g_lock);
    forget_pool(GPUAVDBG_H(pool));
    pthread_mutex_unlock(&g_lock);
    return dd->disp.ResetDescriptorPool(device, pool, flags);
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                           const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    if (pool) {
        pthread_mutex_lock(&g_lock);
        forget_pool(GPUAVDBG_H(pool));
        pthread_mutex_unlock(&g_lock);
    }
    dd->disp.DestroyDescriptorPool(device, pool, alloc);
}

static VKAPI_ATTR void VKAPI_CALL icpt_UpdateDescriptorSets(VkDevice device, uint32_t nw,
                                                          const VkWriteDescriptorSet *w, uint32_t nc,
                                                          const VkCopyDescriptorSet *c)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    pthread_mutex_lock(&g_lock);
    for (uint32_t i = 0; i < nw; i++)
        apply_write(&w[i]);
    for (uint32_t i = 0; i < nc; i++)
        apply_copy(&c[i]);
    changed();
    pthread_mutex_unlock(&g_lock);
    dd->disp.UpdateDescriptorSets(device, nw, w, nc, c);
}

static VkResult create_template(device_data *dd, PFN_vkCreateDescriptorUpdateTemplate fn, VkDevice device,
                                const VkDescriptorUpdateTemplateCreateInfo *ci, const VkAllocationCallbacks *alloc,
                                VkDescriptorUpdateTemplate *out)
{
    (void)dd;
    VkResult r = fn(device, ci, alloc, out);
    if (r != VK_SUCCESS)
        return r;
    dtemplate *t = calloc(1, sizeof *t);
    if (!t)
        return r;
    t->push = ci->templateType == VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR;
    t->bi = -1;
    if (t->push)
        t->bi = ci->pipelineBindPoint == VK_PIPELINE_BIND_POINT_GRAPHICS          ? 0
                : ci->pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE         ? 1
                : ci->pipelineBindPoint == VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR ? 2
                                                                                  : -1;
    t->n = ci->descriptorUpdateEntryCount;
    t->entries = malloc((t->n ? t->n : 1) * sizeof *t->entries);
    if (!t->entries) {
        free(t);
        return r;
    }
    memcpy(t->entries, ci->pDescriptorUpdateEntries, t->n * sizeof *t->entries);
    pthread_mutex_lock(&g_lock);
    dtemplate *old = hmap_get(&g_templates, GPUAVDBG_H(*out));
    if (old) {
        free(old->entries);
        free(old);
    }
    if (!hmap_put(&g_templates, GPUAVDBG_H(*out), t)) {
        free(t->entries);
        free(t);
    }
    pthread_mutex_unlock(&g_lock);
    return r;
}

static void destroy_template(VkDescriptorUpdateTemplate tmpl)
{
    pthread_mutex_lock(&g_lock);
    dtemplate *t = hmap_del(&g_templates, GPUAVDBG_H(tmpl));
    pthread_mutex_unlock(&g_lock);
    if (t) {
        free(t->entries);
        free(t);
    }
}

static void update_with_template(VkDescriptorSet set, VkDescriptorUpdateTemplate tmpl, const void *data)
{
    pthread_mutex_lock(&g_lock);
    const dtemplate *t = hmap_get(&g_templates, GPUAVDBG_H(tmpl));
    if (t && !t->push)
        apply_template(hmap_get(&g_sets, GPUAVDBG_H(set)), t, data);
    changed();
    pthread_mutex_unlock(&g_lock);
}

#define TEMPLATE_FUNCS(sfx)                                                                                        \
    static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateDescriptorUpdateTemplate##sfx(                                 \
        VkDevice device, const VkDescriptorUpdateTemplateCreateInfo *ci, const VkAllocationCallbacks *alloc,     \
        VkDescriptorUpdateTemplate *out)                                                                          \
    {                                                                                                             \
        device_data *dd = gpuavdbg_device_get(device);                                                            \
        if (!dd)                                                                                                  \
            return VK_ERROR_INITIALIZATION_FAILED;                                                                \
        return create_template(dd, dd->disp.CreateDescriptorUpdateTemplate##sfx, device, ci, alloc, out);         \
    }                                                                                                             \
    static VKAPI_ATTR void VKAPI_CALL icpt_DestroyDescriptorUpdateTemplate##sfx(                                    \
        VkDevice device, VkDescriptorUpdateTemplate tmpl, const VkAllocationCallbacks *alloc)                     \
    {                                                                                                             \
        device_data *dd = gpuavdbg_device_get(device);                                                            \
        if (!dd)                                                                                                  \
            return;                                                                                               \
        destroy_template(tmpl);                                                                                   \
        dd->disp.DestroyDescriptorUpdateTemplate##sfx(device, tmpl, alloc);                                       \
    }                                                                                                             \
    static VKAPI_ATTR void VKAPI_CALL icpt_UpdateDescriptorSetWithTemplate##sfx(                                    \
        VkDevice device, VkDescriptorSet set, VkDescriptorUpdateTemplate tmpl, const void *data)                  \
    {                                                                                                             \
        device_data *dd = gpuavdbg_device_get(device);                                                            \
        if (!dd)                                                                                                  \
            return;                                                                                               \
        update_with_template(set, tmpl, data);                                                                    \
        dd->disp.UpdateDescriptorSetWithTemplate##sfx(device, set, tmpl, data);                                   \
    }
TEMPLATE_FUNCS()
TEMPLATE_FUNCS(KHR)

/* Resource creation and destruction: ids and liveness. */
#define RESOURCE_FUNCS(Type, CI, extra, CREATE)                                                                   \
    static VKAPI_ATTR VkResult VKAPI_CALL CREATE(VkDevice device, const CI *ci,                                     \
                                                 const VkAllocationCallbacks *alloc, Vk##Type *out)               \
    {                                                                                                             \
        device_data *dd = gpuavdbg_device_get(device);                                                            \
        if (!dd)                                                                                                  \
            return VK_ERROR_INITIALIZATION_FAILED;                                                                \
        VkResult r = dd->disp.Create##Type(device, ci, alloc, out);                                               \
        if (r == VK_SUCCESS) {                                                                                    \
            pthread_mutex_lock(&g_lock);                                                                          \
            res_created(GPUAVDBG_H(*out));                                                                        \
            extra;                                                                                                \
            changed();                                                                                            \
            pthread_mutex_unlock(&g_lock);                                                                        \
        }                                                                                                         \
        return r;                                                                                                 \
    }                                                                                                             \
    static VKAPI_ATTR void VKAPI_CALL icpt_Destroy##Type(VkDevice device, Vk##Type h,                               \
                                                       const VkAllocationCallbacks *alloc)                        \
    {                                                                                                             \
        device_data *dd = gpuavdbg_device_get(device);                                                            \
        if (!dd)                                                                                                  \
            return;                                                                                               \
        if (h) {                                                                                                  \
            pthread_mutex_lock(&g_lock);                                                                          \
            res_destroyed(GPUAVDBG_H(h));                                                                         \
            free(hmap_del(&g_bufs, GPUAVDBG_H(h)));                                                               \
            free(hmap_del(&g_views, GPUAVDBG_H(h)));                                                              \
            changed();                                                                                            \
            pthread_mutex_unlock(&g_lock);                                                                        \
        }                                                                                                         \
        destroy_hook(dd, GPUAVDBG_H(h), #Type);                                                                   \
        dd->disp.Destroy##Type(device, h, alloc);                                                                 \
    }

/* The size in bytes of one texel of the common texel-buffer formats, or 0. */
static uint32_t texel_size(VkFormat f)
{
    switch (f) {
    case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_SNORM: case VK_FORMAT_R8_UINT: case VK_FORMAT_R8_SINT: return 1;
    case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R8G8_UINT: case VK_FORMAT_R8G8_SINT: case VK_FORMAT_R16_UINT:
    case VK_FORMAT_R16_SINT: case VK_FORMAT_R16_SFLOAT: case VK_FORMAT_R16_UNORM: return 2;
    case VK_FORMAT_R8G8B8A8_UNORM: case VK_FORMAT_R8G8B8A8_SNORM: case VK_FORMAT_R8G8B8A8_UINT:
    case VK_FORMAT_R8G8B8A8_SINT: case VK_FORMAT_B8G8R8A8_UNORM: case VK_FORMAT_R16G16_UINT:
    case VK_FORMAT_R16G16_SINT: case VK_FORMAT_R16G16_SFLOAT: case VK_FORMAT_R32_UINT: case VK_FORMAT_R32_SINT:
    case VK_FORMAT_R32_SFLOAT: case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return 4;
    case VK_FORMAT_R16G16B16A16_UINT: case VK_FORMAT_R16G16B16A16_SINT: case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R32G32_UINT: case VK_FORMAT_R32G32_SINT: case VK_FORMAT_R32G32_SFLOAT: return 8;
    case VK_FORMAT_R32G32B32_UINT: case VK_FORMAT_R32G32B32_SINT: case VK_FORMAT_R32G32B32_SFLOAT: return 12;
    case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT: case VK_FORMAT_R32G32B32A32_SFLOAT: return 16;
    default: return 0;
    }
}

static void destroy_hook(device_data *dd, uint64_t h, const char *type)
{
    if (strcmp(type, "Buffer") == 0) {
        gpuavdbg_addr_buffer_destroyed(dd, (VkBuffer)(uintptr_t)h);
        gpuavdbg_mem_buffer_destroyed(dd, (VkBuffer)(uintptr_t)h);
    }
}

static void buffer_created(device_data *dd, VkBuffer b, const VkBufferCreateInfo *ci)
{
    buf_info *bi = malloc(sizeof *bi);
    if (bi) {
        bi->size = ci->size;
        bi->copyable = (ci->usage & VK_BUFFER_USAGE_TRANSFER_SRC_BIT) != 0;
        for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext)
            if ((uint32_t)p->sType == 1000470006u) /* VkBufferUsageFlags2CreateInfoKHR replaces usage */
                bi->copyable = 0;
        if (!hmap_put(&g_bufs, GPUAVDBG_H(b), bi))
            free(bi);
    }
    (void)dd;
}

static void view_created(VkBufferView v, const VkBufferViewCreateInfo *ci)
{
    uint32_t ts = texel_size(ci->format);
    VkDeviceSize range = ci->range;
    if (range == VK_WHOLE_SIZE) {
        const buf_info *b = hmap_get(&g_bufs, GPUAVDBG_H(ci->buffer));
        range = b && b->size > ci->offset ? b->size - ci->offset : 0;
    }
    view_info *vi = malloc(sizeof *vi);
    if (!vi)
        return;
    vi->texels = ts ? (uint32_t)(range / ts) : UINT32_MAX;
    if (!hmap_put(&g_views, GPUAVDBG_H(v), vi))
        free(vi);
}

RESOURCE_FUNCS(Buffer, VkBufferCreateInfo, buffer_created(dd, *out, ci), create_buffer)
RESOURCE_FUNCS(ImageView, VkImageViewCreateInfo, (void)0, icpt_CreateImageView)
RESOURCE_FUNCS(BufferView, VkBufferViewCreateInfo, view_created(*out, ci), icpt_CreateBufferView)
RESOURCE_FUNCS(Sampler, VkSamplerCreateInfo, (void)0, icpt_CreateSampler)

/* gpuavdbg_buffer_info returns a live buffer's size, or 0 when unknown;
 * *copyable says whether the layer may copy from it. */
VkDeviceSize gpuavdbg_buffer_info(VkBuffer b, int *copyable)
{
    pthread_mutex_lock(&g_lock);
    const buf_info *bi = hmap_get(&g_bufs, GPUAVDBG_H(b));
    VkDeviceSize size = bi ? bi->size : 0;
    if (copyable)
        *copyable = bi && bi->copyable;
    pthread_mutex_unlock(&g_lock);
    return size;
}

/* vkCreateBuffer also tells the address tracking. An indirect buffer gets
 * VK_BUFFER_USAGE_TRANSFER_SRC_BIT, on a copy of the create info, so that
 * the command checks' pre-pass can copy its commands (prepass.c). */
static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateBuffer(VkDevice device, const VkBufferCreateInfo *ci,
                                                        const VkAllocationCallbacks *alloc, VkBuffer *out)
{
    VkBufferCreateInfo patched;
    if (ci && (ci->usage & VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) && !(ci->usage & VK_BUFFER_USAGE_TRANSFER_SRC_BIT)) {
        patched = *ci;
        patched.usage |= VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        ci = &patched;
    }
    VkResult r = create_buffer(device, ci, alloc, out);
    if (r == VK_SUCCESS) {
        device_data *dd = gpuavdbg_device_get(device);
        if (dd)
            gpuavdbg_addr_buffer_created(dd, *out, ci);
    }
    return r;
}

/* ---- per command buffer -------------------------------------------------- */

#define MAX_SETS 32u
/* Descriptor buffers a command buffer may bind at once (maxDescriptorBufferBindings
 * is 8 on lavapipe, 32 on the NVIDIA driver); past these, sets read as unknown. */
#define DB_BUFFERS 32u
/* Why a descriptor-buffer set was not read, besides memory.c's reasons. */
#define DB_NO_BUFFER 100 /* no buffer whose address the app took holds it */
#define DB_NO_LAYOUT 101 /* its layout is unknown or the layer cannot read it */
/* The most bytes of one set read per read (a bindless set of a million
 * descriptors is 256 MiB on lavapipe): the descriptors past them read as
 * unknown. */
#define DB_READ_MAX (64ull << 20)

/* A snapshot of the sets bound at one bind point. */
typedef struct snap {
    uint32_t nsets;
    uint32_t first; /* into desc_cb.slots */
} snap;

/* One set index of a snapshot: the set (0: none or unknown) and its
 * dynamic offsets (into desc_cb.dyn). */
typedef struct slot_ref {
    uint64_t set;
    uint32_t dyn, ndyn;
    const struct dset *push; /* a pushed set (owned by the desc_cb), else NULL */
    /* A set in a descriptor buffer: its layout (a copy the desc_cb holds a
     * reference to) and address (0: its buffer index was not bound), or
     * embedded immutable samplers (vkCmdBindDescriptorBufferEmbeddedSamplersEXT). */
    uint32_t dbset; /* a descriptor-buffer set (db NULL: its layout is unknown) */
    dlayout *db;
    VkDeviceAddress addr;
    uint32_t embedded;
} slot_ref;

/* A set read from a descriptor buffer: its (layout, address), the set it
 * describes (NULL: not read, why says why), the hash of its bytes, the
 * count of descriptors whose bytes the layer does not know, and whether a
 * fast variant's facts held on it at recording. */
typedef struct db_read {
    const dlayout *l;
    VkDeviceAddress addr;
    uint32_t embedded;
    dset *s;
    int why; /* GPUAVDBG_MEM_*, or DB_NO_BUFFER, DB_NO_LAYOUT */
    VkBuffer buffer;
    uint64_t hash;
    uint32_t unknown;
    int held;
    struct db_read *next; /* same key */
} db_read;

typedef struct desc_cb {
    slot_ref cur[GPUAVDBG_BIND_POINTS][MAX_SETS];
    uint32_t ncur[GPUAVDBG_BIND_POINTS];
    int dirty[GPUAVDBG_BIND_POINTS];
    uint32_t last[GPUAVDBG_BIND_POINTS]; /* snapshot index + 1, or 0 */

    snap *snaps;
    uint32_t nsnaps, cap_snaps;
    slot_ref *slots;
    uint32_t nslots, cap_slots;
    uint32_t *dyn;
    uint32_t ndyn, cap_dyn;
    uint32_t *act; /* per action index: snapshot index + 1, or 0 */
    uint32_t nact, cap_act;
    dset **pushed; /* the sets pushed while recording */
    uint32_t npushed, cap_pushed;
    struct fact_memo *memo; /* FACT_MEMO entries, made on the first facts tested */
    uint32_t nmemo;         /* entries used */
    uint64_t memo_gen;      /* the g_gen they were found under */
    /* Descriptor buffers: the addresses bound (vkCmdBindDescriptorBuffersEXT),
     * the layout copies the slots refer to (dlayout* -> 1, one reference
     * each), and the sets read while recording, for the facts. */
    VkDeviceAddress dbuf[DB_BUFFERS];
    uint32_t ndbuf;
    hmap lrefs;
    hmap reads;     /* db_key -> db_read* */
    uint32_t nheld; /* reads a fast variant's facts held on */
} desc_cb;

static int grow_arr(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 1;
    uint32_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *n = realloc(*arr, (size_t)ncap * elem);
    if (!n)
        return 0;
    *arr = n;
    *cap = ncap;
    return 1;
}

static desc_cb *get_dcb(cb_state *cs)
{
    if (!cs->desc)
        cs->desc = calloc(1, sizeof(desc_cb));
    return cs->desc;
}

void gpuavdbg_desc_cb_bind(cb_state *cs, int bi, uint32_t first, uint32_t n, const VkDescriptorSet *sets,
                           uint32_t ndyn, const uint32_t *dyn)
{
    if (!cs || bi < 0 || bi >= (int)GPUAVDBG_BIND_POINTS)
        return;
    desc_cb *d = get_dcb(cs);
    if (!d)
        return;
    /* The same sets bound again without dynamic offsets (a loop that binds
     * its per-frame set before every draw): what the bind point sees is
     * unchanged, so the next action keeps the last snapshot. Only the set
     * indices whose set changed make the bound pipeline's facts that read
     * them be tested again (variants.c). */
    uint32_t changed = 0;
    for (uint32_t i = 0; i < n && first + i < MAX_SETS; i++) {
        const slot_ref *r = &d->cur[bi][first + i];
        if (ndyn || first + i >= d->ncur[bi] || r->set != GPUAVDBG_H(sets[i]) || r->ndyn)
            changed |= 1u << (first + i);
    }
    if (!changed)
        return;
    d->dirty[bi] = 1;
    cs->bound[bi].facts_dirty |= changed;
    /* Without dynamic offsets to share out, the sets need not be known
     * now: the submit looks each up (an unknown one reads as unknown), so
     * the common bind takes no lock. */
    uint32_t used = 0;
    if (ndyn)
        pthread_mutex_lock(&g_lock);
    for (uint32_t i = 0; i < n && first + i < MAX_SETS; i++) {
        slot_ref *r = &d->cur[bi][first + i];
        *r = (slot_ref){.set = GPUAVDBG_H(sets[i])};
        if (ndyn == 0)
            continue;
        const dset *s = hmap_get(&g_sets, r->set);
        if (!s) {
            r->set = 0; /* unknown: the checks report nothing for it */
            continue;
        }
        if (s->ndyn && used + s->ndyn <= ndyn && grow_arr((void **)&d->dyn, &d->cap_dyn, d->ndyn + s->ndyn, 4)) {
            memcpy(d->dyn + d->ndyn, dyn + used, s->ndyn * 4);
            r->dyn = d->ndyn;
            r->ndyn = s->ndyn;
            d->ndyn += s->ndyn;
        }
        used += s->ndyn;
    }
    if (ndyn)
        pthread_mutex_unlock(&g_lock);
    if (first + n > d->ncur[bi])
        d->ncur[bi] = first + n < MAX_SETS ? first + n : MAX_SETS;
}

static void cb_push(cb_state *cs, int bi, uint32_t set)
{
    if (!cs || set >= MAX_SETS)
        return;
    desc_cb *d = get_dcb(cs);
    if (!d)
        return;
    for (int b = 0; b < (int)GPUAVDBG_BIND_POINTS; b++) {
        if (bi >= 0 && b != bi)
            continue;
        d->cur[b][set] = (slot_ref){0};
        if (set + 1 > d->ncur[b])
            d->ncur[b] = set + 1;
        d->dirty[b] = 1;
        cs->bound[b].facts_dirty |= GPUAVDBG_SET_BIT(set);
    }
}

/* push_set makes the set a push to set index `set` of pipeline layout pl
 * describes, lets fill write into it, and makes it the current set of bind
 * point bi. Unknown layouts: the set index reads as unknown. */
static void push_set(cb_state *cs, int bi, VkPipelineLayout pl, uint32_t set,
                     void (*fill)(dset *, const void *, const void *), const void *a, const void *b)
{
    if (!cs || bi < 0 || bi >= (int)GPUAVDBG_BIND_POINTS || set >= MAX_SETS) {
        cb_push(cs, bi, set);
        return;
    }
    desc_cb *d = get_dcb(cs);
    if (!d)
        return;
    dset *s = NULL;
    pthread_mutex_lock(&g_lock);
    const dlayout *l = push_layout(pl, set);
    if (l && grow_arr((void **)&d->pushed, &d->cap_pushed, d->npushed + 1, sizeof *d->pushed))
        s = new_set(l, 0, UINT32_MAX);
    if (s) {
        fill(s, a, b);
        d->pushed[d->npushed++] = s;
    }
    pthread_mutex_unlock(&g_lock);
    if (!s) {
        cb_push(cs, bi, set);
        return;
    }
    d->cur[bi][set] = (slot_ref){.push = s};
    if (set + 1 > d->ncur[bi])
        d->ncur[bi] = set + 1;
    d->dirty[bi] = 1;
    cs->bound[bi].facts_dirty |= GPUAVDBG_SET_BIT(set);
}

static void fill_writes(dset *s, const void *a, const void *b)
{
    const uint32_t *n = a;
    const VkWriteDescriptorSet *w = b;
    for (uint32_t i = 0; i < *n; i++)
        apply_write_to(s, &w[i]);
}

void gpuavdbg_desc_cb_push_writes(cb_state *cs, int bi, VkPipelineLayout pl, uint32_t set, uint32_t n,
                                  const VkWriteDescriptorSet *w)
{
    push_set(cs, bi, pl, set, fill_writes, &n, w);
}

static void fill_template(dset *s, const void *a, const void *b)
{
    apply_template(s, a, b);
}

void gpuavdbg_desc_cb_push_template(cb_state *cs, VkDescriptorUpdateTemplate tmpl, VkPipelineLayout pl,
                                    uint32_t set, const void *data)
{
    pthread_mutex_lock(&g_lock);
    const dtemplate *t = hmap_get(&g_templates, GPUAVDBG_H(tmpl));
    int bi = t && t->push ? t->bi : -1;
    pthread_mutex_unlock(&g_lock);
    if (bi < 0) {
        cb_push(cs, -1, set);
        return;
    }
    /* The template stays valid while the command is recorded (the app may
     * not destroy it during the call). */
    push_set(cs, bi, pl, set, fill_template, t, data);
}

/* ---- descriptor buffers per command buffer -------------------------------- */

static uint64_t db_key(const dlayout *l, VkDeviceAddress addr, uint32_t embedded)
{
    uint64_t k = (addr * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)(uintptr_t)l * 0xD6E8FEB86659FD93ull) ^ embedded;
    return k ? k : 1;
}

/* db_bytes reads the bytes of the set r names (none for embedded
 * samplers) into a new *bytes of *n bytes, sets r->buffer and r->hash, and
 * returns GPUAVDBG_MEM_OK or why it could not. Called without g_lock. */
static int db_bytes(device_data *dd, db_read *r, unsigned char **bytes, VkDeviceSize *n)
{
    const dlayout *l = r->l;
    *bytes = NULL;
    *n = 0;
    if (!l || !l->db_ok)
        return DB_NO_LAYOUT;
    if (r->embedded)
        return GPUAVDBG_MEM_OK;
    VkBuffer buf = VK_NULL_HANDLE;
    uint64_t off = 0;
    if (!r->addr || !gpuavdbg_addr_lookup(dd, r->addr, 1, &buf, &off))
        return DB_NO_BUFFER;
    r->buffer = buf;
    /* A set may end past its buffer (a variable-count binding sized to
     * fewer descriptors), or past DB_READ_MAX: what lies past either reads
     * as unknown. */
    VkDeviceSize size = gpuavdbg_buffer_info(buf, NULL);
    VkDeviceSize m = l->size < DB_READ_MAX ? l->size : DB_READ_MAX;
    if (size && off + m > size)
        m = size > off ? size - off : 0;
    if (m && !(*bytes = malloc(m)))
        return GPUAVDBG_MEM_MAP_FAILED;
    int why = m ? gpuavdbg_mem_read(dd, buf, off, *bytes, m) : GPUAVDBG_MEM_OK;
    if (why != GPUAVDBG_MEM_OK) {
        free(*bytes);
        *bytes = NULL;
        return why;
    }
    uint64_t key, check;
    hash_bytes(0, *bytes, m, &key, &check);
    r->hash = key ^ check;
    *n = m;
    return GPUAVDBG_MEM_OK;
}

/* db_build reads the set r names from its descriptor buffer and looks up
 * each descriptor's bytes: r->s the set they describe, r->unknown the
 * descriptors whose bytes no vkGetDescriptorEXT returned (read as written
 * and unknown: nothing reported), or r->why when the set could not be read.
 * Called without g_lock (it reads memory under memory.c's lock). */
static void db_build(device_data *dd, db_read *r)
{
    const dlayout *l = r->l;
    unsigned char *bytes = NULL;
    VkDeviceSize n = 0;
    r->why = db_bytes(dd, r, &bytes, &n);
    if (r->why != GPUAVDBG_MEM_OK)
        return;
    pthread_mutex_lock(&g_lock);
    dset *s = new_set(l, 0, UINT32_MAX);
    for (uint32_t b = 0; s && b < s->nbind; b++) {
        const dbinding *db = &s->b[b];
        if (db->type == GPUAVDBG_DESC_TYPE_UNUSED || db->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
            continue; /* an inline uniform block is bytes, written */
        for (uint32_t i = 0; i < db->count; i++) {
            delem *e = &s->e[db->first + i];
            uint32_t sz = l->bsize[b];
            uint64_t at = l->boff[b] + (uint64_t)i * sz;
            const delem *known = NULL;
            if (r->embedded) {
                e->id = RES_UNKNOWN; /* immutable samplers: written */
                continue;
            }
            if (sz && at + sz <= n)
                known = dbytes_find(db->type, bytes + at, sz);
            if (known) {
                *e = *known;
                continue;
            }
            *e = (delem){.id = RES_UNKNOWN, .direct = 1, .range = UINT32_MAX, .unknown = 1};
            if (db->type != VK_DESCRIPTOR_TYPE_MUTABLE_EXT) /* as in sets: not tracked */
                r->unknown++;
        }
    }
    pthread_mutex_unlock(&g_lock);
    free(bytes);
    r->s = s;
    r->why = s ? GPUAVDBG_MEM_OK : GPUAVDBG_MEM_MAP_FAILED;
}

/* db_read_get returns the set slot r refers to, read once per cache (the
 * command buffer's while recording, a submit's), or NULL when out of
 * memory. Called without g_lock. */
static db_read *db_read_get(device_data *dd, hmap *cache, const slot_ref *r)
{
    uint64_t k = db_key(r->db, r->addr, r->embedded);
    for (db_read *x = hmap_get(cache, k); x; x = x->next)
        if (x->l == r->db && x->addr == r->addr && x->embedded == r->embedded)
            return x;
    db_read *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->l = r->db;
    x->addr = r->addr;
    x->embedded = r->embedded;
    db_build(dd, x);
    x->next = hmap_get(cache, k);
    if (!hmap_put(cache, k, x)) {
        free_set(x->s);
        free(x);
        return NULL;
    }
    return x;
}

/* db_read_find returns the read of (l, addr, embedded) in cache, or NULL. */
static const db_read *db_read_find(const hmap *cache, const db_read *y)
{
    for (const db_read *x = hmap_get(cache, db_key(y->l, y->addr, y->embedded)); x; x = x->next)
        if (x->l == y->l && x->addr == y->addr && x->embedded == y->embedded)
            return x;
    return NULL;
}

static void db_reads_free(hmap *cache)
{
    for (size_t i = 0; i < cache->cap; i++) {
        db_read *x = cache->slots[i].key ? cache->slots[i].val : NULL;
        while (x) {
            db_read *next = x->next;
            free_set(x->s);
            free(x);
            x = next;
        }
    }
    hmap_free(cache);
}

/* db_unref_all drops the command buffer's references to layout copies. */
static void db_unref_all(desc_cb *d)
{
    if (!d->lrefs.len) {
        hmap_free(&d->lrefs);
        return;
    }
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < d->lrefs.cap; i++)
        if (d->lrefs.slots[i].key)
            unref_layout((dlayout *)(uintptr_t)d->lrefs.slots[i].key);
    pthread_mutex_unlock(&g_lock);
    hmap_free(&d->lrefs);
}

void gpuavdbg_desc_cb_bind_buffers(cb_state *cs, uint32_t n, const VkDescriptorBufferBindingInfoEXT *infos)
{
    desc_cb *d = cs ? get_dcb(cs) : NULL;
    if (!d || !infos)
        return;
    /* The offsets set with buffer indices below n are no longer valid, and
     * the buffers past n are unbound (the app sets offsets again). */
    d->ndbuf = n < DB_BUFFERS ? n : DB_BUFFERS;
    for (uint32_t i = 0; i < d->ndbuf; i++)
        d->dbuf[i] = infos[i].address;
}

/* db_set makes set index `set` of bind point bi the descriptor-buffer set
 * of pipeline layout pl at addr (or its embedded samplers). */
static void db_set(cb_state *cs, int bi, VkPipelineLayout pl, uint32_t set, VkDeviceAddress addr, uint32_t embedded)
{
    if (!cs || bi < 0 || bi >= (int)GPUAVDBG_BIND_POINTS || set >= MAX_SETS)
        return;
    desc_cb *d = get_dcb(cs);
    if (!d)
        return;
    pthread_mutex_lock(&g_lock);
    dlayout *l = playout_set(pl, set);
    if (l && !l->db)
        l = NULL;
    if (l && !hmap_get(&d->lrefs, GPUAVDBG_H(l))) {
        if (hmap_put(&d->lrefs, GPUAVDBG_H(l), (void *)1))
            l->refs++;
        else
            l = NULL;
    }
    pthread_mutex_unlock(&g_lock);
    d->cur[bi][set] = (slot_ref){.dbset = 1, .db = l, .addr = addr, .embedded = embedded};
    if (set + 1 > d->ncur[bi])
        d->ncur[bi] = set + 1;
    d->dirty[bi] = 1;
    cs->bound[bi].facts_dirty |= GPUAVDBG_SET_BIT(set);
}

void gpuavdbg_desc_cb_set_offsets(cb_state *cs, int bi, VkPipelineLayout pl, uint32_t first, uint32_t n,
                                  const uint32_t *indices, const VkDeviceSize *offsets)
{
    desc_cb *d = cs ? get_dcb(cs) : NULL;
    if (!d || !indices || !offsets)
        return;
    for (uint32_t i = 0; i < n; i++) {
        VkDeviceAddress addr = indices[i] < d->ndbuf ? d->dbuf[indices[i]] + offsets[i] : 0;
        db_set(cs, bi, pl, first + i, addr, 0);
    }
}

void gpuavdbg_desc_cb_embedded_samplers(cb_state *cs, int bi, VkPipelineLayout pl, uint32_t set)
{
    db_set(cs, bi, pl, set, 0, 1);
}

void gpuavdbg_desc_cb_action(cb_state *cs, int bi, uint32_t action)
{
    if (!cs || bi < 0 || bi >= (int)GPUAVDBG_BIND_POINTS)
        return;
    desc_cb *d = get_dcb(cs);
    if (!d || !grow_arr((void **)&d->act, &d->cap_act, action + 1, 4))
        return;
    while (d->nact < action)
        d->act[d->nact++] = 0;
    if (d->dirty[bi] || !d->last[bi]) {
        uint32_t n = d->ncur[bi];
        if (!grow_arr((void **)&d->snaps, &d->cap_snaps, d->nsnaps + 1, sizeof *d->snaps) ||
            !grow_arr((void **)&d->slots, &d->cap_slots, d->nslots + n, sizeof *d->slots)) {
            d->act[d->nact++] = 0;
            return;
        }
        memcpy(d->slots + d->nslots, d->cur[bi], n * sizeof *d->slots);
        d->snaps[d->nsnaps] = (snap){.nsets = n, .first = d->nslots};
        d->nslots += n;
        d->last[bi] = ++d->nsnaps;
        d->dirty[bi] = 0;
    }
    d->act[d->nact++] = d->last[bi];
}

void gpuavdbg_desc_cb_reset(cb_state *cs)
{
    desc_cb *d = cs ? cs->desc : NULL;
    if (!d)
        return;
    memset(d->cur, 0, sizeof d->cur);
    memset(d->ncur, 0, sizeof d->ncur);
    memset(d->dirty, 0, sizeof d->dirty);
    memset(d->last, 0, sizeof d->last);
    d->nsnaps = d->nslots = d->ndyn = d->nact = 0;
    for (uint32_t i = 0; i < d->npushed; i++)
        free_set(d->pushed[i]);
    d->npushed = 0;
    d->ndbuf = 0;
    d->nheld = 0;
    db_reads_free(&d->reads);
    db_unref_all(d);
}

void gpuavdbg_desc_cb_free(cb_state *cs)
{
    desc_cb *d = cs ? cs->desc : NULL;
    if (!d)
        return;
    free(d->snaps);
    free(d->slots);
    free(d->dyn);
    free(d->act);
    for (uint32_t i = 0; i < d->npushed; i++)
        free_set(d->pushed[i]);
    free(d->pushed);
    free(d->memo);
    db_reads_free(&d->reads);
    db_unref_all(d);
    free(d);
    cs->desc = NULL;
}

/* ---- the state at submit ------------------------------------------------ */

typedef struct writer {
    uint32_t *w;
    uint32_t cap;
    uint32_t n; /* words used (may exceed cap: then nothing more is written) */
} writer;

static uint32_t reserve(writer *wr, uint32_t words)
{
    uint32_t at = wr->n;
    wr->n = wr->n + words < wr->n ? UINT32_MAX : wr->n + words;
    return at;
}

static void put(writer *wr, uint32_t at, uint32_t v)
{
    if (at < wr->cap)
        wr->w[at] = v;
}

/* elem_value is what the descriptor state holds for element i of binding
 * db of set s (with its dynamic offsets): the element's state word, and in
 * *extra a buffer's range or a texel buffer's texel count (0 for others).
 * Called with g_lock held. */
static uint32_t elem_value(const dset *s, const dbinding *db, uint32_t i, const uint32_t *dyn, uint32_t ndyn,
                           uint32_t *extra)
{
    const delem *e = &s->e[db->first + i];
    uint32_t st = res_state(e->id);
    if (st != GPUAVDBG_DESC_DESTROYED && db->type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER && e->id2 &&
        res_state(e->id2) == GPUAVDBG_DESC_DESTROYED)
        st = GPUAVDBG_DESC_DESTROYED;
    *extra = 0;
    if (e->direct && (is_buffer(db->type) || is_texel(db->type))) {
        /* A descriptor-buffer descriptor: its range or texel count as
         * vkGetDescriptorEXT was given it (UINT32_MAX: unknown). */
        *extra = e->range > UINT32_MAX ? UINT32_MAX : (uint32_t)e->range;
    } else if (is_buffer(db->type) && e->buffer) {
        const buf_info *bi = hmap_get(&g_bufs, e->buffer);
        uint64_t off = e->offset;
        if (is_dynamic(db->type) && db->dyn + i < ndyn)
            off += dyn[db->dyn + i];
        uint64_t range = e->range;
        if (bi) {
            uint64_t avail = bi->size > off ? bi->size - off : 0;
            if (range == VK_WHOLE_SIZE || range > avail)
                range = avail;
        } else if (range == VK_WHOLE_SIZE) {
            range = UINT32_MAX;
        }
        *extra = range > UINT32_MAX ? UINT32_MAX : (uint32_t)range;
    } else if (is_texel(db->type) && e->buffer) {
        const view_info *vi = hmap_get(&g_views, e->buffer);
        *extra = vi ? vi->texels : UINT32_MAX;
    }
    return st;
}

/* floor_step folds one element into a binding's floor (gpuav/inputs.go):
 * for buffers the smallest range, an unwritten or destroyed element
 * counting as 0; for other bindings UINT32_MAX until an element is
 * unwritten or destroyed (then 0). */
static uint32_t floor_step(uint32_t floor, uint32_t type, uint32_t st, uint32_t extra)
{
    if (st == 0 || st == GPUAVDBG_DESC_DESTROYED)
        return 0;
    return is_buffer(type) && extra < floor ? extra : floor;
}

/* floor_word is the floor as the state stores it: buffers their smallest
 * range, others 1 when every element is written and alive. */
static uint32_t floor_word(uint32_t type, uint32_t floor)
{
    return is_buffer(type) ? floor : floor != 0;
}

/* write_set lays out one set state block and returns its offset. */
static uint32_t write_set(writer *wr, const dset *s, const uint32_t *dyn, uint32_t ndyn)
{
    uint32_t blk = reserve(wr, 1 + s->nbind * GPUAVDBG_DESC_BINDING_WORDS);
    put(wr, blk, s->nbind);
    for (uint32_t b = 0; b < s->nbind; b++) {
        const dbinding *db = &s->b[b];
        uint32_t at = blk + 1 + b * GPUAVDBG_DESC_BINDING_WORDS;
        put(wr, at, db->type);
        put(wr, at + 3, 0); /* floor: nothing known yet */
        if (db->type == GPUAVDBG_DESC_TYPE_UNUSED) {
            put(wr, at + 1, 0);
            put(wr, at + 2, 0);
            continue;
        }
        uint32_t stride = is_buffer(db->type) || is_texel(db->type) ? 2 : 1;
        uint32_t el = reserve(wr, db->count * stride);
        put(wr, at + 1, db->count);
        put(wr, at + 2, el);
        if (el >= wr->cap)
            continue; /* will not fit: only count */
        uint32_t floor = UINT32_MAX;
        for (uint32_t i = 0; i < db->count; i++) {
            uint32_t extra;
            uint32_t st = elem_value(s, db, i, dyn, ndyn, &extra);
            put(wr, el + i * stride, st);
            floor = floor_step(floor, db->type, st, extra);
            if (stride == 2)
                put(wr, el + i * stride + 1, extra);
        }
        put(wr, at + 3, floor_word(db->type, floor));
    }
    return blk;
}

/* Binding flags under which a set's contents at an action may differ from
 * what the GPU sees: the layer does not decide facts for them. */
#define UNDECIDED_FLAGS                                                                              \
    (VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT | VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT | \
     VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT)

/* fact_holds tests one fact against set s as gpuav_binding_fact does on
 * the GPU; a binding whose contents may change after the action is
 * recorded fails. Called with g_lock held. */
static int fact_holds(const dset *s, const gpuavdbg_fact *f, const uint32_t *dyn, uint32_t ndyn, uint32_t *floor_out)
{
    *floor_out = 0;
    if (!s || f->binding >= s->nbind)
        return 0;
    const dbinding *db = &s->b[f->binding];
    if (db->type == GPUAVDBG_DESC_TYPE_UNUSED || (db->flags & UNDECIDED_FLAGS) || db->count < f->length)
        return 0;
    uint32_t floor = UINT32_MAX;
    for (uint32_t i = 0; i < db->count && floor; i++) {
        uint32_t extra;
        uint32_t st = elem_value(s, db, i, dyn, ndyn, &extra);
        floor = s->e[db->first + i].unknown ? 0 : floor_step(floor, db->type, st, extra);
    }
    *floor_out = floor_word(db->type, floor);
    return *floor_out >= f->bound;
}

/* The facts of one set of a variant, tested against one bound set: a
 * command buffer remembers up to FACT_MEMO_MAX results (an open-addressed
 * table keyed by variant, first fact and set), all found under one g_gen
 * and forgotten when it changes, so that a loop that binds one of a few
 * sets before each draw tests each set once. Pushed sets and sets with
 * dynamic offsets are tested each time. */
#define FACT_MEMO 256u
#define FACT_MEMO_MAX 192u

typedef struct fact_memo {
    uint64_t set; /* 0: an empty entry */
    uint64_t variant;
    uint32_t first;  /* the run's first fact */
    uint32_t failed; /* the first fact of the run that fails, or UINT32_MAX */
    uint32_t floor;  /* its binding's floor */
} fact_memo;

/* memo_find returns the entry of (variant, first, set): a match, or the
 * empty entry where it goes. The table is never full (FACT_MEMO_MAX). */
static fact_memo *memo_find(desc_cb *d, uint64_t variant, uint32_t first, uint64_t set)
{
    uint64_t h = (set ^ (variant * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)first << 40)) * 0xD6E8FEB86659FD93ull;
    for (uint32_t i = (uint32_t)(h >> 56);; i = (i + 1) % FACT_MEMO) {
        fact_memo *m = &d->memo[i];
        if (m->set == 0 || (m->set == set && m->variant == variant && m->first == first))
            return m;
    }
}

/* memo_for returns the entry for facts of variant from `first` against
 * the set r refers to, or NULL when such a result is not remembered
 * (pushed sets, dynamic offsets, no set, out of memory). */
static fact_memo *memo_for(desc_cb *d, uint64_t gen, uint64_t variant, uint32_t first, const slot_ref *r)
{
    if (!r || !r->set || r->push || r->ndyn)
        return NULL;
    if (!d->memo && !(d->memo = calloc(FACT_MEMO, sizeof *d->memo)))
        return NULL;
    if (d->memo_gen != gen || d->nmemo >= FACT_MEMO_MAX) {
        memset(d->memo, 0, FACT_MEMO * sizeof *d->memo);
        d->nmemo = 0;
        d->memo_gen = gen;
    }
    return memo_find(d, variant, first, r->set);
}

/* test_run tests facts [i, j), all of one set index, against the set r
 * refers to; it returns the first that fails (UINT32_MAX: none) with its
 * binding's floor in *floor. */
static uint32_t test_run(const desc_cb *d, const slot_ref *r, const dset *dbs, const gpuavdbg_fact *facts, uint32_t i,
                         uint32_t j, uint32_t *floor)
{
    uint32_t failed = UINT32_MAX;
    pthread_mutex_lock(&g_lock);
    const dset *s = !r ? NULL : r->dbset ? dbs : r->push ? r->push : hmap_get(&g_sets, r->set);
    for (uint32_t k = i; k < j && failed == UINT32_MAX; k++)
        if (!fact_holds(s, &facts[k], r && r->ndyn ? d->dyn + r->dyn : NULL, r ? r->ndyn : 0, floor))
            failed = k;
    pthread_mutex_unlock(&g_lock);
    return failed;
}

/* An action fact is a run of its own, so that its entry remembers its
 * binding's floor. */
static int is_action(const gpuavdbg_fact *f)
{
    return f->kind == GPUAVDBG_FACT_BUFFER_ACTION || f->kind == GPUAVDBG_FACT_INDEX_ACTION;
}

int gpuavdbg_desc_facts_hold(cb_state *cs, int bi, uint64_t variant, const gpuavdbg_fact *facts, uint32_t n,
                             uint32_t *failed, uint32_t *floor, uint32_t *act_floor)
{
    uint32_t nact = 0;
    desc_cb *d = cs ? cs->desc : NULL;
    if (!d || bi < 0 || bi >= (int)GPUAVDBG_BIND_POINTS)
        return 0;
    /* Read before the state it covers: a result is never older than the
     * generation it is remembered under. */
    uint64_t gen = __atomic_load_n(&g_gen, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && facts[j].set == facts[i].set && !is_action(&facts[i]) && !is_action(&facts[j]);)
            j++;
        if (facts[i].kind == GPUAVDBG_FACT_INDEX_ACTION) {
            /* An index below the array's length: no set is read. */
            if (act_floor && nact < GPUAVDBG_ACTION_FACTS)
                act_floor[nact++] = facts[i].length ? facts[i].length - 1 : 0;
            continue;
        }
        const slot_ref *r = facts[i].set < d->ncur[bi] ? &d->cur[bi][facts[i].set] : NULL;
        fact_memo *m = memo_for(d, gen, variant, i, r);
        /* A descriptor-buffer set: read from its memory now (once per
         * recording); the submit reads it again, and says when what the
         * facts took for granted changed. */
        db_read *x = r && r->dbset ? db_read_get(cs->dd, &d->reads, r) : NULL;
        if (!m || !m->set) {
            uint32_t fl = 0, k = test_run(d, r, x ? x->s : NULL, facts, i, j, &fl);
            if (x && k == UINT32_MAX && !x->held) {
                x->held = 1;
                d->nheld++;
            }
            if (m) {
                *m = (fact_memo){.set = r->set, .variant = variant, .first = i, .failed = k, .floor = fl};
                d->nmemo++;
            }
            if (k != UINT32_MAX) {
                *failed = k;
                *floor = fl;
                return 0;
            }
            if (is_action(&facts[i]) && act_floor && nact < GPUAVDBG_ACTION_FACTS)
                act_floor[nact++] = fl;
        } else if (m->failed != UINT32_MAX) {
            *failed = m->failed;
            *floor = m->floor;
            return 0;
        } else if (is_action(&facts[i]) && act_floor && nact < GPUAVDBG_ACTION_FACTS) {
            act_floor[nact++] = m->floor;
        }
    }
    return 1;
}

/* ---- what went unchecked in descriptor buffers ------------------------------ */

/* Each cause is told once per descriptor buffer (or address): g_told holds
 * the keys told, under g_told_lock. The state is written with the submit's
 * lock held (submit.c), so what is to be told waits in g_tell until the
 * submit calls gpuavdbg_desc_tell, outside its lock. */
static pthread_mutex_t g_told_lock = PTHREAD_MUTEX_INITIALIZER;
static hmap g_told;
typedef struct tell_line {
    struct tell_line *next;
    char text[];
} tell_line;
static tell_line *g_tell, **g_tell_tail = &g_tell;
static int g_ntell;

static void tell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tell(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t n = strlen(buf) + 1;
    tell_line *t = malloc(sizeof *t + n);
    if (!t)
        return;
    t->next = NULL;
    memcpy(t->text, buf, n);
    pthread_mutex_lock(&g_told_lock);
    *g_tell_tail = t;
    g_tell_tail = &t->next;
    __atomic_store_n(&g_ntell, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g_told_lock);
}

void gpuavdbg_desc_tell(void)
{
    if (!__atomic_load_n(&g_ntell, __ATOMIC_ACQUIRE))
        return;
    pthread_mutex_lock(&g_told_lock);
    tell_line *t = g_tell;
    g_tell = NULL;
    g_tell_tail = &g_tell;
    __atomic_store_n(&g_ntell, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g_told_lock);
    while (t) {
        tell_line *next = t->next;
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED, "%s", t->text);
        free(t);
        t = next;
    }
}

static int first_time(uint32_t kind, uint64_t subject)
{
    uint64_t k = (subject * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)kind << 56) ^ kind;
    k = k ? k : 1;
    pthread_mutex_lock(&g_told_lock);
    int first = !hmap_get(&g_told, k) && hmap_put(&g_told, k, (void *)1);
    pthread_mutex_unlock(&g_told_lock);
    return first;
}

#define DB_UNCHECKED "buffer_oob, texel_buffer_oob, descriptor_uninitialized, descriptor_destroyed and runtime arrays' lengths"

/* db_tell logs, as unchecked, what the descriptor-buffer sets a submit read
 * leave unchecked: sets not read (and why) and descriptors of unknown
 * bytes; queued for gpuavdbg_desc_tell. Called without g_lock, after the
 * state is written. */
static void db_tell(const hmap *reads)
{
    for (size_t i = 0; i < reads->cap; i++) {
        for (const db_read *x = reads->slots[i].key ? reads->slots[i].val : NULL; x; x = x->next) {
            unsigned long long buf = (unsigned long long)GPUAVDBG_H(x->buffer), at = (unsigned long long)x->addr;
            if (x->why == DB_NO_LAYOUT && first_time(DB_NO_LAYOUT, x->l ? GPUAVDBG_H(x->l) : at))
                tell("a descriptor-buffer set (at address 0x%llx) has a set layout the layer cannot read "
                     "(unknown, or without the device's descriptor sizes): its descriptors are not checked "
                     "(" DB_UNCHECKED ")",
                     at);
            else if (x->why == DB_NO_BUFFER && first_time(DB_NO_BUFFER, at))
                tell("a descriptor-buffer set at address 0x%llx lies in no buffer whose address the app took "
                     "(vkGetBufferDeviceAddress) or bound: its descriptors are not checked (" DB_UNCHECKED ")",
                     at);
            else if (x->why != GPUAVDBG_MEM_OK && x->why != DB_NO_LAYOUT && x->why != DB_NO_BUFFER &&
                     first_time((uint32_t)x->why, buf))
                tell("descriptor buffer 0x%llx: the layer cannot read it (%s): the descriptors of its sets are "
                     "not checked (" DB_UNCHECKED ")",
                     buf, gpuavdbg_mem_why(x->why));
            if (x->why == GPUAVDBG_MEM_OK && x->unknown && first_time(200, buf))
                tell("descriptor buffer 0x%llx, set at address 0x%llx: %u of its descriptors hold bytes that no "
                     "vkGetDescriptorEXT of the app returned (never written, or written by the GPU, which the layer "
                     "does not follow): accesses through them are not checked (" DB_UNCHECKED ")",
                     buf, at, x->unknown);
        }
    }
}

void gpuavdbg_desc_cb_submitted(cb_state *cs)
{
    desc_cb *d = cs ? cs->desc : NULL;
    if (!d || !d->nheld)
        return;
    for (size_t i = 0; i < d->reads.cap; i++) {
        for (const db_read *x = d->reads.slots[i].key ? d->reads.slots[i].val : NULL; x; x = x->next) {
            if (!x->held || x->embedded)
                continue;
            db_read now = {.l = x->l, .addr = x->addr};
            unsigned char *bytes = NULL;
            VkDeviceSize n = 0;
            int why = db_bytes(cs->dd, &now, &bytes, &n);
            free(bytes);
            if ((why != x->why || now.hash != x->hash) && first_time(201, GPUAVDBG_H(x->buffer)))
                tell("descriptor buffer 0x%llx: the set at address 0x%llx changed between the recording of "
                     "command buffer 0x%llx and its submit, and the shader variants chosen at recording took "
                     "its recorded descriptors for granted: their bounded accesses are not checked at this "
                     "submit (write descriptors before recording the commands that use them)",
                     (unsigned long long)GPUAVDBG_H(x->buffer), (unsigned long long)x->addr,
                     (unsigned long long)GPUAVDBG_H(cs->cb));
        }
    }
}

uint32_t gpuavdbg_desc_write_state(device_data *dd, cb_state *cs, uint32_t *words, uint32_t cap, uint32_t *vtable_at,
                                   uint32_t *count_at)
{
    (void)dd;
    desc_cb *d = cs->desc;
    writer wr = {.w = words, .cap = cap, .n = GPUAVDBG_INPUT_HEADER_WORDS};
    put(&wr, GPUAVDBG_INPUT_VALID_WORD, 0); /* valid only once complete */
    uint32_t nact = d ? d->nact : 0;
    uint32_t count = nact < GPUAVDBG_ACTION_SLOTS ? nact : GPUAVDBG_ACTION_SLOTS;
    put(&wr, GPUAVDBG_INPUT_COUNT_WORD, count);
    uint32_t table = reserve(&wr, count);
    uint32_t vtable = reserve(&wr, count); /* vertex_fetch_oob's, cmdchecks.c */
    for (uint32_t a = 0; a < count; a++)
        put(&wr, vtable + a, 0);
    *vtable_at = vtable;
    *count_at = count;
    if (!d || count == 0)
        goto done;
    /* Offsets per snapshot (bound-sets entries), written on first use. */
    uint32_t *snap_off = calloc(d->nsnaps + 1, sizeof *snap_off);
    hmap blocks = {0}; /* VkDescriptorSet (no dynamic offsets), or db_read* -> block offset */
    hmap reads = {0};  /* the descriptor-buffer sets, read now */
    if (!snap_off) {
        wr.n = UINT32_MAX;
        goto done;
    }
    /* Descriptor-buffer sets are read from memory first, without g_lock. */
    for (uint32_t k = 0; k < d->nslots; k++)
        if (d->slots[k].dbset)
            db_read_get(dd, &reads, &d->slots[k]);
    pthread_mutex_lock(&g_lock);
    for (uint32_t a = 0; a < count; a++) {
        uint32_t sn = d->act[a];
        if (a == GPUAVDBG_ACTION_SLOTS - 1)
            for (uint32_t b = a + 1; b < nact; b++)
                if (d->act[b] != sn)
                    sn = 0; /* actions sharing the last slot bind differently: unknown */
        if (sn == 0) {
            put(&wr, table + a, 0);
            continue;
        }
        if (!snap_off[sn]) {
            const snap *s = &d->snaps[sn - 1];
            uint32_t e = reserve(&wr, 1 + s->nsets);
            put(&wr, e, s->nsets);
            for (uint32_t k = 0; k < s->nsets; k++) {
                const slot_ref *r = &d->slots[s->first + k];
                const db_read *x = r->dbset ? db_read_find(&reads, &(db_read){.l = r->db, .addr = r->addr,
                                                                               .embedded = r->embedded})
                                            : NULL;
                const dset *set = r->dbset ? (x ? x->s : NULL)
                                  : r->push ? r->push
                                  : r->set  ? hmap_get(&g_sets, r->set)
                                            : NULL;
                uint64_t key = x ? GPUAVDBG_H(x) : !r->push && r->ndyn == 0 ? r->set : 0;
                uint32_t blk = set && key ? (uint32_t)(uintptr_t)hmap_get(&blocks, key) : 0;
                if (set && !blk) {
                    blk = write_set(&wr, set, d->dyn + r->dyn, r->ndyn);
                    if (key)
                        hmap_put(&blocks, key, (void *)(uintptr_t)blk);
                }
                put(&wr, e + 1 + k, blk);
            }
            snap_off[sn] = e;
        }
        put(&wr, table + a, snap_off[sn]);
    }
    pthread_mutex_unlock(&g_lock);
    hmap_free(&blocks);
    free(snap_off);
    db_tell(&reads);
    db_reads_free(&reads);
done:
    return wr.n;
}

/* ---- intercept table ------------------------------------------------------ */

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CreateDescriptorSetLayout),
    GPUAVDBG_ICPT(DestroyDescriptorSetLayout),
    GPUAVDBG_ICPT(AllocateDescriptorSets),
    GPUAVDBG_ICPT(FreeDescriptorSets),
    GPUAVDBG_ICPT(ResetDescriptorPool),
    GPUAVDBG_ICPT(DestroyDescriptorPool),
    GPUAVDBG_ICPT(UpdateDescriptorSets),
    GPUAVDBG_ICPT(CreateDescriptorUpdateTemplate),
    GPUAVDBG_ICPT(CreateDescriptorUpdateTemplateKHR),
    GPUAVDBG_ICPT(DestroyDescriptorUpdateTemplate),
    GPUAVDBG_ICPT(DestroyDescriptorUpdateTemplateKHR),
    GPUAVDBG_ICPT(UpdateDescriptorSetWithTemplate),
    GPUAVDBG_ICPT(UpdateDescriptorSetWithTemplateKHR),
    GPUAVDBG_ICPT(CreateBuffer),
    GPUAVDBG_ICPT(DestroyBuffer),
    GPUAVDBG_ICPT(CreateImageView),
    GPUAVDBG_ICPT(DestroyImageView),
    GPUAVDBG_ICPT(CreateBufferView),
    GPUAVDBG_ICPT(DestroyBufferView),
    GPUAVDBG_ICPT(CreateSampler),
    GPUAVDBG_ICPT(DestroySampler),
    GPUAVDBG_ICPT(GetDescriptorEXT),
};

PFN_vkVoidFunction gpuavdbg_descriptors_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}
