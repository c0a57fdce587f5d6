#version 450
// multi --mode reuse: oob_compute.comp's store with an index the layer
// cannot bound from the push constant alone (idx * idx / idx is not
// affine in it): no fast variant, so the layer creates no module of its
// own when the app creates a pipeline of it.
layout(local_size_x = 4) in;

layout(push_constant) uniform PC { uint idx; } pc;
layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];

void main() {
    uint i = gl_GlobalInvocationID.x;
    outs[pc.idx * pc.idx / pc.idx].v[i] = i * 3u;
}
