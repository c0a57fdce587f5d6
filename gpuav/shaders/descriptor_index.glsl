// descriptor_index_oob: the report half of the check. The instrumented
// shader compares the index with the array length inline (the fast path)
// and calls this only when the index is out of bounds, then skips the
// access (a load or sample yields zero, a store does nothing).
// The record's dynamic values are the index and the length (p2, p3); set
// and binding are in the site table.
void gpuav_report_descriptor_index(uint shader_id, uint site, uvec4 stage,
                                   uint set, uint binding, uint index, uint length) {
    gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_DESCRIPTOR_INDEX_OOB), stage, 2u,
                       uvec2(index, length), uvec4(0u), uvec3(0u));
}
