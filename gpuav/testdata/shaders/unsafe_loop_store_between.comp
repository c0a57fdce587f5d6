#version 450
// a store to the loop counter between the loop test and the access: checked
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(set = 0, binding = 1) buffer C { uint v[]; } cbufs[3];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    for (uint n = 0u; n < 4u; n++) {
        if (pc.j == 1u) {
            n += pc.i;
        }
        bufs[n].v[0] += 1u; // EXPECT descriptor_index_oob@loop reuse
    }
}
