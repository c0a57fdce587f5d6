#version 450
// a sized array smaller than the layout binding (4 elements, all written):
// an index past it reads a written descriptor, so executing it is safe
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[2];
layout(push_constant) uniform PC { uint index; } pc;
void main() {
    color = vec4(1.0);
    result.v[0] = data[pc.index].v[0] + 1u; // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed
}
