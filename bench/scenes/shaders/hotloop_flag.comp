#version 450
#extension GL_GOOGLE_include_directive : require
// hot-loop scene, reference variant flag (no layer): hotloop_memory.comp with
// the checks a layer that hoists per-binding facts emits: the descriptor index
// read from memory is tested every iteration; each read's offset check runs
// only when the hoisted range fact (a uniform value) does not hold, behind a
// branch per read (no loop versioning).
#include "hotloop_checked.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    bool fast = range_fact() && uint(idx.k.length()) >= 1024u;
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint j = (w + i) & 1023u;
        uint k = fast ? idx.k[j] : (j < uint(idx.k.length()) ? idx.k[j] : 0u);
        if (k >= 2u) {
            fail(2u, k, i);
            continue;
        }
        uint a = (g * 7u + i) & 1023u;
        uint b = (g + i * 13u) & 1023u;
        uint x = fast ? bufs[k].v[a] : read_checked(3u, k, a);
        uint y = fast ? bufs[k].v[b] : read_checked(4u, k, b);
        acc += x * 3u + y;
    }
    store_result(g, acc);
}
