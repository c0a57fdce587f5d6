#version 450
// gridapp's push-constant shader: a descriptor index from a push constant,
// which gpuav-dbg decides at each action (docs/decisions/action-facts.md):
// bufs[pc.a + 1u] is in range while pc.a < 3.
layout(local_size_x = 1) in;
layout(push_constant) uniform PC { uint a; } pc;
layout(set = 0, binding = 0, std430) buffer B { uint v[]; } bufs[4];

void main() {
    bufs[pc.a + 1u].v[0] = pc.a + 10u;
}
