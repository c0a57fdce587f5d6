#version 450
// Bounds decided per binding (TestInstrumentBufferOOBFacts): the accesses
// in the loop whose offsets have a static bound run behind their binding's
// fact; the others keep one plain check each.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0, std140) uniform U { vec4 v[40]; } u;
layout(set = 0, binding = 1, std430) buffer B { uint x[]; } b[4];
layout(set = 0, binding = 2, std430) buffer O { vec4 o[]; } out_;

void main() {
    uint g = gl_GlobalInvocationID.x;
    vec4 s = u.v[0];                   // straight-line: a plain check
    for (uint i = 0u; i < 8u; i++) {
        s += u.v[i * 4u];              // bounded: bytes up to 8*4*16 + 16 = 528 (i's value bound, 8)
        b[i & 3u].x[i] += 1u;          // bounded: bytes up to 7*4 + 4 = 32 (a load and a store)
        s += u.v[g & 31u];             // bounded: bytes up to 31*16 + 16 = 512
        out_.o[g] = s;                 // g is any value: a plain check (the fast variant: the grid fact)
    }
}
