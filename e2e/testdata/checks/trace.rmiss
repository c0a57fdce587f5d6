#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
// traceapp's miss shader: 2 for a miss; in stage 2, for the ray generation
// shader's ray (its payload is 7), it traces the ray under test and
// returns 10 + what that trace left (100: not made).
#include "trace.glsl"
layout(location = 0) rayPayloadInEXT uint payload;
layout(location = 1) rayPayloadEXT uint inner;

void main() {
    if (pc.stage == 2u && payload == 7u) {
        inner = 100u;
        traceRayEXT(tlas, pc.flags, 0xff, pc.sbt_offset, pc.sbt_stride, pc.miss, pc.origin.xyz, pc.tmin, pc.dir.xyz, pc.tmax, 1); // EXPECT trace_ray
        payload = 10u + inner;
    } else {
        payload = 2u;
    }
}
