#version 450
// boundapp's compute shader: buffer reads whose offsets have a static
// bound, the ones gpuav-dbg decides once per binding
// (docs/decisions/cheap-checks.md). Four invocations each read data.d[i]
// for i below pc.n in a loop of at most 16 iterations (bytes up to 64) and
// data.d[(g * 5) & 7] once (bytes up to 32), and store the sum.
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
    result.r[g] = acc;
}
