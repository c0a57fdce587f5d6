#version 450
// budgetapp's compute shader (loop_budget, docs/decisions/loop-budget.md):
// four invocations; invocation g runs the loop pc.kase names with the
// bound data.n[g] read from memory (10, 20, the app's --n, 30), so nothing
// proves its trip count and each loop gets an iteration counter. data.v
// never holds pc.sentinel: the break is never taken. result.r[g] counts
// the iterations that ran (an outer iteration adds 0x10000).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std430) buffer Data { uint n[4]; uint v[64]; } data;
layout(set = 0, binding = 1, std430) buffer Result { uint r[4]; } result;
layout(push_constant) uniform PC { uint kase; uint sentinel; } pc;
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint acc = 0u;
    if (pc.kase == 0u) {
        // runaway
        for (uint i = 0u; i < data.n[g]; i++) { // EXPECT loop_budget runaway
            if (data.v[i & 63u] == pc.sentinel) {
                break;
            }
            acc += 1u;
        }
    } else {
        // nested: both loops run away where the bound is large
        for (uint j = 0u; j < data.n[g]; j++) { // EXPECT loop_budget outer
            for (uint i = 0u; i < data.n[g]; i++) { // EXPECT loop_budget inner
                if (data.v[i & 63u] == pc.sentinel) {
                    break;
                }
                acc += 1u;
            }
            acc += 0x10000u;
        }
    }
    result.r[g] = acc;
}
