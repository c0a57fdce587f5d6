// ray_query: the OpRayQueryInitializeKHR operand rules of the Vulkan
// environment for SPIR-V (VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06348,
// -06349, -06350, -06351) and its Rayflags rules (-06889, -06890, -06891).
// gpuav_ray_query_code is called before every
// initialize and returns 0 or the first rule the operands break; the
// instrumented shader reports only on failure (out of line) and then
// initializes a query that can find nothing (cull mask 0, empty interval).

// gpuav_ray_query_code returns 0 when the operands are valid, else the
// check code of the first rule broken, in this order: origin finite,
// direction finite, t values not NaN, RayTmin >= 0, RayTmax >= 0,
// RayTmin <= RayTmax; then the Rayflags: not both SkipTriangles (0x100) and
// SkipAABBs (0x200); at most one of SkipTriangles, CullBackFacingTriangles
// (0x10) and CullFrontFacingTriangles (0x20); at most one of Opaque (0x1),
// NoOpaque (0x2), CullOpaque (0x40) and CullNoOpaque (0x80).
uint gpuav_ray_query_code(uint flags, vec3 origin, float tmin, vec3 direction, float tmax) {
    uint f = flags;
    vec3 o = origin;
    vec3 d = direction;
    float t0 = tmin;
    float t1 = tmax;
    uint code = 0u;
    if (any(isnan(o)) || any(isinf(o))) {
        code = GPUAV_CODE_RAY_QUERY_ORIGIN;
    } else if (any(isnan(d)) || any(isinf(d))) {
        code = GPUAV_CODE_RAY_QUERY_DIRECTION;
    } else if (isnan(t0) || isnan(t1)) {
        code = GPUAV_CODE_RAY_QUERY_T_NAN;
    } else if (t0 < 0.0) {
        code = GPUAV_CODE_RAY_QUERY_NEGATIVE_TMIN;
    } else if (t1 < 0.0) {
        code = GPUAV_CODE_RAY_QUERY_NEGATIVE_TMAX;
    } else if (t0 > t1) {
        code = GPUAV_CODE_RAY_QUERY_TMIN_GT_TMAX;
    } else if ((f & 0x300u) == 0x300u) {
        code = GPUAV_CODE_RAY_QUERY_SKIP_BOTH;
    } else if (bitCount(f & 0x130u) > 1) {
        code = GPUAV_CODE_RAY_QUERY_TRI_FLAGS;
    } else if (bitCount(f & 0xc3u) > 1) {
        code = GPUAV_CODE_RAY_QUERY_OPAQUE_FLAGS;
    }
    return code;
}

// gpuav_report_ray_query writes the record: p0 RayTmin bits, p1 RayTmax
// bits, p2..p4 the direction's bits for a direction error and the
// origin's otherwise, p5 Rayflags, p6 CullMask.
// Every parameter is a dynamic value.
void gpuav_report_ray_query(uint shader_id, uint site, uvec4 stage, uint code, uint flags, uint cull,
                            vec3 origin, float tmin, vec3 direction, float tmax) {
    vec3 o = origin;
    vec3 d = direction;
    uvec3 v = floatBitsToUint(code == GPUAV_CODE_RAY_QUERY_DIRECTION ? d : o);
    gpuav_write_record(shader_id, gpuav_site_code(site, code), stage, 7u,
                       uvec2(floatBitsToUint(tmin), floatBitsToUint(tmax)), uvec4(v, flags), uvec3(cull, 0u, 0u));
}
