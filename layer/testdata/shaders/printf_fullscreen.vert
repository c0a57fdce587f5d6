#version 450
#extension GL_EXT_debug_printf : require
// fullscreen.vert, printing: every vertex prints its index.
void main()
{
    vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
    debugPrintfEXT("vertex %d", gl_VertexIndex);
}
