// Shared declarations of the gpuav check functions. The GPUAV_* macros come
// from package gpuav's Go constants (record.go), passed with -D by the
// generator (gpuav/internal/genlib), so the record format has one definition.
// The set number 0 is a placeholder: the linker rewrites it to the layer's
// descriptor-set slot.

// The records are read as uvec4s: a record is 4 of them (gpuav/record.go's
// table), written with at most 4 vector stores. The write is inlined on the
// failure path of every check, so its size is what the driver's compiler
// pays per check (docs/decisions/cheap-checks.md).
layout(set = 0, binding = GPUAV_OUTPUT_BINDING, std430) buffer GpuavOutput {
    uint written;
    uint folded_dropped; // failures beyond one of folded records that did not fit
    uint reserved1;
    uint reserved2;
    uvec4 data[];
} gpuav_output;

layout(set = 0, binding = GPUAV_ACTION_BINDING, std140) uniform GpuavAction {
    uint index;
} gpuav_action;

// gpuav_write_record appends one record: the site (its id in the module's
// site table, and the check code in the top 8 bits) and n dynamic values,
// a (values 0 and 1), b (2-5) and c (6-8), which the site table places
// among the check's parameters. One atomicAdd claims the record; a claim
// past the buffer's last record writes the last record, a sink the decoder
// never reads, so the write has no branch (a branch there cost as much to
// compile as the rest of the check, docs/decisions/cheap-checks.md), and
// the layer counts the records that did not fit from written. stage is
// (count, stage word 0, 1, 2): count is 0 but in a folded record (the
// failures of a loop, written once after it,
// docs/decisions/loop-failures-folded.md), which writes it to word 15 and,
// when it did not fit, adds its failures beyond one to folded_dropped; at
// every other call it is the constant 0 and the driver drops both. n is a
// constant at each call, so the driver drops the stores of values a check
// does not have.
void gpuav_write_record(uint shader_id, uint site_code, uvec4 stage, uint n, uvec2 a, uvec4 b, uvec3 c) {
    uint slot = atomicAdd(gpuav_output.written, 1u);
    uint last = uint(gpuav_output.data.length()) / 4u - 1u;
    uint v = min(slot, last) * 4u;
    // Parameters are read whole (no swizzles or indexing): the generator
    // turns them into by-value parameters and allows only plain loads.
    uvec4 st = stage;
    uvec2 x = a;
    uvec4 y = b;
    uvec3 z = c;
    if (n > 6u) {
        gpuav_output.data[v + 3u] = uvec4(z, st.x);
    } else if (st.x != 0u) {
        gpuav_output.data[v + 3u].w = st.x;
    }
    if (st.x > 1u && slot >= last) {
        atomicAdd(gpuav_output.folded_dropped, st.x - 1u);
    }
    if (n > 2u) {
        gpuav_output.data[v + 2u] = y;
    }
    // The shader id goes last: the decoder skips records whose shader id
    // is 0.
    gpuav_output.data[v + 1u] = uvec4(st.y, st.z, st.w, gpuav_action.index);
    gpuav_output.data[v] = uvec4(shader_id, site_code, x);
}

// gpuav_site_code packs a site and a check code into a record's word 1.
uint gpuav_site_code(uint site, uint code) {
    return site | (code << 24u);
}
