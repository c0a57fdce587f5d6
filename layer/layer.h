/*
 * layer.h: declarations shared by the C half of the gpuav-dbg Vulkan layer
 * and the Go half (the preamble of exports.go includes it, so the types
 * below are the C<->Go boundary).
 *
 * The C half (dispatch.c, device.c, pipeline.c, cmdbuf.c, submit.c,
 * hmap.c) owns everything the loader calls and everything per command: the
 * dispatch tables, the per-command-buffer action lists and the descriptor
 * set binds. The Go half (exports.go and friends) instruments shaders,
 * decodes records and talks to the launcher. C calls Go only at coarse
 * points (instance/device/shader/pipeline creation, once per submit with
 * records); Go never calls Vulkan.
 */
#ifndef GPUAVDBG_LAYER_H
#define GPUAVDBG_LAYER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>
#include <vulkan/vk_layer.h>

#include "shaderobj.h"
#include "vk14.h"

/* ---- constants shared with gpuav/record.go ------------------------------ */

#define GPUAVDBG_LAYER_NAME "VK_LAYER_GPUAVDBG_validation"

/* gpuav.OutputHeaderWords, gpuav.RecordWords. */
#define GPUAVDBG_HEADER_WORDS 4u
#define GPUAVDBG_RECORD_WORDS 16u
/* Records one command buffer's output buffer holds. */
#define GPUAVDBG_RECORDS 4096u
#define GPUAVDBG_DATA_WORDS (GPUAVDBG_RECORD_WORDS * GPUAVDBG_RECORDS)
#define GPUAVDBG_OUTPUT_WORDS (GPUAVDBG_HEADER_WORDS + GPUAVDBG_DATA_WORDS)
/* Slots of the action buffer: actions from ACTION_SLOTS-1 on share the last. */
#define GPUAVDBG_ACTION_SLOTS 4096u
/* gpuav.OutputBinding, gpuav.ActionBinding. */
#define GPUAVDBG_OUTPUT_BINDING 0u
#define GPUAVDBG_ACTION_BINDING 1u
/* Input buffers (bindings 2 and 3): gpuav/inputs.go, generated. */
#include "inputs_gen.h"
/* Which input buffer of a unit: descriptor state (binding 2), address table
 * (binding 3), the command checks' pre-pass buffer (binding 4, prepass.c:
 * written while recording and by the pre-pass, not at submit). */
enum { GPUAVDBG_INPUT_DESC = 0, GPUAVDBG_INPUT_ADDR = 1, GPUAVDBG_INPUT_CMD = 2, GPUAVDBG_INPUTS = 3 };
/* Layer records and the pre-pass buffer's layout: gpuav/layerrecord.go and
 * gpuav/prepass.go, generated. */
#include "prepass_gen.h"
/* The highest set index the layer ever uses is 32 (seed 000). */
#define GPUAVDBG_MAX_SLOT 32u

/* ---- types that cross the C<->Go boundary -------------------------------- */

/* The action commands the layer records: enum id and the Vulkan name
 * records are reported under (KHR/AMD aliases report the core name). */
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
    X(TRACE_RAYS_NV, "vkCmdTraceRaysNV")

#define GPUAVDBG_CMD_ENUM(id, name) GPUAVDBG_CMD_##id,
typedef enum gpuavdbg_cmd {
    GPUAVDBG_CMD_NONE = 0,
    GPUAVDBG_CMDS(GPUAVDBG_CMD_ENUM)
    GPUAVDBG_CMD_COUNT
} gpuavdbg_cmd;
#undef GPUAVDBG_CMD_ENUM

/* gpuavdbg_cmd_name returns the Vulkan name of a gpuavdbg_cmd, or NULL. */
const char *gpuavdbg_cmd_name(uint32_t cmd);

#define GPUAVDBG_NO_LABEL UINT32_MAX

/* One action (draw/dispatch) of a command buffer, in recording order. */
typedef struct gpuavdbg_action {
    uint64_t pipeline; /* bound pipeline of the action's bind point, or 0 */
    uint32_t index;    /* position among the command buffer's actions */
    uint32_t command;  /* gpuavdbg_cmd */
    uint32_t label;    /* index into the command buffer's label paths, or GPUAVDBG_NO_LABEL */
    uint32_t instrumented; /* 1 when the layer bound its descriptor set for it */
} gpuavdbg_action;

/* Label path separator inside one label-path string. */
#define GPUAVDBG_LABEL_SEP '\x1f'

/* One submitted command buffer, as goSubmitDone sees it. The pointers are
 * valid only during the call. */
