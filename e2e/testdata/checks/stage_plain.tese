#version 460
// tessellation evaluation: isolines
layout(isolines, equal_spacing) in;
void main() {
    gl_Position = gl_in[0].gl_Position;
}
