#version 450
// boundapp's fragment shader: bound.comp's loop in the one fragment of a
// point, for the graphics pipelines' variants: data.d[i] for i below pc.n
// in a loop of at most 16 iterations (bytes up to 64).
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0, std430) readonly buffer Data { uint d[]; } data;
layout(set = 0, binding = 1, std430) buffer Result { uint r[]; } result;
layout(push_constant) uniform PC { uint n; } pc;

void main() {
    uint acc = 0u;
    for (uint i = 0u; i < 16u; i++) {
        if (i >= pc.n) {
            break;
        }
        acc += data.d[i];
    }
    result.r[0] = acc;
    color = vec4(1.0);
}
