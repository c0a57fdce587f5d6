#version 450
#extension GL_GOOGLE_include_directive : require
// hot-loop scene, reference variant naive (no layer): hotloop_memory.comp with
// every access tested by hand (hotloop_checked.glsl).
#include "hotloop_checked.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    store_result(g, checked_loop(g, gl_WorkGroupID.x));
}
