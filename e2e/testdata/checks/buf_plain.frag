#version 450
// bufapp's fragment shader when the vertex shader does the accesses.
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0); }
