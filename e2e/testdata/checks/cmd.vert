#version 450
// cmdapp's vertex shader: counts its invocations and sums the x of the
// attribute it fetched (the vertex buffer holds x = index + 1).
layout(location = 0) in vec4 pos;
layout(set = 0, binding = 0, std430) buffer Counts { uint vertices; uint sum; uint groups; uint rays; } counts;

void main() {
    atomicAdd(counts.vertices, 1u);
    atomicAdd(counts.sum, uint(pos.x)); // EXPECT vertex_fetch_oob
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
