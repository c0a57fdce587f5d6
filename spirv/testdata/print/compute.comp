#version 450
// A compute shader with a storage-buffer array indexed at run time, push
// constants, a loop, a switch and a few constants of several types.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Data {
    uint count;
    float values[];
} data[4];

layout(push_constant) uniform Push {
    uint which;
    float scale;
    int offset;
} pc;

shared float scratch[64];

float weight(uint i) {
    switch (i % 4u) {
    case 0u: return 0.5;
    case 1u: return -1.25;
    case 2u: return 1e-7;
    default: return 3.0;
    }
}

void main() {
    uint gid = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationIndex;
    scratch[lid] = float(gid) * pc.scale;
    barrier();
    float acc = 0.0;
    for (int i = 0; i < 8; i++) {
        acc += scratch[(lid + uint(i)) % 64u] * weight(uint(i + pc.offset));
    }
    if (gid < data[pc.which].count) {
        data[pc.which].values[gid] = acc;
    }
    atomicAdd(data[0].count, 1u);
}
