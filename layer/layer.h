/*
 * layer.h: the C <-> Go boundary of the layer. The preambles of the Go
 * files include it (and so does _cgo_export.h); the C files get it through
 * ground.h. It holds only what crosses in the exports' signatures: the
 * types C hands to Go's exports and the constants both halves read. The C
 * helpers Go calls are declared in the header of the room that defines
 * them (layer/chelpers.go includes those), as is everything else of the C
 * half (docs/layer-map.md).
 */
#ifndef GPUAVDBG_LAYER_H
#define GPUAVDBG_LAYER_H

#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

/* The constants both halves read, generated from their Go definitions
 * (go generate ./layer: gpuav/shared.go, layer/internal/abi, the options
 * table): the record and action buffers, the facts, the log levels of
 * goLog (GPUAVDBG_LOG_UNCHECKED: a warning the launcher counts, exit 4),
 * the layout states of goPipelineCreated, the command-check bits, the
 * label separator, the layer's name and variables. */
#include "shared_gen.h"

#define GPUAVDBG_NO_LABEL UINT32_MAX /* GPUAVDBG_LABEL_SEP is between the labels of one label path */

/* One action (draw/dispatch) of a command buffer, in recording order. */
typedef struct gpuavdbg_action {
    uint64_t pipeline; /* bound pipeline of the action's bind point, or 0 */
    uint64_t pipeline_serial; /* its serial (goPipelineCreated: never reused), or 0 */
    uint32_t index;    /* position among the command buffer's actions */
    uint32_t command;  /* gpuavdbg_cmd */
    uint32_t label;    /* index into the command buffer's label paths, or GPUAVDBG_NO_LABEL */
    uint32_t instrumented; /* 1 when the layer bound its descriptor set for it */
} gpuavdbg_action;

/* One submitted command buffer, as goSubmitDone sees it. The pointers are
 * valid only during the call. */
typedef struct gpuavdbg_submit_cb {
    uint64_t handle;
    uint64_t serial; /* the command buffer's serial (never reused; its handle may be) */
    const uint32_t *words; /* the whole output buffer, header included */
    uint32_t nwords;
    uint32_t nactions;
    const gpuavdbg_action *actions;
    char *const *labels; /* label paths, GPUAVDBG_LABEL_SEP-separated */
    uint32_t nlabels;
    uint32_t secondary;      /* 1 for a secondary command buffer */
    uint64_t primary;        /* for a secondary: the primary that executed it */
    uint64_t primary_serial; /* ... and that primary's serial */
    uint32_t primary_action; /* its vkCmdExecuteCommands: index among the primary's actions */
    /* The command checks' layer records (gpuav/layerrecord.go): those made
     * on the CPU (whole records, no header) and the records the layer could
     * not keep; the pre-pass's output (header, then records), or NULL. */
    const uint32_t *layer_words;
    uint32_t nlayer_words;
    uint32_t layer_dropped;
    const uint32_t *prepass_words;
    uint32_t nprepass_words;
    const uint32_t *printf_words; /* the printf buffer (binding 5), header included */
    uint32_t nprintf_words;
    /* Records of actions below min_action were reported with a hang
     * (goHang) already: skipped. */
    uint32_t min_action;
} gpuavdbg_submit_cb;

/* A hang (goHang): the watchdog saw a submission not finish in time, or a
 * call returned VK_ERROR_DEVICE_LOST. Per unfinished submission, per
 * command buffer: its actions and, from its breadcrumbs (crumbs.h), the
 * actions completed ([0, completed)) and running ([run_from, run_to));
 * region 1 when those are a region's whose breadcrumbs do not tell its
 * actions apart (a render pass, or with GPUAVDBG_CRUMBS_PASSES the actions
 * between passes); markers 0 when it has none (nothing is known). words: a
 * copy of its output buffer (records of completed actions are reported),
 * or NULL. */
enum { GPUAVDBG_HANG_WATCHDOG = 0, GPUAVDBG_HANG_DEVICE_LOST = 1 };
typedef struct gpuavdbg_hang_cb {
    uint64_t handle;
    uint32_t secondary;
    uint64_t primary;
    uint32_t primary_action;
    uint32_t nactions;
    const gpuavdbg_action *actions;
    char *const *labels;
    uint32_t nlabels;
    uint32_t markers;
    uint32_t completed, run_from, run_to;
    uint32_t region;
    uint32_t begun, ended; /* the marker words as read */
    const uint32_t *words;
    uint32_t nwords;
} gpuavdbg_hang_cb;
typedef struct gpuavdbg_hang_submit {
    uint64_t queue, submit;
    uint64_t pending_ns; /* since it was submitted */
    uint32_t finished;   /* its fence had signalled (a lost device) */
    uint32_t ncbs;
    const gpuavdbg_hang_cb *cbs;
} gpuavdbg_hang_submit;

/* One stage of a created pipeline, for goPipelineCreated. */
typedef struct gpuavdbg_stage {
    uint64_t module; /* the app's module handle */
    uint32_t stage;  /* VkShaderStageFlagBits */
    const char *entry;
} gpuavdbg_stage;

/* One fact a module's fast variant takes for granted (goModuleFacts,
 * gpuav.Fact); facts.h says how the CPU tests them. Its kinds
 * (GPUAVDBG_FACT_BUFFER_ACTION, GPUAVDBG_FACT_INDEX_ACTION: the bound below
 * length, no set read), terms (GPUAVDBG_FACT_TERMS), parameters
 * (GPUAVDBG_PARAM_WG_X, Y and Z following; GPUAVDBG_PARAM_PC + a word's
 * index, below GPUAVDBG_PC_WORDS) and GPUAVDBG_ACTION_LIMIT are gpuav's
 * (shared_gen.h). */
typedef struct gpuavdbg_fact_term {
    uint32_t param, coef;
} gpuavdbg_fact_term;
typedef struct gpuavdbg_fact {
    uint32_t set, binding, length, bound, kind;
    gpuavdbg_fact_term terms[GPUAVDBG_FACT_TERMS];
} gpuavdbg_fact;

/* What goDeviceCreated is told about a new device. */
typedef struct gpuavdbg_device_info {
    uint64_t handle;
    const char *name;
    uint32_t api_version, driver_version, vendor_id, device_id;
    uint32_t max_bound_sets; /* the device's real limit */
    uint32_t slot;
    uint32_t instrumenting;
    const char *reason; /* why not instrumenting, or "" */
    uint32_t robust;    /* the app enabled robustBufferAccess(2): buffer_oob records are warnings */
    uint32_t int64;     /* shaderInt64 is enabled: instrumentation may add the Int64 capability */
    uint64_t instance;  /* its VkInstance: the settings it runs with */
} gpuavdbg_device_info;

/* VK_OBJECT_TYPE_SHADER_EXT as a plain integer (vk_shader_object.h). */
#define GPUAVDBG_OBJECT_TYPE_SHADER_EXT 1000482000

#endif
