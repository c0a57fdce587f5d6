#version 450
// a uniform texel buffer in a descriptor buffer (dbufapp's texel cases)
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 1, binding = 0) uniform samplerBuffer utb;
layout(push_constant) uniform PC { int fetch; } pc;
void main() {
    result.v[0] = uint(texelFetch(utb, pc.fetch).x) + 1000u; // EXPECT texel_buffer_oob fetch
}
