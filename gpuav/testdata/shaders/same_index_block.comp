#version 450
// Two accesses with the same descriptor index id in one block (compiled
// with -Os so that k is one SSA id): the second branches on the first
// check's result, one report call.
// INSTRUMENT checks=descriptor_index_oob sized -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; } pc;

void main() {
    uint k = pc.i;
    bufs[k].v[0] = 1u; // EXPECT descriptor_index_oob
    bufs[k].v[1] = 2u; // EXPECT reuse
}
