#version 450
// sized array (PARTIALLY_BOUND in the layout)
// vertex: one point
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[8];
layout(push_constant) uniform PC { uint index; } pc;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
    result.v[0] = data[pc.index].v[0] + 1u; // EXPECT descriptor_uninitialized+descriptor_destroyed
}
