#version 450
// One triangle that covers the whole framebuffer, with no vertex buffer:
// vertex 0 -> (-1,-1), vertex 1 -> (3,-1), vertex 2 -> (-1,3) in clip space.
layout(location = 0) out vec2 texcoord;

void main() {
    vec2 uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    texcoord = uv;
    gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0);
}
