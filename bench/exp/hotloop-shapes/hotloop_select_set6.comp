#version 450
// hot-loop scene, reference variant select_set1 (no layer): hotloop_select.comp
// with its failure buffer in a second descriptor set (set 1, binding 0), where
// the layer's records go: whether a never-taken failure path that writes a
// buffer of another set costs the loop more than one that writes a buffer of
// the set it reads (docs/BENCHMARKS.md, the memory loop on the H100).
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer B { uint v[]; } bufs[2];
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 2) readonly buffer Idx { uint k[]; } idx;
layout(set = 1, binding = 0) buffer Err { uint written; uint pad0; uint pad1; uint pad2; uvec4 rec[]; } err;

void fail(uint site, uint a, uint b) {
    uint s = atomicAdd(err.written, 1u);
    if (s < uint(err.rec.length())) {
        err.rec[s] = uvec4(site, a, b, gl_GlobalInvocationID.x);
    }
}

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = idx.k[(w + i) & 1023u];
        bool ok = k < 2u;
        uint kk = ok ? k : 0u;
        uint s = bufs[kk].v[(g * 7u + i) & 1023u] * 3u + bufs[kk].v[(g + i * 13u) & 1023u];
        acc += ok ? s : 0u;
        if (!ok) {
            fail(2u, k, i);
        }
    }
    if (g < uint(o.length())) {
        o[g] = acc;
    } else {
        fail(5u, g, 0u);
    }
}
