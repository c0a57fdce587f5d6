/*
 * addresses.c: buffer device addresses, for the bda_oob check (binding 3
 * of the layer's set, the address table of gpuav/inputs.go).
 *
 * Per device: the size of every live buffer created with
 * SHADER_DEVICE_ADDRESS usage (descriptors.c's vkCreateBuffer and
 * vkDestroyBuffer call the hooks below), and the sorted list of the
 * buffers whose address the app obtained with vkGetBufferDeviceAddress
 * (or its KHR/EXT alias). A destroyed buffer leaves the list at once. At
 * submit, gpuavdbg_addr_write_table writes the list into the command
 * buffer's table, overlapping ranges (aliased memory) merged so that an
 * access inside any of them passes.
 *
 * For a lost device's fault addresses (fault.c), each such buffer also
 * keeps its debug name (vkSetDebugUtilsObjectNameEXT) and the submit
 * number when it was created, and the last GPUAVDBG_ADDR_FREED destroyed
 * ones whose address the app had obtained stay in a ring with the submit
 * number when they were destroyed (gpuavdbg_addr_match).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "addresses.h"

/* VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, and the maintenance5 usage
 * structure that replaces VkBufferCreateInfo::usage when present. */
#define ADDR_USAGE_BIT 0x00020000u
#define ADDR_USAGE2_STYPE 1000470006u

typedef struct addr_range {
    uint64_t address, size;
    VkBuffer buffer;
} addr_range;

/* A live buffer with device-address usage. */
typedef struct addr_buf {
    uint64_t size;
    uint64_t address; /* 0 until the app obtained it */
    uint64_t created; /* dd->last_submit when it was created */
    char name[GPUAVDBG_ADDR_NAME];
} addr_buf;

typedef struct addr_dev {
    device_data *dd;
    pthread_mutex_t lock;
    hmap bufs;           /* VkBuffer -> addr_buf*, SDA buffers only */
    addr_range *ranges;  /* sorted by address */
    uint32_t n, cap;
    /* The destroyed buffers whose address the app had obtained, a ring:
     * freed[(head + i) % GPUAVDBG_ADDR_FREED] for i < nfreed, oldest first. */
    gpuavdbg_addr_match freed[GPUAVDBG_ADDR_FREED];
    uint32_t head, nfreed;
    struct addr_dev *next;
} addr_dev;

static pthread_mutex_t g_addr_lock = PTHREAD_MUTEX_INITIALIZER;
static addr_dev *g_addr_devs;

/* find returns the device's state, making it when make is set. */
static addr_dev *find(device_data *dd, int make)
{
    pthread_mutex_lock(&g_addr_lock);
    addr_dev *a = g_addr_devs;
    while (a && a->dd != dd)
        a = a->next;
    if (!a && make) {
        a = calloc(1, sizeof *a);
        if (a) {
            a->dd = dd;
            pthread_mutex_init(&a->lock, NULL);
            a->next = g_addr_devs;
            g_addr_devs = a;
        }
    }
    pthread_mutex_unlock(&g_addr_lock);
    return a;
}

static int wants_address(const VkBufferCreateInfo *ci)
{
    uint64_t usage = ci->usage;
    for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
        if ((uint32_t)s->sType == ADDR_USAGE2_STYPE)
            memcpy(&usage, (const char *)s + sizeof(VkBaseInStructure), sizeof usage);
    return (usage & ADDR_USAGE_BIT) != 0;
}

