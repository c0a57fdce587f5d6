package gpuav

import (
	"fmt"
	"math"
)

// SBTValues are an OpTraceRayKHR's shader binding table operands.
type SBTValues struct {
	Offset, Stride, MissIndex uint32
}

// HitKindValues are the operands of a failed OpReportIntersectionKHR.
type HitKindValues struct {
	HitKind uint32
	Hit     float32 // the t of the intersection
}

// TraceRayIDs are the ids a trace_ray record is reported under: the
// RuntimeSpirv VUIDs the Khronos layer gives the same rules
// (layers/gpuav/instrumentation/trace_ray.cpp), and gpuav-dbg's own for
// the SBT operands, which the Khronos layer does not check.
var TraceRayIDs = map[CheckCode]string{
	CodeTraceRayTriangleFlags:         "VUID-RuntimeSpirv-OpTraceRayKHR-06892",
	CodeTraceRayOpaqueFlags:           "VUID-RuntimeSpirv-OpTraceRayKHR-06893",
	CodeTraceRaySkipBoth:              "VUID-RuntimeSpirv-OpTraceRayKHR-06552",
	CodeTraceRayOrigin:                "VUID-RuntimeSpirv-OpTraceRayKHR-06355",
	CodeTraceRayDirection:             "VUID-RuntimeSpirv-OpTraceRayKHR-06355",
	CodeTraceRayTNegative:             "VUID-RuntimeSpirv-OpTraceRayKHR-06356",
	CodeTraceRayTminGreaterThanTmax:   "VUID-RuntimeSpirv-OpTraceRayKHR-06357",
	CodeTraceRayTNaN:                  "VUID-RuntimeSpirv-OpTraceRayKHR-06358",
	CodeTraceRaySkipTrianglesPipeline: "VUID-RuntimeSpirv-OpTraceRayKHR-06553",
	CodeTraceRaySkipAABBsPipeline:     "VUID-RuntimeSpirv-OpTraceRayKHR-06554",
	CodeHitKind:                       "VUID-RuntimeSpirv-OpReportIntersectionKHR-06998",
	CodeTraceRaySBTOffset:             "gpuav-dbg-TraceRay-SBT-Offset",
	CodeTraceRaySBTStride:             "gpuav-dbg-TraceRay-SBT-Stride",
	CodeTraceRayMissIndex:             "gpuav-dbg-TraceRay-Miss-Index",
}

// traceRaySBTCode reports whether a trace_ray code is one of the SBT
// operands' (warnings: the instruction ignores the bits past its own).
func traceRaySBTCode(code CheckCode) bool {
	return code >= CodeTraceRaySBTOffset && code <= CodeTraceRayMissIndex
}

// TraceRaySBT returns the SBT operands an OpTraceRayKHR record's p7 says
// the instruction used, and its TraceRay*Past bits.
func TraceRaySBT(p7 uint32) (used SBTValues, past uint32) {
	return SBTValues{Offset: p7 & 0xf, Stride: p7 >> 4 & 0xf, MissIndex: p7 >> 8 & 0xffff},
		p7 & (TraceRaySBTOffsetPast | TraceRaySBTStridePast | TraceRayMissIndexPast)
}

