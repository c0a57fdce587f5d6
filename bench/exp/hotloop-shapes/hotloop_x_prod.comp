#version 450
#extension GL_GOOGLE_include_directive : require
// hot-loop scene, reference variant x_prod (no layer, experiment): hotloop_guard.comp
// with branch-free reads: the descriptor index is clamped into the array
// (an in-range element, whose range the CPU decided), both reads always
// happen and their sum is selected away when the index failed; only the
// failure path is behind a branch. Whether a driver schedules these reads
// better than the guarded ones decides whether the layer should emit a
// read's index check as a select (its negative control is --bad-index).
#include "hotloop_checked.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = idx.k[(w + i) & 1023u];
        bool ok = k < 2u;
        uint kk = ok ? k : 0u;
        uint x = bufs[kk].v[(g * 7u + i) & 1023u];
        x = ok ? x : 0u;
        if (!ok) {
            fail(2u, k, i);
        }
        uint y = bufs[kk].v[(g + i * 13u) & 1023u];
        y = ok ? y : 0u;
        acc += x * 3u + y;
    }
    store_result(g, acc);
}
