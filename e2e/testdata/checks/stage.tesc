#version 460
#extension GL_EXT_nonuniform_qualifier : require
// tessellation control: 3 patches of 1 point, 2 output points each
layout(vertices = 2) out;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[4];
layout(set = 0, binding = 4, std430) buffer RData { uint v[]; } rdata[];
layout(push_constant) uniform PC { uint index; uint rindex; } pc;
void main() {
    gl_TessLevelOuter[0] = 2.0; gl_TessLevelOuter[1] = 1.0;
    gl_out[gl_InvocationID].gl_Position = gl_in[0].gl_Position;
    if (gl_PrimitiveID == 2 && gl_InvocationID == 1) {
        result.v[0] = data[pc.index].v[0] + 1u; // EXPECT descriptor_index_oob
        result.v[1] = rdata[pc.rindex].v[0] + 1u; // EXPECT descriptor_uninitialized+descriptor_destroyed
    }
}
