#version 450
// The fragment shader of the vertex case.
layout(location = 0) out vec4 color;
void main() {
    color = vec4(1.0);
}
