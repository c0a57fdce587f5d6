#version 450
// INSTRUMENT checks=all,-buffer_oob sized env=vulkan1.0
// INSTRUMENT checks=all,-buffer_oob sized env=vulkan1.1
// INSTRUMENT checks=all,-buffer_oob sized env=vulkan1.2
// INSTRUMENT checks=all,-buffer_oob sized env=vulkan1.3
layout(local_size_x = 4) in;

layout(push_constant) uniform PC { uint idx; } pc;
layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];

void main() {
    uint i = gl_GlobalInvocationID.x;
    outs[pc.idx].v[i] = i * 3u; // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed
}
