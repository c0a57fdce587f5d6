#version 450
#extension GL_EXT_buffer_reference : require
// bda_alignment without bda_oob: the guard tests the address's low bits
// only, and an atomic gets nothing.
// INSTRUMENT checks=bda_alignment env=vulkan1.2
// INSTRUMENT checks=bda_alignment env=vulkan1.1 int64
layout(local_size_x = 1) in;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Pairs { uvec2 p[]; };
layout(push_constant) uniform PC { Pairs pairs; uint n; } pc;

void main() {
    uvec2 x = pc.pairs.p[pc.n];              // EXPECT bda_alignment
    atomicAdd(pc.pairs.p[0].x, x.y);         // EXPECT none
}
