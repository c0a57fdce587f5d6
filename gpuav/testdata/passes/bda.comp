#version 450
#extension GL_EXT_buffer_reference : require
// The bda pass: a load, a store and an atomic through buffer references,
// each checked against the address table (gpuav_bda_check). SPIR-V 1.5
// reads a pointer's address with OpBitcast.
// INSTRUMENT checks=bda_oob env=vulkan1.2
layout(local_size_x = 1) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Data { uint v[]; };
layout(push_constant) uniform PC { Data d; uint n; } pc;

void main() {
    uint x = pc.d.v[pc.n];                // EXPECT bda_oob
    pc.d.v[pc.n + 1u] = x + 1u;           // EXPECT bda_oob
    atomicAdd(pc.d.v[0], 1u);             // EXPECT bda_oob
}
