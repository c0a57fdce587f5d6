package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// checkApps builds the check test apps of testdata/checks (C, with gcc)
// and their shaders (glslangValidator -g, from inside the directory so the
// modules name the files as written) once, into one directory.
var checkApps = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "gpuav-checks")
	if err != nil {
		return "", err
	}
	src := filepath.Join(root, "e2e", "testdata", "checks")
	for _, sh := range []string{"rq.comp", "rq.rgen"} {
		cmd := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.2", "-o", filepath.Join(dir, sh+".spv"), sh)
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", errors.New("glslangValidator " + sh + ": " + err.Error() + "\n" + string(out))
		}
	}
	for _, app := range []string{"rqapp"} {
		out, err := exec.Command("gcc", "-O1", "-Wall", "-Werror", "-o", filepath.Join(dir, app),
			filepath.Join(src, app+".c"), "-lvulkan").CombinedOutput()
		if err != nil {
			return "", errors.New("gcc " + app + ": " + err.Error() + "\n" + string(out))
		}
	}
	return dir, nil
})

// checkReport is the part of the headless JSON the check tests read.
type checkReport struct {
	Errors []struct {
		Check   string               `json:"check"`
		VUID    string               `json:"vuid"`
		Message string               `json:"message"`
		Count   int                  `json:"count"`
		Stage   string               `json:"stage"`
		Coords  map[string][]float64 `json:"coords"`
		Samples []map[string][]float64
		Ray     *struct {
			Tmin      json.RawMessage     `json:"tmin"`
			Tmax      json.RawMessage     `json:"tmax"`
			Origin    *[3]json.RawMessage `json:"origin"`
			Direction *[3]json.RawMessage `json:"direction"`
			Flags     uint32              `json:"flags"`
			CullMask  uint32              `json:"cull_mask"`
		} `json:"ray"`
		Action        string `json:"action"`
		ActionIndex   int    `json:"action_index"`
		CommandBuffer struct {
			Name string `json:"name"`
		} `json:"command_buffer"`
		Pipeline struct {
			Name string `json:"name"`
		} `json:"pipeline"`
		Source struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Text string `json:"text"`
		} `json:"source"`
	} `json:"errors"`
}

// runCheckApp runs one of the check apps under `gpuav-dbg run --headless
// --json` and returns the exit code, the report and the app's output.
func runCheckApp(t *testing.T, app string, args ...string) (int, checkReport, string) {
	t.Helper()
	dir, err := checkApps()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.json")
	full := append([]string{"run", "--headless", "--json", out, "--session", filepath.Join(t.TempDir(), "s.gvs"),
		"--", filepath.Join(dir, app), "--shaders", dir}, args...)
	cmd := exec.Command(bin("gpuav-dbg"), full...)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run gpuav-dbg: %v", err)
	}
	var r checkReport
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("read report (exit %d): %v\n%s", code, err, output.String())
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("parse report: %v\n%s", err, b)
	}
	return code, r, output.String()
}

// TestRayQueryCheck: each OpRayQueryInitializeKHR rule broken in a compute
// and in a ray-generation shader on lavapipe, with the exact values, the
// VUID of the Vulkan environment for SPIR-V and the source line; the failed
// initialize finds nothing (hit=0 where the app's ray would hit the
// triangle); a valid ray is silent and hits.
func TestRayQueryCheck(t *testing.T) {
	const line = 10 // the same in rq.comp and rq.rgen
	const text = "    rayQueryInitializeEXT(q, tlas, gl_RayFlagsOpaqueEXT, 0xff, pc.origin.xyz, pc.tmin, pc.dir.xyz, pc.tmax);"
	tests := []struct {
		name      string
		ray       string // ox oy oz dx dy dz tmin tmax
		vuid      string
		message   string
		tmin      string
		tmax      string
		origin    string // JSON of the origin, or "" when direction is set
		direction string
	}{
		{"negative_tmin", "0 0 0 0 0 1 -1 10", "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06349",
			"OpRayQueryInitializeKHR operand RayTmin (-1) is negative.", "-1", "10", "[0,0,0]", ""},
		{"negative_tmax", "0 0 0 0 0 1 0 -2", "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06349",
			"OpRayQueryInitializeKHR operand RayTmax (-2) is negative.", "0", "-2", "[0,0,0]", ""},
		{"tmin_gt_tmax", "0 0 0 0 0 1 6 4.5", "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06350",
			"OpRayQueryInitializeKHR operand RayTmin (6) is greater than RayTmax (4.5).", "6", "4.5", "[0,0,0]", ""},
		{"origin_inf", "0 inf 0.25 0 0 1 0 10", "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06348",
			"OpRayQueryInitializeKHR operand RayOrigin (0, +Inf, 0.25) is not finite.", "0", "10", `[0,"+Inf",0.25]`, ""},
		{"direction_nan", "0 0 0 0 nan 1 0 10", "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06348",
			"OpRayQueryInitializeKHR operand RayDirection (0, NaN, 1) is not finite.", "0", "10", "", `[0,"NaN",1]`},
		{"t_nan", "0 0 0 0 0 1 0 nan", "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06351",
			"OpRayQueryInitializeKHR operands RayTmin (0) and RayTmax (NaN) must not be NaN.", "0", `"NaN"`, "[0,0,0]", ""},
	}
	for _, stage := range []string{"compute", "raygen"} {
		action, coordKey := "vkCmdDispatch", "global_invocation_id"
		if stage == "raygen" {
			action, coordKey = "vkCmdTraceRaysKHR", "launch_id"
		}
		for _, tt := range tests {
			t.Run(stage+"/"+tt.name, func(t *testing.T) {
				code, r, out := runCheckApp(t, "rqapp", append([]string{"--stage", stage, "--ray"}, strings.Fields(tt.ray)...)...)
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
					vec(e.Ray.Direction) != tt.direction || e.Ray.Flags != 1 || e.Ray.CullMask != 0xff {
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
				if e.Source.File != wantFile || e.Source.Line != line || e.Source.Text != text {
					t.Errorf("source %+v", e.Source)
				}
			})
		}
		t.Run(stage+"/clean", func(t *testing.T) {
			code, r, out := runCheckApp(t, "rqapp", "--stage", stage)
			if code != 0 || len(r.Errors) != 0 {
				t.Fatalf("exit %d, %d groups, want 0 and none\n%s", code, len(r.Errors), out)
			}
			if !strings.Contains(out, "hit=1 1 1 1") {
				t.Errorf("a valid ray must hit the triangle; app printed:\n%s", out)
			}
		})
	}
}
