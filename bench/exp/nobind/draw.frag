#version 450
// The draw-heavy scene's fragment shader (bench/scenes/shaders/draw.frag)
// with its descriptor index masked into range, as a fact about the push
// constant will decide it: tex[pc.tex & 3u] samples what tex[pc.tex] does.
layout(push_constant) uniform PC { uint tex; } pc;
layout(set = 0, binding = 0) uniform sampler2D tex[4];
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 frag;

void main() {
    frag = color * texture(tex[pc.tex & 3u], uv);
}
