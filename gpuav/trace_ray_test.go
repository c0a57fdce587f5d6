package gpuav

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestTraceRayCodes: each code is 64 + the Khronos layer's sub-code of the
// same rule (gpuav_error_codes.h at 1.4.36x), so the two tools' records can be
// compared line by line; the SBT codes are ours, past its last one (41).
func TestTraceRayCodes(t *testing.T) {
	khronos := map[CheckCode]int{
		CodeTraceRayTriangleFlags:         17, // kErrorSubCode_TraceRay_TrianglesFlags
		CodeTraceRayOpaqueFlags:           18, // kErrorSubCode_TraceRay_OpaqueFlags
		CodeTraceRaySkipBoth:              19, // kErrorSubCode_TraceRay_BothSkip
		CodeTraceRayOrigin:                20, // kErrorSubCode_TraceRay_OriginNaNOrInf
		CodeTraceRayDirection:             21, // kErrorSubCode_TraceRay_DirectionNaNOrInf
		CodeTraceRayTNegative:             22, // kErrorSubCode_TraceRay_TNegative
		CodeTraceRayTminGreaterThanTmax:   23, // kErrorSubCode_TraceRay_TMaxLessThanTMin
		CodeTraceRayTNaN:                  24, // kErrorSubCode_TraceRay_RayParametersNans
		CodeTraceRaySkipTrianglesPipeline: 26, // kErrorSubCode_TraceRay_SkipTrianglesWithPipelineSkipAABBs
		CodeTraceRaySkipAABBsPipeline:     27, // kErrorSubCode_TraceRay_SkipAABBsWithPipelineSkipTriangles
		CodeHitKind:                       41, // kErrorSubCode_ReportIntersection_HitKindOutOfRange
	}
	c := CheckByID(CheckTraceRay)
	if c == nil || !c.Default || c.noClamp != "" {
		t.Fatalf("trace_ray: %+v", c)
	}
	for _, rc := range c.Codes {
		if rc.Code < 64 || rc.Code > 111 {
			t.Errorf("%s: code %d outside 64-111", rc.GLSL, rc.Code)
		}
		if k, ok := khronos[rc.Code]; ok && int(rc.Code) != 64+k {
			t.Errorf("%s: code %d, want 64 + %d", rc.GLSL, rc.Code, k)
		}
		if _, ok := khronos[rc.Code]; !ok && !traceRaySBTCode(rc.Code) {
			t.Errorf("%s: code %d is neither the Khronos layer's nor an SBT one", rc.GLSL, rc.Code)
		}
		if TraceRayIDs[rc.Code] == "" {
			t.Errorf("%s: no id", rc.GLSL)
		}
	}
}

