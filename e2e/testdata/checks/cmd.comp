#version 450
// cmdapp's compute shader: counts its workgroups.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Counts { uint vertices; uint sum; uint groups; uint rays; } counts;

void main() {
    atomicAdd(counts.groups, 1u);
}
