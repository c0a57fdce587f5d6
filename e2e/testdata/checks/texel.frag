#version 450
// texelapp's frag shader: the same accesses as texel.comp.
// (these lines keep the line numbers those of texel.comp)
//
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform samplerBuffer utb;
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer stb;
layout(set = 0, binding = 2, std430) buffer Result { uint r[4]; } result;
layout(push_constant) uniform PC { int fetch; int write; int atom; uint store; } pc;
void main() {
    uint v = uint(texelFetch(utb, pc.fetch).x); // EXPECT texel_buffer_oob fetch
    if (pc.store != 0u) {
        imageStore(stb, pc.write, uvec4(7u)); // EXPECT texel_buffer_oob write
    }
    uint old = imageAtomicAdd(stb, pc.atom, 5u); // EXPECT texel_buffer_oob atomic
    result.r[0] = v;
    result.r[1] = old;
    color = vec4(1.0);
}
