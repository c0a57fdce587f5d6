#version 450
// Invalid for Vulkan (arrays of arrays of descriptors; spirv-val
// rejects it): its own .glsl name keeps it out of the instrument corpus.
// Compiled with -S comp.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[3][4];
layout(push_constant) uniform PC { uint i; int j; } pc;

void main() {
    bufs[2][3].v[0] = 1u;       // constant, flattened 11 < 12: no check
    bufs[pc.i][pc.j].v[0] = 2u; // dynamic: checked as i*4 + j against 12
}
