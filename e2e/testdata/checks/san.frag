#version 450
// sanapp's fragment shader: one fragment runs san.glsl's case.
#extension GL_GOOGLE_include_directive : require
layout(location = 0) out vec4 color;
#include "san.glsl"

void main() {
    body(0u);
    color = vec4(0.0);
}
