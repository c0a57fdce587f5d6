#version 450
// hangapp's out-of-bounds shader: outs[pc.idx] with pc.idx >= 2 is out of
// bounds, once per invocation (4 records per dispatch).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint v[16]; } outs[2];
layout(push_constant) uniform PC { uint idx; } pc;

void main()
{
    outs[pc.idx].v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x;
}
