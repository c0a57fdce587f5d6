#version 460
#extension GL_EXT_nonuniform_qualifier : require
// fragment: one point on a 1x1 target, pixel (0, 0)
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[4];
layout(set = 0, binding = 4, std430) buffer RData { uint v[]; } rdata[];
layout(push_constant) uniform PC { uint index; uint rindex; } pc;
void main() {
    color = vec4(1.0);
    if (gl_FragCoord.x == 0.5 && gl_FragCoord.y == 0.5) {
        result.v[0] = data[pc.index].v[0] + 1u; // EXPECT descriptor_index_oob
        result.v[1] = rdata[pc.rindex].v[0] + 1u; // EXPECT descriptor_uninitialized+descriptor_destroyed
    }
}
