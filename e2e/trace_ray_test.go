package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// traceReport is the part of the headless JSON TestTraceRay reads.
type traceReport struct {
	Errors []struct {
		Check   string `json:"check"`
		Level   string `json:"level"`
		VUID    string `json:"vuid"`
		Message string `json:"message"`
		Count   int    `json:"count"`
		Stage   string `json:"stage"`
		Samples []map[string][]float64
		Ray     *struct {
			Tmin      json.RawMessage     `json:"tmin"`
			Tmax      json.RawMessage     `json:"tmax"`
			Origin    *[3]json.RawMessage `json:"origin"`
			Direction *[3]json.RawMessage `json:"direction"`
			Flags     uint32              `json:"flags"`
			CullMask  uint32              `json:"cull_mask"`
		} `json:"ray"`
		SBT *struct {
			Offset    uint32 `json:"offset"`
			Stride    uint32 `json:"stride"`
			MissIndex uint32 `json:"miss_index"`
		} `json:"sbt"`
		Intersection *struct {
			HitKind uint32          `json:"hit_kind"`
			Hit     json.RawMessage `json:"hit"`
		} `json:"intersection"`
		Outcome *struct {
			Access    string  `json:"access"`
			ClampedTo *uint32 `json:"clamped_to"`
		} `json:"outcome"`
		errorWhere
	} `json:"errors"`
}

// requireTraceRay skips a test where vulkaninfo says the device cannot run
// traceapp (it would print "unsupported").
func requireTraceRay(t *testing.T) {
	t.Helper()
	for _, f := range []string{"rayTracingPipeline", "accelerationStructure", "bufferDeviceAddress"} {
		if !driverHas(t, f) {
			t.Skipf("the device has no %s (vulkaninfo): traceapp needs it", f)
		}
	}
}

// requireTraceRayCulling skips a test of a pipeline's skip flags where
// vulkaninfo says the device has no rayTraversalPrimitiveCulling.
func requireTraceRayCulling(t *testing.T) {
	t.Helper()
	if !driverHas(t, "rayTraversalPrimitiveCulling") {
		t.Skip("the device has no rayTraversalPrimitiveCulling (vulkaninfo): a pipeline cannot skip triangles or AABBs")
	}
}