// TestTraceRayCode is the host twin of gpuav_trace_ray_code, used for
// constant operands: one code per rule, the first broken rule wins, in
// the Khronos layer's order (flags first, the SBT operands last).
func TestTraceRayCode(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	v := func(x ...float32) []float32 { return x }
	o, d := v(0, 0, 0), v(0, 0, 1)
	tests := []struct {
		flags, offset, stride, miss uint32
		o                           []float32
		tmin, tmax                  float32
		d                           []float32
		want                        CheckCode
	}{
		{0, 0, 1, 0, o, 0, 10, d, 0},
		{0, 15, 15, 65535, o, 0, inf, d, 0},
		{0, 0, 0, 0, o, 2, 2, d, 0},
		{0x1 | 0x4 | 0x8 | 0x10 | 0x200, 0, 0, 0, o, 0, 10, d, 0},
		{0x100 | 0x10, 0, 0, 0, o, 0, 10, d, CodeTraceRayTriangleFlags},
		{0x10 | 0x20 | 0x300, 0, 0, 0, v(nan, 0, 0), -1, 10, d, CodeTraceRayTriangleFlags},
		{0x1 | 0x2, 0, 0, 0, o, 0, 10, d, CodeTraceRayOpaqueFlags},
		{0x40 | 0x80 | 0x300, 0, 0, 0, o, 0, 10, d, CodeTraceRayOpaqueFlags},
		{0x300, 0, 0, 0, o, 0, 10, d, CodeTraceRaySkipBoth},
		{0x301, 16, 0, 0, v(inf, 0, 0), 0, 10, d, CodeTraceRaySkipBoth},
		{0, 0, 0, 0, v(0, inf, 0), 0, 10, d, CodeTraceRayOrigin},
		{0, 0, 0, 0, v(nan, 0, 0), -1, 10, v(0, 0, nan), CodeTraceRayOrigin},
		{0, 0, 0, 0, o, 0, 10, v(0, nan, 1), CodeTraceRayDirection},
		{0, 0, 0, 0, o, 0, 10, v(-inf, 0, 1), CodeTraceRayDirection},
		{0, 0, 0, 0, o, nan, 10, d, CodeTraceRayTNaN},
		{0, 0, 0, 0, o, -1, nan, d, CodeTraceRayTNaN},
		{0, 0, 0, 0, o, -1, 10, d, CodeTraceRayTNegative},
		{0, 0, 0, 0, o, 0, -1, d, CodeTraceRayTNegative},
		{0, 16, 0, 0, o, 5, 1, d, CodeTraceRayTminGreaterThanTmax},
		{0, 16, 16, 70000, o, 0, 10, d, CodeTraceRaySBTOffset},
		{0, 15, 16, 70000, o, 0, 10, d, CodeTraceRaySBTStride},
		{0, 15, 15, 70000, o, 0, 10, d, CodeTraceRayMissIndex},
		{0, 0, 0, 65536, o, 0, 10, d, CodeTraceRayMissIndex},
	}
	for i, tt := range tests {
		if got := traceRayCode(tt.flags, tt.offset, tt.stride, tt.miss, tt.o, tt.tmin, tt.d, tt.tmax, 0); got != tt.want {
			t.Errorf("%d: code %d, want %d", i, got, tt.want)
		}
	}
	// The skip flags against the pipeline word's: after the ray's rules,
	// before the SBT operands'.
	pipeTests := []struct {
		flags, pipe, offset uint32
		tmin                float32
		want                CheckCode
	}{
		{0x100, PipelineSkipTriangles, 0, 0, 0},
		{0x200, PipelineSkipAABBs, 0, 0, 0},
		{0x100, 0, 0, 0, 0},
		{0x100, PipelineSkipAABBs, 16, 0, CodeTraceRaySkipTrianglesPipeline},
		{0x200, PipelineSkipTriangles, 16, 0, CodeTraceRaySkipAABBsPipeline},
		{0x200, PipelineSkipTriangles | PipelineSkipAABBs, 0, 0, CodeTraceRaySkipAABBsPipeline},
		{0x100, PipelineSkipAABBs, 0, -1, CodeTraceRayTNegative},
		{0x300, PipelineSkipAABBs, 0, 0, CodeTraceRaySkipBoth},
	}
	for i, tt := range pipeTests {
		if got := traceRayCode(tt.flags, tt.offset, 0, 0, o, tt.tmin, d, 10, tt.pipe); got != tt.want {
			t.Errorf("pipeline %d: code %d, want %d", i, got, tt.want)
		}
	}
}

