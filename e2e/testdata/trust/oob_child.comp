#version 450
// trustapp's shader for the child process of --mode fork: another file,
// another line, the same layout as oob.comp (outs[pc.idx] with
// pc.idx >= 2 is out of bounds, once per invocation).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint v[16]; } outs[2];
layout(push_constant) uniform PC { uint idx; } pc;

// The child's write is on line 14.
void main()
{
    uint x = gl_GlobalInvocationID.x;
    uint doubled = x * 2u;
    outs[pc.idx].v[x] = doubled;
}
