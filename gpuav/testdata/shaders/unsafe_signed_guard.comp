#version 450
// inside if (s < 4) with an int s that may be negative: checked
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    int s = pc.s;
    if (s < 4) {
        bufs[s].v[0] = 1u; // EXPECT descriptor_index_oob
    }
}
