#version 460
#extension GL_EXT_ray_query : require
#extension GL_EXT_buffer_reference : require
// vertex, stageapp's other checks: 4 points, 2 instances, at the origin
layout(buffer_reference, std430) buffer Ref { uint v[]; };
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 3) uniform accelerationStructureEXT tlas;
layout(set = 0, binding = 5) uniform usamplerBuffer texels;
layout(set = 0, binding = 6, std430) buffer Small { uint v[]; } small;
layout(push_constant) uniform PC { uint index; uint rindex; uint kind; uint pad; Ref ref; float tmin; float tmax; } pc;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
    if (gl_VertexIndex == 2 && gl_InstanceIndex == 1) {
        if (pc.kind == 1u) result.v[0] = pc.ref.v[pc.index] + 1u; // EXPECT bda_oob
        if (pc.kind == 2u) result.v[0] = texelFetch(texels, int(pc.index)).x + 1u; // EXPECT texel_buffer_oob
        if (pc.kind == 3u) result.v[0] = small.v[pc.index] + 1u; // EXPECT buffer_oob
        if (pc.kind == 4u) { rayQueryEXT q; rayQueryInitializeEXT(q, tlas, gl_RayFlagsOpaqueEXT, 0xffu, vec3(0.0), pc.tmin, vec3(0.0, 0.0, 1.0), pc.tmax); while (rayQueryProceedEXT(q)) {} result.v[0] = 1u + uint(rayQueryGetIntersectionTypeEXT(q, true)); } // EXPECT ray_query
    }
}