void gpuavdbg_addr_buffer_created(device_data *dd, VkBuffer buffer, const VkBufferCreateInfo *ci)
{
    if (!dd || !ci || buffer == VK_NULL_HANDLE || !wants_address(ci))
        return;
    addr_dev *a = find(dd, 1);
    if (!a)
        return;
    addr_buf *b = calloc(1, sizeof *b);
    if (b) {
        b->size = ci->size;
        b->created = __atomic_load_n(&dd->last_submit, __ATOMIC_RELAXED);
    }
    pthread_mutex_lock(&a->lock);
    free(hmap_del(&a->bufs, GPUAVDBG_H(buffer))); /* a handle the driver reused */
    if (!b || !hmap_put(&a->bufs, GPUAVDBG_H(buffer), b)) {
        free(b);
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "bda_oob: out of memory tracking a buffer; its accesses may be reported");
    }
    pthread_mutex_unlock(&a->lock);
}

void gpuavdbg_addr_buffer_named(device_data *dd, uint64_t buffer, const char *name)
{
    addr_dev *a = dd ? find(dd, 0) : NULL;
    if (!a || !name)
        return;
    pthread_mutex_lock(&a->lock);
    addr_buf *b = hmap_get(&a->bufs, buffer);
    if (b)
        snprintf(b->name, sizeof b->name, "%s", name);
    pthread_mutex_unlock(&a->lock);
}

/* drop removes buffer's range from the sorted list; a->lock is held. */
static void drop(addr_dev *a, VkBuffer buffer)
{
    for (uint32_t i = 0; i < a->n; i++)
        if (a->ranges[i].buffer == buffer) {
            memmove(&a->ranges[i], &a->ranges[i + 1], (a->n - i - 1) * sizeof *a->ranges);
            a->n--;
            return;
        }
}

void gpuavdbg_addr_buffer_destroyed(device_data *dd, VkBuffer buffer)
{
    if (!dd || buffer == VK_NULL_HANDLE)
        return;
    addr_dev *a = find(dd, 0);
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    addr_buf *b = hmap_del(&a->bufs, GPUAVDBG_H(buffer));
    if (b) {
        drop(a, buffer);
        if (b->address) {
            uint32_t at = (a->head + a->nfreed) % GPUAVDBG_ADDR_FREED;
            if (a->nfreed == GPUAVDBG_ADDR_FREED)
                a->head = (a->head + 1) % GPUAVDBG_ADDR_FREED; /* the oldest goes */
            else
                a->nfreed++;
            gpuavdbg_addr_match *m = &a->freed[at];
            *m = (gpuavdbg_addr_match){.buffer = GPUAVDBG_H(buffer),
                                       .address = b->address,
                                       .size = b->size,
                                       .created = b->created,
                                       .destroyed = __atomic_load_n(&dd->last_submit, __ATOMIC_RELAXED)};
            memcpy(m->name, b->name, sizeof m->name);
        }
        free(b);
    }
    pthread_mutex_unlock(&a->lock);
}

/* note records that the app obtained buffer's address. */
static void note(device_data *dd, VkBuffer buffer, uint64_t address)
{
    if (!dd || buffer == VK_NULL_HANDLE || address == 0)
        return;
    addr_dev *a = find(dd, 0);
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    addr_buf *b = hmap_get(&a->bufs, GPUAVDBG_H(buffer));
    uint64_t size = b ? b->size : 0;
    if (!b || size == 0) {
        pthread_mutex_unlock(&a->lock);
        return;
    }
    b->address = address;
    uint32_t at = a->n;
    for (uint32_t i = 0; i < a->n; i++) {
        if (a->ranges[i].buffer == buffer) {
            pthread_mutex_unlock(&a->lock); /* asked before */
            return;
        }
        if (at == a->n && a->ranges[i].address > address)
            at = i;
    }
    if (a->n == a->cap) {
        uint32_t nc = a->cap ? a->cap * 2 : 64;
        addr_range *nr = realloc(a->ranges, nc * sizeof *nr);
        if (!nr) {
            pthread_mutex_unlock(&a->lock);
            gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "bda_oob: out of memory tracking a buffer device address");
            return;
        }
        a->ranges = nr;
        a->cap = nc;
    }
    memmove(&a->ranges[at + 1], &a->ranges[at], (a->n - at) * sizeof *a->ranges);
    a->ranges[at] = (addr_range){address, size, buffer};
    a->n++;
    pthread_mutex_unlock(&a->lock);
}

