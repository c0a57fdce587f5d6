package e2e

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// stageApp does a descriptor_index_oob (and the other checks) in one
// stage other than compute, or prints from it (--case printf,
// stage_printf.*) (stageapp.c).
var stageApp = newCheckApp("stageapp",
	"stage.tesc", "stage.tese", "stage.geom", "stage.task", "stage.mesh", "stage.vert", "stage.frag",
	"stage.rchit", "stage.rahit", "stage.rmiss", "stage.rint", "stage.rcall",
	"stage.rgen", "stage_trace.rgen", "stage_call.rgen", "stage_plain.vert", "stage_plain.frag", "stage_plain.tesc",
	"stage_plain.tese", "stage_plain.mesh", "stage_plain.rchit", "stage_plain.rmiss",
	"stage_more.tesc", "stage_more.tese", "stage_more.geom", "stage_more.task", "stage_more.mesh",
	"stage_more.vert", "stage_more.frag",
	"stage_more.rchit", "stage_more.rahit", "stage_more.rmiss", "stage_more.rint", "stage_more.rcall",
	"stage_more.rgen",
	"stage_printf.tesc", "stage_printf.tese", "stage_printf.geom", "stage_printf.task", "stage_printf.mesh",
	"stage_printf.vert", "stage_printf.frag", "stage_printf.rgen", "stage_printf.rchit", "stage_printf.rahit",
	"stage_printf.rmiss", "stage_printf.rint", "stage_printf.rcall")

// extraStages are stageapp's stages: its --stage word, the report's stage
// name, the action, the shader (whose EXPECT comments mark the accesses),
// the coordinates of the one invocation that does the access (never all
// 0), and the vulkaninfo feature that says whether the driver has the
// stage.
var extraStages = []struct {
	arg, stage, action, file string
	coords                   map[string][]float64
	feature                  string
}{
	{"tesc", "tess_control", "vkCmdDraw", "stage.tesc",
		map[string][]float64{"invocation_id": {1}, "primitive_id": {2}}, "tessellationShader"},
	{"tese", "tess_eval", "vkCmdDraw", "stage.tese",
		map[string][]float64{"primitive_id": {1}, "tess_coord": {1, 0.5}}, "tessellationShader"},
	{"geom", "geometry", "vkCmdDraw", "stage.geom",
		map[string][]float64{"primitive_id": {1}, "invocation_id": {2}}, "geometryShader"},
	{"task", "task", "vkCmdDrawMeshTasksEXT", "stage.task",
		map[string][]float64{"global_invocation_id": {3, 1, 0}}, "taskShader"},
	{"mesh", "mesh", "vkCmdDrawMeshTasksEXT", "stage.mesh",
		map[string][]float64{"global_invocation_id": {3, 1, 0}}, "meshShader"},
	{"vert", "vertex", "vkCmdDraw", "stage.vert",
		map[string][]float64{"instance_index": {1}, "vertex_index": {2}}, "vertexPipelineStoresAndAtomics"},
	{"frag", "fragment", "vkCmdDraw", "stage.frag",
		map[string][]float64{"frag_coord": {0.5, 0.5}}, "fragmentStoresAndAtomics"},
	{"rchit", "closest_hit", "vkCmdTraceRaysKHR", "stage.rchit",
		map[string][]float64{"launch_id": {3, 1, 0}}, "rayTracingPipeline"},
	{"rahit", "any_hit", "vkCmdTraceRaysKHR", "stage.rahit",
		map[string][]float64{"launch_id": {3, 1, 0}}, "rayTracingPipeline"},
	{"rmiss", "miss", "vkCmdTraceRaysKHR", "stage.rmiss",
		map[string][]float64{"launch_id": {3, 1, 0}}, "rayTracingPipeline"},
	{"rint", "intersection", "vkCmdTraceRaysKHR", "stage.rint",
		map[string][]float64{"launch_id": {3, 1, 0}}, "rayTracingPipeline"},
	{"rcall", "callable", "vkCmdTraceRaysKHR", "stage.rcall",
		map[string][]float64{"launch_id": {3, 1, 0}}, "rayTracingPipeline"},
	{"rgen", "raygen", "vkCmdTraceRaysKHR", "stage.rgen",
		map[string][]float64{"launch_id": {3, 1, 0}}, "rayTracingPipeline"},
}

