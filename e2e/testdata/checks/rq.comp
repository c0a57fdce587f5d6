#version 460
#extension GL_EXT_ray_query : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(set = 0, binding = 1, std430) buffer Out { float hit[]; } outs;
layout(push_constant) uniform PC { vec4 origin; vec4 dir; float tmin; float tmax; uint flags; } pc;

void main() {
    rayQueryEXT q;
    rayQueryInitializeEXT(q, tlas, pc.flags, 0xff, pc.origin.xyz, pc.tmin, pc.dir.xyz, pc.tmax); // EXPECT ray_query
    while (rayQueryProceedEXT(q)) {}
    outs.hit[gl_GlobalInvocationID.x] = rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionNoneEXT ? 0.0 : 1.0;
}
