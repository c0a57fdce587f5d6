#version 450
// clamp(x, 0u, 3u): no check
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    bufs[clamp(pc.i, 0u, 3u)].v[0] = 1u; // EXPECT none
}
