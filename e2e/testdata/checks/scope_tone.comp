#version 450
// scopeapp's "tonemap" shader: as scope_blur.comp's, into r[1].
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Data { uint v[]; } data;
layout(set = 0, binding = 1, std430) buffer Result { uint r[]; } result;
layout(push_constant) uniform PC { uint idx; } pc;
void main() {
    result.r[1] = data.v[pc.idx] * 2u; // EXPECT buffer_oob tonemap
}
