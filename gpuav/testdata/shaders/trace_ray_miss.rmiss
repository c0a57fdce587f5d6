#version 460
#extension GL_EXT_ray_tracing : require
// trace_ray in a miss shader: its own trace is checked.
// INSTRUMENT checks=trace_ray env=vulkan1.2
// INSTRUMENT checks=trace_ray env=vulkan1.3 -Os
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(push_constant) uniform PC { uint flags; } pc;
layout(location = 0) rayPayloadInEXT uint payload;
layout(location = 1) rayPayloadEXT uint inner;

void main() {
    inner = 7u;
    traceRayEXT(tlas, pc.flags, 0xff, 0, 1, 0, vec3(0.0), 0.0, vec3(0.0, 0.0, -1.0), 10.0, 1); // EXPECT trace_ray
    payload = inner;
}
