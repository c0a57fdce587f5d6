#version 450
layout(local_size_x = 4) in;
layout(push_constant) uniform PC { uint idx; } pc;
layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];

void store(uint slot, uint i, uint value) {
    outs[slot].v[i] = value;
}

void scale(uint i) {
    store(pc.idx, i, i * 3u);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    scale(i);
}
