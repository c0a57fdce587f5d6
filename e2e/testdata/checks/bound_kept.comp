#version 450
// boundapp's compute shader for the kept_ cases: bound.comp with its
// local size a specialization constant (default 4), so that no grid fact
// bounds gl_GlobalInvocationID (docs/decisions/action-facts.md): the store
// at result.r[g] keeps its check in the fast variant, which then uses the
// layer's set at every action.
layout(local_size_x = 4, local_size_x_id = 0) in;
layout(set = 0, binding = 0, std430) readonly buffer Data { uint d[]; } data;
layout(set = 0, binding = 1, std430) buffer Result { uint r[]; } result;
layout(push_constant) uniform PC { uint n; } pc;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 16u; i++) {
        if (i >= pc.n) {
            break;
        }
        acc += data.d[i];
    }
    acc += data.d[(g * 5u) & 7u] * 1000u;
    result.r[g] = acc;
}
