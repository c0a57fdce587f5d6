#version 450
// a local variable passed to a function (which may write it): checked
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;
void bump(inout uint x) { x = x + pc.j; }
void main() {
    uint k = pc.i & 3u;
    bump(k);
    bufs[k].v[0] = 1u; // EXPECT descriptor_index_oob
}
