#version 450
// INSTRUMENT checks=all,-buffer_oob sized env=vulkan1.2
#extension GL_EXT_nonuniform_qualifier : enable
layout(set = 1, binding = 2) uniform sampler2D tex[8];
layout(set = 1, binding = 3) uniform texture2D imgs[4];
layout(set = 1, binding = 4) uniform sampler smp;
layout(location = 0) flat in uint n;
layout(location = 0) out vec4 color;

void main() {
    vec4 acc = vec4(0.0);
    for (uint i = 0u; i < n; i++) { // EXPECT loop_budget
        acc += textureLod(tex[nonuniformEXT(i)], vec2(0.5), 0.0); // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed@loop
    }
    color = acc + texture(sampler2D(imgs[n], smp), vec2(0.25)); // EXPECT descriptor_index_oob+descriptor_uninitialized+descriptor_destroyed
}
