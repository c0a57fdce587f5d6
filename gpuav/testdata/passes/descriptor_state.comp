#version 450
#extension GL_EXT_nonuniform_qualifier : require
// The descriptor_index pass with the element checks: a runtime array
// checks its index and the element's state through the descriptor state
// (gpuav_check_descriptor); with sized, a sized array and a plain binding
// check the element's state through the hoisted per-binding lookup
// (gpuav_desc_binding in the entry block, gpuav_desc_element at the
// access), the sized array's index too unless it is provably in range.
// INSTRUMENT checks=descriptor_index_oob,descriptor_uninitialized,descriptor_destroyed sized
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer R { uint v[]; } rt[];
layout(set = 0, binding = 1) buffer S { uint v[]; } sized[4];
layout(set = 0, binding = 2) buffer P { uint v[]; } plain;
layout(push_constant) uniform PC { uint i; uint j; } pc;

void main() {
    rt[nonuniformEXT(pc.i)].v[0] = 1u;    // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed
    sized[pc.j].v[0] = 2u;                // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed
    sized[pc.j & 3u].v[1] = 3u;           // EXPECT descriptor_uninitialized+descriptor_destroyed
    plain.v[0] = 4u;                      // EXPECT descriptor_uninitialized+descriptor_destroyed
}
