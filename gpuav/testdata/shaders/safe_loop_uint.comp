#version 450
// for (uint n = 0u; n < 4u; n++) with texs-like use after other code in the body: no check
// INSTRUMENT checks=descriptor_index_oob
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    uint acc = 0u;
    for (uint n = 0u; n < 4u; n++) {
        if (pc.j == n) {
            acc += 2u;
        }
        acc += bufs[n].v[0]; // EXPECT none
    }
    bufs[pc.i & 3u].v[1] = acc; // EXPECT none
}
