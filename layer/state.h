/*
 * state.h: the per-instance, per-device and per-command-buffer state every
 * floor of the C half reads (docs/layer-map.md). A room keeps its own
 * state behind one pointer here (device_data.cc, cb_state.desc...), made
 * and freed by the device and command-buffer owners' flow (device.c,
 * cmdbuf.c); the fields name the room that writes them.
 */
#ifndef GPUAVDBG_STATE_H
#define GPUAVDBG_STATE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "dispatch_table.h"
#include "hmap.h"
#include "layer.h"

/* ---- the action commands ------------------------------------------------ */

/* The action commands the layer records (gpuavdbg_action.command): enum id
 * and the Vulkan name records are reported under (KHR/AMD aliases report
 * the core name). cmdbuf.c intercepts them all and names them
 * (gpuavdbg_cmd_name, cmdbuf.h); the rooms it calls read the ids. */
#define GPUAVDBG_CMDS(X)                                                     \
    X(DRAW, "vkCmdDraw")                                                     \
    X(DRAW_INDEXED, "vkCmdDrawIndexed")                                      \
    X(DRAW_INDIRECT, "vkCmdDrawIndirect")                                    \
    X(DRAW_INDEXED_INDIRECT, "vkCmdDrawIndexedIndirect")                     \
    X(DRAW_INDIRECT_COUNT, "vkCmdDrawIndirectCount")                         \
    X(DRAW_INDEXED_INDIRECT_COUNT, "vkCmdDrawIndexedIndirectCount")          \
    X(DRAW_INDIRECT_BYTE_COUNT, "vkCmdDrawIndirectByteCountEXT")             \
    X(DRAW_MULTI, "vkCmdDrawMultiEXT")                                       \
    X(DRAW_MULTI_INDEXED, "vkCmdDrawMultiIndexedEXT")                        \
    X(DRAW_MESH_TASKS, "vkCmdDrawMeshTasksEXT")                              \
    X(DRAW_MESH_TASKS_INDIRECT, "vkCmdDrawMeshTasksIndirectEXT")             \
    X(DRAW_MESH_TASKS_INDIRECT_COUNT, "vkCmdDrawMeshTasksIndirectCountEXT")  \
    X(DRAW_MESH_TASKS_NV, "vkCmdDrawMeshTasksNV")                            \
    X(DRAW_MESH_TASKS_INDIRECT_NV, "vkCmdDrawMeshTasksIndirectNV")           \
    X(DRAW_MESH_TASKS_INDIRECT_COUNT_NV, "vkCmdDrawMeshTasksIndirectCountNV") \
    X(DRAW_CLUSTER, "vkCmdDrawClusterHUAWEI")                                \
    X(DRAW_CLUSTER_INDIRECT, "vkCmdDrawClusterIndirectHUAWEI")               \
    X(DISPATCH, "vkCmdDispatch")                                             \
    X(DISPATCH_INDIRECT, "vkCmdDispatchIndirect")                            \
    X(DISPATCH_BASE, "vkCmdDispatchBase")                                    \
    X(TRACE_RAYS, "vkCmdTraceRaysKHR")                                       \
    X(TRACE_RAYS_INDIRECT, "vkCmdTraceRaysIndirectKHR")                      \
    X(TRACE_RAYS_INDIRECT2, "vkCmdTraceRaysIndirect2KHR")                    \
    X(TRACE_RAYS_NV, "vkCmdTraceRaysNV")                                     \
    X(BUILD_AS, "vkCmdBuildAccelerationStructuresKHR")                       \
    X(BUILD_AS_INDIRECT, "vkCmdBuildAccelerationStructuresIndirectKHR")      \
    X(COPY_BUFFER_TO_IMAGE, "vkCmdCopyBufferToImage")                        \
    X(COPY_BUFFER_TO_IMAGE2, "vkCmdCopyBufferToImage2")                      \
    X(COPY_BUFFER_TO_IMAGE2_KHR, "vkCmdCopyBufferToImage2KHR")

#define GPUAVDBG_CMD_ENUM(id, name) GPUAVDBG_CMD_##id,
typedef enum gpuavdbg_cmd { GPUAVDBG_CMD_NONE = 0, GPUAVDBG_CMDS(GPUAVDBG_CMD_ENUM) GPUAVDBG_CMD_COUNT } gpuavdbg_cmd;
#undef GPUAVDBG_CMD_ENUM

