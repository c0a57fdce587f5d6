#version 450
// bufapp's vert shader: the same accesses as buf.comp.
layout(set = 0, binding = 0, std140) uniform Params { uvec4 v[4]; } params;
layout(set = 0, binding = 1, std430) buffer Data { uint d[]; } data;
layout(set = 0, binding = 2, std430) buffer Result { uint r[4]; } result;
layout(set = 0, binding = 3, std430) buffer Tail { uint count; uvec2 t[]; } tail;
layout(push_constant) uniform PC { uint ui; uint si; uint ti; uint write; } pc;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
    uint sum = params.v[pc.ui].x + tail.t[pc.ti].y; // EXPECT buffer_oob params tail size=4
    if (pc.write != 0u) {
        data.d[pc.si] = 7u; // EXPECT buffer_oob write size=4
    } else {
        sum += data.d[pc.si]; // EXPECT buffer_oob read size=4
    }
    result.r[0] = sum;
}
