#version 450
// loop counter up to the length (n <= 4): checked
// INSTRUMENT checks=descriptor_index_oob
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    for (int n = 0; n <= 4; n++) {
        if (uint(n) == pc.j) {
            break;
        }
        bufs[n].v[0] += 1u; // EXPECT descriptor_index_oob@loop reuse
    }
}
