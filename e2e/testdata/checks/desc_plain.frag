#version 450
// fragment: no descriptor access (the vertex cases)
layout(location = 0) out vec4 color;
void main() {
    color = vec4(1.0);
}