// TestDescribeTraceRay: each code names its VUID (or gpuav-dbg's id), the
// operands, and what the failed call did; the SBT codes are warnings.
func TestDescribeTraceRay(t *testing.T) {
	b := math.Float32bits
	// p7 of SBT operands that fit: offset 2, stride 1, miss index 3.
	const sbt = 2 | 1<<4 | 3<<8
	tests := []struct {
		code CheckCode
		p    [RecordParams]uint32
		vuid string
		msg  string
		warn bool
		sbt  *SBTValues
		dir  bool
	}{
		{CodeTraceRayTminGreaterThanTmax, [RecordParams]uint32{b(5), b(1), b(0), b(0), b(0), 1, 0xff, sbt},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06357",
			"OpTraceRayKHR operand RayTmin (5) is greater than RayTmax (1). The trace was not made: its ray payload kept its value.",
			false, &SBTValues{2, 1, 3}, false},
		{CodeTraceRayTNegative, [RecordParams]uint32{b(-0.5), b(10), b(0), b(0), b(0), 0, 0xff, sbt | TraceRayMade},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06356",
			"OpTraceRayKHR operand RayTmin (-0.5) is negative. The trace was made as written.", false, &SBTValues{2, 1, 3}, false},
		{CodeTraceRayTNegative, [RecordParams]uint32{b(0), b(-2), b(0), b(0), b(0), 0, 0xff, TraceRaySBTOffsetPast | TraceRayMasksSBT},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06356",
			"OpTraceRayKHR operand RayTmax (-2) is negative. The trace was not made: its ray payload kept its value.", false, nil, false},
		{CodeTraceRayTNegative, [RecordParams]uint32{b(-1), b(-2), b(0), b(0), b(0), 0, 0xff, 0},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06356",
			"OpTraceRayKHR operands RayTmin (-1) and RayTmax (-2) are negative. The trace was not made: its ray payload kept its value.",
			false, &SBTValues{}, false},
		{CodeTraceRayOrigin, [RecordParams]uint32{b(0), b(10), b(1), b(float32(math.Inf(1))), b(3), 0, 0xff, 0},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06355",
			"OpTraceRayKHR operand RayOrigin (1, +Inf, 3) is not finite. The trace was not made: its ray payload kept its value.",
			false, &SBTValues{}, false},
		{CodeTraceRayDirection, [RecordParams]uint32{b(0), b(10), b(0), b(float32(math.NaN())), b(1), 0, 0xff, 0},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06355",
			"OpTraceRayKHR operand RayDirection (0, NaN, 1) is not finite. The trace was not made: its ray payload kept its value.",
			false, &SBTValues{}, true},
		{CodeTraceRayTNaN, [RecordParams]uint32{b(float32(math.NaN())), b(10), 0, 0, 0, 0, 0xff, 0},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06358",
			"OpTraceRayKHR operands RayTmin (NaN) and RayTmax (10) must not be NaN. The trace was not made: its ray payload kept its value.",
			false, &SBTValues{}, false},
		{CodeTraceRaySkipBoth, [RecordParams]uint32{b(0), b(10), 0, 0, 0, 0x301, 0xff, 0},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06552",
			"OpTraceRayKHR operand Rayflags 0x301 (OpaqueKHR|SkipTrianglesKHR|SkipAABBsKHR) contains both SkipTrianglesKHR and SkipAABBsKHR. The trace was not made: its ray payload kept its value.",
			false, &SBTValues{}, false},
		{CodeTraceRayTriangleFlags, [RecordParams]uint32{b(0), b(10), 0, 0, 0, 0x110, 0xff, 0},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06892",
			"OpTraceRayKHR operand Rayflags 0x110 (CullBackFacingTrianglesKHR|SkipTrianglesKHR) contains more than one of SkipTrianglesKHR, CullBackFacingTrianglesKHR and CullFrontFacingTrianglesKHR. The trace was not made: its ray payload kept its value.",
			false, &SBTValues{}, false},
		{CodeTraceRayOpaqueFlags, [RecordParams]uint32{b(0), b(10), 0, 0, 0, 0x41, 0xff, 0},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06893",
			"OpTraceRayKHR operand Rayflags 0x41 (OpaqueKHR|CullOpaqueKHR) contains more than one of OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR and CullNoOpaqueKHR. The trace was not made: its ray payload kept its value.",
			false, &SBTValues{}, false},
		{CodeTraceRaySkipTrianglesPipeline, [RecordParams]uint32{b(0), b(10), 0, 0, 0, 0x101, 0xff, 0},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06553",
			"OpTraceRayKHR operand Rayflags 0x101 (OpaqueKHR|SkipTrianglesKHR) contains SkipTrianglesKHR, but the pipeline was created with VK_PIPELINE_CREATE_RAY_TRACING_SKIP_AABBS_BIT_KHR (a ray may not skip both). The trace was not made: its ray payload kept its value.",
			false, &SBTValues{}, false},
		{CodeTraceRaySkipAABBsPipeline, [RecordParams]uint32{b(0), b(10), 0, 0, 0, 0x200, 0xff, TraceRayMade},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06554",
			"OpTraceRayKHR operand Rayflags 0x200 (SkipAABBsKHR) contains SkipAABBsKHR, but the pipeline was created with VK_PIPELINE_CREATE_RAY_TRACING_SKIP_TRIANGLES_BIT_KHR (a ray may not skip both). The trace was made as written.",
			false, &SBTValues{}, false},
		{CodeTraceRaySBTOffset, [RecordParams]uint32{b(0), b(10), 16, 1, 70000, 0, 0xff, TraceRaySBTOffsetPast | TraceRayMissIndexPast | 1<<4 | 4464<<8},
			"gpuav-dbg-TraceRay-SBT-Offset",
			"OpTraceRayKHR operand SBT Offset (16) is past the 4 bits the instruction uses: it uses 0 (SBT Offset & 0xF). The trace was not made: its ray payload kept its value.",
			true, &SBTValues{16, 1, 70000}, false},
		{CodeTraceRaySBTStride, [RecordParams]uint32{b(0), b(10), 3, 17, 0, 0, 0xff, TraceRaySBTStridePast | TraceRayMasksSBT},
			"gpuav-dbg-TraceRay-SBT-Stride",
			"OpTraceRayKHR operand SBT Stride (17) is past the 4 bits the instruction uses: it uses 1 (SBT Stride & 0xF). The trace was made with its SBT operands masked to their bits (SBT Offset 3, SBT Stride 1, Miss Index 0).",
			true, &SBTValues{3, 17, 0}, false},
		{CodeTraceRayMissIndex, [RecordParams]uint32{b(0), b(10), 0, 1, 70000, 0, 0xff, TraceRayMissIndexPast | TraceRayMade},
			"gpuav-dbg-TraceRay-Miss-Index",
			"OpTraceRayKHR operand Miss Index (70000) is past the 16 bits the instruction uses: it uses 4464 (Miss Index & 0xFFFF). The trace was made as written.",
			true, &SBTValues{0, 1, 70000}, false},
	}
	for _, tt := range tests {
		d := Describe(tt.code, tt.p)
		if d.Check != CheckTraceRay || d.VUID("vkCmdTraceRaysKHR") != tt.vuid || d.Message != tt.msg || d.Warning != tt.warn {
			t.Errorf("code %d: check %q vuid %q warning %v message %q\nwant vuid %q warning %v message %q",
				tt.code, d.Check, d.VUID("vkCmdTraceRaysKHR"), d.Warning, d.Message, tt.vuid, tt.warn, tt.msg)
		}
		if d.Ray == nil || d.Ray.Flags != tt.p[5] || d.Ray.CullMask != 0xff || (d.Ray.Direction != nil) != tt.dir ||
			(d.Ray.Origin != nil) != (!tt.dir && !traceRaySBTCode(tt.code)) {
			t.Errorf("code %d: ray values %+v", tt.code, d.Ray)
		}
		if (d.SBT == nil) != (tt.sbt == nil) || d.SBT != nil && *d.SBT != *tt.sbt {
			t.Errorf("code %d: sbt %+v, want %+v", tt.code, d.SBT, tt.sbt)
		}
	}
	d := Describe(CodeHitKind, [RecordParams]uint32{200, b(5)})
	if d.VUID("vkCmdTraceRaysKHR") != "VUID-RuntimeSpirv-OpReportIntersectionKHR-06998" || d.HitKind == nil ||
		*d.HitKind != (HitKindValues{200, 5}) || d.Ray != nil || d.Warning ||
		d.Message != "OpReportIntersectionKHR operand Hit Kind (200) is greater than 127 (Hit 5): hit kinds 128-255 are reserved. The intersection was not reported (OpReportIntersectionKHR returned false)." {
		t.Errorf("hit kind: %q %q %+v", d.VUID(""), d.Message, d.HitKind)
	}
	d = Describe(CodeHitKind, [RecordParams]uint32{256, b(0.5), TraceRayMade})
	if !strings.HasSuffix(d.Message, "(Hit 0.5): hit kinds 128-255 are reserved. The intersection was reported as written.") {
		t.Errorf("hit kind executed: %q", d.Message)
	}
}