typedef struct gpuavdbg_submit_cb {
    uint64_t handle;
    const uint32_t *words; /* the whole output buffer, header included */
    uint32_t nwords;
    uint32_t nactions;
    const gpuavdbg_action *actions;
    char *const *labels; /* label paths, GPUAVDBG_LABEL_SEP-separated */
    uint32_t nlabels;
    uint32_t secondary; /* 1 for a secondary command buffer */
    uint64_t primary;   /* for a secondary: the primary that executed it */
    uint32_t primary_action; /* its vkCmdExecuteCommands: index among the primary's actions */
    /* The command checks' layer records (gpuav/layerrecord.go): those made
     * on the CPU (whole records, no header) and the records the layer could
     * not keep; the pre-pass's output (header, then records), or NULL. */
    const uint32_t *layer_words;
    uint32_t nlayer_words;
    uint32_t layer_dropped;
    const uint32_t *prepass_words;
    uint32_t nprepass_words;
    const uint32_t *printf_words; /* the printf buffer (binding 5), header included (printf.c) */
    uint32_t nprintf_words;
} gpuavdbg_submit_cb;

/* One stage of a created pipeline, for goPipelineCreated. */
typedef struct gpuavdbg_stage {
    uint64_t module; /* the app's module handle */
    uint32_t stage;  /* VkShaderStageFlagBits */
    const char *entry;
} gpuavdbg_stage;

/* One fact a module's fast variant takes for granted (goModuleFacts,
 * gpuav.Fact): binding (set, binding) holds at least length elements and
 * its floor (a buffer binding's smallest range, else 1 when every element
 * is written and alive) is at least bound; for an action fact (kind
 * GPUAVDBG_FACT_BUFFER_ACTION) at least bound + the sum of coef times
 * the action's parameter over its terms (coef 0: unused), tested at each
 * action (variants.c; docs/decisions/action-facts.md). */
#define GPUAVDBG_FACT_BUFFER_ACTION 2u /* gpuav.FactBufferAction */
#define GPUAVDBG_FACT_INDEX_ACTION 3u  /* gpuav.FactIndexAction: the bound below length; no set read */
#define GPUAVDBG_FACT_TERMS 4          /* gpuav.MaxFactTerms */
#define GPUAVDBG_PARAM_WG_X 0u         /* gpuav.ParamWorkgroupX, Y and Z follow */
#define GPUAVDBG_PARAM_PC 16u          /* gpuav.ParamPushConstant: + the word's index */
#define GPUAVDBG_PC_WORDS 64u          /* gpuav.PushConstantWords */
#define GPUAVDBG_ACTION_LIMIT (1ull << 31) /* gpuav.ActionLimit */
typedef struct gpuavdbg_fact_term {
    uint32_t param, coef;
} gpuavdbg_fact_term;
typedef struct gpuavdbg_fact {
    uint32_t set, binding, length, bound, kind;
    gpuavdbg_fact_term terms[GPUAVDBG_FACT_TERMS];
} gpuavdbg_fact;
/* The most action facts a pipeline may have (more: it runs its precise
 * variant). */
#define GPUAVDBG_ACTION_FACTS 16

/* What the CPU knows of an action for the action facts: a direct
 * dispatch's largest WorkgroupID (base + count - 1; empty: a count is 0,
 * nothing runs). known is 0 for any other action. */
typedef struct gpuavdbg_action_params {
    int known, empty;
    uint64_t wg_max[3];
} gpuavdbg_action_params;

/* What goDeviceCreated is told about a new device. */
typedef struct gpuavdbg_device_info {
    uint64_t handle;
    const char *name;
    uint32_t api_version;
    uint32_t driver_version;
    uint32_t vendor_id;
    uint32_t device_id;
    uint32_t max_bound_sets; /* the device's real limit */
    uint32_t slot;
    uint32_t instrumenting;
    const char *reason; /* why not instrumenting, or "" */
    uint32_t robust;    /* the app enabled robustBufferAccess(2): buffer_oob records are warnings */
    uint32_t int64;     /* shaderInt64 is enabled: instrumentation may add the Int64 capability */
    uint64_t instance;  /* its VkInstance: the settings it runs with */
} gpuavdbg_device_info;

/* Pipeline layout states (layoutState of goPipelineCreated). */
enum {
    GPUAVDBG_LAYOUT_UNKNOWN = 0,  /* not created through this layer */
    GPUAVDBG_LAYOUT_PADDED = 1,   /* has the layer's set at the slot */
    GPUAVDBG_LAYOUT_CONFLICT = 2, /* the app uses the slot (or padding failed) */
    GPUAVDBG_LAYOUT_DB_UNSUPPORTED = 3, /* descriptor buffers the layer cannot serve there */
    GPUAVDBG_LAYOUT_PADDED_PUSH = 4,    /* descriptor buffers: the layer's set is pushed */
};

/* gpuavdbg_robust_buffer_access reports whether a device create info
 * enables robustBufferAccess (VkPhysicalDeviceFeatures, Features2) or
 * robustBufferAccess2 (VK_EXT_robustness2) (device.c). */
uint32_t gpuavdbg_robust_buffer_access(const VkDeviceCreateInfo *ci);

