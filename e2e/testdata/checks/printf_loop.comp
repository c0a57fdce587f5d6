#version 460
// One invocation prints one line per iteration of a loop of pc.n.
#extension GL_EXT_debug_printf : require
layout(local_size_x = 1) in;
layout(push_constant) uniform PC { uint n; } pc;

void main() {
    for (uint i = 0u; i < pc.n; i++) {
        debugPrintfEXT("iteration %u of %u, squared %d", i, pc.n, int(i * i));
    }
}
