#version 460
#extension GL_EXT_debug_printf : require
// fragment: one point on a 1x1 target; the pixel prints its coordinates
layout(location = 0) out vec4 color;
void main() {
    color = vec4(1.0);
    debugPrintfEXT("frag coord %.1f, %.1f", gl_FragCoord.x, gl_FragCoord.y);
}
