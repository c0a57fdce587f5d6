#version 460
#extension GL_EXT_ray_tracing : require
// trace_ray in a closest-hit shader: its own trace is checked.
// INSTRUMENT checks=trace_ray env=vulkan1.2
// INSTRUMENT checks=all env=vulkan1.3
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(push_constant) uniform PC { vec4 dir; float tmin; uint miss; } pc;
layout(location = 0) rayPayloadInEXT uint payload;
layout(location = 1) rayPayloadEXT uint inner;

void main() {
    inner = 7u;
    traceRayEXT(tlas, gl_RayFlagsNoneEXT, 0xff, 0, 1, pc.miss, gl_WorldRayOriginEXT, pc.tmin, pc.dir.xyz, 10.0, 1); // EXPECT trace_ray
    payload = inner;
}
