#version 450
// Unoptimized code reads a local variable again for every access
// (bufs[k] twice is two OpLoads of k): two loads of one variable with no
// store to it between them in one block hold the same value, so the second
// access reuses the first guard. A store to k or a new block starts over.
// A call copies m in and out through a temporary of its own, so the loads
// after the call's store back read one value: 4 reports, 4 compares.
// (Variables written through access chains or passed to calls are never
// numbered: TestLocalLoads, on hand-written SPIR-V.)
// INSTRUMENT checks=descriptor_index_oob sized
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(set = 0, binding = 1) readonly buffer I { uint k[]; } idx;

void bump(inout uint x) {
    x += idx.k[2];
}

void main() {
    uint k = idx.k[0];
    bufs[k].v[0] = 1u; // EXPECT descriptor_index_oob
    uint a = bufs[k].v[1]; // EXPECT reuse
    k = idx.k[1];
    bufs[k].v[2] = a; // EXPECT descriptor_index_oob
    if (a > 3u) {
        bufs[k].v[3] = 4u; // EXPECT descriptor_index_oob
    }
    uint m = idx.k[3];
    bump(m);
    bufs[m].v[4] = 5u; // EXPECT descriptor_index_oob
    bufs[m].v[5] = 6u; // EXPECT reuse
}
