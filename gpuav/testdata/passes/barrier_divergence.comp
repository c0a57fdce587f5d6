#version 450
// The barrier_divergence pass: every barrier() (OpControlBarrier of
// Workgroup execution scope) is checked; memoryBarrierShared() is no
// barrier of the workgroup. The entry
// point starts with a ballot of its subgroup and each return records the
// invocation's exit.
// INSTRUMENT checks=barrier_divergence env=vulkan1.1
// INSTRUMENT checks=barrier_divergence env=vulkan1.0
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; } outp;
shared uint cells[64];

void main() {
    uint l = gl_LocalInvocationIndex;
    if (l >= outp.v[0]) {
        return;
    }
    cells[l] = l;
    barrier();                                    // EXPECT barrier_divergence
    memoryBarrierShared();                        // EXPECT none
    for (uint i = 0u; i < 4u; i++) {
        cells[l] += cells[(l + 1u) % 64u];
        barrier();                                // EXPECT barrier_divergence
    }
    outp.v[l] = cells[l];
}
