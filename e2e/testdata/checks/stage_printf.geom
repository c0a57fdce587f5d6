#version 460
#extension GL_EXT_debug_printf : require
// geometry: 2 points, 3 invocations each; every invocation prints its
// input primitive and invocation
layout(points, invocations = 3) in;
layout(points, max_vertices = 1) out;
void main() {
    gl_Position = gl_in[0].gl_Position; gl_PrimitiveID = gl_PrimitiveIDIn;
    EmitVertex();
    debugPrintfEXT("geom primitive %d invocation %d", gl_PrimitiveIDIn, gl_InvocationID);
}
