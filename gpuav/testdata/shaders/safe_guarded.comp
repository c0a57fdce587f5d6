#version 450
// inside if (x < 4u) (compile with -Os: one load of x): no check
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    uint x = pc.i;
    if (x < 4u) {
        bufs[x].v[0] = 1u; // EXPECT none
    }
}
