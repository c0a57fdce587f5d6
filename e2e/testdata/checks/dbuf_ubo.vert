#version 450
// dbuf_ubo.comp's read in a vertex shader (dbufapp's ubo cases, --stage
// vertex): one point, whose vertex index 0 stores the sum
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 1, binding = 0, std430) readonly buffer Other { uint w; } other;
layout(set = 1, binding = 1, std140) uniform Params { uvec4 v[8]; } params;
layout(push_constant) uniform PC { uint index; uint loops; } pc;
void main() {
    uint acc = params.v[pc.index].x + other.w; // EXPECT buffer_oob params size=4
    result.v[gl_VertexIndex] = acc;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
