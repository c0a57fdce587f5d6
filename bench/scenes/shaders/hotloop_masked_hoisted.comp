#version 450
#extension GL_GOOGLE_include_directive : require
// hot-loop scene, reference variant masked_hoisted (no layer):
// hotloop_masked.comp with loop versioning: the hoisted range fact chooses
// between the loop with no check at all and a checked copy.
#include "hotloop_checked.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    if (range_fact()) {
        for (uint i = 0u; i < 256u; i++) {
            uint k = (w + i) & 1u;
            acc += bufs[k].v[(g * 7u + i) & 1023u] * 3u + bufs[k].v[(g + i * 13u) & 1023u];
        }
    } else {
        for (uint i = 0u; i < 256u; i++) {
            uint k = (w + i) & 1u;
            acc += read_checked(3u, k, (g * 7u + i) & 1023u) * 3u + read_checked(4u, k, (g + i * 13u) & 1023u);
        }
    }
    store_result(g, acc);
}
