#version 450
// sanapp's compute shader: four invocations run san.glsl's case.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 4) in;
#include "san.glsl"

void main() { body(gl_GlobalInvocationID.x); }
