// Shared declarations of the gpuav check functions. The GPUAV_* macros come
// from package gpuav's Go constants (record.go), passed with -D by the
// generator (gpuav/internal/genlib), so the record format has one definition.
// The set number 0 is a placeholder: the linker rewrites it to the layer's
// descriptor-set slot.

// The records are read as uvec4s: the layout is the same as uint data[]
// (std430, 16-byte stride, after the 4 header words), and a record is
// written with 4 vector stores instead of 16 scalar ones. The write is
// inlined on the failure path of every check, so its size is what the
// driver's compiler pays per check (docs/BENCHMARKS.md).
layout(set = 0, binding = GPUAV_OUTPUT_BINDING, std430) buffer GpuavOutput {
    uint written;
    uint dropped;
    uint reserved0;
    uint reserved1;
    uvec4 data[];
} gpuav_output;

layout(set = 0, binding = GPUAV_ACTION_BINDING, std140) uniform GpuavAction {
    uint index;
} gpuav_action;

// gpuav_write_record (experiment one-atomic): one atomicAdd claims the
// slot; the record is written only when it fits; the overflow is what the
// final written count says (no capacity pre-check, no dropped atomics).
void gpuav_write_record(uint shader_id, uint inst, uvec4 stage, uint code,
                        uint p0, uint p1, uint p2, uint p3, uint p4, uint p5, uint p6) {
    uint capacity = uint(gpuav_output.data.length()) * 4u;
    uint pos = atomicAdd(gpuav_output.written, GPUAV_RECORD_WORDS);
    if (pos + GPUAV_RECORD_WORDS <= capacity) {
        uvec4 st = stage;
        uint v = pos / 4u;
        gpuav_output.data[v + 1u] = uvec4(st.y, st.z, st.w, gpuav_action.index);
        gpuav_output.data[v + 2u] = uvec4(code, p0, p1, p2);
        gpuav_output.data[v + 3u] = uvec4(p3, p4, p5, p6);
        gpuav_output.data[v] = uvec4(GPUAV_RECORD_WORDS, shader_id, inst, st.x);
    }
}
