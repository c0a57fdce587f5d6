#version 450
// The same index read again for each access (no -Os: each statement loads
// pc.i, and pc.i + 1u, anew): push-constant values are the same all
// through an invocation, so each (array, index value) gets one guard and
// one report: 2 reports, 2 compares.
// INSTRUMENT checks=descriptor_index_oob sized
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; } pc;

void main() {
    bufs[pc.i].v[0] = 1u; // EXPECT descriptor_index_oob
    bufs[pc.i].v[1] = 2u; // EXPECT reuse
    bufs[pc.i + 1u].v[2] = 3u; // EXPECT descriptor_index_oob
    bufs[pc.i + 1u].v[3] = 4u; // EXPECT reuse
}
