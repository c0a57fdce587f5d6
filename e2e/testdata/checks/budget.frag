#version 450
// budgetapp's fragment shader: the runaway loop of budget.comp in the one
// fragment of a point, bound data.n[2].
layout(set = 0, binding = 0, std430) buffer Data { uint n[4]; uint v[64]; } data;
layout(set = 0, binding = 1, std430) buffer Result { uint r[4]; } result;
layout(push_constant) uniform PC { uint kase; uint sentinel; } pc;
layout(location = 0) out vec4 color;
void main() {
    uint acc = 0u;
    for (uint i = 0u; i < data.n[2]; i++) { // EXPECT loop_budget
        if (data.v[i & 63u] == pc.sentinel) {
            break;
        }
        acc += 1u;
    }
    result.r[0] = acc;
    color = vec4(1.0);
}
