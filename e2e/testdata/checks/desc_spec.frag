#version 450
// an array sized by a specialization constant (default 2; descapp
// specializes it to the layout count, 4)
layout(location = 0) out vec4 color;
layout(constant_id = 0) const uint N = 2u;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[N];
layout(push_constant) uniform PC { uint index; } pc;
void main() {
    color = vec4(1.0);
    result.v[0] = data[pc.index].v[0] + 1u;
}
