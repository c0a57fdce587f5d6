#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require
// hot-loop scene, reference variant select_uniform (no layer):
// hotloop_select.comp with the clamped descriptor index made visibly
// uniform (subgroupBroadcastFirst). The app's index is not decorated
// NonUniform, so it must be dynamically uniform and the broadcast changes
// nothing in a valid app; whether the driver then keeps the descriptor
// access on its uniform path decides whether the layer should emit it.
#include "hotloop_checked.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = idx.k[(w + i) & 1023u];
        bool ok = k < 2u;
        uint kk = subgroupBroadcastFirst(ok ? k : 0u);
        uint s = bufs[kk].v[(g * 7u + i) & 1023u] * 3u + bufs[kk].v[(g + i * 13u) & 1023u];
        acc += ok ? s : 0u;
        if (!ok) {
            fail(2u, k, i);
        }
    }
    store_result(g, acc);
}
