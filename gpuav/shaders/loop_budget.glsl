// loop_budget: a loop whose trip count no analysis bounds counts its
// iterations per entry; when an invocation starts the iteration past the
// budget, it reports once (per invocation and loop) and, unless on_error
// is execute, leaves the loop (gpuav/pass_loop_budget.go,
// docs/decisions/loop-budget.md). The count and the budget are in the
// record; the budget is static, in the site table.

// gpuav_report_loop_budget writes the record: p0 the iterations the
// invocation completed in this entry of the loop.
void gpuav_report_loop_budget(uint shader_id, uint site, uvec4 stage, uint count) {
    gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_LOOP_BUDGET), stage, 1u,
                       uvec2(count, 0u), uvec4(0u), uvec3(0u));
}
