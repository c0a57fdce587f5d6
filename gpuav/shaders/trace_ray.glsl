// trace_ray: the OpTraceRayKHR operand rules of the Vulkan environment for
// SPIR-V (VUID-RuntimeSpirv-OpTraceRayKHR-06355, -06356, -06357, -06358,
// -06552, -06553, -06554, -06892, -06893), the SBT operands past the bits
// the instruction uses, and OpReportIntersectionKHR's Hit Kind (-06998; an
// inline compare, only its report is here). gpuav/pass_trace_ray.go calls
// gpuav_trace_ray_code before every trace whose operands are not constants
// that obey the rules, and reports out of line;
// docs/decisions/trace-ray-check.md.

// gpuav_trace_ray_code returns 0 when the operands are valid, else the
// check code of the first rule broken, in the Khronos layer's order
// (inst_trace_ray): at most one of SkipTriangles (0x100),
// CullBackFacingTriangles (0x10) and CullFrontFacingTriangles (0x20); at
// most one of Opaque (0x1), NoOpaque (0x2), CullOpaque (0x40) and
// CullNoOpaque (0x80); not both SkipTriangles and SkipAABBs (0x200);
// origin finite; direction finite; t values not NaN; t values not
// negative; RayTmin <= RayTmax; no SkipTriangles in a pipeline that skips
// AABBs, no SkipAABBs in one that skips triangles (pipeline, the pipeline
// word: bit 0 SKIP_AABBS, bit 1 SKIP_TRIANGLES; -06553, -06554). Then
// gpuav-dbg's own: SBT Offset and SBT Stride within 4 bits, Miss Index
// within 16.
uint gpuav_trace_ray_code(uint flags, uint sbt_offset, uint sbt_stride, uint miss_index, vec3 origin, float tmin,
                          vec3 direction, float tmax, uint pipeline) {
    uint f = flags;
    vec3 o = origin;
    vec3 d = direction;
    float t0 = tmin;
    float t1 = tmax;
    uint code = 0u;
    if (bitCount(f & 0x130u) > 1) {
        code = GPUAV_CODE_TRACE_RAY_TRI_FLAGS;
    } else if (bitCount(f & 0xc3u) > 1) {
        code = GPUAV_CODE_TRACE_RAY_OPAQUE_FLAGS;
    } else if ((f & 0x300u) == 0x300u) {
        code = GPUAV_CODE_TRACE_RAY_SKIP_BOTH;
    } else if (any(isnan(o)) || any(isinf(o))) {
        code = GPUAV_CODE_TRACE_RAY_ORIGIN;
    } else if (any(isnan(d)) || any(isinf(d))) {
        code = GPUAV_CODE_TRACE_RAY_DIRECTION;
    } else if (isnan(t0) || isnan(t1)) {
        code = GPUAV_CODE_TRACE_RAY_T_NAN;
    } else if (t0 < 0.0 || t1 < 0.0) {
        code = GPUAV_CODE_TRACE_RAY_T_NEGATIVE;
    } else if (t0 > t1) {
        code = GPUAV_CODE_TRACE_RAY_TMIN_GT_TMAX;
    } else if ((f & 0x100u) != 0u && (pipeline & 1u) != 0u) {
        code = GPUAV_CODE_TRACE_RAY_SKIP_TRI_PIPELINE;
    } else if ((f & 0x200u) != 0u && (pipeline & 2u) != 0u) {
        code = GPUAV_CODE_TRACE_RAY_SKIP_AABB_PIPELINE;
    } else if (sbt_offset > 15u) {
        code = GPUAV_CODE_TRACE_RAY_SBT_OFFSET;
    } else if (sbt_stride > 15u) {
        code = GPUAV_CODE_TRACE_RAY_SBT_STRIDE;
    } else if (miss_index > 65535u) {
        code = GPUAV_CODE_TRACE_RAY_MISS_INDEX;
    }
    return code;
}

// gpuav_report_trace_ray writes the record: p0 RayTmin bits, p1 RayTmax
// bits; p2..p4 the direction's bits for a direction error, the SBT
// Offset, SBT Stride and Miss Index as written for an SBT error, and the
// origin's bits otherwise; p5 Rayflags, p6 CullMask; p7 the SBT operands
// as the instruction uses them (offset & 0xF, stride & 0xF << 4, miss
// index & 0xFFFF << 8) and bits 24, 25, 26 where the offset, the stride or
// the miss index had more bits (pass_trace_ray.go's TraceRay* constants;
// what the failed call did is in the site table, ORed into p7).
void gpuav_report_trace_ray(uint shader_id, uint site, uvec4 stage, uint code, uint flags, uint cull, uint sbt_offset,
                            uint sbt_stride, uint miss_index, vec3 origin, float tmin, vec3 direction, float tmax) {
    vec3 o = origin;
    vec3 d = direction;
    uint so = sbt_offset;
    uint ss = sbt_stride;
    uint mi = miss_index;
    uvec3 v = floatBitsToUint(code == GPUAV_CODE_TRACE_RAY_DIRECTION ? d : o);
    if (code >= GPUAV_CODE_TRACE_RAY_SBT_OFFSET) {
        v = uvec3(so, ss, mi);
    }
    uint used = (so & 0xfu) | ((ss & 0xfu) << 4u) | ((mi & 0xffffu) << 8u);
    if (so > 15u) {
        used |= 0x1000000u;
    }
    if (ss > 15u) {
        used |= 0x2000000u;
    }
    if (mi > 65535u) {
        used |= 0x4000000u;
    }
    gpuav_write_record(shader_id, gpuav_site_code(site, code), stage, 8u,
                       uvec2(floatBitsToUint(tmin), floatBitsToUint(tmax)), uvec4(v, flags), uvec3(cull, used, 0u));
}

// gpuav_report_hit_kind writes the record of an OpReportIntersectionKHR
// whose Hit Kind is above 127: p0 the Hit Kind, p1 Hit (the t) bits.
void gpuav_report_hit_kind(uint shader_id, uint site, uvec4 stage, uint hit_kind, float hit) {
    gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_HIT_KIND), stage, 2u,
                       uvec2(hit_kind, floatBitsToUint(hit)), uvec4(0u), uvec3(0u));
}
