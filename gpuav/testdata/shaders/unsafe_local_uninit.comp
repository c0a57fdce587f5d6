#version 450
// a local variable read where it may not have been written: checked
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    uint k;
    if (pc.j > 1u) {
        k = 1u;
    }
    bufs[k].v[0] = 1u; // EXPECT descriptor_index_oob
}
