#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
// traceapp's closest-hit shader: 1 for a hit (1000 + the hit kind of a
// procedural one); in stage 1, for the ray generation shader's ray (its
// payload is 7), it traces the ray under test and returns 10 + what that
// trace left (100: not made).
#include "trace.glsl"
layout(location = 0) rayPayloadInEXT uint payload;
layout(location = 1) rayPayloadEXT uint inner;

void main() {
    if (pc.stage == 1u && payload == 7u) {
        inner = 100u;
        traceRayEXT(tlas, pc.flags, 0xff, pc.sbt_offset, pc.sbt_stride, pc.miss, pc.origin.xyz, pc.tmin, pc.dir.xyz, pc.tmax, 1); // EXPECT trace_ray
        payload = 10u + inner;
    } else {
        payload = pc.stage == 3u ? 1000u + gl_HitKindEXT : 1u;
    }
}