/* Log levels for goLog. */
/* GPUAVDBG_LOG_UNCHECKED: a warning that says what the layer left
 * unchecked (the launcher counts it: the run exits 4). */
enum { GPUAVDBG_LOG_INFO = 0, GPUAVDBG_LOG_WARNING = 1, GPUAVDBG_LOG_ERROR = 2, GPUAVDBG_LOG_UNCHECKED = 3 };

/* ---- hash map (hmap.c) ----------------------------------------------------- */

/* An open-addressing map from non-zero 64-bit keys (handles) to pointers.
 * Not synchronized: callers hold the lock that guards the map. */
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

/* ---- dispatch tables (dispatch.c) ----------------------------------------- */

#define GPUAVDBG_INSTANCE_FUNCS(X)            \
    X(DestroyInstance)                        \
    X(EnumeratePhysicalDevices)               \
    X(EnumeratePhysicalDeviceGroups)          \
    X(EnumeratePhysicalDeviceGroupsKHR)       \
    X(GetPhysicalDeviceProperties)            \
    X(GetPhysicalDeviceProperties2)           \
    X(GetPhysicalDeviceProperties2KHR)        \
    X(GetPhysicalDeviceFeatures)              \
    X(GetPhysicalDeviceMemoryProperties)      \
    X(EnumerateDeviceExtensionProperties)     \
    X(CreateDebugUtilsMessengerEXT)           \
    X(DestroyDebugUtilsMessengerEXT)          \
    X(CreateDevice)

/* descriptors.c: the app's descriptor state (descriptor checks). */
#define GPUAVDBG_DESCRIPTOR_FUNCS(X)           \
    X(FreeDescriptorSets)                     \
    X(ResetDescriptorPool)                    \
    X(CreateDescriptorUpdateTemplate)         \
    X(CreateDescriptorUpdateTemplateKHR)      \
    X(DestroyDescriptorUpdateTemplate)        \
    X(DestroyDescriptorUpdateTemplateKHR)     \
    X(UpdateDescriptorSetWithTemplate)        \
    X(UpdateDescriptorSetWithTemplateKHR)     \
    X(CreateImageView)                        \
    X(DestroyImageView)                       \
    X(CreateBufferView)                       \
    X(DestroyBufferView)                      \
    X(CreateSampler)                          \
    X(DestroySampler)

