#version 450
// The texel_buffer_oob pass: a uniform texel buffer fetch, a storage texel
// buffer load and store, and an atomic through a texel pointer (moved
// under the guard with its atomic), each checked against the texel count
// of the view bound (gpuav_check_texel).
// INSTRUMENT checks=texel_buffer_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform samplerBuffer utb;
layout(set = 0, binding = 1, r32f) uniform imageBuffer stb;
layout(set = 0, binding = 2, r32ui) uniform uimageBuffer atb;
layout(push_constant) uniform PC { int i; } pc;

void main() {
    vec4 a = texelFetch(utb, pc.i);       // EXPECT texel_buffer_oob
    vec4 b = imageLoad(stb, pc.i + 1);    // EXPECT texel_buffer_oob
    imageStore(stb, pc.i + 2, a + b);     // EXPECT texel_buffer_oob
    imageAtomicAdd(atb, pc.i, 1u);        // EXPECT texel_buffer_oob
}
