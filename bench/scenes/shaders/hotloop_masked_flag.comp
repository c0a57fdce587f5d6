#version 450
#extension GL_GOOGLE_include_directive : require
// hot-loop scene, reference variant masked_flag (no layer): hotloop_masked.comp
// with the checks a layer that hoists per-binding facts emits: the index is
// provably in range, and each read's offset check runs only when the hoisted
// range fact (a uniform value) does not hold, behind a branch per read.
#include "hotloop_checked.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    bool fast = range_fact();
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = (w + i) & 1u;
        uint a = (g * 7u + i) & 1023u;
        uint b = (g + i * 13u) & 1023u;
        uint x = fast ? bufs[k].v[a] : read_checked(3u, k, a);
        uint y = fast ? bufs[k].v[b] : read_checked(4u, k, b);
        acc += x * 3u + y;
    }
    store_result(g, acc);
}
