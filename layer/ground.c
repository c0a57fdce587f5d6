/*
 * ground.c: the ground floor every room stands on (ground.h). The maps
 * from the loader's dispatch pointer to instances and devices, from
 * physical devices to their instance, and from command buffers to their
 * state, each under a read-write lock (lookups read); logging; the
 * intercept tables' lookup. It calls nothing above it: registering and
 * freeing what the maps hold is the owners' (dispatch.c, device.c,
 * cmdbuf.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ground.h"
#include "_cgo_export.h"

/* ---- forked children ---------------------------------------------------------- */

/* A child forked from the app has only the forking thread: the Go
 * runtime's threads, and any lock they held, stayed in the parent. No Go
 * call may happen in it (docs/decisions/forked-children.md): the fork
 * handler marks the process and closes the child's copy of the launcher
 * connection, so that nothing it does reaches the parent's stream. */
static int g_forked;
static int g_conn_fd = -1;
static pid_t g_pid;
static pthread_once_t g_fork_once = PTHREAD_ONCE_INIT;

static void atfork_child(void)
{
    __atomic_store_n(&g_forked, 1, __ATOMIC_RELAXED);
    int fd = __atomic_exchange_n(&g_conn_fd, -1, __ATOMIC_RELAXED);
    if (fd >= 0)
        close(fd); /* the child's copy only: the parent's stays open */
}

static void fork_watch(void)
{
    g_pid = getpid();
    pthread_atfork(NULL, NULL, atfork_child);
}

void gpuavdbg_fork_watch(void)
{
    pthread_once(&g_fork_once, fork_watch);
}

int gpuavdbg_forked(void)
{
    if (__atomic_load_n(&g_forked, __ATOMIC_RELAXED))
        return 1;
    /* A child made without fork()'s handlers (a raw clone) is caught by its pid. */
    return g_pid != 0 && getpid() != g_pid;
}

void gpuavdbg_set_connection_fd(int fd)
{
    __atomic_store_n(&g_conn_fd, fd, __ATOMIC_RELAXED);
}

void gpuavdbg_logf(int level, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (gpuavdbg_forked()) {
        if (level != GPUAVDBG_LOG_INFO)
            fprintf(stderr, "gpuav-dbg: %s\n", buf);
        return;
    }
    goLog(level, buf);
}

gpuavdbg_test_hooks gpuavdbg_tests = {.max_draw_indirect = -1};

void gpuavdbg_set_test_hooks(uint64_t fail_alloc, int64_t max_draw_indirect, int binds)
{
    gpuavdbg_tests.fail_alloc = fail_alloc;
    gpuavdbg_tests.max_draw_indirect = max_draw_indirect;
    gpuavdbg_tests.binds = binds;
}

PFN_vkVoidFunction gpuavdbg_intercept_find(const gpuavdbg_intercept *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return t[i].fn;
    return NULL;
}

/* ---- instances and devices -------------------------------------------------- */

/* g_lock guards the three maps below. Instances and devices are created
 * and destroyed rarely; lookups take the read lock. */
static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static hmap g_instances; /* dispatch key -> instance_data* */
static hmap g_devices;   /* dispatch key -> device_data* */
static hmap g_physical;  /* VkPhysicalDevice -> instance_data* */

instance_data *gpuavdbg_instance_get(const void *dispatchable)
{
    pthread_rwlock_rdlock(&g_lock);
    instance_data *id = hmap_get(&g_instances, GPUAVDBG_H(gpuavdbg_dispatch_key(dispatchable)));
    pthread_rwlock_unlock(&g_lock);
    return id;
}

device_data *gpuavdbg_device_get(const void *dispatchable)
{
    pthread_rwlock_rdlock(&g_lock);
    device_data *dd = hmap_get(&g_devices, GPUAVDBG_H(gpuavdbg_dispatch_key(dispatchable)));
    pthread_rwlock_unlock(&g_lock);
    return dd;
}

instance_data *gpuavdbg_instance_for_physical(VkPhysicalDevice pd)
{
    pthread_rwlock_rdlock(&g_lock);
    instance_data *id = hmap_get(&g_physical, GPUAVDBG_H(pd));
    if (!id) /* the loader gives physical devices the instance's key */
        id = hmap_get(&g_instances, GPUAVDBG_H(gpuavdbg_dispatch_key(pd)));
    pthread_rwlock_unlock(&g_lock);
    return id;
}

int gpuavdbg_instance_put(instance_data *id)
{
    pthread_rwlock_wrlock(&g_lock);
    int ok = hmap_put(&g_instances, GPUAVDBG_H(id->key), id);
    pthread_rwlock_unlock(&g_lock);
    return ok;
}

instance_data *gpuavdbg_instance_del(VkInstance instance, int *last)
{
    pthread_rwlock_wrlock(&g_lock);
    instance_data *id = hmap_del(&g_instances, GPUAVDBG_H(gpuavdbg_dispatch_key(instance)));
    if (id) {
        for (size_t i = 0; i < g_physical.cap; i++) {
            if (g_physical.slots[i].key && g_physical.slots[i].val == id) {
                hmap_del(&g_physical, g_physical.slots[i].key);
                i--; /* backward shift may have moved an entry into slot i */
            }
        }
    }
    *last = g_instances.len == 0;
    pthread_rwlock_unlock(&g_lock);
    return id;
}

