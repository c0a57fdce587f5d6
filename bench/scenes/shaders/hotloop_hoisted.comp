#version 450
#extension GL_GOOGLE_include_directive : require
// hot-loop scene, reference variant hoisted (no layer): hotloop_memory.comp
// with loop versioning. Every offset is masked to at most 1023 words, so one
// length test per binding before the loop decides every offset check; when
// it holds, the loop tests only the descriptor index it reads from memory.
// When it does not, the checked copy of the loop runs (hotloop_checked.glsl).
#include "hotloop_checked.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint n = min(min(uint(bufs[0].v.length()), uint(bufs[1].v.length())), uint(idx.k.length()));
    uint acc = 0u;
    if (n >= 1024u) {
        for (uint i = 0u; i < 256u; i++) {
            uint k = idx.k[(w + i) & 1023u];
            if (k < 2u) {
                acc += bufs[k].v[(g * 7u + i) & 1023u] * 3u + bufs[k].v[(g + i * 13u) & 1023u];
            } else {
                fail(2u, k, i);
            }
        }
    } else {
        acc = checked_loop(g, w);
    }
    store_result(g, acc);
}
