#version 450
// clamp(int, -1, 3): may be -1: checked
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    bufs[clamp(pc.s, -1, 3)].v[0] = 1u; // EXPECT descriptor_index_oob
}
