#version 450
// Indices read from memory the invocation can change (a storage buffer and
// a function variable) are not the same value twice: each access keeps its
// own guard and report (TestSameIndexOneReport): 4 reports, 4 compares.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(set = 0, binding = 1) buffer I { uint k; } idx;
layout(push_constant) uniform PC { uint i; uint j; } pc;

void main() {
    bufs[idx.k].v[0] = 1u;
    idx.k = pc.j;
    bufs[idx.k].v[1] = 2u;
    uint k = pc.i;
    bufs[k].v[2] = 3u;
    k = pc.j + 2u;
    bufs[k].v[3] = 4u;
}
