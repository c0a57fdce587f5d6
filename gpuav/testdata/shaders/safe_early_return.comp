#version 450
// after if (x >= 4u) return; (compile with -Os): no check
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    uint x = pc.i;
    if (x >= 4u) {
        return;
    }
    bufs[x].v[0] = 1u; // EXPECT none
}
