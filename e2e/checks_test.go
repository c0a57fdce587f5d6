package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestRayQueryCheck: each OpRayQueryInitializeKHR rule broken in a compute
// and in a ray-generation shader on lavapipe, with the exact values, the
// VUID of the Vulkan environment for SPIR-V and the source line; the failed
// initialize finds nothing (hit=0 where the app's ray would hit the
// triangle); a valid ray is silent and hits.
//
// A device without rayQuery (vulkaninfo says so: the NVIDIA H200) skips it.
func TestRayQueryCheck(t *testing.T) {
	if !driverHas(t, "rayQuery") {
		t.Skip("the device has no rayQuery (vulkaninfo): no shader can use a ray query there")
	}
	tests := []struct {
		name      string
		ray       string // ox oy oz dx dy dz tmin tmax
		flags     uint32 // Rayflags (--flags); 0 means the app's default, 1 (Opaque)
		vuid      string
		message   string
		tmin      string
		tmax      string
		origin    string // JSON of the origin, or "" when direction is set
		direction string
	}{
		{"negative_tmin", "0 0 0 0 0 1 -1 10", 0, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06349",
			"OpRayQueryInitializeKHR operand RayTmin (-1) is negative.", "-1", "10", "[0,0,0]", ""},
		{"negative_tmax", "0 0 0 0 0 1 0 -2", 0, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06349",
			"OpRayQueryInitializeKHR operand RayTmax (-2) is negative.", "0", "-2", "[0,0,0]", ""},
		{"tmin_gt_tmax", "0 0 0 0 0 1 6 4.5", 0, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06350",
			"OpRayQueryInitializeKHR operand RayTmin (6) is greater than RayTmax (4.5).", "6", "4.5", "[0,0,0]", ""},
		{"origin_inf", "0 inf 0.25 0 0 1 0 10", 0, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06348",
			"OpRayQueryInitializeKHR operand RayOrigin (0, +Inf, 0.25) is not finite.", "0", "10", `[0,"+Inf",0.25]`, ""},
		{"direction_nan", "0 0 0 0 nan 1 0 10", 0, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06348",
			"OpRayQueryInitializeKHR operand RayDirection (0, NaN, 1) is not finite.", "0", "10", "", `[0,"NaN",1]`},
		{"t_nan", "0 0 0 0 0 1 0 nan", 0, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06351",
			"OpRayQueryInitializeKHR operands RayTmin (0) and RayTmax (NaN) must not be NaN.", "0", `"NaN"`, "[0,0,0]", ""},
		{"skip_triangles_and_aabbs", "0 0 0 0 0 1 0 10", 0x301, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06889",
			"OpRayQueryInitializeKHR operand Rayflags 0x301 (OpaqueKHR|SkipTrianglesKHR|SkipAABBsKHR) contains both SkipTrianglesKHR and SkipAABBsKHR.",
			"0", "10", "[0,0,0]", ""},
		{"cull_back_and_front", "0 0 0 0 0 1 0.5 8", 0x31, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06890",
			"OpRayQueryInitializeKHR operand Rayflags 0x31 (OpaqueKHR|CullBackFacingTrianglesKHR|CullFrontFacingTrianglesKHR) contains more than one of SkipTrianglesKHR, CullBackFacingTrianglesKHR and CullFrontFacingTrianglesKHR.",
			"0.5", "8", "[0,0,0]", ""},
		{"opaque_and_no_opaque", "0 0 0 0 0 1 0 10", 0x3, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06891",
			"OpRayQueryInitializeKHR operand Rayflags 0x3 (OpaqueKHR|NoOpaqueKHR) contains more than one of OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR and CullNoOpaqueKHR.",
			"0", "10", "[0,0,0]", ""},
	}
	for _, stage := range []string{"compute", "raygen"} {
		action, coordKey := "vkCmdDispatch", "global_invocation_id"
		if stage == "raygen" {
			action, coordKey = "vkCmdTraceRaysKHR", "launch_id"
		}
		for _, tt := range tests {
			t.Run(stage+"/"+tt.name, func(t *testing.T) {
				args := append([]string{"--stage", stage, "--ray"}, strings.Fields(tt.ray)...)
				wantFlags := uint32(1)
				if tt.flags != 0 {
					wantFlags = tt.flags
					args = append(args, "--flags", fmt.Sprintf("%#x", tt.flags))
				}
				code, r, out := rqApp.run(t, nil, nil, args...)
				if code != 1 {
					t.Fatalf("exit code %d, want 1\n%s", code, out)
				}
				if !strings.Contains(out, "hit=0 0 0 0") {
					t.Errorf("the failed initialize must find nothing; app printed:\n%s", out)
				}
				if len(r.Errors) != 1 {
					t.Fatalf("%d error groups, want 1\n%s", len(r.Errors), out)
				}
				e := r.Errors[0]
				if e.Check != "ray_query" || e.VUID != tt.vuid || e.Count != 4 || e.Stage != stage ||
					e.Action != action || e.ActionIndex != 0 || e.CommandBuffer.Name != "rq-cmd" || e.Pipeline.Name != "rq-pipeline" {
					t.Errorf("group: check %q vuid %q count %d stage %q action %q #%d cb %q pipeline %q",
						e.Check, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.CommandBuffer.Name, e.Pipeline.Name)
				}
				if !strings.Contains(e.Message, tt.message) {
					t.Errorf("message %q, want it to contain %q", e.Message, tt.message)
				}
				if e.Ray == nil {
					t.Fatalf("no ray values")
				}
				vec := func(v *[3]json.RawMessage) string {
					if v == nil {
						return ""
					}
					return "[" + string(v[0]) + "," + string(v[1]) + "," + string(v[2]) + "]"
				}
				if string(e.Ray.Tmin) != tt.tmin || string(e.Ray.Tmax) != tt.tmax || vec(e.Ray.Origin) != tt.origin ||
					vec(e.Ray.Direction) != tt.direction || e.Ray.Flags != wantFlags || e.Ray.CullMask != 0xff {
					t.Errorf("ray: tmin %s tmax %s origin %s direction %s flags %d cull %#x",
						e.Ray.Tmin, e.Ray.Tmax, vec(e.Ray.Origin), vec(e.Ray.Direction), e.Ray.Flags, e.Ray.CullMask)
				}
				xs := map[float64]bool{}
				for _, s := range e.Samples {
					if c := s[coordKey]; len(c) == 3 && c[1] == 0 && c[2] == 0 {
						xs[c[0]] = true
					}
				}
				if len(e.Samples) != 4 || !xs[0] || !xs[1] || !xs[2] || !xs[3] {
					t.Errorf("samples %v, want %s x = 0..3", e.Samples, coordKey)
				}
				wantFile := "rq.comp"
				if stage == "raygen" {
					wantFile = "rq.rgen"
				}
				if at := expectAt(t, wantFile, "ray_query"); !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
					t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
				}
			})
		}
		t.Run(stage+"/clean", func(t *testing.T) {
			code, r, out := rqApp.run(t, nil, nil, "--stage", stage)
			requireSilent(t, code, r, out)
			if !strings.Contains(out, "hit=1 1 1 1") {
				t.Errorf("a valid ray must hit the triangle; app printed:\n%s", out)
			}
		})
		// Valid flags other than the default (Opaque|TerminateOnFirstHit|
		// CullBackFacingTriangles; the instance disables facing culling)
		// are silent and the ray still hits.
		t.Run(stage+"/clean_flags", func(t *testing.T) {
			code, r, out := rqApp.run(t, nil, nil, "--stage", stage, "--flags", "0x15")
			requireSilent(t, code, r, out)
			if !strings.Contains(out, "hit=1 1 1 1") {
				t.Errorf("a valid ray with valid flags must hit the triangle; app printed:\n%s", out)
			}
		})
	}
}