#define GPUAVDBG_DEVICE_FUNCS(X)          \
    X(GetDeviceProcAddr)                  \
    X(DestroyDevice)                      \
    X(CreateBuffer)                       \
    X(DestroyBuffer)                      \
    X(GetBufferDeviceAddress)             \
    X(GetBufferDeviceAddressKHR)          \
    X(GetBufferDeviceAddressEXT)          \
    X(GetBufferMemoryRequirements)        \
    X(AllocateMemory)                     \
    X(FreeMemory)                         \
    X(BindBufferMemory)                   \
    X(MapMemory)                          \
    X(UnmapMemory)                        \
    X(CreateDescriptorSetLayout)          \
    X(DestroyDescriptorSetLayout)         \
    X(CreateDescriptorPool)               \
    X(DestroyDescriptorPool)              \
    X(AllocateDescriptorSets)             \
    X(UpdateDescriptorSets)               \
    X(CreatePipelineLayout)               \
    X(DestroyPipelineLayout)              \
    X(CreateShaderModule)                 \
    X(DestroyShaderModule)                \
    X(CreateRenderPass)                   \
    X(CreateRenderPass2)                  \
    X(CreateRenderPass2KHR)               \
    X(DestroyRenderPass)                  \
    X(CreateComputePipelines)             \
    X(CreateGraphicsPipelines)            \
    X(DestroyPipeline)                    \
    X(CreatePipelineCache)                \
    X(DestroyPipelineCache)               \
    X(MergePipelineCaches)                \
    X(AllocateCommandBuffers)             \
    X(FreeCommandBuffers)                 \
    X(DestroyCommandPool)                 \
    X(ResetCommandPool)                   \
    X(BeginCommandBuffer)                 \
    X(EndCommandBuffer)                   \
    X(ResetCommandBuffer)                 \
    X(CmdBindPipeline)                    \
    X(CmdBindDescriptorSets)              \
    X(CmdPushDescriptorSetKHR)            \
    X(CmdPushDescriptorSetWithTemplateKHR) \
    X(CmdPushDescriptorSet)               \
    X(CmdPushDescriptorSetWithTemplate)   \
    X(CmdPushDescriptorSet2)              \
    X(CmdPushDescriptorSet2KHR)           \
    X(CmdPushDescriptorSetWithTemplate2)  \
    X(CmdPushDescriptorSetWithTemplate2KHR) \
    X(CmdBindDescriptorSets2)             \
    X(CmdBindDescriptorSets2KHR)          \
    X(CmdPushConstants)                   \
    X(CmdPushConstants2)                  \
    X(CmdPushConstants2KHR)               \
    X(CmdBindDescriptorBuffersEXT)        \
    X(CmdSetDescriptorBufferOffsetsEXT)   \
    X(CmdPipelineBarrier)                 \
    X(CmdExecuteCommands)                 \
    X(CmdCopyBuffer)                      \
    X(CmdBindIndexBuffer)                 \
    X(CmdBindIndexBuffer2KHR)             \
    X(CmdBindIndexBuffer2)                \
    X(CmdBindVertexBuffers)               \
    X(CmdBindVertexBuffers2)              \
    X(CmdBindVertexBuffers2EXT)           \
    X(CmdSetVertexInputEXT)               \
    X(CmdEndRenderPass)                   \
    X(CmdEndRenderPass2)                  \
    X(CmdEndRenderPass2KHR)               \
    X(CmdBeginRendering)                  \
    X(CmdBeginRenderingKHR)               \
    X(CmdEndRendering)                    \
    X(CmdEndRenderingKHR)                 \
    X(CmdDraw)                            \
    X(CmdDrawIndexed)                     \
    X(CmdDrawIndirect)                    \
    X(CmdDrawIndexedIndirect)             \
    X(CmdDrawIndirectCount)               \
    X(CmdDrawIndexedIndirectCount)        \
    X(CmdDrawIndirectCountKHR)            \
    X(CmdDrawIndexedIndirectCountKHR)     \
    X(CmdDrawIndirectCountAMD)            \
    X(CmdDrawIndexedIndirectCountAMD)     \
    X(CmdDrawIndirectByteCountEXT)        \
    X(CmdDrawMultiEXT)                    \
    X(CmdDrawMultiIndexedEXT)             \
    X(CmdDrawMeshTasksEXT)                \
    X(CmdDrawMeshTasksIndirectEXT)        \
    X(CmdDrawMeshTasksIndirectCountEXT)   \
    X(CmdDrawMeshTasksNV)                 \
    X(CmdDrawMeshTasksIndirectNV)         \
    X(CmdDrawMeshTasksIndirectCountNV)    \
    X(CmdDrawClusterHUAWEI)               \
    X(CmdDrawClusterIndirectHUAWEI)       \
    X(CmdDispatch)                        \
    X(CmdDispatchIndirect)                \
    X(CmdDispatchBase)                    \
    X(CmdDispatchBaseKHR)                 \
    X(CreateRayTracingPipelinesKHR)       \
    X(CreateRayTracingPipelinesNV)        \
    X(QueueSubmit)                        \
    X(QueueSubmit2)                       \
    X(QueueSubmit2KHR)                    \
    X(QueueWaitIdle)                      \
    X(DeviceWaitIdle)                     \
    X(CreateFence)                        \
    X(DestroyFence)                       \
    X(ResetFences)                        \
    X(GetFenceStatus)                     \
    X(WaitForFences)                      \
    X(WaitSemaphores)                     \
    X(WaitSemaphoresKHR)                  \
    X(GetSemaphoreCounterValue)           \
    X(GetSemaphoreCounterValueKHR)        \
    X(QueuePresentKHR)                    \
    X(CmdTraceRaysKHR)                    \
    X(CmdTraceRaysIndirectKHR)            \
    X(CmdTraceRaysIndirect2KHR)           \
    X(CmdTraceRaysNV)                     \
    X(SetDebugUtilsObjectNameEXT)         \
    X(DebugMarkerSetObjectNameEXT)        \
    GPUAVDBG_DESCRIPTOR_FUNCS(X)          \
    X(CmdBeginDebugUtilsLabelEXT)         \
    X(CmdEndDebugUtilsLabelEXT)           \
    X(CreateShadersEXT)                   \
    X(DestroyShaderEXT)                   \
    X(GetShaderBinaryDataEXT)             \
    X(CmdBindShadersEXT)

#define GPUAVDBG_FIELD(name) PFN_vk##name name;

typedef struct instance_dispatch {
    PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
    GPUAVDBG_INSTANCE_FUNCS(GPUAVDBG_FIELD)
} instance_dispatch;

typedef struct device_dispatch {
    GPUAVDBG_DEVICE_FUNCS(GPUAVDBG_FIELD)
} device_dispatch;

/* ---- per-instance and per-device state ---------------------------------- */

typedef struct instance_data {
    void *key; /* the loader's dispatch pointer: first word of the handle */
    VkInstance instance;
    instance_dispatch disp;
    int reserve_slot;     /* report maxBoundDescriptorSets - 1 */
    uint32_t api_version; /* the app's VkApplicationInfo.apiVersion (0: 1.0) */
} instance_data;

/* gpuavdbg_device_has_extension reports whether the physical device offers
 * a device extension (device.c). */
int gpuavdbg_device_has_extension(instance_data *inst, VkPhysicalDevice pd, const char *name);

