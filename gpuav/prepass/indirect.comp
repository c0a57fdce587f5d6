#version 450
// The layer's pre-pass over indirect commands (gpuav/prepass.go): one
// workgroup per job (vkCmdDispatchBase's base group is the first job), its
// invocations over the job's commands, copied into the pre-pass buffer by
// the layer. A failed check writes a layer record (gpuav/layerrecord.go);
// with PREPASS_FLAG_SAFE a dispatch or trace rays command is zeroed in the
// copy the action then reads. Compiled by gpuav/internal/genprepass with
// the constants as GPUAV_* macros; the layer sets the descriptor set.
layout(local_size_x = GPUAV_PREPASS_LOCAL_SIZE) in;

layout(set = 0, binding = GPUAV_PREPASS_BINDING, std430) buffer Prepass {
    uint w[];
} pp;

// record writes one layer record of the command stage.
void record(uint action, uint code, uint draw, uint p0, uint p1, uint p2, uint p3, uint p4, uint p5, uint p6)
{
    uint slot = atomicAdd(pp.w[GPUAV_PREPASS_HEADER_WORD], GPUAV_LAYER_RECORD_WORDS);
    if (slot + GPUAV_LAYER_RECORD_WORDS > GPUAV_PREPASS_RECORDS * GPUAV_LAYER_RECORD_WORDS) {
        atomicAdd(pp.w[GPUAV_PREPASS_HEADER_WORD + 1u], 1u);
        return;
    }
    uint o = GPUAV_PREPASS_RECORD_WORD + slot;
    pp.w[o + GPUAV_LAYER_ACTION_WORD] = action;
    pp.w[o + GPUAV_LAYER_STAGE_WORD] = GPUAV_MODEL_COMMAND;
    pp.w[o + GPUAV_LAYER_STAGE0_WORD] = draw;
    pp.w[o + GPUAV_LAYER_STAGE0_WORD + 1u] = 0u;
    pp.w[o + GPUAV_LAYER_STAGE0_WORD + 2u] = 0u;
    uint q = o + GPUAV_LAYER_PARAM0_WORD;
    pp.w[q] = p0;
    pp.w[q + 1u] = p1;
    pp.w[q + 2u] = p2;
    pp.w[q + 3u] = p3;
    pp.w[q + 4u] = p4;
    pp.w[q + 5u] = p5;
    pp.w[q + 6u] = p6;
    // The code last: the decoder skips records whose code is still 0.
    pp.w[o + GPUAV_LAYER_CODE_WORD] = code;
}

uint limit(uint i) { return pp.w[i]; }

// product3 is x*y*z as (low, high), saturated to 2^64-1.
uvec2 product3(uint x, uint y, uint z)
{
    uint hi1, lo1, hi2, lo2, hi3, lo3;
    umulExtended(x, y, hi1, lo1);
    umulExtended(lo1, z, hi2, lo2);
    umulExtended(hi1, z, hi3, lo3);
    uint carry;
    uint hi = uaddCarry(hi2, lo3, carry);
    if (hi3 != 0u || carry != 0u)
        return uvec2(0xFFFFFFFFu, 0xFFFFFFFFu);
    return uvec2(lo2, hi);
}

// groups checks a group count command at word c against the limits at
// word lim (three counts, then the total when total is set); returns true
// when it is within them. kind is the GPUAV_GROUP_KIND_* and, for a
// dispatch the layer zeroes, GPUAV_GROUP_SKIPPED.
bool groups(uint action, uint draw, uint c, uint lim, uint kind, bool total)
{
    uint x = pp.w[c], y = pp.w[c + 1u], z = pp.w[c + 2u];
    bool ok = true;
    for (uint f = 0u; f < 3u; f++) {
        uint v = pp.w[c + f];
        if (v > limit(lim + f)) {
            record(action, GPUAV_CODE_INDIRECT_GROUP_COUNT, draw, f | (kind << 8), v, 0u, limit(lim + f), x, y, z);
            ok = false;
        }
    }
    if (total && ok) {
        uvec2 p = product3(x, y, z);
        if (p.y != 0u || p.x > limit(lim + 3u)) {
            record(action, GPUAV_CODE_INDIRECT_GROUP_COUNT, draw, GPUAV_FIELD_TOTAL | (kind << 8), p.x, p.y,
                   limit(lim + 3u), x, y, z);
            ok = false;
        }
    }
    return ok;
}

