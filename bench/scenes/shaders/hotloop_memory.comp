#version 450
// hot-loop scene, variant memory: as hotloop_masked.comp, but the descriptor
// index is read from a buffer (idx, 4 KB) every iteration, so nothing proves
// it in range: the index must be tested per iteration. The offsets are still
// masked to at most 1023 words. The negative control (--oob) puts index 2 in
// every 64th word of idx and binds only 2 KB of each buffer.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer B { uint v[]; } bufs[2];
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 2) readonly buffer Idx { uint k[]; } idx;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = idx.k[(w + i) & 1023u];
        acc += bufs[k].v[(g * 7u + i) & 1023u] * 3u + bufs[k].v[(g + i * 13u) & 1023u];
    }
    o[g] = acc;
}
