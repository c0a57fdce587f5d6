#version 450
// The select form of reads (docs/decisions/reads-as-selects.md), case by
// case (TestSelectRead compiles it with -D<CASE>): by default the hot
// loop's index-from-memory reads, two of bufs[k] per iteration, whose
// offsets are masked (bounded), so the fast variant reads them through
// ok ? k : 0 and selects their values; each other case is a read, a store
// or an atomic that must keep the guard.
layout(local_size_x = 64) in;
struct S { uint a; uint b; };
#if defined(COHERENT)
#define QUAL coherent
#elif defined(VOLATILE)
#define QUAL volatile
#else
#define QUAL
#endif
#if defined(VECTOR)
layout(set = 0, binding = 0) QUAL buffer B { uvec4 v[]; } bufs[2];
#elif defined(UNIFORM)
layout(set = 0, binding = 0) uniform B { uvec4 v[256]; } bufs[2];
#elif defined(STRUCT)
layout(set = 0, binding = 0) QUAL buffer B { S v[]; } bufs[2];
#else
layout(set = 0, binding = 0) QUAL buffer B { uint v[]; } bufs[2];
#endif
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 2) readonly buffer Idx { uint k[]; } idx;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = idx.k[(w + i) & 1023u];
#if defined(STORE)
        bufs[k].v[(g * 7u + i) & 1023u] = acc;
#elif defined(ATOMIC)
        acc += atomicAdd(bufs[k].v[(g * 7u + i) & 1023u], 1u);
#elif defined(UNBOUNDED)
        acc += bufs[k].v[idx.k[i]];
#elif defined(VECTOR) || defined(UNIFORM)
        uvec4 x = bufs[k].v[(g * 7u + i) & 255u];
        acc += x.x + x.w;
#elif defined(STRUCT)
        S s = bufs[k].v[(g * 7u + i) & 255u];
        acc += s.a + s.b;
#else
        acc += bufs[k].v[(g * 7u + i) & 1023u] * 3u + bufs[k].v[(g + i * 13u) & 1023u];
#endif
    }
    o[g] = acc;
}
