#version 450
// dispatch-heavy scene: one small dispatch (64 invocations) per draw of
// many per submit; each reads through a descriptor-indexed storage buffer
// (ins[pc.idx]) and writes its own 64 words of outp, so dispatches never race.
layout(local_size_x = 64) in;

layout(push_constant) uniform PC { uint idx; uint base; } pc;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } ins[4];
layout(set = 0, binding = 1) buffer Out { uint v[]; } outp;

void main() {
    uint i = gl_LocalInvocationID.x;
    outp.v[pc.base + i] = ins[pc.idx].v[i] * 3u + pc.idx;
}
