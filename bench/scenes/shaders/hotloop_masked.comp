#version 450
// hot-loop scene, variant masked: 256 iterations, each with two reads through
// a descriptor array of 2 storage buffers of 4 KB. The descriptor index is
// masked into range (& 1u, uniform per workgroup) and every offset to at most
// 1023 words, so every access is provably inside a 4 KB buffer: a layer that
// decides what it can on the CPU keeps no check in the loop. The harness's
// negative control (--oob) binds only 2 KB of each buffer.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer B { uint v[]; } bufs[2];
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = (w + i) & 1u;
        acc += bufs[k].v[(g * 7u + i) & 1023u] * 3u + bufs[k].v[(g + i * 13u) & 1023u];
    }
    o[g] = acc;
}
