#version 450
// Every access bounded (TestReadsLayerSet): d[(g * 5) & 7] reads bytes
// below 32 and r[g & 3] writes bytes below 16, so the facts decide both
// and the fast variant's main calls nothing of the layer's set.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std430) readonly buffer Data { uint d[]; } data;
layout(set = 0, binding = 1, std430) buffer Result { uint r[]; } result;

void main() {
    uint g = gl_GlobalInvocationID.x;
    result.r[g & 3u] = data.d[(g * 5u) & 7u];
}
