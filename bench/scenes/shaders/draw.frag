#version 450
// draw-heavy scene: a textured fragment shader; tex[pc.tex] is the
// descriptor-indexed access (pc.tex is draw % 4, or 4 in the negative control).
layout(push_constant) uniform PC { uint tex; } pc;
layout(set = 0, binding = 0) uniform sampler2D tex[4];
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 frag;

void main() {
    frag = color * texture(tex[pc.tex], uv);
}
