#version 450
// INSTRUMENT checks=loop_budget
// INSTRUMENT checks=loop_budget -Os
// INSTRUMENT checks=loop_budget env=vulkan1.3
// loop_budget (docs/decisions/loop-budget.md): a loop whose trip count the
// analyses prove within the budget (2^24 header runs per entry) gets
// nothing; any other gets an iteration counter in its header, which leaves
// the loop when the invocation starts the iteration past the budget. The
// golden shows the counter phi, the limit (a Private variable) and the
// report in the first INSTRUMENT's module.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std430) buffer Data { uint n; uint target; int sn; uint v[]; } data;
layout(push_constant) uniform PC { uint n; } pc;
void main() {
    uint acc = 0u;
    for (uint i = 0u; i < 16u; i++) { // EXPECT none
        acc += data.v[i];
    }
    for (uint i = 0u; i < data.n; i++) { // EXPECT loop_budget
        acc += data.v[i & 63u];
    }
    for (uint i = 0u; i < min(data.n, 1024u); i++) { // EXPECT none
        acc += data.v[i & 63u];
    }
    uint m = data.n & 255u;
    for (uint i = 0u; i < m; i += 4u) { // EXPECT none
        acc += data.v[i & 63u];
    }
    uint n = pc.n;
    if (n < 100u) {
        for (uint i = 0u; i < n; i++) { // EXPECT none
            acc += data.v[i & 63u];
        }
    }
    for (int i = 15; i >= 0; i--) { // EXPECT none
        acc += data.v[i];
    }
    for (int i = data.sn; i < 10; i++) { // EXPECT loop_budget
        acc += data.v[i & 63];
    }
    uint j = 0u;
    while (j != data.target) { // EXPECT loop_budget
        j += 2u;
    }
    for (uint i = 0u; i < 16u; i++) { // EXPECT none
        for (uint k = 0u; k < data.n; k++) { // EXPECT loop_budget
            acc += data.v[k & 63u];
            if (acc == 7u) {
                break;
            }
        }
    }
    for (uint i = 0u; i < 16u; i++) { // EXPECT loop_budget
        if (data.v[i] == 3u) {
            i += 2u;
        }
        acc += data.v[i];
    }
    for (uint i = 0u; i < (1u << 20); i++) { // EXPECT none
        acc += data.v[i & 63u];
    }
    for (uint i = 0u; i < 0xFFFFFFFFu; i++) { // EXPECT loop_budget
        acc += data.v[i & 63u];
    }
    for (uint s = data.n; s > 0u; s >>= 1) { // EXPECT none
        acc += data.v[s & 63u];
    }
    for (int s = data.sn; s > 0; s /= 3) { // EXPECT loop_budget
        acc += data.v[s & 63];
    }
    for (uint s = 1u; s < 4096u; s <<= 2) { // EXPECT none
        acc += data.v[s & 63u];
    }
    for (uint s = 0u; s < 4096u; s *= 2u) { // EXPECT loop_budget
        acc += data.v[s & 63u];
    }
    data.v[0] = acc + j;
}
