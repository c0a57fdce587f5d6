#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_nonuniform_qualifier : require
// closest hit: the triangle (or the box) at z = 5
layout(location = 0) rayPayloadInEXT uint payload;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[4];
layout(set = 0, binding = 4, std430) buffer RData { uint v[]; } rdata[];
layout(push_constant) uniform PC { uint index; uint rindex; } pc;
void main() {
    if (gl_LaunchIDEXT == uvec3(3, 1, 0)) {
        result.v[0] = data[pc.index].v[0] + 1u; // EXPECT descriptor_index_oob
        result.v[1] = rdata[pc.rindex].v[0] + 1u; // EXPECT descriptor_uninitialized+descriptor_destroyed
    }
}
