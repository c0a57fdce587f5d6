#version 450
// int % 4: the dividend may be negative: checked
// INSTRUMENT checks=descriptor_index_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    bufs[pc.s % 4].v[0] = 1u; // EXPECT descriptor_index_oob
}
