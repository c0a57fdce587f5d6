#version 450
// Two accesses in one block with different index ids: two reports.
// INSTRUMENT checks=descriptor_index_oob sized -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; } pc;

void main() {
    bufs[pc.i].v[0] = 1u; // EXPECT descriptor_index_oob
    bufs[pc.j].v[1] = 2u; // EXPECT descriptor_index_oob
}
