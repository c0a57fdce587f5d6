#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
// The layer's pre-pass over acceleration-structure builds (gpuav/prepass.go,
// gpuav/buildchecks.go): the second shader of the pre-pass, made only on
// devices where the app enabled accelerationStructure (and so
// bufferDeviceAddress). One workgroup row per build job (vkCmdDispatchBase's
// base x is the first job), GPUAV_PREPASS_BUILD_GROUPS_MAX workgroups at
// most (the y of the dispatch) sharing a geometry's primitives. It reads
// the app's instances, AABBs, transforms and indices through their device
// addresses and, for instances with on_error skip, writes the layer's copy
// of them with every bad instance inactive (reference 0), which the build
// then reads instead of the app's buffer. Addresses are uvec2 (low, high):
// no 64-bit integers needed.
layout(local_size_x = GPUAV_PREPASS_BUILD_LOCAL_SIZE) in;

layout(set = 0, binding = GPUAV_PREPASS_BINDING, std430) buffer Prepass {
    uint w[];
} pp;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Words {
    uint v[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer Out {
    uvec4 q[];
};
layout(buffer_reference, std430, buffer_reference_align = 8) writeonly buffer OutPtrs {
    uvec2 p[];
};

// record writes one layer record of a build geometry's primitive.
void record(uint j, uint code, uint prim, uint p0, uint p1, uint p2, uint p3, uint p4, uint p5)
{
    uint slot = atomicAdd(pp.w[GPUAV_PREPASS_HEADER_WORD], GPUAV_LAYER_RECORD_WORDS);
    if (slot + GPUAV_LAYER_RECORD_WORDS > GPUAV_PREPASS_RECORDS * GPUAV_LAYER_RECORD_WORDS) {
        atomicAdd(pp.w[GPUAV_PREPASS_HEADER_WORD + 1u], 1u);
        return;
    }
    uint o = GPUAV_PREPASS_RECORD_WORD + slot;
    pp.w[o + GPUAV_LAYER_ACTION_WORD] = pp.w[j + GPUAV_PREPASS_JOB_ACTION];
    pp.w[o + GPUAV_LAYER_STAGE_WORD] = GPUAV_MODEL_BUILD;
    pp.w[o + GPUAV_LAYER_STAGE0_WORD] = pp.w[j + GPUAV_PREPASS_BUILD_INFO];
    pp.w[o + GPUAV_LAYER_STAGE0_WORD + 1u] = pp.w[j + GPUAV_PREPASS_BUILD_GEOMETRY];
    pp.w[o + GPUAV_LAYER_STAGE0_WORD + 2u] = prim;
    uint q = o + GPUAV_LAYER_PARAM0_WORD;
    pp.w[q] = p0;
    pp.w[q + 1u] = p1;
    pp.w[q + 2u] = p2;
    pp.w[q + 3u] = p3;
    pp.w[q + 4u] = p4;
    pp.w[q + 5u] = p5;
    pp.w[q + 6u] = 0u;
    // The code last: the decoder skips records whose code is still 0.
    pp.w[o + GPUAV_LAYER_CODE_WORD] = code;
}

// add is a + b for an address.
uvec2 add(uvec2 a, uint b)
{
    uint carry;
    uint lo = uaddCarry(a.x, b, carry);
    return uvec2(lo, a.y + carry);
}

// less compares two addresses.
bool less(uvec2 a, uvec2 b)
{
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

uvec2 addr(uint j, uint word)
{
    return uvec2(pp.w[j + word], pp.w[j + word + 1u]);
}

// lookup returns the flags of the acceleration structure at address ref in
// the live table at word t (0: none has it).
uint lookup(uint t, uvec2 ref)
{
    uint lo = 0u, hi = pp.w[t];
    uint e = t + GPUAV_PREPASS_TABLE_HEADER_WORDS;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        uint m = e + mid * GPUAV_PREPASS_TABLE_ENTRY_WORDS;
        uvec2 a = uvec2(pp.w[m], pp.w[m + 1u]);
        if (a == ref)
            return pp.w[m + 2u];
        if (less(a, ref))
            lo = mid + 1u;
        else
            hi = mid;
    }
    return 0u;
}

bool finite(uint bits)
{
    return (bits & 0x7F800000u) != 0x7F800000u;
}

// reference_reason says what is wrong with a non-zero reference (0: nothing).
uint reference_reason(uint j, uvec2 ref)
{
    if ((ref.x & 15u) != 0u)
        return GPUAV_REF_MISALIGNED;
    if (ref == addr(j, GPUAV_PREPASS_BUILD_DST))
        return GPUAV_REF_SELF;
    uint dl = pp.w[j + GPUAV_PREPASS_BUILD_DST_LIST], dn = pp.w[j + GPUAV_PREPASS_BUILD_DST_COUNT];
    for (uint k = 0u; k < dn; k++)
        if (ref == uvec2(pp.w[dl + 2u * k], pp.w[dl + 2u * k + 1u]))
            return GPUAV_REF_OTHER_DST;
    uint t = pp.w[j + GPUAV_PREPASS_BUILD_TABLE];
    if (t == 0u || pp.w[t + 1u] == 0u)
        return 0u; // no table this submit: said on the CPU
    uint f = lookup(t, ref);
    if (f == 0u)
        return GPUAV_REF_UNKNOWN;
    if ((f & GPUAV_PREPASS_AS_DESTROYED) != 0u)
        return GPUAV_REF_DESTROYED;
    if ((f & GPUAV_PREPASS_AS_BUFFER_GONE) != 0u)
        return GPUAV_REF_BUFFER_GONE;
    if ((f & GPUAV_PREPASS_AS_TYPE_MASK) == GPUAV_PREPASS_AS_TOP)
        return GPUAV_REF_NOT_BOTTOM;
    return 0u;
}

void instances(uint j, uint i, uint n, uint kindw)
{
    bool pointers = (kindw & GPUAV_PREPASS_FLAG_POINTERS) != 0u;
    bool safe = (kindw & GPUAV_PREPASS_FLAG_SAFE) != 0u;
    uint flags = (pointers ? GPUAV_ACCEL_POINTERS : 0u) | (safe ? GPUAV_ACCEL_SKIPPED : 0u);
    uvec2 base = addr(j, GPUAV_PREPASS_BUILD_ADDR);
    uvec2 at = base;
    if (pointers) {
        Words pw = Words(add(base, i * 8u));
        at = uvec2(pw.v[0], pw.v[1]);
    }
    bool bad = false;
    uint inst[16];
    if (at != uvec2(0u)) {
        Words src = Words(pointers ? at : add(base, i * 64u));
        for (uint k = 0u; k < 16u; k++)
            inst[k] = src.v[k];
        uvec2 ref = uvec2(inst[14], inst[15]);
        if (ref != uvec2(0u)) {
            uint why = reference_reason(j, ref);
            if (why != 0u) {
                bad = true;
                record(j, GPUAV_CODE_ACCEL_REFERENCE, i, ref.x, ref.y, why | (flags << 8), n, ref.x & 15u, 0u);
            }
            for (uint k = 0u; k < 12u; k++)
                if (!finite(inst[k])) {
                    bad = true;
                    record(j, GPUAV_CODE_ACCEL_INSTANCE_TRANSFORM, i, k, inst[k], flags, n, 0u, 0u);
                    break;
                }
        }
    }
    uvec2 copy = addr(j, GPUAV_PREPASS_BUILD_COPY);
    if (!safe || copy == uvec2(0u))
        return;
    if (pointers) {
        // The copy is the array of pointers, then one inactive instance
        // (16-byte aligned) that bad ones point at.
        uvec2 inactive = add(copy, ((n * 8u + 15u) / 16u) * 16u);
        OutPtrs(copy).p[i] = bad ? inactive : at;
        if (i == 0u)
            for (uint k = 0u; k < 4u; k++)
                Out(inactive).q[k] = uvec4(0u);
        return;
    }
    Out o = Out(add(copy, i * 64u));
    if (at == uvec2(0u) || bad) {
        for (uint k = 0u; k < 4u; k++)
            o.q[k] = uvec4(0u);
        return;
    }
    for (uint k = 0u; k < 4u; k++)
        o.q[k] = uvec4(inst[4u * k], inst[4u * k + 1u], inst[4u * k + 2u], inst[4u * k + 3u]);
}

void aabbs(uint j, uint i, uint n, uint kindw)
{
    uint stride = pp.w[j + GPUAV_PREPASS_BUILD_STRIDE];
    Words b = Words(add(addr(j, GPUAV_PREPASS_BUILD_ADDR), i * stride));
    for (uint a = 0u; a < 3u; a++) {
        uint lo = b.v[a], hi = b.v[a + 3u];
        // min > max; a NaN compares false (an AABB whose minX is NaN is
        // inactive, which the spec allows).
        if (uintBitsToFloat(lo) > uintBitsToFloat(hi)) {
            record(j, GPUAV_CODE_ACCEL_AABB, i, a, lo, hi, 0u, stride, n);
            break;
        }
    }
}

// transform checks a triangle geometry's VkTransformMatrixKHR: the first
// element that is not finite.
void transform(uint j)
{
    Words b = Words(addr(j, GPUAV_PREPASS_BUILD_ADDR));
    for (uint k = 0u; k < 12u; k++) {
        uint bits = b.v[k];
        if (!finite(bits)) {
            record(j, GPUAV_CODE_ACCEL_TRANSFORM, 0u, k, bits, 0u, 0u, 0u, 0u);
            return;
        }
    }
}

void indices(uint j, uint i)
{
    uint type = pp.w[j + GPUAV_PREPASS_BUILD_STRIDE];
    uvec2 base = addr(j, GPUAV_PREPASS_BUILD_ADDR);
    uint index;
    if (type == 1u) { // VK_INDEX_TYPE_UINT32
        index = Words(add(base, i * 4u)).v[0];
    } else {
        uint size = type == 0u ? 2u : 1u;
        uint byte = i * size;
        // Read the aligned word that holds it (the indices are aligned to
        // their size, not to 4).
        uvec2 at = add(base, byte);
        uint shift = (at.x & 3u) * 8u;
        at.x &= ~3u;
        uint word = Words(at).v[0];
        index = (word >> shift) & (size == 2u ? 0xFFFFu : 0xFFu);
    }
    uint first = pp.w[j + GPUAV_PREPASS_BUILD_FIRST_VERTEX], maxv = pp.w[j + GPUAV_PREPASS_BUILD_MAX_VERTEX];
    uint carry;
    uint v = uaddCarry(index, first, carry);
    if (carry != 0u || v > maxv)
        record(j, GPUAV_CODE_ACCEL_INDEX, i / 3u, index, first, maxv, type, i, 0u);
}

void main()
{
    uint j = GPUAV_PREPASS_JOB_WORD + gl_WorkGroupID.x * GPUAV_PREPASS_JOB_WORDS;
    uint kindw = pp.w[j + GPUAV_PREPASS_JOB_KIND];
    uint kind = kindw & 0xFFu;
    uint n = pp.w[j + GPUAV_PREPASS_BUILD_COUNT];
    if (kind == GPUAV_PREPASS_KIND_TRANSFORM)
        n = 1u;
    else if (kind == GPUAV_PREPASS_KIND_INDICES)
        n = n * 3u;
    uint step = gl_NumWorkGroups.y * GPUAV_PREPASS_BUILD_LOCAL_SIZE;
    for (uint i = gl_WorkGroupID.y * GPUAV_PREPASS_BUILD_LOCAL_SIZE + gl_LocalInvocationID.x; i < n; i += step) {
        if (kind == GPUAV_PREPASS_KIND_INSTANCES)
            instances(j, i, n, kindw);
        else if (kind == GPUAV_PREPASS_KIND_AABBS)
            aabbs(j, i, n, kindw);
        else if (kind == GPUAV_PREPASS_KIND_TRANSFORM)
            transform(j);
        else if (kind == GPUAV_PREPASS_KIND_INDICES)
            indices(j, i);
    }
}