/* ---- constants of the output buffer -------------------------------------- */

/* GPUAVDBG_HEADER_WORDS, GPUAVDBG_RECORD_WORDS (gpuav.OutputHeaderWords,
 * gpuav.RecordWords), the bindings GPUAVDBG_OUTPUT_BINDING and
 * GPUAVDBG_ACTION_BINDING, GPUAVDBG_MAX_SLOT and GPUAVDBG_LAYER_NAME are
 * generated (shared_gen.h, through layer.h). */
/* Records one command buffer's output buffer holds. */
#define GPUAVDBG_RECORDS 4096u
#define GPUAVDBG_DATA_WORDS (GPUAVDBG_RECORD_WORDS * GPUAVDBG_RECORDS)
#define GPUAVDBG_OUTPUT_WORDS (GPUAVDBG_HEADER_WORDS + GPUAVDBG_DATA_WORDS)
/* Slots of the action buffer: actions from ACTION_SLOTS-1 on share the last. */
#define GPUAVDBG_ACTION_SLOTS 4096u
/* Input buffers (bindings 2 and 3): gpuav/inputs.go, generated. */
#include "inputs_gen.h"
/* Which input buffer of a unit: descriptor state (binding 2), address table
 * (binding 3), the command checks' pre-pass buffer (binding 4, prepass.c:
 * written while recording and by the pre-pass, not at submit). */
enum { GPUAVDBG_INPUT_DESC = 0, GPUAVDBG_INPUT_ADDR = 1, GPUAVDBG_INPUT_CMD = 2, GPUAVDBG_INPUTS = 3 };
/* Layer records and the pre-pass buffer's layout: gpuav/layerrecord.go and
 * gpuav/prepass.go, generated. */
#include "prepass_gen.h"
/* The highest set index the layer ever uses is GPUAVDBG_MAX_SLOT, 32
 * (gpuav.MaxSlot, docs/decisions/reserve-slot.md). */

/* The most action facts a pipeline may have (more: it runs its precise
 * variant). */
#define GPUAVDBG_ACTION_FACTS 16


/* What the CPU knows of an action for the action facts (facts.h): a
 * direct dispatch's largest WorkgroupID (base + count - 1; empty: a count
 * is 0, nothing runs). known is 0 for any other action. */
typedef struct gpuavdbg_action_params {
    int known, empty;
    uint64_t wg_max[3];
} gpuavdbg_action_params;

/* A set mask: bit i for set index i; every bit for a set past 31. */
#define GPUAVDBG_ALL_SETS 0xFFFFFFFFu
#define GPUAVDBG_SET_BIT(s) ((s) < 32u ? 1u << (s) : GPUAVDBG_ALL_SETS)

/* ---- per-instance and per-device state ---------------------------------- */

typedef struct instance_data {
    void *key; /* the loader's dispatch pointer: first word of the handle */
    VkInstance instance;
    instance_dispatch disp;
    int reserve_slot;     /* report maxBoundDescriptorSets - 1 */
    uint32_t api_version; /* the app's VkApplicationInfo.apiVersion (0: 1.0) */
    int inert;            /* created in a forked child: every call goes down the chain (dispatch.c) */
    /* VK_KHR_device_group_creation is enabled (by the app, or by the
     * layer for a Vulkan 1.0 app: VK_KHR_device_group needs it). */
    int device_group_creation;
} instance_data;

