#version 450
// INSTRUMENT checks=all fast
// INSTRUMENT checks=all
// The select form of reads (docs/decisions/reads-as-selects.md); the
// golden is the fast variant. Both reads of bufs[k] have masked offsets,
// so the binding's fact covers element 0 at every offset they read: the
// fast variant reads through ok ? k : 0 and selects the values to zero
// where k failed; only the first read's report is behind a branch (the
// second reuses its result). The precise variant keeps the guards.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer B { uint v[]; } bufs[2];
layout(set = 0, binding = 1) buffer Out { uint o[]; };
layout(set = 0, binding = 2) readonly buffer Idx { uint k[]; } idx;
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 4u; i++) {
        uint k = idx.k[i & 255u]; // EXPECT buffer_oob@loop
        acc += bufs[k].v[g & 1023u] + bufs[k].v[i]; // EXPECT descriptor_index_oob@loop reuse buffer_oob@loop*2
    }
    o[g & 1023u] = acc; // EXPECT buffer_oob
}
