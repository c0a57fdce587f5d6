#version 450
// vertex: one point, no descriptor access (the fragment cases)
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0;
}