// vulkaninfo is the output of `vulkaninfo` (run once); the test fails when
// it is missing.
var vulkaninfo = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("vulkaninfo").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("vulkaninfo (the stage tests check the driver's features with it): %w\n%s", err, out)
	}
	return string(out), nil
})

// vulkaninfoDevice is the first deviceName vulkaninfo lists (the device
// the apps pick: the first).
func vulkaninfoDevice(t *testing.T) string {
	t.Helper()
	out, err := vulkaninfo()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*deviceName\s*=\s*(.+?)\s*$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("vulkaninfo lists no deviceName:\n%s", out)
	}
	return m[1]
}

// driverHas reports whether vulkaninfo lists feature = true, or for a
// device extension (VK_...), the extension.
func driverHas(t *testing.T, feature string) bool {
	t.Helper()
	out, err := vulkaninfo()
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(feature, "VK_") {
		return regexp.MustCompile(`(?m)^\s*` + feature + `\s*: extension revision`).MatchString(out)
	}
	return regexp.MustCompile(`(?m)^\s*` + feature + `\s*=\s*true\s*$`).MatchString(out)
}

// requireMoreCases skips a test of stageapp's --case runs (stage_more.*)
// where vulkaninfo says the device lacks what they need besides the stage:
// they build a TLAS and every stage_more shader has a ray query (the NVIDIA
// H200 has neither), so stageapp would print "unsupported".
func requireMoreCases(t *testing.T) {
	t.Helper()
	for _, f := range []string{"rayQuery", "accelerationStructure", "bufferDeviceAddress"} {
		if !driverHas(t, f) {
			t.Skipf("the device has no %s (vulkaninfo): stage_more's cases need it in every stage", f)
		}
	}
}

// requireStage runs stageapp alone (no layer) for the stage with the index
// one past the array and returns its output. When the app says the device
// lacks the stage, the test is skipped if vulkaninfo agrees and fails if
// vulkaninfo reports the feature (the app must not hide a stage the driver
// has).
func requireStage(t *testing.T, arg, feature string) string {
	t.Helper()
	dir := stageApp.dir(t)
	cmd := exec.Command(dir+"/stageapp", "--shaders", dir, "--stage", arg)
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err != nil {
		t.Fatalf("stageapp --stage %s alone: %v\n%s", arg, err, out)
	}
	if strings.Contains(out, "unsupported "+arg+"\n") {
		if driverHas(t, feature) {
			t.Fatalf("stageapp says the device lacks %s, but vulkaninfo reports %s = true", arg, feature)
		}
		t.Skipf("the driver does not have %s (vulkaninfo: no %s = true)", arg, feature)
	}
	return out
}

// runtimeCases are stageapp's cases at index 2 of the runtime array
// (binding 4, layout count 4, PARTIALLY_BOUND): the app's --case, the
// check, the message, and what lavapipe alone prints ("" where it cannot
// show the skip).
var runtimeCases = []struct{ name, check, msg, alone string }{
	{"uninitialized", "descriptor_uninitialized",
		"(set = 0, binding = 4) Descriptor index 2 is uninitialized (never written).", ""},
	{"destroyed", "descriptor_destroyed",
		"(set = 0, binding = 4) Descriptor index 2 references a resource that was destroyed.", "value=102 103\n"},
}

