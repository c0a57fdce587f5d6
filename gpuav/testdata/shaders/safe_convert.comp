#version 450
// int(x & 3u), uint(int & 3): no checks
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    bufs[int(pc.i & 3u)].v[0] = 1u; // EXPECT none
    bufs[uint(pc.s & 3)].v[1] = 2u; // EXPECT none
}
