/*
 * ground.h: the ground floor of the C half (ground.c, hmap.c). Every room
 * stands on it, and it calls nothing above it: logging, finding an
 * instance, a device or a command buffer from its handle, and the
 * intercept tables' lookup. docs/layer-map.md draws the floors.
 */
#ifndef GPUAVDBG_GROUND_H
#define GPUAVDBG_GROUND_H

#include "state.h"

/* gpuavdbg_logf sends a line to the launcher's log (goLog); in a forked
 * child, warnings and errors go to stderr. */
void gpuavdbg_logf(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The test hooks (the options table's test-only rows, options.TestHooks):
 * Go hands them over once it has read the settings, at the first
 * vkCreateInstance (gpuavdbg_set_test_hooks). fail_alloc: the Nth
 * buffer allocation of the layer fails (0: none); max_draw_indirect
 * replaces the device's maxDrawIndirectCount (-1: it does not); binds: each
 * command buffer's end logs the layer's binds. */
typedef struct gpuavdbg_test_hooks {
    uint64_t fail_alloc;
    int64_t max_draw_indirect;
    int binds;
} gpuavdbg_test_hooks;
extern gpuavdbg_test_hooks gpuavdbg_tests;
/* gpuavdbg_set_test_hooks, which Go calls once it has read the settings,
 * sets gpuavdbg_tests. */
void gpuavdbg_set_test_hooks(uint64_t fail_alloc, int64_t max_draw_indirect, int binds);

/* ---- forked children --------------------------------------------------------- */

/* gpuavdbg_fork_watch (once, at the first instance) registers the fork
 * handler and remembers the process; gpuavdbg_forked says whether this
 * process is a child forked from it (without exec), where no Go call may
 * happen (docs/decisions/forked-children.md). */
void gpuavdbg_fork_watch(void);
int gpuavdbg_forked(void);
/* Go tells the launcher connection's socket (-1: none), which a forked
 * child closes without Go. */
void gpuavdbg_set_connection_fd(int fd);

/* ---- instances and devices, by the loader's dispatch pointer ------------ */

/* The loader's dispatch pointer: the first word of a dispatchable handle. */
static inline void *gpuavdbg_dispatch_key(const void *dispatchable)
{
    return *(void *const *)dispatchable;
}

instance_data *gpuavdbg_instance_get(const void *dispatchable);
device_data *gpuavdbg_device_get(const void *dispatchable);
instance_data *gpuavdbg_instance_for_physical(VkPhysicalDevice pd);

/* Registration, by the loader face (dispatch.c): put returns 0 when out of
 * memory; gpuavdbg_instance_del forgets the instance and its physical
 * devices and says whether it was the last one. */
int gpuavdbg_instance_put(instance_data *id);
instance_data *gpuavdbg_instance_del(VkInstance instance, int *last);
void gpuavdbg_physical_put(instance_data *id, uint32_t n, const VkPhysicalDevice *pds);
int gpuavdbg_device_put(device_data *dd);
device_data *gpuavdbg_device_del(VkDevice device);
/* gpuavdbg_device_each calls fn on every device, the map read-locked
 * (no device is destroyed meanwhile). */
void gpuavdbg_device_each(void (*fn)(device_data *dd, void *ctx), void *ctx);

/* ---- command buffers ------------------------------------------------------ */

/* The calling thread's last command buffer, for the lookup every command
 * makes: initial-exec TLS, an offset from the thread pointer (the
 * library's TLS is static already: the Go runtime's is initial-exec). The
 * generation is bumped on every change of the map and invalidates them. */
#define GPUAVDBG_TLS_IE __thread __attribute__((tls_model("initial-exec"), visibility("hidden")))
extern GPUAVDBG_TLS_IE VkCommandBuffer gpuavdbg_tl_cb;
extern GPUAVDBG_TLS_IE cb_state *gpuavdbg_tl_cs;
extern GPUAVDBG_TLS_IE uint64_t gpuavdbg_tl_gen;
extern uint64_t gpuavdbg_cb_gen __attribute__((visibility("hidden")));

/* gpuavdbg_cb_miss is gpuavdbg_cb_get's miss: the map under its lock. */
cb_state *gpuavdbg_cb_miss(VkCommandBuffer cb, uint64_t gen);

/* gpuavdbg_cb_get returns the layer's state of a command buffer, or NULL. */
static inline cb_state *gpuavdbg_cb_get(VkCommandBuffer cb)
{
    uint64_t gen = __atomic_load_n(&gpuavdbg_cb_gen, __ATOMIC_ACQUIRE);
    if (gpuavdbg_tl_cb == cb && gpuavdbg_tl_gen == gen)
        return gpuavdbg_tl_cs;
    return gpuavdbg_cb_miss(cb, gen);
}

/* The command-buffer owner's (cmdbuf.c) changes of the map.
 * gpuavdbg_cb_put adds cs (0: out of memory); *old is the state a handle
 * the app never freed still had (e.g. its pool was reset away), which the
 * caller frees. gpuavdbg_cb_del removes and returns a command buffer's
 * state. gpuavdbg_cb_list lists the command buffers of dd (of pool, unless
 * it is VK_NULL_HANDLE) into a malloc'd *list (NULL: out of memory) and
 * returns their number. gpuavdbg_cb_each calls fn on each of them with the
 * map locked for writing, removing them first with del. */
int gpuavdbg_cb_put(VkCommandBuffer cb, cb_state *cs, cb_state **old);
cb_state *gpuavdbg_cb_del(VkCommandBuffer cb);
size_t gpuavdbg_cb_list(device_data *dd, VkCommandPool pool, cb_state ***list);
void gpuavdbg_cb_each(device_data *dd, VkCommandPool pool, int del, void (*fn)(cb_state *cs));

/* ---- intercept tables ------------------------------------------------------ */

/* Each room lists the Vulkan commands it owns (intercepts) in a table of
 * GPUAVDBG_ICPT(Command) entries, each naming its icpt_Command; the loader
 * face asks every room's gpuavdbg_<room>_intercept. */
typedef struct gpuavdbg_intercept {
    const char *name;
    PFN_vkVoidFunction fn;
} gpuavdbg_intercept;
#define GPUAVDBG_ICPT(fn) {"vk" #fn, (PFN_vkVoidFunction)icpt_##fn}
#define GPUAVDBG_NELEM(a) (sizeof(a) / sizeof *(a))
PFN_vkVoidFunction gpuavdbg_intercept_find(const gpuavdbg_intercept *t, size_t n, const char *name);

#endif
