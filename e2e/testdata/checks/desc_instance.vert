#version 450
// an indexed draw of 4 instances indexes a sized array of 3 with
// gl_InstanceIndex (descapp instance_oob)
// vertex: one point per instance
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[3];
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
    atomicAdd(result.v[0], data[gl_InstanceIndex].v[0]);
}
