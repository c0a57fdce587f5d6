#version 450
// refuseapp's vertex shader (its graphics case): one point.
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0; }
