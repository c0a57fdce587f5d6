#version 460
#extension GL_EXT_debug_printf : require
layout(local_size_x = 1) in;
layout(push_constant) uniform PC { uint n; float x; } pc;

void main() {
    debugPrintfEXT("no value");
    for (uint i = 0u; i < pc.n; i++) {
        debugPrintfEXT("i %u x %f v %v2f\n", i, pc.x, vec2(pc.x, 1.0));
    }
    debugPrintfEXT("no value");
}
