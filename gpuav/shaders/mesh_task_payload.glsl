// mesh_task_payload: a mesh shader's read of its TaskPayloadWorkgroupEXT
// variable in a pipeline with no task shader to write it
// (gpuav/pass_mesh_task_payload.go). The test, of the pipeline word's
// specialization constant, is inline; only the failure path calls this.

// gpuav_report_task_payload writes the record: no parameters (the
// payload variable and the read are the site's).
void gpuav_report_task_payload(uint shader_id, uint site, uvec4 stage) {
    gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_MESH_TASK_PAYLOAD), stage, 0u, uvec2(0u), uvec4(0u),
                       uvec3(0u));
}
