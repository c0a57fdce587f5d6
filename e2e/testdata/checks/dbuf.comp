#version 450
// descriptors from a descriptor buffer (dbufapp)
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[4];
layout(push_constant) uniform PC { uint index; } pc;
void main() {
    // compute: one invocation
    result.v[0] = data[pc.index].v[0] + 1u;
}
