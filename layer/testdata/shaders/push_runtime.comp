#version 450
// mode push of multi: outs is a runtime array (its length, and which
// elements are written, come from the layer's descriptor state), indexed
// by a push constant.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 4) in;

layout(push_constant) uniform PC { uint idx; } pc;
layout(set = 0, binding = 0) buffer B { uint v[]; } outs[];

void main() {
    uint i = gl_GlobalInvocationID.x;
    outs[pc.idx].v[i] = i * 3u;
}
