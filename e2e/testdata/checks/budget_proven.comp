#version 450
// budgetapp's proven loop: 2^20 iterations of a constant bound, which
// loop_budget proves within its default budget (2^24): no counter, no
// report. result.r[g] = 2^20 / 64 * (1 + ... + 64) = 34078720.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std430) buffer Data { uint n[4]; uint v[64]; } data;
layout(set = 0, binding = 1, std430) buffer Result { uint r[4]; } result;
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint acc = 0u;
    for (uint i = 0u; i < (1u << 20); i++) { // EXPECT none
        acc += data.v[(i + g) & 63u];
    }
    result.r[g] = acc;
}
