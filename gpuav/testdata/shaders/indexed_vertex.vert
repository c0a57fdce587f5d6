#version 450
// INSTRUMENT checks=all,-buffer_oob sized env=vulkan1.1
layout(set = 0, binding = 0) uniform U { vec4 offset; } ubos[4];
layout(set = 0, binding = 1) buffer S { vec4 pos[]; } ssbos[3];
layout(push_constant) uniform PC { uint u; uint s; } pc;

void main() {
    vec4 p = ssbos[pc.s].pos[gl_VertexIndex]; // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed
    gl_Position = p + ubos[pc.u].offset; // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed
}
