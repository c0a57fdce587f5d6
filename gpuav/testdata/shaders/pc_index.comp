#version 450
// Facts in push-constant words (TestActionFacts): which accesses are
// bounded by the words the action pushed, and which keep their check. One
// case per -D define; none: o.v[pc.base + 1u].
layout(local_size_x = 64) in;

layout(push_constant) uniform PC { uint a; uint base; int i; uint arr[4]; } pc;
layout(set = 0, binding = 0, std430) buffer O { uint v[]; } o;
layout(set = 0, binding = 1, std430) buffer B { uint v[]; } bufs[4];
layout(set = 0, binding = 2) uniform sampler2D texs[4];
layout(set = 0, binding = 3, std430) buffer I { uint v[]; } idx;

void main() {
#if defined(LOCAL)
    o.v[pc.base + gl_LocalInvocationID.x] = 1u;
#elif defined(LID_ONLY)
    o.v[gl_LocalInvocationID.x] = 1u;
#elif defined(INDEX)
    bufs[pc.a + 1u].v[0] = 1u;
#elif defined(TEX)
    o.v[0] = uint(texture(texs[pc.a], vec2(0.5)).x);
#elif defined(SIGNED)
    o.v[pc.i] = 1u;
#elif defined(DYNAMIC)
    o.v[pc.arr[idx.v[0] & 3u]] = 1u;
#elif defined(MIXED)
    o.v[pc.base * 2u + gl_GlobalInvocationID.x] = 1u;
#else
    o.v[pc.base + 1u] = 1u;
#endif
}
