#version 450
// The same index id in two blocks (-Os): two reports.
// INSTRUMENT checks=descriptor_index_oob sized -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; } pc;

void main() {
    uint k = pc.i;
    bufs[k].v[0] = 1u; // EXPECT descriptor_index_oob
    if (pc.j > 3u) {
        bufs[k].v[1] = 2u; // EXPECT descriptor_index_oob
    }
}
