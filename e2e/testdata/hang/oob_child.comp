#version 450
// hangapp's shader for a fork-exec'd child: another file, another line,
// the same layout as oob.comp.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint v[16]; } outs[2];
layout(push_constant) uniform PC { uint idx; } pc;

// The child's write is on line 11.
void main()
{
    outs[pc.idx].v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x + 1u;
}
