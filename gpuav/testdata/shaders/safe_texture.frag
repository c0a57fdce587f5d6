#version 450
// A sampler array indexed with x & 3u (no check) and with x & 7u (checked).
// INSTRUMENT checks=descriptor_index_oob
layout(set = 0, binding = 1) uniform sampler2D texs[4];
layout(push_constant) uniform PC { uint i; uint j; } pc;
layout(location = 0) out vec4 color;

void main() {
    color = texture(texs[pc.i & 3u], vec2(0.5)) + texture(texs[pc.j & 7u], vec2(0.25)); // EXPECT descriptor_index_oob
}
