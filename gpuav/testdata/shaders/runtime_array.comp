#version 450
#extension GL_EXT_nonuniform_qualifier : require
// A bindless storage-buffer array (runtime array, set 0 binding 3) and a
// sampled-image runtime array (set 1 binding 5), indexed by data.
layout(local_size_x = 4) in;
layout(set = 0, binding = 3) buffer Data { uint v[]; } bufs[];
layout(set = 1, binding = 5) uniform sampler2D texs[];
layout(set = 0, binding = 0) buffer Out { uint idx; float r; uint o[]; } outb;

void main() {
    uint i = outb.idx;
    outb.o[gl_GlobalInvocationID.x] = bufs[nonuniformEXT(i)].v[gl_GlobalInvocationID.x];
    outb.r = textureLod(texs[nonuniformEXT(i + 1u)], vec2(0.5), 0.0).x;
}
