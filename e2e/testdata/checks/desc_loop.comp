#version 450
// sized array (PARTIALLY_BOUND in the layout), read in a loop whose
// counter is the index: provably in range, so the read runs behind its
// binding's fact (every element written and alive,
// docs/decisions/cheap-checks.md) and is checked only when that fails
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Result { uint v[]; } result;
layout(set = 0, binding = 1, std430) buffer Data { uint v[]; } data[8];
layout(push_constant) uniform PC { uint index; } pc;
void main() {
    // compute: one invocation, one read (of element pc.index)
    uint acc = 1u;
    for (uint i = 0u; i < 8u; i++) {
        if (i == pc.index) {
            acc += data[i].v[0]; // EXPECT descriptor_uninitialized+descriptor_destroyed
        }
    }
    result.v[0] = acc;
}