// rays checks a trace rays command's width, height and depth at word c;
// two is GPUAV_TRACE_RAYS2 for a VkTraceRaysIndirectCommand2KHR.
bool rays(uint action, uint c, uint two)
{
    uint x = pp.w[c], y = pp.w[c + 1u], z = pp.w[c + 2u];
    bool ok = true;
    for (uint f = 0u; f < 3u; f++) {
        uint v = pp.w[c + f];
        if (v > limit(GPUAV_PREPASS_LIMIT_RAY_DIMS + f)) {
            record(action, GPUAV_CODE_INDIRECT_TRACE_RAYS, 0u, f | two, v, 0u, limit(GPUAV_PREPASS_LIMIT_RAY_DIMS + f), x, y, z);
            ok = false;
        }
    }
    uvec2 p = product3(x, y, z);
    if (ok && (p.y != 0u || p.x > limit(GPUAV_PREPASS_LIMIT_RAY_INVOCATION))) {
        record(action, GPUAV_CODE_INDIRECT_TRACE_RAYS, 0u, GPUAV_FIELD_TOTAL | two, p.x, p.y,
               limit(GPUAV_PREPASS_LIMIT_RAY_INVOCATION), x, y, z);
        ok = false;
    }
    return ok;
}

// draw checks the draw command i at word c of job j.
void draw(uint j, uint kind, uint i, uint c)
{
    uint action = pp.w[j + GPUAV_PREPASS_JOB_ACTION];
    if (kind == GPUAV_PREPASS_KIND_MESH) {
        bool task = (pp.w[j + GPUAV_PREPASS_JOB_KIND] & GPUAV_PREPASS_FLAG_TASK) != 0u;
        groups(action, i, c, task ? GPUAV_PREPASS_LIMIT_TASK_COUNT : GPUAV_PREPASS_LIMIT_MESH_COUNT,
               task ? GPUAV_GROUP_KIND_TASK : GPUAV_GROUP_KIND_MESH, true);
        return;
    }
    bool indexed = kind == GPUAV_PREPASS_KIND_DRAW_INDEXED;
    bool indirect = (pp.w[j + GPUAV_PREPASS_JOB_KIND] & GPUAV_PREPASS_FLAG_INDIRECT) != 0u;
    uint first_instance = pp.w[c + (indexed ? 4u : 3u)];
    if (indirect && first_instance != 0u &&
        (limit(GPUAV_PREPASS_LIMIT_FEATURES) & GPUAV_PREPASS_FEATURE_FIRST_INSTANCE) == 0u)
        record(action, GPUAV_CODE_INDIRECT_FIRST_INSTANCE, i, first_instance, indexed ? 1u : 0u, 0u, 0u, 0u, 0u, 0u);
    if (!indexed)
        return;
    uint count = pp.w[c], first = pp.w[c + 2u];
    uint carry;
    uint end = uaddCarry(first, count, carry);
    uint avail = pp.w[j + GPUAV_PREPASS_JOB_INDICES];
    if (count != 0u && (carry != 0u || end > avail))
        record(action, GPUAV_CODE_INDEX_BUFFER_OOB, i, first, count, pp.w[j + GPUAV_PREPASS_JOB_IDX_SIZE],
               pp.w[j + GPUAV_PREPASS_JOB_IDX_OFFSET], pp.w[j + GPUAV_PREPASS_JOB_IDX_END], GPUAV_INDEX_INDIRECT, avail);
}