// TestTraceRayFailedAccess: skip does not make the call; clamp masks the
// SBT operand (the value the trace used) and skips the rest; execute
// makes it.
func TestTraceRayFailedAccess(t *testing.T) {
	p := [RecordParams]uint32{0, 0, 16, 17, 70000}
	for _, tt := range []struct {
		v    OnError
		code CheckCode
		want Outcome
	}{
		{OnErrorSkip, CodeTraceRaySBTOffset, Outcome{Access: AccessSkipped}},
		{OnErrorSkip, CodeHitKind, Outcome{Access: AccessSkipped}},
		{OnErrorExecute, CodeTraceRayTNaN, Outcome{Access: AccessExecuted}},
		{OnErrorClamp, CodeTraceRaySBTOffset, Outcome{Access: AccessClamped, Clamped: true, ClampedTo: 0}},
		{OnErrorClamp, CodeTraceRaySBTStride, Outcome{Access: AccessClamped, Clamped: true, ClampedTo: 1}},
		{OnErrorClamp, CodeTraceRayMissIndex, Outcome{Access: AccessClamped, Clamped: true, ClampedTo: 4464}},
		{OnErrorClamp, CodeTraceRayTminGreaterThanTmax, Outcome{Access: AccessSkipped,
			Reason: "clamp has no meaning here (a ray's values and flags are not an index: the trace was not made)"}},
		{OnErrorClamp, CodeHitKind, Outcome{Access: AccessSkipped, Reason: "clamp has no meaning here (a hit kind is a name, not an index)"}},
	} {
		if got := FailedAccess(tt.v, tt.code, p); got != tt.want {
			t.Errorf("%s %d: %+v, want %+v", tt.v, tt.code, got, tt.want)
		}
	}
}

