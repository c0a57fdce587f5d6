#version 450
// bin/bench/record's fragment shader (layer/testdata/shaders/oob_store.frag)
// with its descriptor index masked into range: outs[pc.idx & 1u].v[0], an
// access the facts decide, so the fast variant has no check left.
layout(set = 0, binding = 0) buffer Out { uint v[]; } outs[2];
layout(push_constant) uniform PC { uint idx; } pc;
layout(location = 0) out vec4 color;
void main()
{
    outs[pc.idx & 1u].v[0] = 1u;
    color = vec4(1.0);
}
