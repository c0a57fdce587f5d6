#version 460
// tessellation control: 2 lines of 1 segment per patch
layout(vertices = 2) out;
void main() {
    gl_TessLevelOuter[0] = 2.0; gl_TessLevelOuter[1] = 1.0;
    gl_out[gl_InvocationID].gl_Position = gl_in[0].gl_Position;
}
