#version 460
#extension GL_EXT_debug_printf : require
layout(local_size_x = 4) in;
layout(push_constant) uniform PC { uint n; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    debugPrintfEXT("i=%u n=%u", i, pc.n);
    if (i == 0u) {
        debugPrintfEXT("first %s", 1.5);
    }
}
