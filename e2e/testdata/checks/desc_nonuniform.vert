#version 450
#extension GL_EXT_nonuniform_qualifier : require
// the draw that hung on NVIDIA (descapp instance_nonuniform): one point per
// instance, 5 instances; instance 3 indexes a sized array of 3 with the
// pushed index (3), the others with 0, non-uniformly
layout(push_constant) uniform PC { uint index; } pc;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[3];
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
    uint idx = gl_InstanceIndex == 3 ? pc.index : 0u;
    atomicAdd(result.v[0], data[nonuniformEXT(idx)].v[0]);
}
