/*
 * hmap.c: a small open-addressing hash map from Vulkan handles (non-zero
 * 64-bit keys) to pointers: linear probing, backward-shift deletion (no
 * tombstones), grown at 50% load. The layer keeps its command buffers,
 * pipelines and pipeline layouts in these maps.
 */
#include <stdlib.h>

#include "hmap.h"

static size_t hmap_hash(uint64_t k)
{
    /* splitmix64 finalizer: handles are pointers with zero low bits. */
    k ^= k >> 30;
    k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 27;
    k *= 0x94d049bb133111ebull;
    k ^= k >> 31;
    return (size_t)k;
}

void *hmap_get(const hmap *m, uint64_t key)
{
    if (m->cap == 0 || key == 0)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = hmap_hash(key) & mask;; i = (i + 1) & mask) {
        if (m->slots[i].key == key)
            return m->slots[i].val;
        if (m->slots[i].key == 0)
            return NULL;
    }
}

static int hmap_grow(hmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    hmap_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return 0;
    size_t mask = ncap - 1;
    for (size_t j = 0; j < m->cap; j++) {
        if (m->slots[j].key == 0)
            continue;
        size_t i = hmap_hash(m->slots[j].key) & mask;
        while (ns[i].key != 0)
            i = (i + 1) & mask;
        ns[i] = m->slots[j];
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return 1;
}

int hmap_put(hmap *m, uint64_t key, void *val)
{
    if (key == 0)
        return 0;
    if ((m->len + 1) * 2 > m->cap && !hmap_grow(m))
        return 0;
    size_t mask = m->cap - 1;
    size_t i = hmap_hash(key) & mask;
    while (m->slots[i].key != 0 && m->slots[i].key != key)
        i = (i + 1) & mask;
    if (m->slots[i].key == 0)
        m->len++;
    m->slots[i].key = key;
    m->slots[i].val = val;
    return 1;
}

void *hmap_del(hmap *m, uint64_t key)
{
    if (m->cap == 0 || key == 0)
        return NULL;
    size_t mask = m->cap - 1;
    size_t i = hmap_hash(key) & mask;
    while (m->slots[i].key != key) {
        if (m->slots[i].key == 0)
            return NULL;
        i = (i + 1) & mask;
    }
    void *val = m->slots[i].val;
    m->len--;
    /* Backward-shift: move later entries of the cluster into the hole when
     * their home slot is not between the hole and their position. */
    size_t hole = i;
    for (size_t j = (i + 1) & mask; m->slots[j].key != 0; j = (j + 1) & mask) {
        size_t home = hmap_hash(m->slots[j].key) & mask;
        int movable = (j > hole) ? (home <= hole || home > j) : (home <= hole && home > j);
        if (movable) {
            m->slots[hole] = m->slots[j];
            hole = j;
        }
    }
    m->slots[hole].key = 0;
    m->slots[hole].val = NULL;
    return val;
}

void hmap_free(hmap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = 0;
    m->len = 0;
}
