#version 450
// x < 4u holds on one of two paths into the access (the other: x >= 4u and j != 0): checked
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    uint x = pc.i;
    if (x >= 4u && pc.j == 0u) {
        return;
    }
    bufs[x].v[0] = 1u; // EXPECT descriptor_index_oob
}
