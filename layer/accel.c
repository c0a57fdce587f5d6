/*
 * accel.c: acceleration structures, and the acceleration_structure_build
 * check (docs/decisions/build-and-copy-checks.md).
 *
 * The device's table: every acceleration structure the app created, by
 * address (asked of the driver at vkCreateAccelerationStructureKHR, and
 * again at the app's vkGetAccelerationStructureDeviceAddressKHR), with its
 * level, its buffer and whether it was destroyed (the last
 * ACCEL_DESTROYED_KEPT destroyed ones are kept, so that a reference to one
 * is reported as such). Before each submit of a command buffer with builds
 * the table goes, sorted, into its pre-pass buffer (a buffer destroyed
 * since marked there), where the builds' shader looks references up: a
 * recorded command buffer submitted again sees the table of its submit.
 *
 * At vkCmdBuildAccelerationStructuresKHR the hook adds one pre-pass job
 * per geometry (instances, AABBs, a triangle geometry's transform and its
 * indices) and runs the builds' shader (gpuav/prepass/accel.comp), which
 * reads the app's memory through device addresses. Unless on_error is
 * execute, instance geometries are copied by that shader into a
 * device-local buffer of the command buffer's with every bad instance
 * inactive (reference 0), and the build is called down with the copy: the
 * app's buffer is never written, so a later build from it is as the app
 * made it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "accel.h"
#include "cmdchecks.h"
#include "descriptors.h"
#include "prepass.h"

/* Destroyed acceleration structures kept in the table. */
#define ACCEL_DESTROYED_KEPT 256u
/* The smallest chunk of a command buffer's instance copies. */
#define ACCEL_CHUNK_MIN (1u << 20)

enum {
    TOLD_INDIRECT = 1,
    TOLD_NO_SHADER = 2,
    TOLD_TABLE = 4,
    TOLD_COPY = 8,
    TOLD_HOST = 16,
};

typedef struct as_entry {
    uint64_t addr;
    VkAccelerationStructureKHR as;
    VkBuffer buffer;
    uint32_t flags; /* GPUAVDBG_PREPASS_AS_* */
    uint64_t seq;   /* destruction order, for dropping the oldest destroyed */
} as_entry;

typedef struct accel_dev {
    pthread_mutex_t lock; /* guards what follows */
    int on;               /* the check runs on this device */
    int safe;             /* make bad instances inactive */
    as_entry *sorted;     /* by address: live and the kept destroyed ones */
    uint32_t n, cap, ndestroyed;
    uint64_t seq;
    uint32_t table_hint; /* entries a recording reserves room for */
    uint32_t told;
} accel_dev;

typedef struct accel_chunk {
    VkBuffer buf;
    VkDeviceMemory mem;
    VkDeviceAddress addr;
    VkDeviceSize size, used;
} accel_chunk;

typedef struct accel_cb {
    uint32_t table_word, table_cap; /* the live table in the pre-pass buffer (0: none this recording) */
    accel_chunk *chunks;
    uint32_t nchunks, cap_chunks;
} accel_cb;

static void tell(accel_dev *a, uint32_t which, const char *text)
{
    if (!(__atomic_fetch_or(&a->told, which, __ATOMIC_RELAXED) & which))
        gpuavdbg_logf(GPUAVDBG_LOG_UNCHECKED, "%s (said once per device)", text);
}

/* ---- device -------------------------------------------------------------------- */

static int accel_feature(const VkDeviceCreateInfo *ci)
{
    for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR)
            return ((const VkPhysicalDeviceAccelerationStructureFeaturesKHR *)p)->accelerationStructure;
    return 0;
}

int gpuavdbg_accel_device_created(device_data *dd, const VkDeviceCreateInfo *ci, uint32_t checks)
{
    if (!(checks & GPUAVDBG_CC_ACCEL) || !accel_feature(ci))
        return 0; /* no build can happen, or the check is off */
    accel_dev *a = calloc(1, sizeof *a);
    if (!a)
        return 0;
    pthread_mutex_init(&a->lock, NULL);
    a->safe = (checks & GPUAVDBG_CC_SAFE) != 0;
    a->table_hint = 64;
    dd->accel = a;
    if (!dd->bda) {
        /* accelerationStructure requires bufferDeviceAddress to be
         * supported, but the app may not enable it: then its builds can
         * take no device address either. */
        tell(a, TOLD_NO_SHADER,
             "acceleration_structure_build: the app did not enable bufferDeviceAddress, which the layer's pre-pass "
             "over builds reads the app's memory with: builds are not checked");
        return 0;
    }
    a->on = 1;
    return GPUAVDBG_PREPASS_WANT_ACCEL;
}

