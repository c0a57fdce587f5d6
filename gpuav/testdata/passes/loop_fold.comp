#version 450
// INSTRUMENT checks=descriptor_index_oob
// INSTRUMENT checks=descriptor_index_oob fast
// Checks inside loops report once after the loop
// (docs/decisions/loop-failures-folded.md): each site in a loop keeps its
// count and its first failure's index in Function variables, and writes
// one record at the outermost loop's merge block, and before the return
// inside a loop; the golden shows the guards' failed sides updating the
// state instead of calling the report, and the reports after the loops.
// The site outside every loop reports in place.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std430) buffer Data { uint v[]; } data[2];
layout(set = 0, binding = 1, std430) buffer Result { uint r[]; } result;
layout(push_constant) uniform PC { uint kase; uint n; } pc;
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint acc = 0u;
    if (pc.kase == 0u) {
        for (uint i = 0u; i < 10u; i++) {
            uint k = i >= 5u ? i - 3u : 0u;
            acc += data[k].v[g]; // EXPECT descriptor_index_oob@loop
        }
    } else if (pc.kase == 1u) {
        for (uint j = 0u; j < 3u; j++) {
            for (uint i = 0u; i < 4u; i++) {
                uint k = j >= 1u && i >= 2u ? 2u + j * 4u + i : 0u;
                acc += data[k].v[g]; // EXPECT descriptor_index_oob@loop
            }
        }
    } else if (pc.kase == 2u) {
        for (uint i = 0u; i < 10u; i++) {
            uint k = i >= 3u ? i : 0u;
            acc += data[k].v[g]; // EXPECT descriptor_index_oob@loop
            if (i == 6u) {
                result.r[g] = acc;
                return;
            }
        }
    } else {
        acc = data[pc.n].v[g]; // EXPECT descriptor_index_oob
    }
    result.r[g] = acc;
}
