#version 450
// hangapp's long dispatch: each invocation runs a loop of a proven 2^20
// iterations (no check and no loop counter), so a dispatch lasts as long
// as its workgroup count says; nothing in it is out of bounds.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint v[16]; } outs[2];
layout(push_constant) uniform PC { uint idx; } pc;

void main()
{
    uint acc = gl_GlobalInvocationID.x + pc.idx;
    for (uint i = 0u; i < 1048576u; i++)
        acc = acc * 1664525u + 1013904223u;
    if (acc == 0xFFFFFFFFu)
        outs[0].v[gl_LocalInvocationID.x % 16u] = acc;
}
