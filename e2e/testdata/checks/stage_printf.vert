#version 460
#extension GL_EXT_debug_printf : require
// vertex: 4 points, 2 instances, at the origin; every vertex prints its
// index and instance
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
    debugPrintfEXT("vert vertex %d instance %d", gl_VertexIndex, gl_InstanceIndex);
}
