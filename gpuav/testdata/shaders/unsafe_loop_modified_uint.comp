#version 450
// an unsigned loop counter the body changes before the access: checked
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    for (uint n = 0u; n < 4u; n++) {
        n += pc.j;
        bufs[n].v[0] += 1u; // EXPECT descriptor_index_oob@loop reuse
    }
}
