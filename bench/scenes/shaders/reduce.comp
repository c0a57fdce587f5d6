#version 450
// The reduce scene (docs/BENCHMARKS.md): each workgroup of 256 invocations
// sums its 256 inputs with a shared-memory tree reduction, barrier() between
// the steps, and invocation 0 writes the sum (shared_memory_race and
// barrier_divergence check every access and barrier).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0, std430) readonly buffer In { float v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { float v[]; } outp;
// racy (the scene's --oob): the steps run without their barrier(), the
// negative control (shared-memory hazards).
layout(push_constant) uniform PC { uint racy; } pc;
shared float part[256];
void main() {
    uint l = gl_LocalInvocationIndex;
    part[l] = inp.v[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (l < s) {
            part[l] += part[l + s];
        }
        if (pc.racy == 0u) {
            barrier();
        }
    }
    if (l == 0u) {
        outp.v[gl_WorkGroupID.x] = part[0];
    }
}
