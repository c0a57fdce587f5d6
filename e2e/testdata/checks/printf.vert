#version 460
// Three points; each vertex prints its index and position.
#extension GL_EXT_debug_printf : require

void main() {
    vec4 p = vec4(-0.5 + 0.5 * float(gl_VertexIndex), 0.25, 0.0, 1.0);
    debugPrintfEXT("vertex %d instance %d at %1.3v4f", gl_VertexIndex, gl_InstanceIndex, p);
    gl_Position = p;
    gl_PointSize = 1.0;
}
