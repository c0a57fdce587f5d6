#version 450
// loopapp's compute shader: four invocations each run the loop pc.kase
// names; a failed check inside a loop is reported once after the loop, with
// the last failure's values and how many times it failed
// (docs/decisions/loop-failures-folded.md). data[0] holds 100 + n, data[1]
// 200 + n (bound 80 bytes: words 0..19); a skipped read yields 0, so
// result.r[g] says which reads happened.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std430) buffer Data { uint v[]; } data[2];
layout(set = 0, binding = 1, std430) buffer Result { uint r[]; } result;
layout(push_constant) uniform PC { uint kase; uint n; } pc;
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint acc = 0u;
    if (pc.kase == 0u) {
        // flat: iterations 5..9 read data[2..6]
        for (uint i = 0u; i < 10u; i++) {
            uint k = i >= 5u ? i - 3u : 0u;
            acc += data[k].v[g]; // EXPECT descriptor_index_oob flat
        }
    } else if (pc.kase == 1u) {
        // buffer: iterations 5..9 read words 20 + g.. of data[1]'s 20
        for (uint i = 0u; i < 10u; i++) {
            acc += data[1].v[i * 4u + g]; // EXPECT buffer_oob buffer size=4
        }
    } else if (pc.kase == 2u) {
        // nested: (j, i) = (1, 2), (1, 3), (2, 2), (2, 3) read data[8..11]
        for (uint j = 0u; j < 3u; j++) {
            for (uint i = 0u; i < 4u; i++) {
                uint k = j >= 1u && i >= 2u ? 2u + j * 4u + i : 0u;
                acc += data[k].v[g]; // EXPECT descriptor_index_oob nested
            }
        }
    } else if (pc.kase == 3u) {
        // return: iterations 3..6 read data[3..6], then it returns
        for (uint i = 0u; i < 10u; i++) {
            uint k = i >= 3u ? i : 0u;
            acc += data[k].v[g]; // EXPECT descriptor_index_oob return
            if (i == 6u) {
                result.r[g] = acc;
                return;
            }
        }
    } else {
        // outside: no loop, one record per invocation
        acc = data[pc.n].v[g]; // EXPECT descriptor_index_oob outside
    }
    result.r[g] = acc;
}
