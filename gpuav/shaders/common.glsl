// Shared declarations of the gpuav check functions. The GPUAV_* macros come
// from package gpuav's Go constants (record.go), passed with -D by the
// generator (gpuav/internal/genlib), so the record format has one definition.
// The set number 0 is a placeholder: the linker rewrites it to the layer's
// descriptor-set slot.

layout(set = 0, binding = GPUAV_OUTPUT_BINDING, std430) buffer GpuavOutput {
    uint written;
    uint dropped;
    uint reserved0;
    uint reserved1;
    uint data[];
} gpuav_output;

layout(set = 0, binding = GPUAV_ACTION_BINDING, std140) uniform GpuavAction {
    uint index;
} gpuav_action;

// gpuav_write_record appends one record to the output buffer, or counts it
// as dropped when the buffer is full. stage is (execution model, stage word
// 0, 1, 2).
void gpuav_write_record(uint shader_id, uint inst, uvec4 stage, uint code,
                        uint p0, uint p1, uint p2, uint p3, uint p4, uint p5, uint p6) {
    uint capacity = uint(gpuav_output.data.length());
    if (gpuav_output.written + GPUAV_RECORD_WORDS > capacity) {
        atomicAdd(gpuav_output.dropped, 1u);
        return;
    }
    uint pos = atomicAdd(gpuav_output.written, GPUAV_RECORD_WORDS);
    if (pos + GPUAV_RECORD_WORDS > capacity) {
        atomicAdd(gpuav_output.dropped, 1u);
        return;
    }
    // Parameters are read whole (no swizzles or indexing): the generator
    // turns them into by-value parameters and allows only plain loads.
    uvec4 st = stage;
    gpuav_output.data[pos + 1u] = shader_id;
    gpuav_output.data[pos + 2u] = inst;
    gpuav_output.data[pos + 3u] = st.x;
    gpuav_output.data[pos + 4u] = st.y;
    gpuav_output.data[pos + 5u] = st.z;
    gpuav_output.data[pos + 6u] = st.w;
    gpuav_output.data[pos + 7u] = gpuav_action.index;
    gpuav_output.data[pos + 8u] = code;
    gpuav_output.data[pos + 9u] = p0;
    gpuav_output.data[pos + 10u] = p1;
    gpuav_output.data[pos + 11u] = p2;
    gpuav_output.data[pos + 12u] = p3;
    gpuav_output.data[pos + 13u] = p4;
    gpuav_output.data[pos + 14u] = p5;
    gpuav_output.data[pos + 15u] = p6;
    // The size word goes last: the decoder skips records whose size is 0.
    gpuav_output.data[pos] = GPUAV_RECORD_WORDS;
}
