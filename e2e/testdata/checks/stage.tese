#version 460
// tessellation evaluation: isolines, 2 lines of 1 segment per patch
layout(isolines, equal_spacing) in;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[4];
layout(push_constant) uniform PC { uint index; } pc;
void main() {
    gl_Position = gl_in[0].gl_Position;
    if (gl_PrimitiveID == 1 && gl_TessCoord.x == 1.0 && gl_TessCoord.y == 0.5)
        result.v[0] = data[pc.index].v[0] + 1u;
}
