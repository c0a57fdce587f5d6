#version 450
// Element checks (descriptor_uninitialized/destroyed) on a plain binding
// and a sized array (TestElementChecks): tex twice in one block shares one
// check; texs[1] and texs[2] are two elements; texs[pc.i] also compares
// its index; u is a plain uniform buffer.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2D texs[3];
layout(set = 1, binding = 2) uniform U { vec4 c; } u;
layout(push_constant) uniform PC { uint i; } pc;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    vec4 s = texture(tex, uv) + texture(tex, uv * 0.5);
    s += texture(texs[1], uv) + texture(texs[2], uv);
    s += texture(texs[pc.i], uv);
    color = s * u.c;
}
