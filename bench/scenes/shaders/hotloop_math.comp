#version 450
// hot-loop scene, variant math: the shader sanitizer's worst case. Every
// iteration divides (and takes the remainder) by a divisor read from a
// buffer (idx, 4 KB of 1..7: nothing proves it non-zero), and takes pow,
// min and max of a float read from a buffer (bufs[1], 1..8: nothing proves
// it non-negative or not NaN). The negative control (--oob) makes every
// 64th divisor 0.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer B { uint v[]; } bufs[2];
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 2) readonly buffer Idx { uint k[]; } idx;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    float f = 0.0;
    for (uint i = 0u; i < 256u; i++) {
        uint d = idx.k[(w + i) & 1023u];
        uint x = bufs[0].v[(g * 7u + i) & 1023u];
        acc += x / d + x % d;
        float a = uintBitsToFloat(bufs[1].v[(g + i * 13u) & 1023u]);
        f = max(min(pow(a, 2.0), 64.0), f);
    }
    o[g] = acc + uint(f + 0.5);
}
