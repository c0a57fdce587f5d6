#version 460
// Every pixel of the target prints its coordinates and index.
#extension GL_EXT_debug_printf : require
layout(location = 0) out vec4 color;
layout(push_constant) uniform PC { uint width; } pc;

void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    debugPrintfEXT("pixel %v2f index %u", gl_FragCoord.xy, p.y * pc.width + p.x);
    color = vec4(1.0);
}
