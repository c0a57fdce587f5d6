#version 450
// arrays sized by specialization constants: the compare takes the
// constant itself, so the driver's specialized length is the one checked;
// with element checks, the state lookup takes it too
// INSTRUMENT checks=descriptor_index_oob,descriptor_uninitialized sized
layout(local_size_x = 1) in;
layout(constant_id = 0) const uint N = 2u;
layout(constant_id = 1) const int M = 3;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[N];
layout(set = 0, binding = 1) buffer C { uint v[]; } cs[M];
layout(push_constant) uniform PC { uint i; } pc;
void main() {
    bufs[pc.i].v[0] = 1u; // EXPECT descriptor_index_oob+descriptor_uninitialized
    cs[pc.i + 1u].v[0] = 3u; // EXPECT descriptor_index_oob+descriptor_uninitialized
}
