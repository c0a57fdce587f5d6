// mesh_outputs: OpSetMeshOutputsEXT's counts against the mesh shader's
// OutputVertices and OutputPrimitivesEXT (gpuav/pass_mesh_outputs.go).
// The compare is inline; only the failure path calls this.

// gpuav_report_mesh_outputs writes the record: p0 the vertex count, p1 the
// primitive count; the maxima (p2, p3) are in the site table. The code is
// the vertex count's when it is over its maximum, else the primitive
// count's.
void gpuav_report_mesh_outputs(uint shader_id, uint site, uvec4 stage, uint vertices, uint primitives, uint max_vertices,
                               uint max_primitives) {
    uint code = vertices > max_vertices ? GPUAV_CODE_MESH_VERTICES : GPUAV_CODE_MESH_PRIMITIVES;
    gpuav_write_record(shader_id, gpuav_site_code(site, code), stage, 2u, uvec2(vertices, primitives), uvec4(0u),
                       uvec3(0u));
}
