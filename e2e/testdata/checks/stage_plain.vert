#version 460
// vertex: points at the origin
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
}
