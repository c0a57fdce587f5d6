#version 450
#extension GL_GOOGLE_include_directive : require
layout(set = 0, binding = 0) uniform sampler2D tex[4];
layout(location = 0) flat in uint idx;
layout(location = 0) out vec4 color;
#include "common.glsl"

void main() {
    color = fetch(idx);
}
