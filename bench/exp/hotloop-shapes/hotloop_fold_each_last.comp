#version 450
#extension GL_GOOGLE_include_directive : require
// hot-loop scene, reference variant fold_each_last (no layer, experiment): hotloop_select.comp with
// its failure path out of the loop: each iteration only counts its failure
// and keeps the first failure's values in private variables (selects, no
// branch); after the loop one branch writes one record for the invocation,
// claiming as many slots as iterations failed, so hand-errors is still every
// failing iteration. Whether a driver then treats the loop as one without a
// failure path decides whether the layer should report a loop's failures
// once after it.
#include "hotloop_checked.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    uint failed = 0u;
    uint firstK = 0u;
    uint firstI = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = idx.k[(w + i) & 1023u];
        bool ok = k < 2u;
        uint kk = ok ? k : 0u;
        uint x = bufs[kk].v[(g * 7u + i) & 1023u];
        x = ok ? x : 0u;
        uint y = bufs[kk].v[(g + i * 13u) & 1023u];
        y = ok ? y : 0u;
        acc += x * 3u + y;
        firstK = ok ? firstK : k;
        failed += ok ? 0u : 1u;
    }
    if (failed != 0u) {
        uint s = atomicAdd(err.written, failed);
        if (s < uint(err.rec.length())) {
            err.rec[s] = uvec4(2u, firstK, firstI, g);
        }
    }
    store_result(g, acc);
}
