#version 450
// x & 3u: at most 3, array of 4: no check
// INSTRUMENT checks=descriptor_index_oob
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    bufs[pc.i & 3u].v[0] = 1u; // EXPECT none
}
