#version 450
#extension GL_EXT_debug_printf : require
// oob_store.frag's interface, printing instead of writing: every fragment
// prints its pixel and pc.idx.
layout(set = 0, binding = 0) buffer Out { uint v[]; } outs[2];
layout(push_constant) uniform PC { uint idx; } pc;
layout(location = 0) out vec4 color;
void main()
{
    debugPrintfEXT("pixel %u, %u idx %u", uint(gl_FragCoord.x), uint(gl_FragCoord.y), pc.idx);
    color = vec4(1.0);
}