/* One output buffer with its descriptor set; a command buffer holds one
 * while it exists, then gives it back to its device's free list. */
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
     * printf_offset bytes on, printf_words of them (printf.c) */
    uint32_t *printf;
    VkDeviceSize printf_offset;
    uint32_t printf_words;
    struct out_unit *next_free;
    struct out_unit *next_all;
} out_unit;

/* What the layer knows about a pipeline (device_data.pipelines). */
typedef struct pipeline_info {
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

    int instrumenting;
    char reason[256];
    uint32_t slot;
    uint32_t max_bound_sets;
    uint32_t robust; /* the app enabled robustBufferAccess or robustBufferAccess2 */
    uint32_t int64;  /* shaderInt64 is enabled (by the app or the layer) */
    /* The action buffer's bytes per action slot; each slot has a set of
     * its own (docs/decisions/action-index-from-a-set-per-action.md). */
    uint32_t action_stride;
    /* printf.c: the printf buffer's words per unit, header included */
    uint32_t printf_words;
    VkPhysicalDeviceMemoryProperties mem_props;

    VkDescriptorSetLayout set_layout;   /* bindings 0 and 1 */
    VkDescriptorSetLayout empty_layout; /* padding */
    /* Descriptor buffers (VK_EXT_descriptor_buffer): the app enabled them;
     * the layer's set as a push-descriptor, descriptor-buffer layout and
     * the padding for such pipeline layouts, or why there are none. */
    int descriptor_buffer;
    int push_descriptors; /* VK_KHR_push_descriptor is enabled */
    VkDescriptorSetLayout set_layout_db, empty_layout_db;
    char db_reason[160];
    VkBuffer action_buffer;
    VkDeviceMemory action_memory;

    struct cc_dev *cc; /* cmdchecks.c and prepass.c: settings, limits, pre-pass pipelines */

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
} device_data;

/* ---- per-command-buffer state (cmdbuf.c) --------------------------------- */

typedef struct bound_pipeline {
    uint64_t pipeline; /* 0 when shader objects are bound (shaderobj.c) */
    VkPipelineLayout layout;
    int instrumented;
    /* cmdchecks.c: the pipeline's vertex input state and task stage
     * (pipeline_info's, valid while the pipeline is bound). */
    const struct cc_vi *vi;
    int has_task;
    int push; /* a descriptor-buffer layout: the layer pushes its set (device.c) */
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
     * around gpuavdbg_before_action (cmdbuf.c), else known 0. */
    gpuavdbg_action_params act;
    /* The push-constant words pushed since the command buffer began
     * (cmdbuf.c; bit i of pc_known: word i), and a count of the pushes,
     * which the action facts' results are remembered under. */
    uint32_t pc[GPUAVDBG_PC_WORDS];
    uint64_t pc_known, pc_gen;

    /* cmdchecks.c and prepass.c: index and vertex buffer binds, layer
     * records, pre-pass jobs (made on first use). */
    struct cc_cb *cc;

    /* submit.c, guarded by dd->pending_lock: the unread submission whose
     * records this command buffer's output buffer holds, or NULL. */
    struct pending_submit *pending;
} cb_state;

/* ---- functions shared between the C files ------------------------------- */

