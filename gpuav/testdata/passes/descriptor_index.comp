#version 450
// The descriptor_index pass with the index check alone, on a sized array
// of storage buffers: a dynamic index is guarded, an index the analysis
// bounds (safe_index.go) and a constant in range are not, and a later
// access through the same descriptor and index value in the same block
// reuses the first guard (same_value.go).
// INSTRUMENT checks=descriptor_index_oob
// INSTRUMENT checks=descriptor_index_oob -Os
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[4];
layout(push_constant) uniform PC { uint i; uint j; } pc;

void main() {
    bufs[pc.i].v[0] = 1u;                 // EXPECT descriptor_index_oob
    bufs[pc.j & 3u].v[1] = 2u;            // EXPECT none
    bufs[2].v[2] = 3u;                    // EXPECT none
    bufs[pc.i].v[3] = bufs[pc.i].v[4];    // EXPECT reuse*2
    if (pc.j == 7u) {
        bufs[pc.i].v[5] = 4u;             // EXPECT descriptor_index_oob
    }
}
