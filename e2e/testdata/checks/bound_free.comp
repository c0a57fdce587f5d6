#version 450
// boundapp's compute shader for the free_ cases: bound.comp with the store
// at result.r[g & 3u] (bytes below 16), so that every access has a static
// bound: when the facts hold, the fast variant has no check left and uses
// nothing of the layer's set, whose bind the layer then leaves out
// (docs/decisions/no-bind-for-check-free-variants.md).
layout(local_size_x = 4) in;
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
    result.r[g & 3u] = acc;
}
