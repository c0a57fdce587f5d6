#version 450
// The dispatch-heavy scene's shader (bench/scenes/shaders/dispatch.comp)
// with every access bounded, as facts about the push constants and the
// grid will make it: ins[pc.idx & 3u].v[i & 63u] and outp.v[(pc.base %
// 63937u) + i] (below 64,000 words, the scene's 1,000 dispatches of 64)
// read and write what the scene's do, so its result check holds.
layout(local_size_x = 64) in;

layout(push_constant) uniform PC { uint idx; uint base; } pc;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } ins[4];
layout(set = 0, binding = 1) buffer Out { uint v[]; } outp;

void main() {
    uint i = gl_LocalInvocationID.x & 63u;
    outp.v[(pc.base % 63937u) + i] = ins[pc.idx & 3u].v[i] * 3u + pc.idx;
}
