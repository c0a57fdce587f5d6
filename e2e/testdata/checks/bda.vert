#version 450
#extension GL_EXT_buffer_reference : require
// vertex: one point
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Data { uint v[]; };
layout(push_constant) uniform PC { Data data; Data result; uint index; uint write; } pc;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
    if (pc.write != 0u) {
        pc.data.v[pc.index] = 7u; // EXPECT bda_oob+bda_alignment write size=4
    } else {
        pc.result.v[0] = pc.data.v[pc.index] + 1u; // EXPECT bda_oob+bda_alignment read size=4
    }
}
