#version 460
#extension GL_EXT_nonuniform_qualifier : require
// tessellation evaluation: isolines, 2 lines of 1 segment per patch
layout(isolines, equal_spacing) in;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[4];
layout(set = 0, binding = 4, std430) buffer RData { uint v[]; } rdata[];
layout(push_constant) uniform PC { uint index; uint rindex; } pc;
void main() {
    gl_Position = gl_in[0].gl_Position;
    if (gl_PrimitiveID == 1 && gl_TessCoord.x == 1.0 && gl_TessCoord.y == 0.5) {
        result.v[0] = data[pc.index].v[0] + 1u; // EXPECT descriptor_index_oob
        result.v[1] = rdata[pc.rindex].v[0] + 1u; // EXPECT descriptor_uninitialized+descriptor_destroyed
    }
}
