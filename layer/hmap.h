/*
 * hmap.h: the ground floor's handle map (hmap.c). An open-addressing map
 * from non-zero 64-bit keys (handles) to pointers. Not synchronized:
 * callers hold the lock that guards the map. Pure C: no Vulkan call, no
 * Go (the C unit test links it alone, ctest/).
 */
#ifndef GPUAVDBG_HMAP_H
#define GPUAVDBG_HMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct hmap_slot {
    uint64_t key;
    void *val;
} hmap_slot;

typedef struct hmap {
    hmap_slot *slots;
    size_t cap; /* power of two, or 0 */
    size_t len;
} hmap;

void *hmap_get(const hmap *m, uint64_t key);
/* hmap_put inserts or replaces; returns 0 when out of memory. */
int hmap_put(hmap *m, uint64_t key, void *val);
/* hmap_del removes key and returns its value, or NULL. */
void *hmap_del(hmap *m, uint64_t key);
void hmap_free(hmap *m);

#endif
