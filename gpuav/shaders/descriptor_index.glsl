// descriptor_index_oob: the report half of the check. The instrumented
// shader compares the index with the array length inline (the fast path)
// and calls this only when the index is out of bounds, then skips the
// access (a load or sample yields zero, a store does nothing).
void gpuav_report_descriptor_index(uint shader_id, uint inst, uvec4 stage,
                                   uint set, uint binding, uint index, uint length) {
    gpuav_write_record(shader_id, inst, stage, GPUAV_CODE_DESCRIPTOR_INDEX_OOB,
                       set, binding, index, length, 0u, 0u, 0u);
}
