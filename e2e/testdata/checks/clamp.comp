#version 450
// clampapp's compute shader: one invocation does the access pc.kase names,
// at the indices the app pushes, and stores what it read in result.r[0].
// Each access is past its binding's bound range (the app binds small
// ranges), so that --on-error clamp moves it inside: every dynamic index of
// the access chain in turn, outermost first.
layout(local_size_x = 1) in;
struct S { uint a; uvec2 b; uint c; }; // std430: a 0, b 8, c 16; stride 24
layout(set = 0, binding = 0, std430) buffer Counters { uint c[]; } counters;
layout(set = 0, binding = 1, std430) buffer Vecs { uvec4 q[]; } vecs;
layout(set = 0, binding = 2, std140) uniform Mats { mat4 m[2]; } mats;
layout(set = 0, binding = 3, std430) buffer Structs { uint n; S s[]; } structs;
layout(set = 0, binding = 4, std140) uniform Small { uvec4 v[4]; } small;
layout(set = 0, binding = 5, std430) buffer Result { uint r[4]; } result;
layout(push_constant) uniform PC { uint kase; uint i; uint j; uint k; } pc;
void main() {
    uint r = 0u;
    if (pc.kase == 0u) {
        r = atomicAdd(counters.c[pc.i], 5u); // EXPECT buffer_oob atomic size=4
    } else if (pc.kase == 1u) {
        r = vecs.q[pc.i][pc.j]; // EXPECT buffer_oob vector size=4
    } else if (pc.kase == 2u) {
        r = uint(mats.m[pc.i][pc.j][pc.k]); // EXPECT buffer_oob matrix size=4
    } else if (pc.kase == 3u) {
        structs.s[pc.i].b.y = 7u; // EXPECT buffer_oob member size=4
    } else {
        uvec4 w = small.v[pc.i]; // EXPECT buffer_oob small size=16
        r = w.x + w.w;
    }
    result.r[0] = r;
}
