#version 450
// budgetapp's vertex shader: the runaway loop of budget.comp in the one
// vertex of a point, bound data.n[2].
layout(set = 0, binding = 0, std430) buffer Data { uint n[4]; uint v[64]; } data;
layout(set = 0, binding = 1, std430) buffer Result { uint r[4]; } result;
layout(push_constant) uniform PC { uint kase; uint sentinel; } pc;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
    uint acc = 0u;
    for (uint i = 0u; i < data.n[2]; i++) { // EXPECT loop_budget
        if (data.v[i & 63u] == pc.sentinel) {
            break;
        }
        acc += 1u;
    }
    result.r[0] = acc;
}
