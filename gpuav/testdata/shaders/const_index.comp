#version 450
// INSTRUMENT checks=all,-buffer_oob sized env=vulkan1.1
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[2];
layout(push_constant) uniform PC { uint i; } pc;

void main() {
    bufs[1].v[0] = 1u;     // constant, in bounds: element checks only // EXPECT descriptor_uninitialized+descriptor_destroyed
    bufs[pc.i].v[0] = 2u;  // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed
}
