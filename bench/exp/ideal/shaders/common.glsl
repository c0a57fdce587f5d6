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

// gpuav_write_record (experiment compact): one atomicAdd, then two vector
// stores of 8 words: the site (here the instruction, standing in for a site
// id whose static parameters the CPU keeps), three dynamic values (index,
// offset, range), the three stage words and the action index. A timing
// emulation: the layer cannot decode these records.
void gpuav_write_record(uint shader_id, uint inst, uvec4 stage, uint code,
                        uint p0, uint p1, uint p2, uint p3, uint p4, uint p5, uint p6) {
    uint capacity = uint(gpuav_output.data.length()) * 4u;
    uint pos = atomicAdd(gpuav_output.written, 8u);
    if (pos + 8u <= capacity) {
        uvec4 st = stage;
        uint v = pos / 4u;
        gpuav_output.data[v + 1u] = uvec4(st.y, st.z, st.w, gpuav_action.index);
        gpuav_output.data[v] = uvec4(inst, p2, p3, p5);
    }
}
