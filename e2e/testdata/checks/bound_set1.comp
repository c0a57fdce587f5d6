#version 450
// boundapp's compute shader for --case other_set: bound.comp with data in
// set 1 (result stays in set 0), so that its binding fact reads set 1 only
// and a bind of set 0 alone does not test it again (layer/variants.c);
// the reads are bound.comp's: data.d[i] for i < pc.n in a loop of at most
// 16 iterations (bytes up to 64) and data.d[(g * 5) & 7] once.
layout(local_size_x = 4) in;
layout(set = 1, binding = 0, std430) readonly buffer Data { uint d[]; } data;
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