uint32_t gpuavdbg_addr_write_table(device_data *dd, cb_state *cs, uint32_t *words, uint32_t cap)
{
    (void)cs;
    addr_dev *a = find(dd, 0);
    if (!a) {
        /* No buffer with device-address usage was created (or the buffer
         * tracking is not there): absent, the check reports nothing. */
        if (cap >= GPUAVDBG_INPUT_HEADER_WORDS)
            words[GPUAVDBG_INPUT_VALID_WORD] = 0;
        return GPUAVDBG_INPUT_HEADER_WORDS;
    }
    pthread_mutex_lock(&a->lock);
    uint64_t need = GPUAVDBG_INPUT_HEADER_WORDS + (uint64_t)a->n * GPUAVDBG_ADDRESS_ENTRY_WORDS;
    if (need > cap) {
        pthread_mutex_unlock(&a->lock);
        return need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
    }
    uint32_t count = 0;
    uint32_t *e = words + GPUAVDBG_INPUT_HEADER_WORDS;
    uint64_t start = 0, end = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        uint64_t s = a->ranges[i].address;
        uint64_t t = s + a->ranges[i].size;
        if (t < s)
            t = UINT64_MAX;
        if (count > 0 && s < end) { /* overlaps the previous one: merge */
            if (t > end)
                end = t;
        } else {
            if (count > 0) {
                uint32_t *w = e + (count - 1) * GPUAVDBG_ADDRESS_ENTRY_WORDS;
                w[2] = (uint32_t)(end - start);
                w[3] = (uint32_t)((end - start) >> 32);
            }
            start = s;
            end = t;
            uint32_t *w = e + count * GPUAVDBG_ADDRESS_ENTRY_WORDS;
            w[0] = (uint32_t)s;
            w[1] = (uint32_t)(s >> 32);
            count++;
        }
    }
    if (count > 0) {
        uint32_t *w = e + (count - 1) * GPUAVDBG_ADDRESS_ENTRY_WORDS;
        w[2] = (uint32_t)(end - start);
        w[3] = (uint32_t)((end - start) >> 32);
    }
    pthread_mutex_unlock(&a->lock);
    words[GPUAVDBG_INPUT_COUNT_WORD] = count;
    words[GPUAVDBG_INPUT_VALID_WORD] = 1;
    return (uint32_t)need;
}

void gpuavdbg_addr_teardown(device_data *dd)
{
    pthread_mutex_lock(&g_addr_lock);
    addr_dev **pp = &g_addr_devs;
    while (*pp && (*pp)->dd != dd)
        pp = &(*pp)->next;
    addr_dev *a = *pp;
    if (a)
        *pp = a->next;
    pthread_mutex_unlock(&g_addr_lock);
    if (!a)
        return;
    for (size_t i = 0; i < a->bufs.cap; i++)
        if (a->bufs.slots[i].key)
            free(a->bufs.slots[i].val);
    hmap_free(&a->bufs);
    free(a->ranges);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

/* ---- vkGetBufferDeviceAddress and its aliases ------------------------------ */

static VkDeviceAddress get_address(VkDevice device, const VkBufferDeviceAddressInfo *info, int which)
{
    device_data *dd = gpuavdbg_device_get(device);
    if (!dd)
        return 0;
    PFN_vkGetBufferDeviceAddress fn = which == 2   ? dd->disp.GetBufferDeviceAddressEXT
                                      : which == 1 ? dd->disp.GetBufferDeviceAddressKHR
                                                   : dd->disp.GetBufferDeviceAddress;
    if (!fn)
        fn = dd->disp.GetBufferDeviceAddress ? dd->disp.GetBufferDeviceAddress
             : dd->disp.GetBufferDeviceAddressKHR ? dd->disp.GetBufferDeviceAddressKHR
                                                  : dd->disp.GetBufferDeviceAddressEXT;
    if (!fn)
        return 0;
    VkDeviceAddress addr = fn(device, info);
    if (info)
        note(dd, info->buffer, addr);
    return addr;
}

static VKAPI_ATTR VkDeviceAddress VKAPI_CALL icpt_GetBufferDeviceAddress(VkDevice device,
                                                                      const VkBufferDeviceAddressInfo *info)
{
    return get_address(device, info, 0);
}

static VKAPI_ATTR VkDeviceAddress VKAPI_CALL icpt_GetBufferDeviceAddressKHR(VkDevice device,
                                                                         const VkBufferDeviceAddressInfo *info)
{
    return get_address(device, info, 1);
}

static VKAPI_ATTR VkDeviceAddress VKAPI_CALL icpt_GetBufferDeviceAddressEXT(VkDevice device,
                                                                         const VkBufferDeviceAddressInfo *info)
{
    return get_address(device, info, 2);
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(GetBufferDeviceAddress),
    GPUAVDBG_ICPT(GetBufferDeviceAddressKHR),
    GPUAVDBG_ICPT(GetBufferDeviceAddressEXT),
};

PFN_vkVoidFunction gpuavdbg_addresses_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}