typedef struct out_unit {
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint32_t *words; /* persistently mapped, GPUAVDBG_OUTPUT_WORDS */
    /* action_sets[i] is the layer's set for action slot i: the output
     * buffer and slot i of the action buffer. One set per slot, made when a
     * recording first reaches that slot (with the rest of its group of
     * SETS_PER_POOL, in one allocation call) and kept with the unit, so that no
     * bind needs a dynamic offset (drivers such as lavapipe copy the set on
     * every bind with dynamic offsets). action_sets[0] always exists. */
    VkDescriptorSet *action_sets;
    uint32_t nsets, cap_sets;
    /* input buffers: bindings 2 and 3 (GPUAVDBG_INPUT_*), persistently
     * mapped, written before each submit; in_need[i] > in_cap[i] (words)
     * asks for a bigger buffer at the next vkBeginCommandBuffer. */
    VkBuffer in_buffer[GPUAVDBG_INPUTS];
    VkDeviceMemory in_memory[GPUAVDBG_INPUTS];
    uint32_t *in_words[GPUAVDBG_INPUTS];
    uint32_t in_cap[GPUAVDBG_INPUTS];
    uint32_t in_need[GPUAVDBG_INPUTS];
    /* the printf buffer (binding 5): the output buffer's words from
     * printf_offset bytes on, printf_words of them (printf.go decodes it) */
    uint32_t *printf;
    VkDeviceSize printf_offset;
    uint32_t printf_words;
    struct out_unit *next_free;
    struct out_unit *next_all;
} out_unit;

/* What the layer knows about a pipeline (device_data.pipelines). */
typedef struct pipeline_info {
    uint64_t serial; /* goPipelineCreated's: never reused, unlike the handle */
    VkPipelineLayout layout;
    VkPipelineBindPoint bind_point;
    int instrumented; /* bind the layer's set before its actions */
    int reads_set;    /* ... unless 0: the pipeline as created (its fast variant) uses nothing of it */
    int push;         /* ... by pushing it: a descriptor-buffer layout */
    int library;      /* VK_PIPELINE_CREATE_LIBRARY_BIT_KHR: Go keeps its stages */
    struct cc_vi *vi; /* cmdchecks.c: its vertex input state, or NULL */
    int has_task;     /* a task shader stage (mesh draws' group-count limits) */
    struct gpuavdbg_variant *var; /* variants.c: its precise variant, or NULL */
} pipeline_info;

typedef struct device_data {
    void *key;
    VkDevice device;
    VkPhysicalDevice physical;
    instance_data *inst;
    device_dispatch disp;
    int inert; /* of an inert instance: every call goes down the chain (dispatch.c) */

    int instrumenting;
    char reason[256];
    uint32_t slot;
    uint32_t max_bound_sets;
    uint32_t robust; /* the app enabled robustBufferAccess or robustBufferAccess2 */
    int bda;         /* the app enabled bufferDeviceAddress */
    uint32_t int64;  /* shaderInt64 is enabled (by the app or the layer) */
    /* The action buffer's bytes per action slot; each slot has a set of
     * its own (docs/decisions/action-index-from-a-set-per-action.md). */
    uint32_t action_stride;
    /* the printf buffer's words per unit, header included (resources.c) */
    uint32_t printf_words;
    VkPhysicalDeviceMemoryProperties mem_props;

    VkDescriptorSetLayout set_layout;   /* bindings 0 and 1 */
    VkDescriptorSetLayout empty_layout; /* padding */
    /* Descriptor buffers (VK_EXT_descriptor_buffer): the app enabled them;
     * the layer's set as a push-descriptor, descriptor-buffer layout and
     * the padding for such pipeline layouts, or why there are none. */
    int descriptor_buffer;
    int push_descriptors; /* VK_KHR_push_descriptor is enabled */
    int buffer_marker;    /* VK_AMD_buffer_marker is enabled (crumbs.c) */
    int device_fault;     /* VK_EXT_device_fault and its deviceFault feature are enabled (fault.c) */
    /* The number of the newest submit made on the device (submit.c writes
     * it, atomically; addresses.c's fault history reads it). */
    uint64_t last_submit;
    /* Why the device has no vkCmdDispatchBase (a Vulkan 1.0 device without
     * VK_KHR_device_group), for the pre-pass's reason; "" otherwise. */
    char dispatch_base_why[240];
    VkDescriptorSetLayout set_layout_db, empty_layout_db;
    char db_reason[160];
    /* Descriptor buffers the layer reads (docs/decisions/descriptor-buffers.md):
     * descriptors.c's descriptor-buffer properties, memory.c's memory and
     * buffer binds; made where the app enabled descriptor buffers. */
    struct desc_dev *desc;
    struct mem_dev *mem;
    VkBuffer action_buffer;
    VkDeviceMemory action_memory;

    struct cc_dev *cc; /* cmdchecks.c: its settings, features and limits */
    struct crumb_dev *crumbs; /* crumbs.c: the marker buffers, when the watchdog is on */
    struct pp_dev *pp; /* prepass.c: the limits block, the pre-pass pipelines */
    struct accel_dev *accel; /* accel.c: the acceleration structures (its own lock), or NULL */
    struct depth_dev *depth; /* depthcopy.c: the D32 images (its own lock), or NULL */

    pthread_mutex_t lock; /* guards everything below */
    hmap layouts;         /* VkPipelineLayout -> (void*)(uintptr_t)GPUAVDBG_LAYOUT_* */
    hmap pipelines;       /* VkPipeline -> pipeline_info* */
    hmap caches;          /* the app's VkPipelineCache -> the layer's shadow cache (cache.c) */
    hmap held;            /* variants.c (its own lock): modules, layouts, render passes a variant keeps alive */
    hmap render_passes;   /* variants.c (its own lock): VkRenderPass -> what each subpass renders to */
    struct shaderobj_dev *shaderobj; /* shaderobj.c, made on first use */
    VkDescriptorPool *pools;
    uint32_t npools;
    uint32_t pool_sets_left; /* sets left in pools[npools-1] */
    out_unit *free_units;
    out_unit *all_units;
    int unit_failure_reported;
    /* sink: the output unit of command buffers begun after an allocation
     * failure (alloc_failed): their instrumented shaders write into it and
     * nothing reads it. */
    out_unit *sink;
    int alloc_failed;

    /* submit.c: submissions whose records are not read yet, oldest first,
     * and a pool of the layer's fences. */
    pthread_mutex_t pending_lock;
    pthread_cond_t pending_cond;
    struct pending_submit *pending_head, *pending_tail;
    VkFence *free_fences;
    uint32_t nfree_fences, cap_free_fences;
    VkFence *stuck_fences; /* never signalled in time; destroyed with the device */
    uint32_t nstuck_fences, cap_stuck_fences;
    /* submit.c: the watchdog thread (started with the first pending
     * submission when the watchdog is on), told to stop by watchdog_stop
     * under pending_lock; lost: a call returned VK_ERROR_DEVICE_LOST and
     * it was reported. */
    pthread_t watchdog;
    int watchdog_running, watchdog_stop;
    pthread_cond_t watchdog_cond;
    int lost;
} device_data;

