/*
 * cmdchecks.h: the state the command checks share between cmdchecks.c
 * (index and vertex buffer tracking, the checks on the CPU, layer records)
 * and prepass.c (the compute pre-pass over indirect buffers).
 */
#ifndef GPUAVDBG_CMDCHECKS_H
#define GPUAVDBG_CMDCHECKS_H

#include "layer.h"

/* The command checks a device runs (goCommandChecks) and the safe mode. */
enum {
    GPUAVDBG_CC_INDEX = 1,    /* index_buffer_oob */
    GPUAVDBG_CC_VERTEX = 2,   /* vertex_fetch_oob */
    GPUAVDBG_CC_INDIRECT = 4, /* indirect_command */
    GPUAVDBG_CC_SAFE = 8,     /* a failed check skips (safe mode) */
};

/* Vertex bindings and attributes the layer follows (maxVertexInputBindings
 * is at least 16; 32 on the devices tested). */
#define GPUAVDBG_CC_VB 32u

/* A vertex binding (instance: VK_VERTEX_INPUT_RATE_INSTANCE) and a vertex
 * attribute (size: its format's bytes, 0 when the layer does not know). */
typedef struct cc_binding {
    uint32_t binding, stride, instance, divisor;
} cc_binding;
typedef struct cc_attr {
    uint32_t location, binding, size, offset;
} cc_attr;

/* A vertex input state: a pipeline's, or vkCmdSetVertexInputEXT's. */
typedef struct cc_vi {
    uint32_t nbind, nattr;
    cc_binding bind[GPUAVDBG_CC_VB];
    cc_attr attr[GPUAVDBG_CC_VB];
    int dynamic_input;  /* VK_DYNAMIC_STATE_VERTEX_INPUT_EXT: use the command buffer's */
    int dynamic_stride; /* VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE: strides from vkCmdBindVertexBuffers2 */
} cc_vi;

typedef struct cc_dev {
    uint32_t checks;    /* GPUAVDBG_CC_* */
    int first_instance; /* the app enabled drawIndirectFirstInstance */
    int robust2;        /* robustBufferAccess2: index reads past the end are defined */
    int robust;         /* robustBufferAccess(2): vertex fetches past the end are defined */
    int bda;            /* the app enabled bufferDeviceAddress */
    uint32_t max_draw_indirect;
    uint32_t limits[GPUAVDBG_PREPASS_LIMIT_WORDS]; /* the pre-pass buffer's limits block */
    /* prepass.c, guarded by dd->lock */
    VkShaderModule module;
    VkPipelineLayout own_layout; /* sets below the slot empty, the layer's at the slot */
    hmap pipes;                  /* VkPipelineLayout -> VkPipeline */
    VkPipeline *retired;         /* pipelines of destroyed layouts, destroyed with the device */
    uint32_t nretired, cap_retired;
    int failed;                  /* the pre-pass could not be set up: said once, when needed */
    char failure[96];            /* why */
    uint32_t told;               /* notices given once per device (CC_TOLD_*) */
} cc_dev;

/* Notices a device gives once. */
enum {
    CC_TOLD_FULL = 1,
    CC_TOLD_LAYOUT = 2,
    CC_TOLD_SECONDARY = 4,
    CC_TOLD_ADDRESS = 8,
    CC_TOLD_COPY = 16,
    CC_TOLD_VERTEX_LIBRARY = 32,
    CC_TOLD_FAILED = 128,
    CC_TOLD_DESCRIPTOR_BUFFER = 256,
    CC_TOLD_VERTEX_DIVISOR = 512,
    CC_TOLD_VERTEX_SLOTS = 1024,
};

/* One copy of the app's bytes into the pre-pass buffer, recorded when the
 * pre-pass runs. */
typedef struct cc_copy {
    VkBuffer src;
    VkDeviceSize offset, size;
    uint32_t dst_word;
} cc_copy;

/* A vertex buffer bound: end is offset + the bound size; stride is
 * vkCmdBindVertexBuffers2's (has_stride). */
typedef struct cc_vb {
    VkBuffer buf;
    VkDeviceSize offset, end, stride;
    int has_stride;
} cc_vb;

