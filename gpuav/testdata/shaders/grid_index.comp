#version 450
// Facts in the dispatch's grid (TestActionFacts): which stores are bounded
// by the action's largest WorkgroupID, and which keep their check. One
// case per -D define; none: o.v[gl_GlobalInvocationID.x].
#if defined(SPEC) || defined(SPEC_WG)
layout(local_size_x_id = 0) in;
#elif defined(XY)
layout(local_size_x = 32, local_size_y = 2) in;
#else
layout(local_size_x = 64) in;
#endif

layout(set = 0, binding = 0, std430) buffer O { uint v[]; } o;
layout(set = 0, binding = 1, std430) buffer W { vec4 v[]; } w;
layout(set = 0, binding = 2, std430) buffer I { uint v[]; } idx;

void main() {
#if defined(XY)
    uint g = gl_GlobalInvocationID.x + 32u * gl_GlobalInvocationID.y;
    w.v[g] = vec4(1.0);
#elif defined(WG) || defined(SPEC_WG)
    o.v[gl_WorkGroupID.y * 2u + 1u] = 1u;
#elif defined(SPEC)
    o.v[gl_GlobalInvocationID.x] = 1u;
#elif defined(SHIFT)
    o.v[gl_GlobalInvocationID.x << 2u] = 1u;
#elif defined(MASKED)
    o.v[(gl_GlobalInvocationID.x & 15u) + gl_WorkGroupID.x] = 1u;
#elif defined(SELECT)
    uint g = gl_GlobalInvocationID.x;
    uint k = idx.v[0] != 0u ? g : gl_WorkGroupID.z + 3u;
    o.v[k] = 1u;
#elif defined(SQUARE)
    uint g = gl_GlobalInvocationID.x;
    o.v[g * g] = 1u;
#elif defined(MEMORY)
    o.v[idx.v[gl_GlobalInvocationID.x & 7u]] = 1u;
#elif defined(SIGNED)
    int i = int(gl_GlobalInvocationID.x) - 1;
    o.v[i] = 1u;
#elif defined(COUNTER)
    uint g = gl_GlobalInvocationID.x;
    for (uint j = 0u; j < idx.v[1]; j++) {
        g += 1u;
    }
    o.v[g] = 1u;
#else
    uint g = gl_GlobalInvocationID.x;
    o.v[g] = 1u;
#endif
}
