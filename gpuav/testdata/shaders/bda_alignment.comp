#version 450
#extension GL_EXT_buffer_reference : require
// bda_alignment: loads and stores through buffer references carry the
// reference's alignment as their Aligned operand, and their address is
// checked against it in bda_oob's guard; atomics get no alignment check.
// INSTRUMENT checks=bda_oob,bda_alignment env=vulkan1.2
layout(local_size_x = 1) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vecs { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint w[]; };
layout(push_constant) uniform PC { Vecs vecs; Words words; uint n; } pc;

void main() {
    vec4 x = pc.vecs.v[pc.n];                // EXPECT bda_oob+bda_alignment
    pc.vecs.v[pc.n + 1u] = x * 2.0;          // EXPECT bda_oob+bda_alignment
    pc.words.w[0] = pc.words.w[pc.n];        // EXPECT bda_oob+bda_alignment*2
    atomicAdd(pc.words.w[1], 1u);            // EXPECT bda_oob
}
