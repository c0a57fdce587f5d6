#version 450
#extension GL_EXT_buffer_reference : require
// Buffer-reference loads, stores and atomics: every one gets a bda_oob
// check. The module declares no Int64.
layout(local_size_x = 1) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Data { uint v[]; };
struct S { vec3 a; float b; mat3 m; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer SBuf { S s; Data next; };
layout(push_constant) uniform PC { Data d; SBuf sb; uint n; } pc;
void main() {
    pc.d.v[pc.n] = pc.d.v[pc.n + 1u] + 1u;      // load 4, store 4
    atomicAdd(pc.d.v[0], 1u);                   // atomic 4
    S s = pc.sb.s;                              // struct load 64
    pc.sb.next.v[2] = uint(s.m[1].y + s.a.x);   // pointer load 8, store 4
}
