#version 450
// Compiled with -gVS: NonSemantic.Shader.DebugInfo.100 debug information.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, rgba8) uniform image2D img;
layout(set = 0, binding = 1) readonly buffer Weights { vec4 w[]; } weights;

struct Pixel {
    vec4 color;
    int count;
};

vec4 shade(Pixel p, uint i) {
    return p.color * weights.w[i] / float(p.count);
}

void main() {
    ivec2 pos = ivec2(gl_GlobalInvocationID.xy);
    Pixel p;
    p.color = imageLoad(img, pos);
    p.count = 2;
    imageStore(img, pos, shade(p, uint(pos.x + pos.y)));
}
