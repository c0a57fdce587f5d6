#version 450
#extension GL_EXT_debug_printf : require
// multi's compute interface (oob_compute.comp's), printing instead of
// writing: every invocation prints its index and pc.idx.
layout(local_size_x = 4) in;
layout(push_constant) uniform PC { uint idx; } pc;
layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];
void main() {
    debugPrintfEXT("invocation %u idx %u", gl_GlobalInvocationID.x, pc.idx);
}