void gpuavdbg_accel_device_destroyed(device_data *dd)
{
    accel_dev *a = dd->accel;
    if (!a)
        return;
    free(a->sorted);
    pthread_mutex_destroy(&a->lock);
    free(a);
    dd->accel = NULL;
}

/* ---- the table ------------------------------------------------------------------ */

/* find returns the index of the first entry at address >= addr; a->lock held. */
static uint32_t find(const accel_dev *a, uint64_t addr)
{
    uint32_t lo = 0, hi = a->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (a->sorted[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void remove_at(accel_dev *a, uint32_t i)
{
    if (a->sorted[i].flags & GPUAVDBG_PREPASS_AS_DESTROYED)
        a->ndestroyed--;
    memmove(&a->sorted[i], &a->sorted[i + 1], (a->n - i - 1) * sizeof *a->sorted);
    a->n--;
}

/* put records a live acceleration structure at addr; a->lock held. An
 * entry of a destroyed one at the same address (its memory reused) goes. */
static void put(accel_dev *a, VkAccelerationStructureKHR as, uint64_t addr, VkBuffer buffer, uint32_t type)
{
    if (!addr)
        return;
    /* The handle may have been recorded at another address. */
    for (uint32_t i = 0; i < a->n; i++)
        if (a->sorted[i].as == as && !(a->sorted[i].flags & GPUAVDBG_PREPASS_AS_DESTROYED)) {
            if (a->sorted[i].addr == addr)
                return;
            remove_at(a, i);
            break;
        }
    uint32_t at = find(a, addr);
    if (at < a->n && a->sorted[at].addr == addr)
        remove_at(a, at);
    if (a->n == a->cap) {
        uint32_t ncap = a->cap ? a->cap * 2 : 64;
        as_entry *g = realloc(a->sorted, ncap * sizeof *g);
        if (!g) {
            gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "acceleration_structure_build: out of memory: an acceleration structure "
                                                "is not in the layer's table; references to it are reported");
            return;
        }
        a->sorted = g;
        a->cap = ncap;
    }
    memmove(&a->sorted[at + 1], &a->sorted[at], (a->n - at) * sizeof *a->sorted);
    a->sorted[at] = (as_entry){addr, as, buffer, type, 0};
    a->n++;
}

static uint32_t type_flags(VkAccelerationStructureTypeKHR t)
{
    switch (t) {
    case VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR: return GPUAVDBG_PREPASS_AS_TOP;
    case VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR: return GPUAVDBG_PREPASS_AS_BOTTOM;
    default: return GPUAVDBG_PREPASS_AS_GENERIC;
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateAccelerationStructureKHR(VkDevice device,
                                                                         const VkAccelerationStructureCreateInfoKHR *ci,
                                                                         const VkAllocationCallbacks *alloc,
                                                                         VkAccelerationStructureKHR *as)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = dd->disp.CreateAccelerationStructureKHR(device, ci, alloc, as);
    accel_dev *a = dd->accel;
    if (r != VK_SUCCESS || !a || !ci || !dd->disp.GetAccelerationStructureDeviceAddressKHR)
        return r;
    /* Its buffer is bound already (vkCreateAccelerationStructureKHR
     * requires it): the address the app will get is known now. */
    VkAccelerationStructureDeviceAddressInfoKHR ai = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR, .accelerationStructure = *as};
    uint64_t addr = dd->disp.GetAccelerationStructureDeviceAddressKHR(device, &ai);
    pthread_mutex_lock(&a->lock);
    put(a, *as, addr, ci->buffer, type_flags(ci->type));
    pthread_mutex_unlock(&a->lock);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyAccelerationStructureKHR(VkDevice device, VkAccelerationStructureKHR as,
                                                                      const VkAllocationCallbacks *alloc)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return;
    accel_dev *a = dd->accel;
    if (a && as) {
        pthread_mutex_lock(&a->lock);
        for (uint32_t i = 0; i < a->n; i++) {
            as_entry *e = &a->sorted[i];
            if (e->as != as || (e->flags & GPUAVDBG_PREPASS_AS_DESTROYED))
                continue;
            e->flags |= GPUAVDBG_PREPASS_AS_DESTROYED;
            e->seq = ++a->seq;
            a->ndestroyed++;
            break;
        }
        while (a->ndestroyed > ACCEL_DESTROYED_KEPT) { /* drop the oldest destroyed */
            uint32_t old = UINT32_MAX;
            for (uint32_t i = 0; i < a->n; i++)
                if ((a->sorted[i].flags & GPUAVDBG_PREPASS_AS_DESTROYED) &&
                    (old == UINT32_MAX || a->sorted[i].seq < a->sorted[old].seq))
                    old = i;
            remove_at(a, old);
        }
        pthread_mutex_unlock(&a->lock);
    }
    dd->disp.DestroyAccelerationStructureKHR(device, as, alloc);
}

static VKAPI_ATTR VkDeviceAddress VKAPI_CALL icpt_GetAccelerationStructureDeviceAddressKHR(
    VkDevice device, const VkAccelerationStructureDeviceAddressInfoKHR *info)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return 0;
    VkDeviceAddress addr = dd->disp.GetAccelerationStructureDeviceAddressKHR(device, info);
    accel_dev *a = dd->accel;
    if (a && info && addr) {
        pthread_mutex_lock(&a->lock);
        uint32_t at = find(a, addr);
        int known = at < a->n && a->sorted[at].addr == addr && a->sorted[at].as == info->accelerationStructure &&
                    !(a->sorted[at].flags & GPUAVDBG_PREPASS_AS_DESTROYED);
        if (!known) {
            /* Not seen at its creation (made before the layer knew it):
             * its level is not known. */
            uint32_t type = GPUAVDBG_PREPASS_AS_GENERIC;
            VkBuffer buffer = VK_NULL_HANDLE;
            for (uint32_t i = 0; i < a->n; i++)
                if (a->sorted[i].as == info->accelerationStructure &&
                    !(a->sorted[i].flags & GPUAVDBG_PREPASS_AS_DESTROYED)) {
                    type = a->sorted[i].flags & GPUAVDBG_PREPASS_AS_TYPE_MASK;
                    buffer = a->sorted[i].buffer;
                }
            put(a, info->accelerationStructure, addr, buffer, type);
        }
        pthread_mutex_unlock(&a->lock);
    }
    return addr;
}

void gpuavdbg_accel_write_table(device_data *dd, cb_state *cs)
{
    accel_dev *a = dd->accel;
    accel_cb *c = cs->accel;
    if (!a || !c || !c->table_word)
        return;
    uint32_t cap;
    uint32_t *w = gpuavdbg_prepass_words(cs, &cap);
    uint64_t end = (uint64_t)c->table_word + GPUAVDBG_PREPASS_TABLE_HEADER_WORDS +
                   (uint64_t)c->table_cap * GPUAVDBG_PREPASS_TABLE_ENTRY_WORDS;
    if (!w || end > cap)
        return;
    uint32_t *t = w + c->table_word;
    pthread_mutex_lock(&a->lock);
    if (a->n > c->table_cap) {
        t[0] = 0;
        t[1] = 0; /* references are not looked up in this submit */
        if (a->n * 2 > a->table_hint)
            a->table_hint = a->n * 2;
        pthread_mutex_unlock(&a->lock);
        tell(a, TOLD_TABLE,
             "acceleration_structure_build: more acceleration structures exist than a recording made room for: the "
             "references of its builds are not looked up in this submit (the next recordings make more room)");
        return;
    }
    uint32_t *e = t + GPUAVDBG_PREPASS_TABLE_HEADER_WORDS;
    for (uint32_t i = 0; i < a->n; i++, e += GPUAVDBG_PREPASS_TABLE_ENTRY_WORDS) {
        const as_entry *s = &a->sorted[i];
        uint32_t flags = s->flags;
        if (!(flags & GPUAVDBG_PREPASS_AS_DESTROYED) && s->buffer && gpuavdbg_buffer_info(s->buffer, NULL) == 0)
            flags |= GPUAVDBG_PREPASS_AS_BUFFER_GONE;
        e[0] = (uint32_t)s->addr;
        e[1] = (uint32_t)(s->addr >> 32);
        e[2] = flags;
        e[3] = 0;
    }
    t[0] = a->n;
    t[1] = 1;
    pthread_mutex_unlock(&a->lock);
}

/* ---- a command buffer's copies of instances --------------------------------------- */

static accel_cb *cb_get(cb_state *cs)
{
    if (!cs->accel)
        cs->accel = calloc(1, sizeof *cs->accel);
    return cs->accel;
}

static int memory_type(const device_data *dd, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < dd->mem_props.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (dd->mem_props.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

/* new_chunk makes a device-local buffer the builds may read instances
 * from, of at least size bytes. */
static int new_chunk(device_data *dd, accel_chunk *k, VkDeviceSize size)
{
    memset(k, 0, sizeof *k);
    PFN_vkGetBufferDeviceAddress get =
        dd->disp.GetBufferDeviceAddress ? dd->disp.GetBufferDeviceAddress : dd->disp.GetBufferDeviceAddressKHR;
    if (!get)
        return 0;
    VkBufferCreateInfo bi = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                 VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    if (dd->disp.CreateBuffer(dd->device, &bi, NULL, &k->buf) != VK_SUCCESS)
        return 0;
    VkMemoryRequirements req;
    dd->disp.GetBufferMemoryRequirements(dd->device, k->buf, &req);
    int type = memory_type(dd, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0)
        type = memory_type(dd, req.memoryTypeBits, 0);
    VkMemoryAllocateFlagsInfo fi = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                    .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &fi,
                               .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type};
    if (type < 0 || dd->disp.AllocateMemory(dd->device, &ai, NULL, &k->mem) != VK_SUCCESS ||
        dd->disp.BindBufferMemory(dd->device, k->buf, k->mem, 0) != VK_SUCCESS) {
        if (k->mem)
            dd->disp.FreeMemory(dd->device, k->mem, NULL);
        dd->disp.DestroyBuffer(dd->device, k->buf, NULL);
        memset(k, 0, sizeof *k);
        return 0;
    }
    VkBufferDeviceAddressInfo di = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = k->buf};
    k->addr = get(dd->device, &di);
    k->size = size;
    return 1;
}

/* copy_space returns the device address of size bytes (64-byte aligned)
 * of the command buffer's copies, or 0. */
static VkDeviceAddress copy_space(cb_state *cs, VkDeviceSize size)
{
    accel_cb *c = cb_get(cs);
    if (!c)
        return 0;
    size = (size + 63) & ~(VkDeviceSize)63;
    for (uint32_t i = 0; i < c->nchunks; i++) {
        accel_chunk *k = &c->chunks[i];
        if (k->size - k->used >= size) {
            VkDeviceAddress at = k->addr + k->used;
            k->used += size;
            return at;
        }
    }
    if (c->nchunks == c->cap_chunks) {
        uint32_t ncap = c->cap_chunks ? c->cap_chunks * 2 : 4;
        accel_chunk *g = realloc(c->chunks, ncap * sizeof *g);
        if (!g)
            return 0;
        c->chunks = g;
        c->cap_chunks = ncap;
    }
    VkDeviceSize want = ACCEL_CHUNK_MIN;
    for (uint32_t i = 0; i < c->nchunks; i++)
        want += c->chunks[i].size; /* double what the recording had */
    if (want < size)
        want = size;
    accel_chunk *k = &c->chunks[c->nchunks];
    if (!new_chunk(cs->dd, k, want))
        return 0;
    c->nchunks++;
    k->used = size;
    return k->addr;
}

void gpuavdbg_accel_reset(cb_state *cs)
{
    accel_cb *c = cs->accel;
    if (!c)
        return;
    c->table_word = c->table_cap = 0;
    for (uint32_t i = 0; i < c->nchunks; i++)
        c->chunks[i].used = 0;
}

void gpuavdbg_accel_free(cb_state *cs)
{
    accel_cb *c = cs->accel;
    if (!c)
        return;
    device_data *dd = cs->dd;
    for (uint32_t i = 0; i < c->nchunks; i++) {
        dd->disp.DestroyBuffer(dd->device, c->chunks[i].buf, NULL);
        dd->disp.FreeMemory(dd->device, c->chunks[i].mem, NULL);
    }
    free(c->chunks);
    free(c);
    cs->accel = NULL;
}

/* ---- builds ------------------------------------------------------------------------- */

void gpuavdbg_accel_build_indirect(cb_state *cs)
{
    accel_dev *a = cs->dd->accel;
    if (a && a->on)
        tell(a, TOLD_INDIRECT,
             "acceleration_structure_build: the builds of vkCmdBuildAccelerationStructuresIndirectKHR are not checked");
}

void gpuavdbg_accel_patch_free(accel_patch *p)
{
    free(p->infos);
    free(p->geoms);
    free(p->pgeoms);
    free(p->ranges);
    free(p->pranges);
    memset(p, 0, sizeof *p);
}

static const VkAccelerationStructureGeometryKHR *geometry(const VkAccelerationStructureBuildGeometryInfoKHR *info,
                                                          uint32_t g)
{
    return info->pGeometries ? &info->pGeometries[g] : info->ppGeometries[g];
}

/* patch_init copies the infos and ranges of a command, each geometry into
 * one array (and the pointers to them), for gpuavdbg_accel_build to point
 * instance geometries at their copies. */
static int patch_init(accel_patch *p, uint32_t n, const VkAccelerationStructureBuildGeometryInfoKHR *infos,
                      const VkAccelerationStructureBuildRangeInfoKHR *const *ranges)
{
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += infos[i].geometryCount;
    p->infos = malloc(n * sizeof *p->infos);
    p->pranges = malloc(n * sizeof *p->pranges);
    p->geoms = malloc((total ? total : 1) * sizeof *p->geoms);
    p->pgeoms = malloc((total ? total : 1) * sizeof *p->pgeoms);
    p->ranges = malloc((total ? total : 1) * sizeof *p->ranges);
    if (!p->infos || !p->pranges || !p->geoms || !p->pgeoms || !p->ranges) {
        gpuavdbg_accel_patch_free(p);
        return 0;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        p->infos[i] = infos[i];
        p->pranges[i] = &p->ranges[k];
        for (uint32_t g = 0; g < infos[i].geometryCount; g++) {
            p->geoms[k + g] = *geometry(&infos[i], g);
            p->pgeoms[k + g] = &p->geoms[k + g];
            p->ranges[k + g] = ranges[i][g];
        }
        /* The copy keeps the app's form: an array, or pointers to them. */
        if (infos[i].pGeometries)
            p->infos[i].pGeometries = &p->geoms[k];
        else
            p->infos[i].ppGeometries = &p->pgeoms[k];
        k += infos[i].geometryCount;
    }
    return 1;
}

/* dst_address is the address of the acceleration structure an info
 * builds, as the table has it (0: not known). */
static uint64_t dst_address(accel_dev *a, VkAccelerationStructureKHR as)
{
    uint64_t addr = 0;
    pthread_mutex_lock(&a->lock);
    for (uint32_t i = 0; i < a->n && !addr; i++)
        if (a->sorted[i].as == as && !(a->sorted[i].flags & GPUAVDBG_PREPASS_AS_DESTROYED))
            addr = a->sorted[i].addr;
    pthread_mutex_unlock(&a->lock);
    return addr;
}

/* table reserves the recording's live table in the pre-pass buffer, once;
 * it returns its word, or 0. */
static uint32_t table(cb_state *cs, accel_dev *a)
{
    accel_cb *c = cb_get(cs);
    if (!c)
        return 0;
    if (c->table_word)
        return c->table_word;
    pthread_mutex_lock(&a->lock);
    uint32_t want = a->n * 2 + 16;
    if (want < a->table_hint)
        want = a->table_hint;
    pthread_mutex_unlock(&a->lock);
    uint32_t word;
    uint32_t *t = gpuavdbg_prepass_data(cs, GPUAVDBG_PREPASS_TABLE_HEADER_WORDS + want * GPUAVDBG_PREPASS_TABLE_ENTRY_WORDS,
                                        &word);
    if (!t)
        return 0;
    t[0] = t[1] = 0; /* written at submit */
    c->table_word = word;
    c->table_cap = want;
    return word;
}

static void set_addr(uint32_t *raw, uint32_t at, uint64_t addr)
{
    raw[at] = (uint32_t)addr;
    raw[at + 1] = (uint32_t)(addr >> 32);
}

int gpuavdbg_accel_build(cb_state *cs, uint32_t action, uint32_t n, const VkAccelerationStructureBuildGeometryInfoKHR *infos,
                         const VkAccelerationStructureBuildRangeInfoKHR *const *ranges, accel_patch *p)
{
    device_data *dd = cs->dd;
    accel_dev *a = dd->accel;
    memset(p, 0, sizeof *p);
    if (!a || !a->on || !infos || !ranges || n == 0)
        return 0;
    if (!gpuavdbg_prepass_builds(dd)) {
        tell(a, TOLD_NO_SHADER, "acceleration_structure_build: the layer's pre-pass over builds could not be made: "
                                "builds are not checked");
        return 0;
    }
    if (gpuavdbg_prepass_pending(cs))
        gpuavdbg_prepass_run(cs); /* the jobs of another shader go first */
    /* The addresses this command builds: an instance must reference none. */
    int any_instances = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t g = 0; g < infos[i].geometryCount; g++)
            any_instances |= geometry(&infos[i], g)->geometryType == VK_GEOMETRY_TYPE_INSTANCES_KHR;
    uint32_t dst_word = 0;
    uint64_t *dst = calloc(n, sizeof *dst);
    if (!dst)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        dst[i] = dst_address(a, infos[i].dstAccelerationStructure);
    if (any_instances) {
        uint32_t *dl = gpuavdbg_prepass_data(cs, 2 * n, &dst_word);
        if (dl)
            for (uint32_t i = 0; i < n; i++)
                set_addr(dl, 2 * i, dst[i]);
    }
    /* The jobs; the instance copies (on_error not execute) noted as
     * (info, geometry, address) to patch in once the pre-pass ran. */
    typedef struct { uint32_t info, geom; uint64_t addr; } copy_at;
    copy_at *copies = NULL;
    uint32_t ncopies = 0, ygroups = 1, jobs = 0;
    for (uint32_t i = 0; i < n; i++) {
        const VkAccelerationStructureBuildGeometryInfoKHR *info = &infos[i];
        uint32_t mode = info->mode == VK_BUILD_ACCELERATION_STRUCTURE_MODE_UPDATE_KHR ? GPUAVDBG_PREPASS_FLAG_UPDATE : 0;
        for (uint32_t g = 0; g < info->geometryCount; g++) {
            const VkAccelerationStructureGeometryKHR *geo = geometry(info, g);
            const VkAccelerationStructureBuildRangeInfoKHR *r = &ranges[i][g];
            if (!geo || r->primitiveCount == 0)
                continue;
            uint32_t raw[GPUAVDBG_PREPASS_JOB_WORDS] = {0};
            raw[GPUAVDBG_PREPASS_BUILD_COUNT] = r->primitiveCount;
            raw[GPUAVDBG_PREPASS_BUILD_INFO] = i;
            raw[GPUAVDBG_PREPASS_BUILD_GEOMETRY] = g;
            pp_job job = {.action = action, .raw = raw};
            uint32_t count = r->primitiveCount;
            if (geo->geometryType == VK_GEOMETRY_TYPE_INSTANCES_KHR) {
                const VkAccelerationStructureGeometryInstancesDataKHR *d = &geo->geometry.instances;
                if (!d->data.deviceAddress)
                    continue;
                int pointers = d->arrayOfPointers != VK_FALSE;
                job.kind = GPUAVDBG_PREPASS_KIND_INSTANCES | mode | (pointers ? GPUAVDBG_PREPASS_FLAG_POINTERS : 0);
                raw[GPUAVDBG_PREPASS_BUILD_TABLE] = table(cs, a);
                set_addr(raw, GPUAVDBG_PREPASS_BUILD_ADDR, d->data.deviceAddress + r->primitiveOffset);
                set_addr(raw, GPUAVDBG_PREPASS_BUILD_DST, dst[i]);
                raw[GPUAVDBG_PREPASS_BUILD_DST_LIST] = dst_word;
                raw[GPUAVDBG_PREPASS_BUILD_DST_COUNT] = dst_word ? n : 0;
                if (a->safe) {
                    VkDeviceSize bytes = pointers ? ((VkDeviceSize)count * 8 + 15) / 16 * 16 + 64 : (VkDeviceSize)count * 64;
                    uint64_t at = copy_space(cs, bytes);
                    copy_at *g2 = at ? realloc(copies, (ncopies + 1) * sizeof *copies) : NULL;
                    if (g2) {
                        copies = g2;
                        copies[ncopies++] = (copy_at){i, g, at};
                        set_addr(raw, GPUAVDBG_PREPASS_BUILD_COPY, at);
                        job.kind |= GPUAVDBG_PREPASS_FLAG_SAFE;
                    } else {
                        tell(a, TOLD_COPY, "acceleration_structure_build: the layer could not make its copy of a build's "
                                           "instances: bad instances are reported but built as the app recorded them");
                    }
                }
            } else if (geo->geometryType == VK_GEOMETRY_TYPE_AABBS_KHR) {
                const VkAccelerationStructureGeometryAabbsDataKHR *d = &geo->geometry.aabbs;
                if (!d->data.deviceAddress)
                    continue;
                job.kind = GPUAVDBG_PREPASS_KIND_AABBS | mode;
                set_addr(raw, GPUAVDBG_PREPASS_BUILD_ADDR, d->data.deviceAddress + r->primitiveOffset);
                raw[GPUAVDBG_PREPASS_BUILD_STRIDE] = (uint32_t)d->stride;
            } else if (geo->geometryType == VK_GEOMETRY_TYPE_TRIANGLES_KHR) {
                const VkAccelerationStructureGeometryTrianglesDataKHR *d = &geo->geometry.triangles;
                if (d->transformData.deviceAddress) {
                    uint32_t traw[GPUAVDBG_PREPASS_JOB_WORDS];
                    memcpy(traw, raw, sizeof traw);
                    set_addr(traw, GPUAVDBG_PREPASS_BUILD_ADDR, d->transformData.deviceAddress + r->transformOffset);
                    pp_job tj = {.action = action, .kind = GPUAVDBG_PREPASS_KIND_TRANSFORM | mode, .raw = traw};
                    uint32_t src;
                    jobs += (uint32_t)gpuavdbg_prepass_add_raw(cs, &tj, &src);
                }
                if (d->indexType == VK_INDEX_TYPE_NONE_KHR || !d->indexData.deviceAddress)
                    continue;
                job.kind = GPUAVDBG_PREPASS_KIND_INDICES | mode;
                set_addr(raw, GPUAVDBG_PREPASS_BUILD_ADDR, d->indexData.deviceAddress + r->primitiveOffset);
                raw[GPUAVDBG_PREPASS_BUILD_STRIDE] = (uint32_t)d->indexType;
                raw[GPUAVDBG_PREPASS_BUILD_FIRST_VERTEX] = r->firstVertex;
                raw[GPUAVDBG_PREPASS_BUILD_MAX_VERTEX] = d->maxVertex;
                count = r->primitiveCount * 3;
            } else {
                continue;
            }
            uint32_t src;
            if (!gpuavdbg_prepass_add_raw(cs, &job, &src)) {
                if (job.kind & GPUAVDBG_PREPASS_FLAG_SAFE)
                    ncopies--; /* its copy is not written: the build reads the app's */
                continue;
            }
            jobs++;
            uint32_t y = (count + GPUAVDBG_PREPASS_BUILD_LOCAL_SIZE - 1) / GPUAVDBG_PREPASS_BUILD_LOCAL_SIZE;
            if (y > ygroups)
                ygroups = y;
        }
    }
    free(dst);
    if (ygroups > GPUAVDBG_PREPASS_BUILD_GROUPS_MAX)
        ygroups = GPUAVDBG_PREPASS_BUILD_GROUPS_MAX;
    int patched = 0;
    if (jobs && gpuavdbg_prepass_run_builds(cs, ygroups) && ncopies && patch_init(p, n, infos, ranges)) {
        for (uint32_t k = 0; k < ncopies; k++) {
            /* The geometry's copy in the patch: the k-th of its info. */
            VkAccelerationStructureGeometryKHR *geo =
                (VkAccelerationStructureGeometryKHR *)(p->infos[copies[k].info].pGeometries
                                                           ? &p->infos[copies[k].info].pGeometries[copies[k].geom]
                                                           : p->infos[copies[k].info].ppGeometries[copies[k].geom]);
            geo->geometry.instances.data.deviceAddress = copies[k].addr;
            ((VkAccelerationStructureBuildRangeInfoKHR *)&p->pranges[copies[k].info][copies[k].geom])->primitiveOffset = 0;
        }
        patched = 1;
    }
    free(copies);
    return patched;
}

/* ---- intercepts ----------------------------------------------------------------- */

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CreateAccelerationStructureKHR),
    GPUAVDBG_ICPT(DestroyAccelerationStructureKHR),
    GPUAVDBG_ICPT(GetAccelerationStructureDeviceAddressKHR),
};

PFN_vkVoidFunction gpuavdbg_accel_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}