typedef struct cc_cb {
    /* the index buffer bound: end is offset + the bound size */
    VkBuffer ib;
    VkDeviceSize ib_offset, ib_end;
    uint32_t ib_size; /* bytes per index */
    /* the vertex buffers bound */
    cc_vb vb[GPUAVDBG_CC_VB];
    cc_vi *dyn_vi; /* vkCmdSetVertexInputEXT's, or NULL */
    /* records made on the CPU, GPUAVDBG_LAYER_RECORD_WORDS words each */
    uint32_t *rec;
    uint32_t nrec, cap_rec, dropped;
    /* prepass.c: jobs of this recording, the first not run yet, the
     * lowest data word used (data grows down from the buffer's end), the
     * copies of the jobs not run yet */
    uint32_t njobs, first_pending, data_low;
    cc_copy *copies;
    uint32_t ncopies, cap_copies;
    /* The last copy window of an indirect draw (prepass.c): copy win_copy
     * (valid while it is pending) of [win_off, win_end) of win_buf, to
     * word win_dst; later draws that read inside it share it. */
    VkBuffer win_buf;
    VkDeviceSize win_off, win_end;
    uint32_t win_copy, win_dst;
    int limits_written;
    int ran;       /* the pre-pass ran in this recording */
    int suspended; /* inside a suspended dynamic render pass: no pre-pass now */
    uint32_t unchecked; /* commands not checked: the pre-pass buffer was full */
    /* vertex_fetch_oob in the vertex shader: the vertex tables of this
     * recording one after the other (gpuav/inputs.go: N, then N location
     * entries), vlast the word offset + 1 of the last one (a draw with the
     * same state shares it), and per action the offset + 1 of its table
     * (0: none), written into the descriptor state at submit. */
    uint32_t *vt;
    uint32_t nvt, cap_vt, vlast;
    uint32_t *vact;
    uint32_t nvact, cap_vact;
    /* The last buffer looked up (gpuavdbg_cc_buffer): a recording's
     * indirect draws mostly read one buffer. */
    VkBuffer last_buf;
    VkDeviceSize last_size;
    int last_copyable;
} cc_cb;

cc_cb *gpuavdbg_cc_get(cb_state *cs);

/* gpuavdbg_cc_buffer is gpuavdbg_buffer_info for the command checks of a
 * recording, with the last answer kept. */
VkDeviceSize gpuavdbg_cc_buffer(cb_state *cs, VkBuffer b, int *copyable);

/* gpuavdbg_cc_record appends a layer record made on the CPU. */
void gpuavdbg_cc_record(cb_state *cs, uint32_t action, uint32_t code, uint32_t stage, uint32_t w0, uint32_t w1,
                        uint32_t w2, const uint32_t p[7]);

/* A pre-pass job as cmdchecks.c describes it. */
typedef struct cc_job {
    uint32_t action, kind; /* kind: GPUAVDBG_PREPASS_KIND_* | GPUAVDBG_PREPASS_FLAG_* */
    VkBuffer buf;
    VkDeviceSize offset, size; /* the app's buffer and its size */
    uint32_t n, stride, cmd_size;
    VkBuffer count_buf;
    VkDeviceSize count_offset;
    uint32_t max_draw, fit;
    uint32_t indices, index_size; /* indexed draws: the bound index buffer */
    VkDeviceSize index_offset, index_end;
} cc_job;

/* gpuavdbg_prepass_add adds a job and its copies; it returns the word
 * offset of the copied command in the pre-pass buffer, or 0 when the job
 * could not be added (the pre-pass buffer is full, the buffer cannot be
 * copied from, no pre-pass on this device: each said once). */
uint32_t gpuavdbg_prepass_add(cb_state *cs, const cc_job *job);
/* gpuavdbg_prepass_run records the pre-pass of the jobs not run yet
 * (outside a render pass): copies, the dispatch, barriers, and the app's
 * compute state back. It returns 0 when it could not (those jobs are not
 * checked, said once: their copies were not made, so an action must read
 * the app's buffer). */
int gpuavdbg_prepass_run(cb_state *cs);
/* gpuavdbg_prepass_buffer returns the unit's pre-pass buffer and its
 * device address (0 without one). */
VkBuffer gpuavdbg_prepass_buffer(cb_state *cs, VkDeviceAddress *address);

/* saturate32 is v, or UINT32_MAX when it does not fit. */
static inline uint32_t saturate32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

#endif
