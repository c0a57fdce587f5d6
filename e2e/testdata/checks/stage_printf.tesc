#version 460
#extension GL_EXT_debug_printf : require
// tessellation control: 3 patches of 1 point, 2 output points each; every
// invocation prints its primitive and invocation
layout(vertices = 2) out;
void main() {
    gl_TessLevelOuter[0] = 2.0; gl_TessLevelOuter[1] = 1.0;
    gl_out[gl_InvocationID].gl_Position = gl_in[0].gl_Position;
    debugPrintfEXT("tesc primitive %d invocation %d", gl_PrimitiveID, gl_InvocationID);
}
