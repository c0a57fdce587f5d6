#version 450
// refuseapp's second shader: r[base + g] = data[k].v[g] * 2.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std430) buffer Data { uint v[]; } data[2];
layout(set = 0, binding = 1, std430) buffer Result { uint r[]; } result;
layout(push_constant) uniform PC { uint k; uint base; } pc;
void main() {
    uint g = gl_GlobalInvocationID.x;
    result.r[pc.base + g] = data[pc.k].v[g] * 2u;
}
