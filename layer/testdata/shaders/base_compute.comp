#version 450
// The code of examples/demo/shaders/oob_compute.comp in a file of its own,
// for multi's "base-compute" pipeline (VK_PIPELINE_CREATE_DISPATCH_BASE_BIT).
// Its own bytes keep that pipeline apart from the unflagged ones: the NVIDIA
// driver (580.159.04) finds a compute shader in its shader cache by the
// SPIR-V alone, so a based pipeline made from bytes compiled before without
// the flag, in this process or an earlier one, ignores its base group
// (docs/HARDWARE.md, bench/measure/dispatch-base.sh).
layout(local_size_x = 4) in;

layout(push_constant) uniform PC { uint idx; } pc;
layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];

void main() {
    uint i = gl_GlobalInvocationID.x;
    outs[pc.idx].v[i] = i * 3u;
}