/* gpuavdbg_addr_lookup finds the buffer whose address range (of those
 * whose address the app obtained) holds [address, address + size): its
 * handle and the offset of address in it; 0 when none does. */
int gpuavdbg_addr_lookup(device_data *dd, uint64_t address, uint64_t size, VkBuffer *buffer, uint64_t *offset)
{
    addr_dev *a = find(dd, 0);
    if (!a)
        return 0;
    int found = 0;
    pthread_mutex_lock(&a->lock);
    for (uint32_t i = 0; i < a->n && !found; i++) {
        const addr_range *r = &a->ranges[i];
        if (r->address <= address && address - r->address + size <= r->size) {
            *buffer = r->buffer;
            *offset = address - r->address;
            found = 1;
        }
    }
    pthread_mutex_unlock(&a->lock);
    return found;
}

/* overlaps says whether [address, address + size) meets [lo, hi]. */
static int overlaps(uint64_t address, uint64_t size, uint64_t lo, uint64_t hi)
{
    uint64_t end = address + size; /* exclusive */
    if (end < address)
        end = UINT64_MAX;
    return size > 0 && address <= hi && lo < end;
}

uint32_t gpuavdbg_addr_match_range(device_data *dd, uint64_t lo, uint64_t hi, gpuavdbg_addr_match *out, uint32_t cap,
                                   uint32_t *total)
{
    *total = 0;
    addr_dev *a = find(dd, 0);
    if (!a)
        return 0;
    uint32_t n = 0;
    pthread_mutex_lock(&a->lock);
    for (uint32_t i = 0; i < a->n; i++) {
        const addr_range *r = &a->ranges[i];
        if (!overlaps(r->address, r->size, lo, hi))
            continue;
        if (n < cap) {
            const addr_buf *b = hmap_get(&a->bufs, GPUAVDBG_H(r->buffer));
            out[n] = (gpuavdbg_addr_match){.buffer = GPUAVDBG_H(r->buffer),
                                           .address = r->address,
                                           .size = r->size,
                                           .created = b ? b->created : 0,
                                           .live = 1};
            if (b)
                memcpy(out[n].name, b->name, sizeof out[n].name);
            n++;
        }
        (*total)++;
    }
    for (uint32_t k = a->nfreed; k > 0; k--) { /* newest first */
        const gpuavdbg_addr_match *m = &a->freed[(a->head + k - 1) % GPUAVDBG_ADDR_FREED];
        if (!overlaps(m->address, m->size, lo, hi))
            continue;
        if (n < cap)
            out[n++] = *m;
        (*total)++;
    }
    pthread_mutex_unlock(&a->lock);
    return n;
}
