#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 4) in;
layout(push_constant) uniform PC { uint idx; } pc;
layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];
#include "put.glsl"

void main() {
    put(pc.idx, gl_GlobalInvocationID.x);
}
