#version 460
// geometry: 2 points, 3 invocations each
layout(points, invocations = 3) in;
layout(points, max_vertices = 1) out;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[4];
layout(push_constant) uniform PC { uint index; } pc;
void main() {
    gl_Position = gl_in[0].gl_Position; gl_PrimitiveID = gl_PrimitiveIDIn;
    EmitVertex();
    if (gl_PrimitiveIDIn == 1 && gl_InvocationID == 2)
        result.v[0] = data[pc.index].v[0] + 1u;
}