// TestTraceRay: traceapp's invalid traces and hit kinds on lavapipe, one
// case per rule, in the stages that can trace (raygen, closest hit, miss)
// and the intersection shader: one group of the launch's 4 invocations
// with the VUID (or gpuav-dbg's id for the SBT operands, warnings), the
// message with the values, the JSON's ray, sbt and intersection objects,
// the launch ids, the line of the stage's shader; the failed call is not
// made (the payload keeps its 7, or the trace's 100; an intersection not
// reported misses the box: 2).
func TestTraceRay(t *testing.T) {
	requireTraceRay(t)
	tests := []struct {
		name, stage string
		args        []string // after --stage
		vuid, level string
		message     string
		payload     string
		// ray: tmin, tmax, the vector's JSON (origin, or direction when
		// dir), flags; sbt: "offset stride miss" or "" for none;
		// hitKind: 0 for a trace.
		tmin, tmax, vec string
		dir             bool
		flags           uint32
		sbt             string
		hitKind         uint32
	}{
		{"tmin_gt_tmax", "raygen", []string{"--ray", "0", "0", "0", "0", "0", "1", "6", "4.5"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06357", "error",
			"OpTraceRayKHR operand RayTmin (6) is greater than RayTmax (4.5). The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "6", "4.5", "[0,0,0]", false, 1, "0 0 0", 0},
		{"direction_nan", "raygen", []string{"--ray", "0", "0", "0", "0", "nan", "1", "0", "10"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06355", "error",
			"OpTraceRayKHR operand RayDirection (0, NaN, 1) is not finite. The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", `[0,"NaN",1]`, true, 1, "0 0 0", 0},
		{"origin_inf", "raygen", []string{"--ray", "0", "-inf", "0.25", "0", "0", "1", "0", "10"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06355", "error",
			"OpTraceRayKHR operand RayOrigin (0, -Inf, 0.25) is not finite. The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", `[0,"-Inf",0.25]`, false, 1, "0 0 0", 0},
		{"negative_tmin", "raygen", []string{"--ray", "0", "0", "0", "0", "0", "1", "-1", "10"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06356", "error",
			"OpTraceRayKHR operand RayTmin (-1) is negative. The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "-1", "10", "[0,0,0]", false, 1, "0 0 0", 0},
		{"t_nan", "raygen", []string{"--ray", "0", "0", "0", "0", "0", "1", "0", "nan"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06358", "error",
			"OpTraceRayKHR operands RayTmin (0) and RayTmax (NaN) must not be NaN. The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", `"NaN"`, "[0,0,0]", false, 1, "0 0 0", 0},
		{"skip_both", "raygen", []string{"--flags", "0x301"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06552", "error",
			"OpTraceRayKHR operand Rayflags 0x301 (OpaqueKHR|SkipTrianglesKHR|SkipAABBsKHR) contains both SkipTrianglesKHR and SkipAABBsKHR. The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", "[0,0,0]", false, 0x301, "0 0 0", 0},
		{"skip_and_cull", "raygen", []string{"--flags", "0x110"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06892", "error",
			"OpTraceRayKHR operand Rayflags 0x110 (CullBackFacingTrianglesKHR|SkipTrianglesKHR) contains more than one of SkipTrianglesKHR, CullBackFacingTrianglesKHR and CullFrontFacingTrianglesKHR. The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", "[0,0,0]", false, 0x110, "0 0 0", 0},
		{"opaque_flags", "raygen", []string{"--flags", "0x3"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06893", "error",
			"OpTraceRayKHR operand Rayflags 0x3 (OpaqueKHR|NoOpaqueKHR) contains more than one of OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR and CullNoOpaqueKHR. The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", "[0,0,0]", false, 0x3, "0 0 0", 0},
		{"sbt_offset_16", "raygen", []string{"--sbt", "16", "1", "0"},
			"gpuav-dbg-TraceRay-SBT-Offset", "warning",
			"OpTraceRayKHR operand SBT Offset (16) is past the 4 bits the instruction uses: it uses 0 (SBT Offset & 0xF). The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", "", false, 1, "16 1 0", 0},
		{"sbt_stride_16", "raygen", []string{"--sbt", "0", "16", "0"},
			"gpuav-dbg-TraceRay-SBT-Stride", "warning",
			"OpTraceRayKHR operand SBT Stride (16) is past the 4 bits the instruction uses: it uses 0 (SBT Stride & 0xF). The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", "", false, 1, "0 16 0", 0},
		{"miss_index_70000", "raygen", []string{"--sbt", "0", "1", "70000"},
			"gpuav-dbg-TraceRay-Miss-Index", "warning",
			"OpTraceRayKHR operand Miss Index (70000) is past the 16 bits the instruction uses: it uses 4464 (Miss Index & 0xFFFF). The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", "", false, 1, "0 1 70000", 0},
		// Rayflags against the pipeline's skip flags (the pipeline word).
		{"skip_triangles_in_skip_aabbs_pipeline", "raygen", []string{"--flags", "0x101", "--pipeline", "skip-aabbs"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06553", "error",
			"OpTraceRayKHR operand Rayflags 0x101 (OpaqueKHR|SkipTrianglesKHR) contains SkipTrianglesKHR, but the pipeline was created with VK_PIPELINE_CREATE_RAY_TRACING_SKIP_AABBS_BIT_KHR (a ray may not skip both). The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", "[0,0,0]", false, 0x101, "0 0 0", 0},
		{"skip_aabbs_in_skip_triangles_pipeline", "raygen", []string{"--flags", "0x201", "--pipeline", "skip-triangles"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06554", "error",
			"OpTraceRayKHR operand Rayflags 0x201 (OpaqueKHR|SkipAABBsKHR) contains SkipAABBsKHR, but the pipeline was created with VK_PIPELINE_CREATE_RAY_TRACING_SKIP_TRIANGLES_BIT_KHR (a ray may not skip both). The trace was not made: its ray payload kept its value.",
			"payload=7 7 7 7", "0", "10", "[0,0,0]", false, 0x201, "0 0 0", 0},
		{"skip_aabbs_in_skip_triangles_pipeline", "rmiss", []string{"--flags", "0x200", "--pipeline", "skip-triangles"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06554", "error",
			"OpTraceRayKHR operand Rayflags 0x200 (SkipAABBsKHR) contains SkipAABBsKHR, but the pipeline was created with VK_PIPELINE_CREATE_RAY_TRACING_SKIP_TRIANGLES_BIT_KHR (a ray may not skip both). The trace was not made: its ray payload kept its value.",
			"payload=110 110 110 110", "0", "10", "[0,0,0]", false, 0x200, "0 0 0", 0},
		// The closest-hit and miss shaders' own traces: 10 + the 100 they
		// left in their payload.
		{"tmin_gt_tmax", "rchit", []string{"--ray", "0", "0", "0", "0", "0", "1", "2", "1"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06357", "error",
			"OpTraceRayKHR operand RayTmin (2) is greater than RayTmax (1). The trace was not made: its ray payload kept its value.",
			"payload=110 110 110 110", "2", "1", "[0,0,0]", false, 1, "0 0 0", 0},
		{"direction_nan", "rmiss", []string{"--ray", "0", "0", "0", "nan", "0", "1", "0", "10"},
			"VUID-RuntimeSpirv-OpTraceRayKHR-06355", "error",
			"OpTraceRayKHR operand RayDirection (NaN, 0, 1) is not finite. The trace was not made: its ray payload kept its value.",
			"payload=110 110 110 110", "0", "10", `["NaN",0,1]`, true, 1, "0 0 0", 0},
		// The intersection shader's hit kind: not reported, the ray misses.
		{"hit_kind_200", "rint", []string{"--hit-kind", "200"},
			"VUID-RuntimeSpirv-OpReportIntersectionKHR-06998", "error",
			"OpReportIntersectionKHR operand Hit Kind (200) is greater than 127 (Hit 5): hit kinds 128-255 are reserved. The intersection was not reported (OpReportIntersectionKHR returned false).",
			"payload=2 2 2 2", "", "", "", false, 0, "", 200},
	}
	files := map[string]string{"raygen": "trace.rgen", "rchit": "trace.rchit", "rmiss": "trace.rmiss", "rint": "trace.rint"}
	stages := map[string]string{"raygen": "raygen", "rchit": "closest_hit", "rmiss": "miss", "rint": "intersection"}
	for _, tt := range tests {
		t.Run(tt.stage+"/"+tt.name, func(t *testing.T) {
			if slices.Contains(tt.args, "--pipeline") {
				requireTraceRayCulling(t)
			}
			var r traceReport
			code, out := traceApp.runInto(t, &r, nil, nil, append([]string{"--stage", tt.stage}, tt.args...)...)
			wantCode := 1
			if tt.level == "warning" {
				wantCode = 0 // only warnings
			}
			if code != wantCode || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d groups; want %d, 1\n%s", code, len(r.Errors), wantCode, out)
			}
			requireLines(t, out, []string{tt.payload})
			e := r.Errors[0]
			if e.Check != "trace_ray" || e.VUID != tt.vuid || e.Level != tt.level || e.Count != 4 || e.Stage != stages[tt.stage] ||
				e.Action != "vkCmdTraceRaysKHR" || e.ActionIndex != 0 || e.CommandBuffer.Name != "trace-cmd" ||
				e.Pipeline.Name != "trace-pipeline" {
				t.Errorf("group: check %q vuid %q level %q count %d stage %q action %q #%d cb %q pipeline %q",
					e.Check, e.VUID, e.Level, e.Count, e.Stage, e.Action, e.ActionIndex, e.CommandBuffer.Name, e.Pipeline.Name)
			}
			if !strings.HasPrefix(e.Message, "trace_ray: "+tt.message+" "+tt.vuid+".") {
				t.Errorf("message %q\nwant it to start with %q", e.Message, tt.message)
			}
			if e.Outcome == nil || e.Outcome.Access != "skipped" {
				t.Errorf("outcome %+v, want skipped", e.Outcome)
			}
			at := expectAt(t, files[tt.stage], "trace_ray")
			if e.Source.File != files[tt.stage] || e.Source.Line != at.line || e.Source.Text != at.text {
				t.Errorf("source %+v, want %s:%d %q", e.Source, files[tt.stage], at.line, at.text)
			}
			xs := map[float64]bool{}
			for _, s := range e.Samples {
				if c := s["launch_id"]; len(c) == 3 && c[1] == 0 && c[2] == 0 {
					xs[c[0]] = true
				}
			}
			if len(e.Samples) != 4 || !xs[0] || !xs[1] || !xs[2] || !xs[3] {
				t.Errorf("samples %v, want launch_id x = 0..3", e.Samples)
			}
			if tt.hitKind != 0 {
				if h := e.Intersection; h == nil || h.HitKind != tt.hitKind || string(h.Hit) != "5" || e.Ray != nil || e.SBT != nil {
					t.Errorf("intersection %+v ray %+v sbt %+v, want hit kind %d at 5", e.Intersection, e.Ray, e.SBT, tt.hitKind)
				}
				return
			}
			vec := func(v *[3]json.RawMessage) string {
				if v == nil {
					return ""
				}
				return "[" + string(v[0]) + "," + string(v[1]) + "," + string(v[2]) + "]"
			}
			ray := e.Ray
			if ray == nil {
				t.Fatalf("no ray values")
			}
			origin, direction := tt.vec, ""
			if tt.dir {
				origin, direction = "", tt.vec
			}
			if string(ray.Tmin) != tt.tmin || string(ray.Tmax) != tt.tmax || vec(ray.Origin) != origin ||
				vec(ray.Direction) != direction || ray.Flags != tt.flags || ray.CullMask != 0xff {
				t.Errorf("ray: tmin %s tmax %s origin %s direction %s flags %#x cull %#x", ray.Tmin, ray.Tmax, vec(ray.Origin),
					vec(ray.Direction), ray.Flags, ray.CullMask)
			}
			if s := e.SBT; s == nil || fmt.Sprintf("%d %d %d", s.Offset, s.Stride, s.MissIndex) != tt.sbt {
				t.Errorf("sbt %+v, want %s", e.SBT, tt.sbt)
			}
		})
	}
	// Clean twins: RayTmin == RayTmax (valid: an empty interval, the ray
	// misses), the SBT operands at their highest values that fit, hit
	// kind 127 (the highest not reserved) and 5.
	for _, c := range []struct {
		name, payload string
		args          []string
	}{
		{"tmin_eq_tmax", "payload=2 2 2 2", []string{"--ray", "0", "0", "0", "0", "0", "1", "3", "3"}},
		{"rchit/tmin_eq_tmax", "payload=12 12 12 12", []string{"--stage", "rchit", "--ray", "0", "0", "0", "0", "0", "1", "3", "3"}},
		{"rmiss/valid", "payload=11 11 11 11", []string{"--stage", "rmiss"}},
		{"sbt_within_bits", "payload=1 1 1 1", []string{"--sbt", "0", "15", "65535"}},
		{"hit_kind_127", "payload=1127 1127 1127 1127", []string{"--stage", "rint", "--hit-kind", "127"}},
		{"hit_kind_5", "payload=1005 1005 1005 1005", []string{"--stage", "rint"}},
		// A skip flag the pipeline's own flag agrees with, and a skip
		// pipeline with no skip flag: the triangle is skipped (a miss) and
		// hit.
		{"skip_triangles_in_skip_triangles_pipeline", "payload=2 2 2 2", []string{"--flags", "0x101", "--pipeline", "skip-triangles"}},
		{"no_skip_in_skip_aabbs_pipeline", "payload=1 1 1 1", []string{"--pipeline", "skip-aabbs"}},
		{"skip_triangles_in_skip_triangles_pipeline_without_flag", "payload=2 2 2 2", []string{"--pipeline", "skip-triangles"}},
	} {
		t.Run("clean/"+c.name, func(t *testing.T) {
			if slices.Contains(c.args, "--pipeline") {
				requireTraceRayCulling(t)
			}
			traceApp.runClean(t, nil, c.payload, "a valid call is made and reports nothing", c.args...)
		})
	}
}

// TestTraceRaySBTOnError: an SBT operand past its bits under clamp is
// masked to them and the trace is made (the SBT Offset 16 goes to hit group
// 0: the ray hits), with clamped_to the value it used; under execute the
// trace is made as written (the driver uses the same bits).
func TestTraceRaySBTOnError(t *testing.T) {
	requireTraceRay(t)
	for _, tc := range []struct {
		onError, access string
		clampedTo       int64
		outcome         string
	}{
		{"clamp", "clamped", 0, "The trace was made with its SBT operands masked to their bits (SBT Offset 0, SBT Stride 1, Miss Index 0)."},
		{"execute", "executed", -1, "The trace was made as written."},
	} {
		t.Run(tc.onError, func(t *testing.T) {
			var r traceReport
			code, out := traceApp.runInto(t, &r, nil, []string{"--on-error", tc.onError}, "--sbt", "16", "1", "0")
			if code != 0 || len(r.Errors) != 1 || r.Errors[0].Level != "warning" {
				t.Fatalf("exit %d, %d groups; want 0 and one warning\n%s", code, len(r.Errors), out)
			}
			requireLines(t, out, []string{"payload=1 1 1 1"})
			e := r.Errors[0]
			if o := e.Outcome; o == nil || o.Access != tc.access || (o.ClampedTo == nil) != (tc.clampedTo < 0) ||
				o.ClampedTo != nil && int64(*o.ClampedTo) != tc.clampedTo {
				t.Errorf("outcome %+v, want %s %d", e.Outcome, tc.access, tc.clampedTo)
			}
			if !strings.Contains(e.Message, "it uses 0 (SBT Offset & 0xF). "+tc.outcome+" gpuav-dbg-TraceRay-SBT-Offset.") {
				t.Errorf("message %q, want the outcome %q", e.Message, tc.outcome)
			}
		})
	}
}

// TestTraceRayAtLeastWhatKhronosFinds: every trace-ray VUID the Khronos
// layer's GPU-assisted validation reports for a traceapp case, gpuav-dbg
// reports too. The Khronos layer 1.3.239 (Debian's) checks none of them
// and reports nothing; 1.4.363, where it checks them (gpuav_validate_trace_ray),
// reports 06357, 06355 and 06998 under the same ids as ours, and 06553 and
// 06554 for the skip flags against the pipeline's (one message per launch
// where gpuav-dbg has one group of 4).
func TestTraceRayAtLeastWhatKhronosFinds(t *testing.T) {
	requireTraceRay(t)
	requireKhronos(t)
	vuidRe := regexp.MustCompile(`VUID-RuntimeSpirv-Op(TraceRayKHR|ReportIntersectionKHR)-\d+`)
	for _, args := range [][]string{
		{"--ray", "0", "0", "0", "0", "0", "1", "6", "4.5"},
		{"--stage", "rchit", "--ray", "0", "0", "0", "0", "nan", "1", "0", "10"},
		{"--stage", "rint", "--hit-kind", "200"},
		{"--flags", "0x101", "--pipeline", "skip-aabbs"},
		{"--stage", "rmiss", "--flags", "0x200", "--pipeline", "skip-triangles"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			if slices.Contains(args, "--pipeline") {
				requireTraceRayCulling(t)
			}
			theirs := vuidRe.FindAllString(traceApp.runKhronos(t, args...), -1)
			var r traceReport
			code, out := traceApp.runInto(t, &r, nil, nil, args...)
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d groups; want 1, 1\n%s", code, len(r.Errors), out)
			}
			for _, v := range theirs {
				if r.Errors[0].VUID != v {
					t.Errorf("the Khronos layer reports %s; gpuav-dbg %s", v, r.Errors[0].VUID)
				}
			}
		})
	}
}
