#version 450
// Every fragment writes through outs[pc.idx], an array of 2 storage
// buffers: idx >= 2 is out of bounds.
layout(set = 0, binding = 0) buffer Out { uint v[]; } outs[2];
layout(push_constant) uniform PC { uint idx; } pc;
layout(location = 0) out vec4 color;
void main()
{
    outs[pc.idx].v[0] = 1u;
    color = vec4(1.0);
}
