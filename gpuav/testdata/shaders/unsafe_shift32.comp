#version 450
// x >> 32u is undefined (shift by the width): checked
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(set = 0, binding = 1) buffer C { uint v[]; } cbufs[3];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    bufs[pc.i >> 32u].v[0] = 1u; // EXPECT descriptor_index_oob
}