/* dispatch.c */
instance_data *gpuavdbg_instance_for_physical(VkPhysicalDevice pd);
instance_data *gpuavdbg_instance_get(const void *dispatchable);
device_data *gpuavdbg_device_get(const void *dispatchable);
void gpuavdbg_logf(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
PFN_vkVoidFunction gpuavdbg_device_intercept(const char *name);

/* device.c */
void gpuavdbg_device_setup(device_data *dd);
void gpuavdbg_device_teardown(device_data *dd);
out_unit *gpuavdbg_unit_acquire(device_data *dd);
void gpuavdbg_unit_push(const device_data *dd, const out_unit *u, VkCommandBuffer cb, VkPipelineBindPoint bp,
                        VkPipelineLayout layout, uint32_t slot);
VkDescriptorSet gpuavdbg_unit_action_set(device_data *dd, out_unit *u, uint32_t slot);
void gpuavdbg_unit_release(device_data *dd, out_unit *u);
void gpuavdbg_unit_zero(out_unit *u);
/* gpuavdbg_printf_words is the printf buffer's size in words (header
 * included) that the device's units get: the printf buffer size setting
 * (exports.go's goPrintfBufferBytes). */
uint32_t gpuavdbg_printf_words(device_data *dd);
/* input buffers: bindings 2 and 3.
 * gpuavdbg_unit_input returns the mapped words of a unit's input buffer
 * (which: GPUAVDBG_INPUT_*) and its capacity in words.
 * gpuavdbg_unit_inputs_grow (vkBeginCommandBuffer: no recording uses the
 * unit's sets) reallocates the buffers a submit found too small and
 * rewrites the unit's sets.
 * gpuavdbg_unit_write_inputs (submit.c, before calling down, for a command
 * buffer no earlier submission is still using) writes both: a writer that
 * needs more words than the capacity gets the buffer marked absent. */
uint32_t *gpuavdbg_unit_input(out_unit *u, int which, uint32_t *cap_words);
void gpuavdbg_unit_inputs_grow(device_data *dd, out_unit *u);
void gpuavdbg_unit_write_inputs(device_data *dd, cb_state *cs);
/* The writers of the input buffers' content: each writes into words
 * (cap words) and returns the number of words the content needs; a return
 * greater than cap means it did not fit (the caller marks it absent).
 * descriptors.c writes binding 2; the address table (binding 3) writer
 * defaults to "absent" (device.c, weak) until the address tracking
 * defines it. */
uint32_t gpuavdbg_desc_write_state(device_data *dd, cb_state *cs, uint32_t *words, uint32_t cap);
uint32_t gpuavdbg_addr_write_table(device_data *dd, cb_state *cs, uint32_t *words, uint32_t cap);

/* descriptors.c: descriptor set layouts, pools, sets, updates (writes,
 * copies, templates), resource liveness; it also intercepts vkCreateBuffer
 * and vkDestroyBuffer (resource ids and sizes). cmdbuf.c tells it the app's
 * binds and actions; gpuavdbg_desc_write_state (above) writes binding 2. */
PFN_vkVoidFunction gpuavdbg_descriptors_intercept(const char *name);
void gpuavdbg_desc_cb_bind(cb_state *cs, int bi, uint32_t first, uint32_t n, const VkDescriptorSet *sets,
                           uint32_t ndyn, const uint32_t *dyn);
void gpuavdbg_desc_cb_push(cb_state *cs, int bi, uint32_t set); /* that set index becomes unknown */
void gpuavdbg_desc_cb_push_writes(cb_state *cs, int bi, VkPipelineLayout pl, uint32_t set, uint32_t n,
                                  const VkWriteDescriptorSet *w);
void gpuavdbg_desc_cb_push_template(cb_state *cs, VkDescriptorUpdateTemplate tmpl, VkPipelineLayout pl,
                                    uint32_t set, const void *data);
void gpuavdbg_desc_pipeline_layout_created(VkPipelineLayout pl, const VkPipelineLayoutCreateInfo *ci);
/* gpuavdbg_desc_layout_kind: GPUAVDBG_DSL_PUSH and GPUAVDBG_DSL_DB bits of
 * a set layout's create flags (0 for one the layer did not see). */
#define GPUAVDBG_DSL_PUSH 1u
#define GPUAVDBG_DSL_DB 2u
uint32_t gpuavdbg_desc_layout_kind(VkDescriptorSetLayout l);
/* gpuavdbg_desc_layout_alive: the app has not destroyed the set layout. */
int gpuavdbg_desc_layout_alive(VkDescriptorSetLayout l);
void gpuavdbg_desc_pipeline_layout_destroyed(VkPipelineLayout pl);
void gpuavdbg_desc_cb_action(cb_state *cs, int bi, uint32_t action);
/* gpuavdbg_desc_facts_hold tests facts against the sets bound at bind
 * point bi as the shaders' gpuav_binding_fact would: 1 when every one
 * holds, else 0 with the index of the first that fails in *failed and its
 * binding's floor in *floor. variant names the facts (an id no other
 * facts array ever has): the command buffer remembers results per
 * variant and set while no set, write or resource changes. An action
 * buffer fact is tested here with its constant bound only, and its
 * binding's floor goes into act_floor (in the order of the action facts,
 * at most GPUAVDBG_ACTION_FACTS) for variants.c to test at each action;
 * an action index fact reads no set, its act_floor is its length - 1. */
int gpuavdbg_desc_facts_hold(cb_state *cs, int bi, uint64_t variant, const gpuavdbg_fact *facts, uint32_t n,
                             uint32_t *failed, uint32_t *floor, uint32_t *act_floor);

/* ---- the precise variants (variants.c) ----------------------------------- */

typedef struct gpuavdbg_variant gpuavdbg_variant;
/* gpuavdbg_chain_append appends the copied structure c, its pNext cleared,
 * to the chain *head .. *tail. */
static inline void gpuavdbg_chain_append(VkBaseOutStructure **head, VkBaseOutStructure **tail, VkBaseOutStructure *c)
{
    c->pNext = NULL;
    if (*tail)
        (*tail)->pNext = c;
    else
        *head = c;
    *tail = c;
}
/* gpuavdbg_stage_pnext_size (pipeline.c) is the size of a structure the
 * layer knows in a pipeline stage's pNext chain, or 0 when unknown. */
size_t gpuavdbg_stage_pnext_size(VkStructureType t);
/* gpuavdbg_variant_compute returns the variants of a compute pipeline
 * about to be created (a deep copy of ci, the facts, its module and layout
 * held) and in *fast a module of the fast variant's words, to create it
 * with and destroy after; NULL when it is created as given. */
gpuavdbg_variant *gpuavdbg_variant_compute(device_data *dd, const VkComputePipelineCreateInfo *ci,
                                           VkShaderModule *fast);
/* gpuavdbg_variant_graphics: the same for a graphics pipeline (dynamic
 * rendering only), fast[i] a module for stage i (VK_NULL_HANDLE: keep the
 * app's), ci->stageCount of them. */
gpuavdbg_variant *gpuavdbg_variant_graphics(device_data *dd, const VkGraphicsPipelineCreateInfo *ci,
                                            VkShaderModule *fast);
void gpuavdbg_variant_created(gpuavdbg_variant *v, VkPipeline p);
void gpuavdbg_variant_free(device_data *dd, gpuavdbg_variant *v);
/* gpuavdbg_precise_module: a module of the precise variant's words of a
 * deferred module (one whose driver module holds the original words, Go
 * building the precise ones on first need), which the caller destroys;
 * VK_NULL_HANDLE for any other module (it holds what it runs), or when it
 * cannot be made (reported: the stage runs the original, unchecked). */
VkShaderModule gpuavdbg_precise_module(device_data *dd, VkShaderModule module);

/* gpuavdbg_variant_defer_destroy: 1 when a variant holds the module,
 * layout or render pass h (the layer destroys it when the last one lets
 * go). */
int gpuavdbg_variant_defer_destroy(device_data *dd, uint64_t h, const VkAllocationCallbacks *alloc);
PFN_vkVoidFunction gpuavdbg_variant_intercept(const char *name);
void gpuavdbg_variant_teardown(device_data *dd);
/* gpuavdbg_variant_choose binds, before an action at bind point bi, the
 * variant the bound sets call for, when the pipeline or a set its facts
 * read changed. */
void gpuavdbg_variant_choose(cb_state *cs, VkPipelineBindPoint bp, int bi);
/* gpuavdbg_variant_fact_sets: the set indices v's facts read (bit i: set
 * i; GPUAVDBG_ALL_SETS when one is past set 31), 0 for NULL. */
uint32_t gpuavdbg_variant_fact_sets(const gpuavdbg_variant *v);
/* gpuavdbg_variant_has_action_facts: v has facts tested at each action. */
int gpuavdbg_variant_has_action_facts(const gpuavdbg_variant *v);
#define GPUAVDBG_ALL_SETS 0xFFFFFFFFu
/* GPUAVDBG_SET_BIT is set index s's bit in a set mask. */
#define GPUAVDBG_SET_BIT(s) ((s) < 32u ? 1u << (s) : GPUAVDBG_ALL_SETS)
void gpuavdbg_desc_cb_reset(cb_state *cs);
void gpuavdbg_desc_cb_free(cb_state *cs);
/* Hooks for the device-address tracking (weak defaults do nothing). */
void gpuavdbg_addr_buffer_created(device_data *dd, VkBuffer buffer, const VkBufferCreateInfo *ci);
void gpuavdbg_addr_buffer_destroyed(device_data *dd, VkBuffer buffer);
/* addresses.c (bda_oob): defines the two hooks above and
 * gpuavdbg_addr_write_table; intercepts vkGetBufferDeviceAddress/KHR/EXT;
 * teardown forgets a device's buffers (vkDestroyDevice). */
PFN_vkVoidFunction gpuavdbg_addresses_intercept(const char *name);
void gpuavdbg_addr_teardown(device_data *dd);
int gpuavdbg_addr_lookup(device_data *dd, uint64_t address, uint64_t size, VkBuffer *buffer, uint64_t *offset);

/* cmdbuf.c */
cb_state *gpuavdbg_cb_get(VkCommandBuffer cb);
/* gpuavdbg_before_action records an action (cs->nactions is its index)
 * and binds the layer's set for it when its pipeline is instrumented. */
void gpuavdbg_before_action(cb_state *cs, gpuavdbg_cmd cmd, VkPipelineBindPoint bp);
void gpuavdbg_cb_forget_device(device_data *dd);
PFN_vkVoidFunction gpuavdbg_cmdbuf_intercept(const char *name);

/* cmdchecks.c: index_buffer_oob, vertex_fetch_oob and the CPU half of
 * indirect_command; the draw, dispatch and trace-rays intercepts whose
 * parameters they check. */
PFN_vkVoidFunction gpuavdbg_cmdchecks_intercept(const char *name);
void gpuavdbg_cc_device_created(device_data *dd, const VkDeviceCreateInfo *ci);
void gpuavdbg_cc_device_destroyed(device_data *dd);
void gpuavdbg_cc_pipeline_created(device_data *dd, pipeline_info *pi, const VkGraphicsPipelineCreateInfo *ci);
void gpuavdbg_cc_pipeline_freed(pipeline_info *pi);
void gpuavdbg_cc_buffer_created(device_data *dd, VkBuffer b, const VkBufferCreateInfo *ci);
/* descriptors.c: a live buffer's size (0 when unknown) and whether the
 * layer may copy from it. */
VkDeviceSize gpuavdbg_buffer_info(VkBuffer b, int *copyable);
void gpuavdbg_cc_reset(cb_state *cs);
void gpuavdbg_cc_free(cb_state *cs);
/* gpuavdbg_cc_end: vkEndCommandBuffer; returns 1 when the pre-pass wrote
 * to the unit (the host barrier is needed). */
int gpuavdbg_cc_end(cb_state *cs);
/* gpuavdbg_cc_has_records: the command buffer needs reading at submit
 * (CPU records or pre-pass jobs). */
int gpuavdbg_cc_has_records(const cb_state *cs);
/* gpuavdbg_cc_write_vertex writes vertex_fetch_oob's per-action vertex
 * table offsets (count words at table) and the tables from words[at], in
 * the descriptor state; it returns the words used (may exceed cap). */
uint32_t gpuavdbg_cc_write_vertex(cb_state *cs, uint32_t *words, uint32_t cap, uint32_t at, uint32_t table,
                                  uint32_t count);
/* gpuavdbg_cc_records returns the CPU records (n words) and the records
 * the layer could not keep. */
const uint32_t *gpuavdbg_cc_records(const cb_state *cs, uint32_t *nwords, uint32_t *dropped);

/* prepass.c: the pre-pass over indirect buffers (indirect_command and
 * the indirect form of index_buffer_oob). */
void gpuavdbg_prepass_setup(device_data *dd);
/* gpuavdbg_prepass_usage: the usage the pre-pass buffer adds for trace
 * rays (a device address, when the app enabled bufferDeviceAddress). */
VkBufferUsageFlags gpuavdbg_prepass_usage(const device_data *dd);
void gpuavdbg_prepass_teardown(device_data *dd);
void gpuavdbg_prepass_layout_destroyed(device_data *dd, VkPipelineLayout layout);
/* gpuavdbg_prepass_zero clears the pre-pass records of a unit (submit). */
void gpuavdbg_prepass_zero(out_unit *u);

/* messenger.c */
PFN_vkVoidFunction gpuavdbg_messenger_intercept(const char *name);
void gpuavdbg_messengers_from_create_info(const void *instance_key, const VkInstanceCreateInfo *ci);
void gpuavdbg_messengers_forget_instance(const void *instance_key);
/* gpuavdbg_messenger_count: how many messengers the app has (Go decides
 * whether stderr is the only way out). */
int gpuavdbg_messenger_count(void);
void gpuavdbg_emit(uint32_t severity, uint32_t type, const char *id_name, int32_t id, const char *text,
                   uint32_t nobj, const uint64_t *objects, const uint32_t *object_types, char **names);

/* pipeline.c */
PFN_vkVoidFunction gpuavdbg_pipeline_intercept(const char *name);

/* shaderobj.c: VK_EXT_shader_object; teardown destroys the layer's
 * pipeline layouts for shader objects and forgets the shaders. */
PFN_vkVoidFunction gpuavdbg_shaderobj_intercept(const char *name);
void gpuavdbg_shaderobj_teardown(device_data *dd);
/* cache.c: gpuavdbg_cache_for returns the cache to create pipelines with:
 * the app's, or for instrumented ones its shadow (or VK_NULL_HANDLE). */
PFN_vkVoidFunction gpuavdbg_cache_intercept(const char *name);
VkPipelineCache gpuavdbg_cache_for(device_data *dd, VkPipelineCache cache, int instrumented);
void gpuavdbg_caches_teardown(device_data *dd);

/* submit.c */
PFN_vkVoidFunction gpuavdbg_submit_intercept(const char *name);
uint64_t gpuavdbg_submit_count(void);
/* gpuavdbg_pending_init / _teardown set up and free a device's pending
 * list and fence pool; teardown reads what is left first. */
void gpuavdbg_pending_init(device_data *dd);
void gpuavdbg_pending_teardown(device_data *dd);
/* gpuavdbg_pending_flush_cb reads the records of the submission cs is
 * pending in (waiting for it), so that cs can be reset, re-recorded or
 * freed; pool != 0 does it for every command buffer of that pool. */
void gpuavdbg_pending_flush_cb(device_data *dd, cb_state *cs);
void gpuavdbg_pending_flush_pool(device_data *dd, VkCommandPool pool);
/* Submit-to-records latency so far: submissions read, total and maximum ns. */
void gpuavdbg_latency(uint64_t *n, uint64_t *sum_ns, uint64_t *max_ns);

/* dd->instrumenting may drop to 0 on any thread (allocation failure). */
static inline int gpuavdbg_instrumenting(const device_data *dd)
{
    return __atomic_load_n(&dd->instrumenting, __ATOMIC_RELAXED);
}

/* The handle of a dispatchable or non-dispatchable object as a uint64. */
#define GPUAVDBG_H(h) ((uint64_t)(uintptr_t)(h))

#endif
