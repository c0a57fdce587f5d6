#version 460
#extension GL_EXT_ray_query : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(push_constant) uniform PC { int flags; } pc;

void main() {
    // A constant ray with constant flags that break 06889 (SkipTriangles|SkipAABBs): checked.
    rayQueryEXT q;
    rayQueryInitializeEXT(q, tlas, 0x300u, 0xff, vec3(0.0), 0.0, vec3(0.0, 0.0, 1.0), 100.0);
    rayQueryProceedEXT(q);
    // A constant ray with signed flags from a push constant: checked.
    rayQueryEXT q2;
    rayQueryInitializeEXT(q2, tlas, uint(pc.flags), 0xff, vec3(0.0), 0.0, vec3(0.0, 0.0, 1.0), 100.0);
    rayQueryProceedEXT(q2);
    // Constant ray and valid constant flags: provably safe, no check.
    rayQueryEXT q3;
    rayQueryInitializeEXT(q3, tlas, gl_RayFlagsOpaqueEXT | gl_RayFlagsCullBackFacingTrianglesEXT, 0xff, vec3(0.0), 0.0, vec3(0.0, 0.0, 1.0), 100.0);
    rayQueryProceedEXT(q3);
}
