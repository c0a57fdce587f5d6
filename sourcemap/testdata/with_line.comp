#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];
layout(push_constant) uniform PC { uint idx; } pc;
#line 100
void main() {
    outs[pc.idx].v[0] = 7u;
}