// TestExtraStages: descriptor_index_oob (index 4 of a sized array of 4
// storage buffers, from a push constant) and descriptor_uninitialized
// (index 2 of a PARTIALLY_BOUND runtime array, never written) and
// descriptor_destroyed (index 2 written, its buffer destroyed before
// recording) in a
// tessellation control, a
// tessellation evaluation, a geometry, a task, a mesh, a vertex, a
// fragment, a closest-hit, an
// any-hit, a miss, an intersection, a callable and a ray generation shader
// (the access in the raygen shader itself) on lavapipe: one
// error each with the exact index and length, the stage, the coordinates of
// the one invocation that does the access, the action (vkCmdDraw,
// vkCmdDrawMeshTasksEXT, vkCmdTraceRaysKHR), the names and the source line;
// the access is skipped (value=1, where lavapipe alone reads the buffer of
// the next binding: value=901). Index 1 reports nothing and reads 101.
// (The uninitialized case cannot show the skip: lavapipe alone reads 0
// through a descriptor never written.)
func TestExtraStages(t *testing.T) {
	for _, st := range extraStages {
		t.Run(st.arg, func(t *testing.T) {
			alone := requireStage(t, st.arg, st.feature)
			if !strings.Contains(alone, "value=901 102\n") {
				t.Errorf("without the layer lavapipe reads binding 2 for index 4 (value=901 102); app printed:\n%s", alone)
			}
			code, r, out := stageApp.run(t, nil, nil, "--stage", st.arg)
			if code != 1 {
				t.Fatalf("exit code %d, want 1\n%s", code, out)
			}
			if !strings.Contains(out, "value=1 102\n") {
				t.Errorf("the checked load must be skipped and yield 0 (value=1 102); app printed:\n%s", out)
			}
			if len(r.Errors) != 1 {
				t.Fatalf("%d error groups, want 1\n%s", len(r.Errors), out)
			}
			e := r.Errors[0]
			vuid := "VUID-" + st.action + "-None-10068"
			submit := 1
			if st.action == "vkCmdTraceRaysKHR" {
				submit = 2 // submit 1 builds the acceleration structures
			}
			if e.Check != "descriptor_index_oob" || e.VUID != vuid || e.Count != 1 || e.Stage != st.stage ||
				e.Action != st.action || e.ActionIndex != 0 || e.Submit != submit ||
				e.CommandBuffer.Name != "stage-cmd" || e.Pipeline.Name != "stage-pipeline" {
				t.Errorf("group: check %q vuid %q count %d stage %q action %q #%d submit %d cb %q pipeline %q; "+
					"want descriptor_index_oob %s 1 %s %s #0 submit %d stage-cmd stage-pipeline",
					e.Check, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.Submit, e.CommandBuffer.Name,
					e.Pipeline.Name, vuid, st.stage, st.action, submit)
			}
			if d := e.Descriptor; d == nil || d.Set != 0 || d.Binding != 1 || d.Index != 4 || d.ArrayLength != 4 {
				t.Errorf("descriptor %+v, want set 0 binding 1 index 4 array_length 4", d)
			}
			if msg := "(set = 0, binding = 1) Index of 4 used to index descriptor array of length 4."; !strings.Contains(e.Message, msg) {
				t.Errorf("message %q, want it to contain %q", e.Message, msg)
			}
			if fmt.Sprint(e.Coords) != fmt.Sprint(st.coords) {
				t.Errorf("coords %v, want %v", e.Coords, st.coords)
			}
			if at := expectAt(t, st.file, "descriptor_index_oob"); !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
				t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
			}
		})
		for _, rc := range runtimeCases {
			t.Run(st.arg+"/"+rc.name, func(t *testing.T) {
				requireStage(t, st.arg, st.feature)
				if rc.alone != "" {
					dir := stageApp.dir(t)
					b, err := exec.Command(dir+"/stageapp", "--shaders", dir, "--stage", st.arg, "--case", rc.name).CombinedOutput()
					if err != nil || !strings.Contains(string(b), rc.alone) {
						t.Errorf("stageapp --case %s alone: %v; want %q in:\n%s", rc.name, err, rc.alone, b)
					}
				}
				code, r, out := stageApp.run(t, nil, nil, "--stage", st.arg, "--case", rc.name)
				if code != 1 {
					t.Fatalf("exit code %d, want 1\n%s", code, out)
				}
				if !strings.Contains(out, "value=102 1\n") {
					t.Errorf("the checked load must be skipped and yield 0 (value=102 1); app printed:\n%s", out)
				}
				if len(r.Errors) != 1 {
					t.Fatalf("%d error groups, want 1\n%s", len(r.Errors), out)
				}
				e := r.Errors[0]
				vuid := "VUID-" + st.action + "-None-08114"
				if e.Check != rc.check || e.VUID != vuid || e.Count != 1 || e.Stage != st.stage ||
					e.Action != st.action || e.ActionIndex != 0 || e.CommandBuffer.Name != "stage-cmd" ||
					e.Pipeline.Name != "stage-pipeline" {
					t.Errorf("group: check %q vuid %q count %d stage %q action %q #%d cb %q pipeline %q; "+
						"want %s %s 1 %s %s #0 stage-cmd stage-pipeline",
						e.Check, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.CommandBuffer.Name,
						e.Pipeline.Name, rc.check, vuid, st.stage, st.action)
				}
				if d := e.Descriptor; d == nil || d.Set != 0 || d.Binding != 4 || d.Index != 2 || d.ArrayLength != 4 {
					t.Errorf("descriptor %+v, want set 0 binding 4 index 2 array_length 4", d)
				}
				if !strings.Contains(e.Message, rc.msg) {
					t.Errorf("message %q, want it to contain %q", e.Message, rc.msg)
				}
				if fmt.Sprint(e.Coords) != fmt.Sprint(st.coords) {
					t.Errorf("coords %v, want %v", e.Coords, st.coords)
				}
				if at := expectAt(t, st.file, rc.check); !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
					t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
				}
			})
		}
		t.Run(st.arg+"/clean", func(t *testing.T) {
			requireStage(t, st.arg, st.feature)
			code, r, out := stageApp.run(t, nil, nil, "--stage", st.arg, "--index", "1")
			if code != 0 || len(r.Errors) != 0 {
				t.Fatalf("exit %d, %d groups, want 0 and none\n%s", code, len(r.Errors), out)
			}
			if !strings.Contains(out, "value=102 102\n") {
				t.Errorf("index 1 must read 101 (value=102 102); app printed:\n%s", out)
			}
		})
	}
}

