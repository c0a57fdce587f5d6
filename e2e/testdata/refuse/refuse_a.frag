#version 450
// refuseapp's fragment shader (its graphics case): one point writes
// r[base] = data[k].v[0] + 1.
layout(set = 0, binding = 0, std430) buffer Data { uint v[]; } data[2];
layout(set = 0, binding = 1, std430) buffer Result { uint r[]; } result;
layout(push_constant) uniform PC { uint k; uint base; } pc;
layout(location = 0) out vec4 color;
void main() {
    result.r[pc.base] = data[pc.k].v[0] + 1u;
    color = vec4(1.0);
}