// TestTraceRaySites: under each on_error, every checked trace's report
// names its own instruction, the site record puts the dynamic values in
// p0..p7 with what the failed call does ORed into p7 (p2 for a hit kind),
// and the failed side makes the trace as written (execute), with masked
// SBT operands (clamp), or not at all (skip).
func TestTraceRaySites(t *testing.T) {
	for _, v := range []OnError{OnErrorSkip, OnErrorClamp, OnErrorExecute} {
		t.Run(string(v), func(t *testing.T) {
			w := compileFlags(t, "trace_ray_hit.rchit", "-g", "--target-env", "vulkan1.2")
			res, err := Instrument(w, Options{ShaderID: 3, DescriptorSet: 7, OnError: v, Checks: map[string]bool{CheckTraceRay: true}})
			if err != nil || res.ChecksAdded != 1 || len(res.Sites) != 1 {
				t.Fatalf("err %v checks %d sites %+v", err, res.ChecksAdded, res.Sites)
			}
			validate(t, res.Words, "vulkan1.2")
			made := map[OnError]uint32{OnErrorClamp: TraceRayMasksSBT, OnErrorExecute: TraceRayMade}[v]
			s := res.Sites[0]
			if s.OnError != v || s.Record.Params[7] != made || !slices.Equal(s.Record.Dynamic[:], []uint8{1, 2, 3, 4, 5, 6, 7, 8}) {
				t.Errorf("site %+v", s)
			}
			m, err := spirv.Parse(res.Words)
			if err != nil {
				t.Fatal(err)
			}
			var traces, masks int
			for _, f := range m.Functions {
				for _, b := range f.Blocks {
					for _, in := range b.Insts {
						switch in.Opcode() {
						case spirv.OpTraceRayKHR:
							traces++
						case spirv.OpBitwiseAnd:
							masks++
						}
					}
				}
			}
			want := map[OnError][2]int{OnErrorSkip: {1, 0}, OnErrorClamp: {2, 3}, OnErrorExecute: {2, 0}}[v]
			if traces != want[0] || masks < want[1] {
				t.Errorf("%d traces, %d masks; want %d, at least %d", traces, masks, want[0], want[1])
			}

			w = compileFlags(t, "trace_ray_hit_kind.rint", "-g", "--target-env", "vulkan1.2")
			res, err = Instrument(w, Options{ShaderID: 3, DescriptorSet: 7, OnError: v, Checks: map[string]bool{CheckTraceRay: true}})
			if err != nil || res.ChecksAdded != 1 || len(res.Sites) != 1 {
				t.Fatalf("hit kind: err %v checks %d sites %+v", err, res.ChecksAdded, res.Sites)
			}
			validate(t, res.Words, "vulkan1.2")
			s = res.Sites[0]
			if v == OnErrorClamp {
				v = OnErrorSkip // nothing to clamp
			}
			if s.OnError != v || s.Record.Params[2] != map[OnError]uint32{OnErrorExecute: TraceRayMade}[v] {
				t.Errorf("hit kind site %+v", s)
			}
		})
	}
}

// TestTraceRayCheckOff: with trace_ray off, a module whose only checkable
// instruction is a trace is unchanged; with it on, a trace whose operands
// are constants that obey the rules gets nothing either.
func TestTraceRayCheckOff(t *testing.T) {
	w := compileFlags(t, "trace_ray_miss.rmiss", "-g", "--target-env", "vulkan1.2")
	checks := map[string]bool{}
	for _, id := range AllChecks {
		checks[id] = id != CheckTraceRay
	}
	res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7, Checks: checks})
	if err != nil || res.Instrumented || res.ChecksAdded != 0 || len(res.Words) != len(w) {
		t.Fatalf("err %v instrumented %v checks %d", err, res.Instrumented, res.ChecksAdded)
	}
}
