#version 450
// The hot-loop scene's masked shader (bench/scenes/shaders/hotloop_masked.comp)
// with a debugPrintfEXT its loop never reaches, as the printf measurements
// built it (TestPreciseSwitch): the module gets a fast variant like the
// shader without printf, its loop free of checks, the printf's line write
// left behind the shader's own branch.
#extension GL_EXT_debug_printf : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer B { uint v[]; } bufs[2];
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint w = gl_WorkGroupID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint k = (w + i) & 1u;
        acc += bufs[k].v[(g * 7u + i) & 1023u] * 3u + bufs[k].v[(g + i * 13u) & 1023u];
        if (acc == 0xFFFFFFFFu) debugPrintfEXT("acc %u at %u of %u", acc, i, g);
    }
    o[g] = acc;
}
