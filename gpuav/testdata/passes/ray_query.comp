#version 460
#extension GL_EXT_ray_query : require
// The ray_query pass: an initialize with operands from memory is checked
// (gpuav_ray_query_code) and, when they break a rule, initializes a ray
// that hits nothing instead; one with constant operands that obey every
// rule is not.
// INSTRUMENT checks=ray_query env=vulkan1.2
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(push_constant) uniform PC { vec4 origin; vec4 dir; float tmin; float tmax; } pc;

void main() {
    rayQueryEXT q;
    rayQueryInitializeEXT(q, tlas, 0, 0xff, pc.origin.xyz, pc.tmin, pc.dir.xyz, pc.tmax); // EXPECT ray_query
    rayQueryProceedEXT(q);
    rayQueryInitializeEXT(q, tlas, 0, 0xff, vec3(0.0), 0.0, vec3(0.0, 0.0, 1.0), 100.0); // EXPECT none
    rayQueryProceedEXT(q);
}
