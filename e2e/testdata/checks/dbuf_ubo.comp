#version 450
// a uniform buffer in a descriptor buffer, read at the index the app pushes
// (dbufapp's ubo cases), and `loops` more in-range reads per invocation
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 1, binding = 0, std430) readonly buffer Other { uint w; } other;
layout(set = 1, binding = 1, std140) uniform Params { uvec4 v[8]; } params;
layout(push_constant) uniform PC { uint index; uint loops; } pc;
void main() {
    uint acc = params.v[pc.index].x + other.w; // EXPECT buffer_oob params size=4
    for (uint i = 0u; i < pc.loops; i++) {
        acc += params.v[i & 3u].y;
    }
    result.v[gl_GlobalInvocationID.x] = acc;
}
