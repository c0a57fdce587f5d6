#version 450
// INSTRUMENT checks=descriptor_index_oob
// A loop that discards reports before the discard as well as after the
// loop (folded); a loop that calls a function that may discard is not
// folded (the count would be lost with the invocation): it reports in
// place (docs/decisions/loop-failures-folded.md).
layout(set = 0, binding = 0, std430) buffer B { uint v[]; } bufs[2];
layout(location = 0) flat in uint n;
layout(location = 0) out vec4 color;
void maybe_discard(uint x) {
    if (x == 3u) {
        discard;
    }
}
void main() {
    uint acc = 0u;
    for (uint i = 0u; i < n; i++) {
        acc += bufs[i].v[0]; // EXPECT descriptor_index_oob@loop
        if (acc == 7u) {
            discard;
        }
    }
    for (uint i = 0u; i < n; i++) {
        acc += bufs[i + 1u].v[0]; // EXPECT descriptor_index_oob
        maybe_discard(acc);
    }
    color = vec4(acc);
}
