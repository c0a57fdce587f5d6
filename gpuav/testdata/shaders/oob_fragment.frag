#version 450
// INSTRUMENT checks=all,-buffer_oob sized env=vulkan1.1
// INSTRUMENT checks=all,-buffer_oob sized env=vulkan1.3
layout(push_constant) uniform PC { layout(offset = 16) uint tex_ind; } pc;
layout(set = 0, binding = 0) uniform sampler2D tex[6];
layout(location = 0) in vec2 texcoord;
layout(location = 0) out vec4 uFragColor;

void main() {
    vec4 light = vec4(1.0);
    uFragColor = light * texture(tex[pc.tex_ind], texcoord.xy); // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed
}
