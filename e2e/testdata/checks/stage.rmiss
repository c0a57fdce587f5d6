#version 460
#extension GL_EXT_ray_tracing : require
// miss: the instance is masked out
layout(location = 0) rayPayloadInEXT uint payload;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[4];
layout(push_constant) uniform PC { uint index; } pc;
void main() {
    if (gl_LaunchIDEXT == uvec3(3, 1, 0))
        result.v[0] = data[pc.index].v[0] + 1u;
}
