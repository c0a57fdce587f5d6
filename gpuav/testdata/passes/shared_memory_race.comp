#version 450
// The shared_memory_race pass: every load, store and atomic of a shared
// variable (through access chains, struct members, vector components and a
// function) calls gpuav_race_access before it; accesses of buffers and
// function variables get nothing; the entry point starts the shadow and
// each barrier() starts a new epoch.
// INSTRUMENT checks=shared_memory_race
layout(local_size_x = 64) in;
struct Pair { float a; uint b; };
shared float sums[64];
shared Pair pairs[16];
shared uvec2 vv;
shared uint counter;
layout(set = 0, binding = 0) buffer Out { float v[]; } outp;

void put(uint i, float x) {
    sums[i] = x;                                      // EXPECT shared_memory_race
}

void main() {
    uint i = gl_LocalInvocationIndex;
    float local = outp.v[i];                          // EXPECT none
    put(i, local);
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1u) {
        if (i < s) {
            sums[i] += sums[i + s];                   // EXPECT shared_memory_race*3
        }
        barrier();
    }
    pairs[i % 16u].b = i;                             // EXPECT shared_memory_race
    vv.y = i;                                         // EXPECT shared_memory_race
    atomicAdd(counter, 1u);                           // EXPECT shared_memory_race
    barrier();
    outp.v[i] = sums[0] + pairs[3].a + float(vv.x + counter); // EXPECT shared_memory_race*4
}
