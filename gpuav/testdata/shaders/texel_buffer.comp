#version 450
// texel_buffer_oob test shader: a uniform texel buffer fetch, a storage
// texel buffer load and store, an atomic through a texel pointer, and
// fetches from a sized and a runtime array of texel buffers.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform samplerBuffer utb;
layout(set = 0, binding = 1, r32f) uniform imageBuffer stb;
layout(set = 0, binding = 2, r32ui) uniform uimageBuffer atb;
layout(set = 1, binding = 0) uniform textureBuffer arr[4];
layout(set = 1, binding = 1) uniform utextureBuffer rt[];
layout(set = 0, binding = 3, std430) buffer Out { vec4 v; uint u; int i; uint k; } o;
void main() {
    int i = o.i;
    vec4 a = texelFetch(utb, i);
    vec4 b = imageLoad(stb, i + 1);
    imageStore(stb, i + 2, a + b);
    uint old = imageAtomicAdd(atb, int(o.k), 1u);
    vec4 c = texelFetch(arr[o.k & 3u], i);
    uvec4 d = texelFetch(rt[o.k], 7);
    o.v = a + b + c + vec4(d);
    o.u = old;
}