// counted checks the count of a count form and returns how many commands
// the action executes.
uint counted(uint j, uint n)
{
    uint kindw = pp.w[j + GPUAV_PREPASS_JOB_KIND];
    if ((kindw & GPUAV_PREPASS_FLAG_COUNT) == 0u)
        return n;
    uint count = pp.w[pp.w[j + GPUAV_PREPASS_JOB_COUNT_SRC]];
    if (gl_LocalInvocationID.x == 0u && (kindw & GPUAV_PREPASS_FLAG_INDIRECT) != 0u) {
        uint action = pp.w[j + GPUAV_PREPASS_JOB_ACTION];
        bool safe = (kindw & GPUAV_PREPASS_FLAG_SAFE) != 0u;
        uint max_draw = pp.w[j + GPUAV_PREPASS_JOB_MAX_DRAW];
        uint lim = limit(GPUAV_PREPASS_LIMIT_DRAW_COUNT);
        // The action executes min(count, maxDrawCount) commands; in safe
        // mode the layer clamped maxDrawCount to the limit and the buffer.
        if (count > lim)
            record(action, GPUAV_CODE_INDIRECT_DRAW_COUNT, 0u, count, lim, max_draw,
                   safe || max_draw <= lim ? GPUAV_INDIRECT_SKIPPED : 0u, 0u, 0u, 0u);
        uint fit = pp.w[j + GPUAV_PREPASS_JOB_FIT];
        uint kind = kindw & 0xFFu;
        uint size = kind == GPUAV_PREPASS_KIND_DRAW ? 16u : kind == GPUAV_PREPASS_KIND_DRAW_INDEXED ? 20u : 12u;
        uint skipped = safe || max_draw <= fit ? GPUAV_INDIRECT_SKIPPED : 0u;
        if (count > fit)
            record(action, GPUAV_CODE_INDIRECT_BUFFER_OVERRUN, 0u, count, pp.w[j + GPUAV_PREPASS_JOB_STRIDE_BYTES],
                   pp.w[j + GPUAV_PREPASS_JOB_OFFSET], size, pp.w[j + GPUAV_PREPASS_JOB_BUF_SIZE],
                   GPUAV_OVERRUN_COUNT_BUFFER | (skipped << 8), fit);
    }
    return min(n, count);
}

// The first texel of a depth copy region outside [0, 1], and how many are.
shared uint depth_first, depth_outside;

// depth checks a buffer-to-image copy region into a depth aspect: its
// texels, copied at word src, must be in [0, 1]. One record per region: its
// first texel outside, with the count. With GPUAV_PREPASS_FLAG_SAFE every
// texel outside is then clamped into [0, 1] in the copy (NaN to 0), which
// the copy command reads.
void depth(uint j, uint src)
{
    uint w = pp.w[j + GPUAV_PREPASS_DEPTH_WIDTH], h = pp.w[j + GPUAV_PREPASS_DEPTH_HEIGHT];
    uint d = pp.w[j + GPUAV_PREPASS_DEPTH_DEPTH];
    uint row = pp.w[j + GPUAV_PREPASS_DEPTH_ROW_LENGTH], rows = pp.w[j + GPUAV_PREPASS_DEPTH_ROWS];
    bool safe = (pp.w[j + GPUAV_PREPASS_JOB_KIND] & GPUAV_PREPASS_FLAG_SAFE) != 0u;
    if (gl_LocalInvocationID.x == 0u) {
        depth_first = 0xFFFFFFFFu;
        depth_outside = 0u;
    }
    barrier();
    uint n = w * h * d;
    for (uint i = gl_LocalInvocationID.x; i < n; i += GPUAV_PREPASS_LOCAL_SIZE) {
        uint x = i % w, y = (i / w) % h, z = i / (w * h);
        float v = uintBitsToFloat(pp.w[src + (z * rows + y) * row + x]);
        if (!(v >= 0.0 && v <= 1.0)) {
            atomicAdd(depth_outside, 1u);
            atomicMin(depth_first, i);
        }
    }
    memoryBarrierShared();
    barrier();
    uint outside = depth_outside;
    if (outside == 0u)
        return; // uniform: every invocation read the same count
    if (gl_LocalInvocationID.x == 0u) {
        uint i = depth_first;
        uint x = i % w, y = (i / w) % h, z = i / (w * h);
        uint slot = atomicAdd(pp.w[GPUAV_PREPASS_HEADER_WORD], GPUAV_LAYER_RECORD_WORDS);
        if (slot + GPUAV_LAYER_RECORD_WORDS > GPUAV_PREPASS_RECORDS * GPUAV_LAYER_RECORD_WORDS) {
            atomicAdd(pp.w[GPUAV_PREPASS_HEADER_WORD + 1u], 1u);
        } else {
            uint o = GPUAV_PREPASS_RECORD_WORD + slot;
            uint region = pp.w[j + GPUAV_PREPASS_DEPTH_REGION];
            pp.w[o + GPUAV_LAYER_ACTION_WORD] = pp.w[j + GPUAV_PREPASS_JOB_ACTION];
            pp.w[o + GPUAV_LAYER_STAGE_WORD] = GPUAV_MODEL_COPY;
            pp.w[o + GPUAV_LAYER_STAGE0_WORD] = region;
            pp.w[o + GPUAV_LAYER_STAGE0_WORD + 1u] =
                ((pp.w[j + GPUAV_PREPASS_DEPTH_X] + x) & 0xFFFFu) | ((pp.w[j + GPUAV_PREPASS_DEPTH_Y] + y) << 16);
            pp.w[o + GPUAV_LAYER_STAGE0_WORD + 2u] = pp.w[j + GPUAV_PREPASS_DEPTH_Z] + z;
            uint q = o + GPUAV_LAYER_PARAM0_WORD;
            pp.w[q] = pp.w[src + (z * rows + y) * row + x];
            pp.w[q + 1u] = outside;
            pp.w[q + 2u] = n;
            pp.w[q + 3u] = pp.w[j + GPUAV_PREPASS_DEPTH_FLAGS] | (safe ? GPUAV_DEPTH_CLAMPED : 0u);
            pp.w[q + 4u] = pp.w[j + GPUAV_PREPASS_DEPTH_FORMAT];
            pp.w[q + 5u] = pp.w[j + GPUAV_PREPASS_DEPTH_OFFSET];
            pp.w[q + 6u] = region;
            // The code last: the decoder skips records whose code is still 0.
            pp.w[o + GPUAV_LAYER_CODE_WORD] = GPUAV_CODE_DEPTH_COPY_RANGE;
        }
    }
    memoryBarrierBuffer();
    barrier();
    if (!safe)
        return;
    for (uint i = gl_LocalInvocationID.x; i < n; i += GPUAV_PREPASS_LOCAL_SIZE) {
        uint x = i % w, y = (i / w) % h, z = i / (w * h);
        uint at = src + (z * rows + y) * row + x;
        float v = uintBitsToFloat(pp.w[at]);
        if (!(v >= 0.0 && v <= 1.0))
            pp.w[at] = floatBitsToUint(v > 1.0 ? 1.0 : 0.0);
    }
}

