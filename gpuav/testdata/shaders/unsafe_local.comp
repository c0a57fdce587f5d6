#version 450
// a local variable with one unbounded store: checked
// INSTRUMENT checks=descriptor_index_oob
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    uint k = pc.i & 3u;
    if (pc.j > 1u) {
        k = pc.j;
    }
    bufs[k].v[0] = 1u; // EXPECT descriptor_index_oob
}
