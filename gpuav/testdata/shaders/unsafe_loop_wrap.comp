#version 450
// n += 2 while n < 0x7fffffff wraps to negative values: uint(n) >> 30u reaches 3: checked
// INSTRUMENT checks=descriptor_index_oob
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(set = 0, binding = 1) buffer C { uint v[]; } cbufs[3];
layout(push_constant) uniform PC { uint i; uint j; int s; int t; } pc;

void main() {
    for (int n = 0; n < 0x7fffffff; n += 2) {
        cbufs[uint(n) >> 30u].v[0] += 1u; // EXPECT descriptor_index_oob@loop reuse
    }
}