// TestExtraStagesAtLeastWhatKhronosFinds: the Khronos layer 1.3.239 with
// GPU-assisted validation reports stageapp's bad index ("Index of 4 used to
// index descriptor array of length 4") and its never-written descriptor
// ("Descriptor index 2 is uninitialized") in the tessellation, geometry,
// vertex, fragment and ray-tracing stages, with the action index, the stage's words and the
// line; gpuav-dbg reports the same index, length, action, stage
// coordinates and line, except where the reference is wrong or silent:
//   - the sized array's bad index: 1.3.239 names the line after the
//     access's, in every stage (the next access's line; gpuav-dbg names
//     the access's line, the OpLine in front of it in the SPIR-V).
//   - intersection, never-written descriptor: 1.3.239 names the line of
//     the reportIntersectionEXT after the access.
//   - task and mesh (VK_EXT_mesh_shader): 1.3.239 skips the bad load
//     (value=1 102) but reports nothing.
func TestExtraStagesAtLeastWhatKhronosFinds(t *testing.T) {
	requireKhronos(t)
	theirRe := regexp.MustCompile(`(?:Index of (\d+) used to index descriptor array of length (\d+)|Descriptor index (\d+) is uninitialized)\.\s+` +
		`Command buffer \(stage-cmd\)\([0-9a-fx]+\)\. (?:Draw|Ray Trace) Index (\d+)\..*?Stage = ([A-Za-z ]+)\.\s+(.*?)\.?\s+` +
		`Shader validation error occurred in file (\S+) at line (\d+)`)
	theirStage := map[string]string{
		"tesc": "Tessellation Control", "tese": "Tessellation Eval", "geom": "Geometry", "rchit": "Closest Hit",
		"vert": "Vertex", "frag": "Fragment", "rahit": "Any Hit", "rmiss": "Miss", "rint": "Intersection", "rcall": "Callable", "rgen": "Ray Generation",
	}
	// theirWords are the stage words as 1.3.239 prints them (TessCoord as
	// the floats' bits: 1.0 and 0.5).
	launch := "Global Launch ID (x,y,z) = (3, 1, 0)"
	theirWords := map[string]string{
		"tesc": "Invocation ID = 1, Primitive ID = 2", "tese": "Primitive ID = 1, TessCoord (u, v) = (1065353216, 1056964608)",
		"geom": "Primitive ID = 1 Invocation ID = 2", "vert": "Vertex Index = 2 Instance Index = 1",
		"frag": "Fragment coord (x,y) = (0.5, 0.5)", "rchit": launch, "rahit": launch, "rmiss": launch, "rint": launch,
		"rcall": launch, "rgen": launch,
	}
	cases := []struct {
		name, check, index, length, silent string
		theirOff                           int               // 1.3.239's line, from the access's
		theirLine                          map[string]string // where it names another line: that line's code
	}{
		{"oob", "descriptor_index_oob", "4", "4", "value=1 102\n", 1, nil},
		{"uninitialized", "descriptor_uninitialized", "2", "", "value=102 1\n", 0, map[string]string{"rint": "reportIntersectionEXT("}},
	}
	for _, st := range extraStages {
		for _, c := range cases {
			t.Run(st.arg+"/"+c.name, func(t *testing.T) {
				requireStage(t, st.arg, st.feature)
				out := stageApp.runKhronos(t, "--stage", st.arg, "--case", c.name)
				m := theirRe.FindAllStringSubmatch(out, -1)
				if st.arg == "task" || st.arg == "mesh" {
					if len(m) != 0 || strings.Contains(out, "Index of") || strings.Contains(out, "Descriptor index") ||
						!strings.Contains(out, c.silent) {
						t.Fatalf("Khronos 1.3.239 was silent in %s shaders (and skipped the load); now it reports %d:\n%s", st.arg, len(m), out)
					}
					return
				}
				if len(m) != 1 {
					t.Fatalf("Khronos reported %d descriptor errors, want 1 (the reference must catch it):\n%s", len(m), out)
				}
				k := m[0]
				check, index, length := "descriptor_index_oob", k[1], k[2]
				if k[3] != "" {
					check, index, length = "descriptor_uninitialized", k[3], ""
				}
				at := expectAt(t, st.file, c.check)
				line := at.line + c.theirOff
				if code, ok := c.theirLine[st.arg]; ok {
					line = lineOf(t, st.file, code)
				}
				if check != c.check || index != c.index || length != c.length || k[4] != "0" ||
					k[5] != theirStage[st.arg] || k[7] != st.file || k[8] != fmt.Sprint(line) {
					t.Errorf("Khronos: %s index %s length %q action %s stage %q file %s line %s; want %s %s %q 0 %q %s %d",
						check, index, length, k[4], k[5], k[7], k[8], c.check, c.index, c.length, theirStage[st.arg], st.file, line)
				}
				if want := theirWords[st.arg]; !strings.Contains(k[6], want) {
					t.Errorf("Khronos stage words %q, want them to contain %q", k[6], want)
				}
				_, r, ours := stageApp.run(t, nil, nil, "--stage", st.arg, "--case", c.name)
				if len(r.Errors) != 1 || r.Errors[0].Descriptor == nil {
					t.Fatalf("Khronos finds %s index %s; gpuav-dbg reported %+v\n%s", c.check, c.index, r.Errors, ours)
				}
				e := r.Errors[0]
				if e.Check != c.check || fmt.Sprint(e.Descriptor.Index) != c.index ||
					(c.length != "" && fmt.Sprint(e.Descriptor.ArrayLength) != c.length) || e.ActionIndex != 0 ||
					fmt.Sprint(e.Coords) != fmt.Sprint(st.coords) || e.Source.Line != at.line {
					t.Errorf("gpuav-dbg: %s index %d length %d action %d coords %v line %d; want %s %s %q 0 %v %d",
						e.Check, e.Descriptor.Index, e.Descriptor.ArrayLength, e.ActionIndex, e.Coords, e.Source.Line,
						c.check, c.index, c.length, st.coords, at.line)
				}
			})
		}
	}
}