/* ---- per-command-buffer state (cmdbuf.c) --------------------------------- */

typedef struct bound_pipeline {
    uint64_t pipeline; /* 0 when shader objects are bound (shaderobj.c) */
    uint64_t serial;   /* the pipeline's serial (pipeline_info's), 0 with none */
    VkPipelineLayout layout;
    int instrumented;
    /* cmdchecks.c: the pipeline's vertex input state and task stage
     * (pipeline_info's, valid while the pipeline is bound). */
    const struct cc_vi *vi;
    int has_task;
    int push; /* a descriptor-buffer layout: the layer pushes its set (resources.c) */
    /* variants.c: the pipeline's variants (pipeline_info's, valid while it
     * is bound), the pipeline bound down the chain, the set indices bound
     * since its facts were last tested (bit i: set i; every bit when the
     * pipeline changed), and the set indices its facts read (the same
     * bits; GPUAVDBG_ALL_SETS for a fact past set 31): only a bind of one
     * of those sets tests the facts again. */
    struct gpuavdbg_variant *var;
    uint64_t down;
    uint32_t facts_dirty;
    uint32_t fact_sets;
    /* pipeline_info's reads_set: 0 when the pipeline (down == pipeline)
     * uses nothing of the layer's set, so its actions bind nothing. */
    int reads_set;
    /* The last test of the bound sets (the first fact that failed and its
     * floor), the floors of the action facts' bindings, and the last
     * action facts' evaluation: for which parameters, and the first that
     * failed (act_failed < 0: none) with the bound it needed. */
    int has_act, sets_ok, act_valid, act_failed;
    uint32_t sets_failed, sets_floor;
    uint32_t act_floor[GPUAVDBG_ACTION_FACTS];
    gpuavdbg_action_params act_params;
    uint64_t act_pc_gen, act_need;
    /* Shader objects bound per stage (GPUAVDBG_SO_STAGES, shaderobj.c);
     * stale after a later vkCmdBindPipeline at this bind point. */
    VkShaderEXT shaders[GPUAVDBG_SO_STAGES];
} bound_pipeline;

