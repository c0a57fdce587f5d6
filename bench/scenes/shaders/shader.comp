#version 450
// shader-heavy scene: every invocation runs pc.loops iterations, each with one
// descriptor-indexed SSBO read (bufs[k]) and one descriptor-indexed sampled
// image read (texs[k ^ 1]). pc.bias is 0; the harness's negative control sets
// it to 4 so every index is out of bounds.
layout(local_size_x = 64) in;

layout(push_constant) uniform PC { uint loops; uint bias; } pc;
layout(set = 0, binding = 0) readonly buffer B { vec4 v[]; } bufs[4];
layout(set = 0, binding = 1) uniform sampler2D texs[4];
layout(set = 0, binding = 2) buffer Out { vec4 o[]; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    vec4 acc = vec4(0.0);
    for (uint i = 0u; i < pc.loops; i++) {
        uint k = ((g + i) & 3u) + pc.bias;
        acc += bufs[k].v[(g * 7u + i) & 4095u];
        vec2 uv = (vec2(float(i & 63u), float(g & 63u)) + 0.5) / 64.0;
        acc += textureLod(texs[k ^ 1u], uv, 0.0);
    }
    o[g] = acc;
}