// moreBDA is the address stageapp prints for the BDA case's buffer.
var moreBDA = regexp.MustCompile(`bda=0x([0-9a-f]+) size=64\n`)

// moreChecks are stageapp's other checks in every extra stage: the --case
// (also the check, whose EXPECT comment in stage_more.<stage> marks the
// access), the flags, the VUID (ACTION replaced by the stage's action),
// and the check's own values.
var moreChecks = []struct {
	name   string
	flags  []string
	vuid   string
	values func(t *testing.T, r checkReport, out string)
}{
	{"bda_oob", nil, "VUID-RuntimeSpirv-PhysicalStorageBuffer64-11819",
		func(t *testing.T, r checkReport, out string) {
			e := r.Errors[0]
			m := moreBDA.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("app printed no address:\n%s", out)
			}
			base, _ := strconv.ParseUint(m[1], 16, 64)
			b := e.BDA
			if b == nil || b.Address != fmt.Sprintf("0x%x", base+64) || b.Size != 4 || b.Write || b.Atomic ||
				b.Nearest == nil || b.Nearest.Address != fmt.Sprintf("0x%x", base) || b.Nearest.Size != 64 {
				t.Errorf("bda %+v, want address 0x%x size 4 read, nearest 0x%x/64", b, base+64, base)
			}
			msg := fmt.Sprintf("Out of bounds access: 4 bytes read at buffer device address 0x%x, past the nearest buffer below it, [0x%x, 0x%x) (64 bytes).",
				base+64, base, base+64)
			if !strings.Contains(e.Message, msg) {
				t.Errorf("message %q, want it to contain %q", e.Message, msg)
			}
		}},
	{"texel_buffer_oob", nil, "UNASSIGNED-Descriptor Texel Buffer texel out of bounds",
		func(t *testing.T, r checkReport, out string) {
			e := r.Errors[0]
			d, x := e.Descriptor, e.Texel
			if d == nil || x == nil || d.Set != 0 || d.Binding != 5 || d.Index != 0 || d.ArrayLength != 1 ||
				x.Texel != 10 || x.Count != 8 || x.Write || x.Atomic || x.Kind != "uniform" || x.Robust {
				t.Errorf("descriptor %+v texel %+v, want set 0 binding 5 index 0 length 1, texel 10 of 8 uniform read", d, x)
			}
			msg := "(set = 0, binding = 5) Descriptor index 0 access out of bounds. Descriptor size is 8 texels and " +
				"highest texel accessed was 10 (read of a uniform texel buffer)."
			if !strings.Contains(e.Message, msg) {
				t.Errorf("message %q, want it to contain %q", e.Message, msg)
			}
		}},
	{"buffer_oob", bufferOn, "VUID-ACTION-storageBuffers-06936",
		func(t *testing.T, r checkReport, out string) {
			e := r.Errors[0]
			d, b := e.Descriptor, e.Buffer
			if d == nil || b == nil || d.Set != 0 || d.Binding != 6 || d.Index != 0 || d.ArrayLength != 1 ||
				b.Offset != 16 || b.Size != 4 || b.Range != 16 || b.Highest != 19 || b.Write || b.Kind != "storage" || b.Robust {
				t.Errorf("descriptor %+v buffer %+v, want set 0 binding 6 index 0 length 1, 4-byte read at 16 of range 16", d, b)
			}
			msg := "(set = 0, binding = 6) Descriptor index 0 access out of bounds. Descriptor size is 16 and highest " +
				"byte accessed was 19 (4-byte read at offset 16 of a storage buffer)."
			if !strings.Contains(e.Message, msg) {
				t.Errorf("message %q, want it to contain %q", e.Message, msg)
			}
		}},
	{"ray_query", nil, "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06350",
		func(t *testing.T, r checkReport, out string) {
			e := r.Errors[0]
			ray := e.Ray
			if ray == nil || string(ray.Tmin) != "6" || string(ray.Tmax) != "4.5" || ray.Origin == nil ||
				string(ray.Origin[0])+","+string(ray.Origin[1])+","+string(ray.Origin[2]) != "0,0,0" ||
				ray.Direction != nil || ray.Flags != 1 || ray.CullMask != 0xff {
				t.Errorf("ray %+v, want tmin 6 tmax 4.5 origin 0,0,0 no direction flags 1 cull 0xff", ray)
			}
			if msg := "OpRayQueryInitializeKHR operand RayTmin (6) is greater than RayTmax (4.5)."; !strings.Contains(e.Message, msg) {
				t.Errorf("message %q, want it to contain %q", e.Message, msg)
			}
		}},
}

