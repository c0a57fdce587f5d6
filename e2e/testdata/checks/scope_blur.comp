#version 450
// scopeapp's "blur" shader: one invocation reads word pc.idx (8) of data,
// bound to 16 bytes (4 words) of a 256-byte buffer of 7s.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Data { uint v[]; } data;
layout(set = 0, binding = 1, std430) buffer Result { uint r[]; } result;
layout(push_constant) uniform PC { uint idx; } pc;
void main() {
    result.r[0] = data.v[pc.idx] + 1u; // EXPECT buffer_oob blur
}
