#version 450
// bin/bench/record's compute shader (examples/demo/shaders/oob_compute.comp)
// with its indices masked into range: outs[pc.idx & 1u].v[i & 15u] (the
// buffers hold 16 words), accesses the facts decide, so the fast variant
// has no check left.
layout(local_size_x = 4) in;

layout(push_constant) uniform PC { uint idx; } pc;
layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];

void main() {
    uint i = gl_GlobalInvocationID.x;
    outs[pc.idx & 1u].v[i & 15u] = i * 3u;
}