// TestExtraStagesOtherChecks: bda_oob (a buffer_reference read of element
// 16 of a 64-byte buffer), texel_buffer_oob (texelFetch of texel 10 of an
// 8-texel uniform texel buffer), buffer_oob (with --check buffer_oob=on: an
// SSBO read at offset 16 of a range of 16) and ray_query
// (rayQueryInitializeEXT with tmin 6 > tmax 4.5, against the TLAS that
// stageapp builds for every stage_more case in submit 1) in each
// of the thirteen stages (stage_more.<stage>; vertex and fragment included,
// so ray_query runs there too) on lavapipe: one error each
// with the exact values, the stage, the coordinates of the one invocation
// that does the access, the action and the source line; the read yields 0
// (value=1; lavapipe alone gives the same, so this does not show the
// skip). Index 3 reports nothing and reads 103 (value=104).
func TestExtraStagesOtherChecks(t *testing.T) {
	for _, st := range extraStages {
		for _, c := range moreChecks {
			t.Run(st.arg+"/"+c.name, func(t *testing.T) {
				requireStage(t, st.arg, st.feature)
				requireMoreCases(t)
				code, r, out := stageApp.run(t, nil, c.flags, "--stage", st.arg, "--case", c.name)
				if code != 1 {
					t.Fatalf("exit code %d, want 1\n%s", code, out)
				}
				if !strings.Contains(out, "value=1 0\n") {
					t.Errorf("the checked access must yield 0 (value=1 0); app printed:\n%s", out)
				}
				if len(r.Errors) != 1 {
					t.Fatalf("%d error groups, want 1\n%s", len(r.Errors), out)
				}
				e := r.Errors[0]
				vuid := strings.ReplaceAll(c.vuid, "ACTION", st.action)
				submit := 2 // submit 1 builds the acceleration structures
				if e.Check != c.name || e.Level != "error" || e.VUID != vuid || e.Count != 1 || e.Stage != st.stage ||
					e.Action != st.action || e.ActionIndex != 0 || e.Submit != submit ||
					e.CommandBuffer.Name != "stage-cmd" || e.Pipeline.Name != "stage-pipeline" {
					t.Errorf("group: check %q level %q vuid %q count %d stage %q action %q #%d submit %d cb %q pipeline %q; "+
						"want %s error %s 1 %s %s #0 submit %d stage-cmd stage-pipeline",
						e.Check, e.Level, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.Submit, e.CommandBuffer.Name,
						e.Pipeline.Name, c.name, vuid, st.stage, st.action, submit)
				}
				c.values(t, r, out)
				if fmt.Sprint(e.Coords) != fmt.Sprint(st.coords) {
					t.Errorf("coords %v, want %v", e.Coords, st.coords)
				}
				if at := expectAt(t, "stage_more."+st.arg, c.name); !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
					t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
				}
			})
			if c.name == "ray_query" {
				continue // tmin and tmax are fixed: no clean run
			}
			t.Run(st.arg+"/"+c.name+"/clean", func(t *testing.T) {
				requireStage(t, st.arg, st.feature)
				requireMoreCases(t)
				code, r, out := stageApp.run(t, nil, c.flags, "--stage", st.arg, "--case", c.name, "--index", "3")
				if code != 0 || len(r.Errors) != 0 || !strings.Contains(out, "value=104 0\n") {
					t.Fatalf("exit %d, %d groups, want 0, none and value=104 0\n%s", code, len(r.Errors), out)
				}
			})
		}
	}
}
