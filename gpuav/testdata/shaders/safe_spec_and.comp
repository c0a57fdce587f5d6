#version 450
// K & 3u is at most 3 whatever K is: no check
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;
layout(constant_id = 0) const uint K = 1u;
void main() {
    bufs[K & 3u].v[0] = 1u; // EXPECT none
}
