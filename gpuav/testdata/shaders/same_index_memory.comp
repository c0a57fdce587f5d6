#version 450
// Indices read from memory the invocation can change (a storage buffer and
// a function variable) are not the same value twice: each access keeps its
// own guard and report: 4 reports, 4 compares.
// INSTRUMENT checks=descriptor_index_oob sized
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(set = 0, binding = 1) buffer I { uint k; } idx;
layout(push_constant) uniform PC { uint i; uint j; } pc;

void main() {
    bufs[idx.k].v[0] = 1u; // EXPECT descriptor_index_oob
    idx.k = pc.j;
    bufs[idx.k].v[1] = 2u; // EXPECT descriptor_index_oob
    uint k = pc.i;
    bufs[k].v[2] = 3u; // EXPECT descriptor_index_oob
    k = pc.j + 2u;
    bufs[k].v[3] = 4u; // EXPECT descriptor_index_oob
}