// describeTraceRay fills in a trace_ray error: the RuntimeSpirv VUID (or
// gpuav-dbg's id), the operands, and what the failed call did (the site's
// static bits: trace_ray's messages say it themselves, as the outcome of a
// trace differs by rule under on_error clamp).
func describeTraceRay(d *Description, code CheckCode, p [RecordParams]uint32) {
	d.FullVUID = TraceRayIDs[code]
	f := math.Float32frombits
	if code == CodeHitKind {
		d.HitKind = &HitKindValues{HitKind: p[0], Hit: f(p[1])}
		outcome := "The intersection was not reported (OpReportIntersectionKHR returned false)."
		if p[2]&TraceRayMade != 0 {
			outcome = "The intersection was reported as written."
		}
		d.Message = fmt.Sprintf("OpReportIntersectionKHR operand Hit Kind (%d) is greater than 127 (Hit %s): hit kinds 128-255 are reserved. %s",
			p[0], fmtFloat(d.HitKind.Hit), outcome)
		return
	}
	r := &RayValues{Tmin: f(p[0]), Tmax: f(p[1]), Flags: p[5], CullMask: p[6]}
	v := &[3]float32{f(p[2]), f(p[3]), f(p[4])}
	used, past := TraceRaySBT(p[7])
	switch {
	case code == CodeTraceRayDirection:
		r.Direction = v
	case traceRaySBTCode(code):
		d.SBT = &SBTValues{Offset: p[2], Stride: p[3], MissIndex: p[4]}
		d.Warning = true
	default:
		r.Origin = v
	}
	if d.SBT == nil && past == 0 {
		d.SBT = &used // as written: no operand had more bits
	}
	d.Ray = r
	const op = "OpTraceRayKHR operand"
	var what string
	switch code {
	case CodeTraceRayTriangleFlags:
		what = fmt.Sprintf("%s Rayflags %s contains more than one of SkipTrianglesKHR, CullBackFacingTrianglesKHR and CullFrontFacingTrianglesKHR.",
			op, rayFlagsString(r.Flags))
	case CodeTraceRayOpaqueFlags:
		what = fmt.Sprintf("%s Rayflags %s contains more than one of OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR and CullNoOpaqueKHR.",
			op, rayFlagsString(r.Flags))
	case CodeTraceRaySkipBoth:
		what = fmt.Sprintf("%s Rayflags %s contains both SkipTrianglesKHR and SkipAABBsKHR.", op, rayFlagsString(r.Flags))
	case CodeTraceRayOrigin:
		what = fmt.Sprintf("%s RayOrigin %s is not finite.", op, fmtVec3(v))
	case CodeTraceRayDirection:
		what = fmt.Sprintf("%s RayDirection %s is not finite.", op, fmtVec3(v))
	case CodeTraceRayTNaN:
		what = fmt.Sprintf("%ss RayTmin (%s) and RayTmax (%s) must not be NaN.", op, fmtFloat(r.Tmin), fmtFloat(r.Tmax))
	case CodeTraceRayTNegative:
		switch {
		case r.Tmin < 0 && r.Tmax < 0:
			what = fmt.Sprintf("%ss RayTmin (%s) and RayTmax (%s) are negative.", op, fmtFloat(r.Tmin), fmtFloat(r.Tmax))
		case r.Tmin < 0:
			what = fmt.Sprintf("%s RayTmin (%s) is negative.", op, fmtFloat(r.Tmin))
		default:
			what = fmt.Sprintf("%s RayTmax (%s) is negative.", op, fmtFloat(r.Tmax))
		}
	case CodeTraceRayTminGreaterThanTmax:
		what = fmt.Sprintf("%s RayTmin (%s) is greater than RayTmax (%s).", op, fmtFloat(r.Tmin), fmtFloat(r.Tmax))
	case CodeTraceRaySkipTrianglesPipeline:
		what = fmt.Sprintf("%s Rayflags %s contains SkipTrianglesKHR, but the pipeline was created with VK_PIPELINE_CREATE_RAY_TRACING_SKIP_AABBS_BIT_KHR (a ray may not skip both).",
			op, rayFlagsString(r.Flags))
	case CodeTraceRaySkipAABBsPipeline:
		what = fmt.Sprintf("%s Rayflags %s contains SkipAABBsKHR, but the pipeline was created with VK_PIPELINE_CREATE_RAY_TRACING_SKIP_TRIANGLES_BIT_KHR (a ray may not skip both).",
			op, rayFlagsString(r.Flags))
	case CodeTraceRaySBTOffset:
		what = fmt.Sprintf("%s SBT Offset (%d) is past the 4 bits the instruction uses: it uses %d (SBT Offset & 0xF).", op, p[2], p[2]&0xf)
	case CodeTraceRaySBTStride:
		what = fmt.Sprintf("%s SBT Stride (%d) is past the 4 bits the instruction uses: it uses %d (SBT Stride & 0xF).", op, p[3], p[3]&0xf)
	case CodeTraceRayMissIndex:
		what = fmt.Sprintf("%s Miss Index (%d) is past the 16 bits the instruction uses: it uses %d (Miss Index & 0xFFFF).", op, p[4], p[4]&0xffff)
	}
	var outcome string
	switch {
	case p[7]&TraceRayMade != 0:
		outcome = "The trace was made as written."
	case p[7]&TraceRayMasksSBT != 0 && traceRaySBTCode(code):
		outcome = fmt.Sprintf("The trace was made with its SBT operands masked to their bits (SBT Offset %d, SBT Stride %d, Miss Index %d).",
			p[2]&0xf, p[3]&0xf, p[4]&0xffff)
	default:
		outcome = "The trace was not made: its ray payload kept its value."
	}
	d.Message = what + " " + outcome
}

// fmtVec3 formats a float vector: "(0, +Inf, 0.25)".
func fmtVec3(v *[3]float32) string {
	return fmt.Sprintf("(%s, %s, %s)", fmtFloat(v[0]), fmtFloat(v[1]), fmtFloat(v[2]))
}
