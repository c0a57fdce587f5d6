#version 450
// The vertex shader of the fragment case: one point at the centre.
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
