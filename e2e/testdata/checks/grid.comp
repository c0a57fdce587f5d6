#version 450
// gridapp's compute shader: a store at the invocation's own index, which
// gpuav-dbg bounds by the dispatch's grid (docs/decisions/action-facts.md):
// with 4 invocations a workgroup, o.v[g] ends at byte 16 * (largest
// WorkgroupID.x) + 16.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std430) writeonly buffer O { uint v[]; } o;

void main() {
    uint g = gl_GlobalInvocationID.x;
    o.v[g] = g + 1u;
}