/* Bind point index: graphics 0, compute 1, ray tracing 2. */
#define GPUAVDBG_BIND_POINTS 3
/* Set numbers whose app binds cmdbuf.c follows: the layer's slot is at
 * most 32 (min(maxBoundDescriptorSets, 33) - 1), so the app's are below. */
#define GPUAVDBG_APP_SETS 32u

typedef struct cb_state {
    VkCommandBuffer cb;
    /* A serial of its own, given at allocation and never reused: a driver
     * may give a command buffer allocated later the handle of a freed one
     * (docs/decisions/attribution-by-identity.md). */
    uint64_t serial;
    device_data *dd;
    VkCommandPool pool;
    int secondary;
    int simultaneous; /* begun with VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT */
    out_unit *unit;
    bound_pipeline bound[GPUAVDBG_BIND_POINTS];
    /* The layer's set as last bound at each bind point: with which layout
     * (0: not bound, or disturbed by the app since) and action slot. */
    VkPipelineLayout set_layout[GPUAVDBG_BIND_POINTS];
    uint32_t set_slot[GPUAVDBG_BIND_POINTS];
    /* The layout each set number below the layer's was last bound with by
     * the app's vkCmdBindDescriptorSets* (0: unknown), to tell whether a
     * bind leaves the layer's set in place (cmdbuf.c app_bound). */
    VkPipelineLayout app_layout[GPUAVDBG_BIND_POINTS][GPUAVDBG_APP_SETS];

    gpuavdbg_action *actions;
    uint32_t nactions, cap_actions;
    uint32_t ninstrumented; /* actions whose variant uses the layer's set */
    uint32_t nbinds;        /* binds (or pushes) of the layer's set */
    /* The coverage (submit.c counts them at each submit): actions whose
     * pipeline (or shader objects) ran instrumented, and of those the
     * actions of a pipeline with a fast variant that ran its precise one. */
    uint32_t nchecked, nprecise;

    char **stack; /* open debug-utils labels */
    uint32_t nstack, cap_stack;
    char **paths; /* distinct label paths, referenced by actions */
    uint32_t npaths, cap_paths;
    uint32_t cur_path;
    int path_dirty;

    VkCommandBuffer *executed; /* secondaries run by vkCmdExecuteCommands */
    uint32_t *executed_at;     /* the primary's action count at each of them */
    uint32_t nexecuted, cap_executed;

    /* descriptors.c: the app's bound sets per bind point and per action. */
    struct desc_cb *desc;
    /* The action being recorded's parameters, set by a direct dispatch
     * around before_action (cmdbuf.c), else known 0. */
    gpuavdbg_action_params act;
    /* The push-constant words pushed since the command buffer began
     * (cmdbuf.c; bit i of pc_known: word i), and a count of the pushes,
     * which the action facts' results are remembered under. */
    uint32_t pc[GPUAVDBG_PC_WORDS];
    uint64_t pc_known, pc_gen;

    /* cmdchecks.c: index and vertex buffer binds, layer records, vertex
     * tables; prepass.c: the pre-pass jobs (both made on first use). */
    struct cc_cb *cc;
    struct pp_cb *pp;
    /* accel.c: the recording's live table and copies of instances (made
     * on first use). */
    struct accel_cb *accel;
    /* crumbs.c: its breadcrumbs' marker slot and render passes, or NULL. */
    struct crumb_cb *crumb;

    /* submit.c, guarded by dd->pending_lock: the unread submission whose
     * records this command buffer's output buffer holds, or NULL. */
    struct pending_submit *pending;
} cb_state;

/* dd->instrumenting may drop to 0 on any thread (allocation failure). */
static inline int gpuavdbg_instrumenting(const device_data *dd)
{
    return __atomic_load_n(&dd->instrumenting, __ATOMIC_RELAXED);
}

/* The handle of a dispatchable or non-dispatchable object as a uint64. */
#define GPUAVDBG_H(h) ((uint64_t)(uintptr_t)(h))

#endif