void gpuavdbg_physical_put(instance_data *id, uint32_t n, const VkPhysicalDevice *pds)
{
    pthread_rwlock_wrlock(&g_lock);
    for (uint32_t i = 0; i < n; i++)
        hmap_put(&g_physical, GPUAVDBG_H(pds[i]), id);
    pthread_rwlock_unlock(&g_lock);
}

int gpuavdbg_device_put(device_data *dd)
{
    pthread_rwlock_wrlock(&g_lock);
    int ok = hmap_put(&g_devices, GPUAVDBG_H(dd->key), dd);
    pthread_rwlock_unlock(&g_lock);
    return ok;
}

void gpuavdbg_device_each(void (*fn)(device_data *dd, void *ctx), void *ctx)
{
    pthread_rwlock_rdlock(&g_lock);
    for (size_t i = 0; i < g_devices.cap; i++)
        if (g_devices.slots[i].key)
            fn(g_devices.slots[i].val, ctx);
    pthread_rwlock_unlock(&g_lock);
}

device_data *gpuavdbg_device_del(VkDevice device)
{
    pthread_rwlock_wrlock(&g_lock);
    device_data *dd = hmap_del(&g_devices, GPUAVDBG_H(gpuavdbg_dispatch_key(device)));
    pthread_rwlock_unlock(&g_lock);
    return dd;
}

/* ---- command buffers ------------------------------------------------------------ */

static pthread_rwlock_t g_cb_lock = PTHREAD_RWLOCK_INITIALIZER;
static hmap g_cbs; /* VkCommandBuffer -> cb_state* */
/* Bumped on every change of g_cbs; invalidates the per-thread caches. */
uint64_t gpuavdbg_cb_gen;

GPUAVDBG_TLS_IE VkCommandBuffer gpuavdbg_tl_cb;
GPUAVDBG_TLS_IE cb_state *gpuavdbg_tl_cs;
GPUAVDBG_TLS_IE uint64_t gpuavdbg_tl_gen = UINT64_MAX;

/* Out of line, so that the hit (gpuavdbg_cb_get) saves no registers. */
__attribute__((noinline)) cb_state *gpuavdbg_cb_miss(VkCommandBuffer cb, uint64_t gen)
{
    pthread_rwlock_rdlock(&g_cb_lock);
    cb_state *cs = hmap_get(&g_cbs, GPUAVDBG_H(cb));
    pthread_rwlock_unlock(&g_cb_lock);
    gpuavdbg_tl_cb = cb;
    gpuavdbg_tl_cs = cs;
    gpuavdbg_tl_gen = gen;
    return cs;
}

int gpuavdbg_cb_put(VkCommandBuffer cb, cb_state *cs, cb_state **old)
{
    pthread_rwlock_wrlock(&g_cb_lock);
    *old = hmap_get(&g_cbs, GPUAVDBG_H(cb));
    int ok = hmap_put(&g_cbs, GPUAVDBG_H(cb), cs);
    if (!ok)
        *old = NULL;
    __atomic_add_fetch(&gpuavdbg_cb_gen, 1, __ATOMIC_RELEASE);
    pthread_rwlock_unlock(&g_cb_lock);
    return ok;
}

cb_state *gpuavdbg_cb_del(VkCommandBuffer cb)
{
    pthread_rwlock_wrlock(&g_cb_lock);
    cb_state *cs = hmap_del(&g_cbs, GPUAVDBG_H(cb));
    __atomic_add_fetch(&gpuavdbg_cb_gen, 1, __ATOMIC_RELEASE);
    pthread_rwlock_unlock(&g_cb_lock);
    return cs;
}

size_t gpuavdbg_cb_list(device_data *dd, VkCommandPool pool, cb_state ***list)
{
    size_t n = 0;
    pthread_rwlock_rdlock(&g_cb_lock);
    cb_state **l = malloc((g_cbs.len + 1) * sizeof *l);
    for (size_t i = 0; l && i < g_cbs.cap; i++) {
        cb_state *cs = g_cbs.slots[i].val;
        if (g_cbs.slots[i].key && cs->dd == dd && (!pool || cs->pool == pool))
            l[n++] = cs;
    }
    pthread_rwlock_unlock(&g_cb_lock);
    *list = l;
    return n;
}

void gpuavdbg_cb_each(device_data *dd, VkCommandPool pool, int del, void (*fn)(cb_state *cs))
{
    pthread_rwlock_wrlock(&g_cb_lock);
    for (size_t i = 0; i < g_cbs.cap; i++) {
        cb_state *cs = g_cbs.slots[i].val;
        if (!g_cbs.slots[i].key || cs->dd != dd || (pool && cs->pool != pool))
            continue;
        if (del) {
            hmap_del(&g_cbs, g_cbs.slots[i].key);
            i--; /* backward-shift deletion may have moved an entry into slot i */
        }
        fn(cs);
    }
    __atomic_add_fetch(&gpuavdbg_cb_gen, 1, __ATOMIC_RELEASE);
    pthread_rwlock_unlock(&g_cb_lock);
}