void main()
{
    uint j = GPUAV_PREPASS_JOB_WORD + gl_WorkGroupID.x * GPUAV_PREPASS_JOB_WORDS;
    uint kind = pp.w[j + GPUAV_PREPASS_JOB_KIND] & 0xFFu;
    if (kind == GPUAV_PREPASS_KIND_DEPTH) {
        depth(j, pp.w[j + GPUAV_PREPASS_JOB_SRC]);
        return;
    }
    uint src = pp.w[j + GPUAV_PREPASS_JOB_SRC];
    uint n = counted(j, pp.w[j + GPUAV_PREPASS_JOB_COUNT]);
    uint stride = pp.w[j + GPUAV_PREPASS_JOB_STRIDE];
    if (kind == GPUAV_PREPASS_KIND_DISPATCH || kind == GPUAV_PREPASS_KIND_TRACE_RAYS ||
        kind == GPUAV_PREPASS_KIND_TRACE_RAYS2) {
        if (gl_LocalInvocationID.x != 0u)
            return;
        uint action = pp.w[j + GPUAV_PREPASS_JOB_ACTION];
        bool ok;
        uint c = src;
        bool safe = (pp.w[j + GPUAV_PREPASS_JOB_KIND] & GPUAV_PREPASS_FLAG_SAFE) != 0u;
        if (kind == GPUAV_PREPASS_KIND_DISPATCH)
            ok = groups(action, 0u, c, GPUAV_PREPASS_LIMIT_COMPUTE_COUNT,
                        GPUAV_GROUP_KIND_COMPUTE | (safe ? GPUAV_GROUP_SKIPPED >> 8 : 0u), false);
        else {
            bool two = kind == GPUAV_PREPASS_KIND_TRACE_RAYS2;
            c = src + (two ? 22u : 0u);
            ok = rays(action, c, two ? GPUAV_TRACE_RAYS2 : 0u);
        }
        if (!ok && safe) {
            pp.w[c] = 0u;
            pp.w[c + 1u] = 0u;
            pp.w[c + 2u] = 0u;
        }
        return;
    }
    for (uint i = gl_LocalInvocationID.x; i < n; i += GPUAV_PREPASS_LOCAL_SIZE)
        draw(j, kind, i, src + i * stride);
}
