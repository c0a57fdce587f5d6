#version 450
#extension GL_GOOGLE_include_directive : require
// hot-loop scene, reference variant guard (no layer): hotloop_memory.comp
// with what the layer's fast variant keeps once the CPU has decided every
// range (the buffers hold the largest offset, 1023 words): the descriptor
// index read from memory tested once per iteration, one branch around both
// reads, the failure path inline; no checked copy of the loop. It assumes
// the range, so its negative control is --bad-index (every buffer bound
// whole), never --oob.
#include "hotloop_checked.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = idx.k[(w + i) & 1023u];
        if (k < 2u) {
            acc += bufs[k].v[(g * 7u + i) & 1023u] * 3u + bufs[k].v[(g + i * 13u) & 1023u];
        } else {
            fail(2u, k, i);
        }
    }
    store_result(g, acc);
}
