#version 450
// bufapp's vertex shader when the fragment shader does the accesses: one point.
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0; }
