#version 460
#extension GL_EXT_nonuniform_qualifier : require
// vertex: 4 points, 2 instances, at the origin
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[4];
layout(set = 0, binding = 4, std430) buffer RData { uint v[]; } rdata[];
layout(push_constant) uniform PC { uint index; uint rindex; } pc;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
    if (gl_VertexIndex == 2 && gl_InstanceIndex == 1) {
        result.v[0] = data[pc.index].v[0] + 1u; // EXPECT descriptor_index_oob
        result.v[1] = rdata[pc.rindex].v[0] + 1u; // EXPECT descriptor_uninitialized+descriptor_destroyed
    }
}
