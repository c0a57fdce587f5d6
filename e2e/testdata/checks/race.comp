#version 450
#extension GL_KHR_shader_subgroup_shuffle : require
// raceapp's compute shader: two workgroups of 64 invocations run the case
// pc.kase names (docs/decisions/shared-memory-race.md). The hazard cases
// have two invocations (local 1 and 2) touch one shared scalar with no
// barrier between them, in program order, so that the kind is the same on
// every GPU; the clean cases synchronize with barrier(), atomics or
// nothing shared; the last two return from part of the workgroup before a
// barrier. result.r[g] is what invocation g computed.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Result { uint r[]; } result;
layout(push_constant) uniform PC { uint kase; } pc;
struct Pair { uint a; uint b; };
shared uint cells[64];
shared Pair pairs[8];
shared uint flag;
shared uint total;

void put(uint i, uint v) {
    cells[i] = v; // EXPECT shared_memory_race call
}

void main() {
    uint l = gl_LocalInvocationIndex;
    uint g = gl_GlobalInvocationID.x;
    uint v = 0u;
    cells[l] = l;
    if (l == 0u) {
        flag = 0u;
        total = 0u;
    }
    barrier();
    if (pc.kase == 0u) {
        // raw: 1 writes cells[5], then 2 reads it
        if (l == 1u) {
            cells[5] = 7u; // raw: first
        }
        if (l == 2u) {
            v = cells[5]; // EXPECT shared_memory_race raw
        }
    } else if (pc.kase == 1u) {
        // war: 2 reads cells[6], then 1 writes it
        if (l == 2u) {
            v = cells[6]; // war: first
        }
        if (l == 1u) {
            cells[6] = 9u; // EXPECT shared_memory_race war
        }
    } else if (pc.kase == 2u) {
        // waw: 1 writes cells[7], then 2 does
        if (l == 1u) {
            cells[7] = 1u; // waw: first
        }
        if (l == 2u) {
            cells[7] = 2u; // EXPECT shared_memory_race waw
        }
    } else if (pc.kase == 3u) {
        // same: every invocation writes 1 to flag
        flag = 1u; // EXPECT shared_memory_race same
    } else if (pc.kase == 4u) {
        // struct: 1 writes pairs[3].b, then 2 reads it
        if (l == 1u) {
            pairs[3].b = 5u; // struct: first
        }
        if (l == 2u) {
            v = pairs[3].b; // EXPECT shared_memory_race struct
        }
    } else if (pc.kase == 5u) {
        // call: 2 reads cells[9], then 1 writes it in put
        if (l == 2u) {
            v = cells[9]; // call: first
        }
        if (l == 1u) {
            put(9u, 3u);
        }
    } else if (pc.kase == 6u) {
        // reduce: a tree reduction with barrier() between the steps
        for (uint s = 32u; s > 0u; s >>= 1u) {
            if (l < s) {
                cells[l] += cells[l + s];
            }
            barrier();
        }
        v = cells[0];
    } else if (pc.kase == 7u) {
        // atomics: every invocation adds to one word
        atomicAdd(total, l);
        barrier();
        v = atomicAdd(total, 0u);
    } else if (pc.kase == 8u) {
        // prefix: an inclusive scan, barrier() between reads and writes
        for (uint off = 1u; off < 64u; off <<= 1u) {
            uint t = l >= off ? cells[l - off] : 0u;
            barrier();
            cells[l] += t;
            barrier();
        }
        v = cells[l];
    } else if (pc.kase == 9u) {
        // subgroup: neighbours exchange through the subgroup, each keeps
        // its own cell
        v = subgroupShuffleXor(cells[l], 1u);
        cells[l] = v;
        v = cells[l];
    } else if (pc.kase == 10u) {
        // barrier: 1 writes, barrier(), everyone reads
        if (l == 1u) {
            cells[11] = 40u;
        }
        barrier();
        v = cells[11];
    } else if (pc.kase == 11u) {
        // exit: the second half of the workgroup (whole subgroups on every
        // GPU of 32 lanes or fewer) returns before the barrier
        if (l >= 32u) {
            result.r[g] = 100u;
            return;
        }
        barrier(); // EXPECT barrier_divergence exit
        v = cells[l + 1u] + 1u;
    } else if (pc.kase == 12u) {
        // partial: the odd invocations (half of every subgroup) return
        // before the barrier
        if ((l & 1u) == 1u) {
            result.r[g] = 200u;
            return;
        }
        barrier(); // EXPECT barrier_divergence partial
        v = cells[l] + 2u;
    }
    result.r[g] = v;
}
