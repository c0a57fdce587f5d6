package e2e

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stageLine is one printf line expected from stageapp --case printf: its
// text and its invocation's coordinates (coordText's form).
type stageLine struct{ text, coords string }

func (l stageLine) String() string { return l.text + " @ " + l.coords }

// launches makes the lines of every launch of stageapp's 4x2x1 trace, each
// launch's texts from text(x, y).
func launches(text func(x, y int) []string) []stageLine {
	var lines []stageLine
	for y := range 2 {
		for x := range 4 {
			for _, s := range text(x, y) {
				lines = append(lines, stageLine{s, fmt.Sprintf("launch_id=[%d %d 0]", x, y)})
			}
		}
	}
	return lines
}

// workgroups makes the lines of every invocation of stageapp's 2x2x1 task
// or mesh workgroups of 2x1x1 (global invocations x 0..3, y 0..1).
func workgroups(text func(x, y int) string) []stageLine {
	var lines []stageLine
	for y := range 2 {
		for x := range 4 {
			lines = append(lines, stageLine{text(x, y), fmt.Sprintf("global_invocation_id=[%d %d 0]", x, y)})
		}
	}
	return lines
}

// primInvocations makes the lines "STAGE primitive P invocation I" of
// prims primitives of invs invocations each (tessellation control,
// geometry).
func primInvocations(stage string, prims, invs int) []stageLine {
	var lines []stageLine
	for p := range prims {
		for i := range invs {
			lines = append(lines, stageLine{fmt.Sprintf("%s primitive %d invocation %d", stage, p, i),
				fmt.Sprintf("invocation_id=[%d] primitive_id=[%d]", i, p)})
		}
	}
	return lines
}

// one is fmt.Sprintf's result as a list of one text.
func one(format string, a ...any) []string { return []string{fmt.Sprintf(format, a...)} }

// printfStages are stageapp's printf cases (stage_printf.<arg>: every
// invocation of the stage prints values that identify it; the draws and
// traces are stageapp's, see its comment): the lines each debugPrintfEXT
// call prints, by call in source order, and whether the Khronos layer
// 1.3.239's Debug Printf prints from the stage (it prints nothing from
// task and mesh shaders, and says nothing about it).
var printfStages = []printfStage{
	{"tesc", true, func() [][]stageLine { // 3 patches, 2 output points each
		return [][]stageLine{primInvocations("tesc", 3, 2)}
	}},
	{"tese", true, func() [][]stageLine { // isolines: 2 lines of 1 segment per patch
		var l []stageLine
		for p := range 3 {
			for _, v := range []float64{0, 0.5} {
				for _, u := range []float64{0, 1} {
					l = append(l, stageLine{fmt.Sprintf("tese primitive %d tess coord %.2f, %.2f", p, u, v),
						fmt.Sprintf("primitive_id=[%d] tess_coord=[%v %v]", p, u, v)})
				}
			}
		}
		return [][]stageLine{l}
	}},
	{"geom", true, func() [][]stageLine { // 2 points, 3 invocations each
		return [][]stageLine{primInvocations("geom", 2, 3)}
	}},
	{"task", false, func() [][]stageLine {
		return [][]stageLine{workgroups(func(x, y int) string { return fmt.Sprintf("task invocation %d, %d, 0 local %d", x, y, x%2) })}
	}},
	{"mesh", false, func() [][]stageLine {
		return [][]stageLine{workgroups(func(x, y int) string {
			return fmt.Sprintf("mesh invocation %d, %d, 0 workgroup %d, %d, 0", x, y, x/2, y)
		})}
	}},
	{"vert", true, func() [][]stageLine { // 4 points, 2 instances
		var l []stageLine
		for i := range 2 {
			for v := range 4 {
				l = append(l, stageLine{fmt.Sprintf("vert vertex %d instance %d", v, i),
					fmt.Sprintf("instance_index=[%d] vertex_index=[%d]", i, v)})
			}
		}
		return [][]stageLine{l}
	}},
	{"frag", true, func() [][]stageLine { // one point on a 1x1 target
		return [][]stageLine{{{"frag coord 0.5, 0.5", "frag_coord=[0.5 0.5]"}}}
	}},
	{"rgen", true, func() [][]stageLine { // 4 lines from a loop, then one
		return [][]stageLine{
			launches(func(x, y int) (s []string) {
				for i := range 4 {
					s = append(s, fmt.Sprintf("raygen launch %d, %d, 0 of 4, 2, 1 line %d", x, y, i))
				}
				return s
			}),
			launches(func(x, y int) []string { return one("raygen launch %d, %d, 0 done after 4 lines", x, y) }),
		}
	}},
	{"rchit", true, func() [][]stageLine {
		return [][]stageLine{launches(func(x, y int) []string { return one("closest hit launch %d, %d, 0 t 5.0", x, y) })}
	}},
	{"rahit", true, func() [][]stageLine {
		return [][]stageLine{launches(func(x, y int) []string { return one("any hit launch %d, %d, 0 primitive 0", x, y) })}
	}},
	{"rmiss", true, func() [][]stageLine {
		return [][]stageLine{launches(func(x, y int) []string { return one("miss launch %d, %d, 0 tmax 10.0", x, y) })}
	}},
	{"rint", true, func() [][]stageLine {
		return [][]stageLine{launches(func(x, y int) []string { return one("intersection launch %d, %d, 0 origin z 0.0", x, y) })}
	}},
	{"rcall", true, func() [][]stageLine {
		return [][]stageLine{launches(func(x, y int) []string { return one("callable launch %d, %d, 0 of 4, 2, 1", x, y) })}
	}},
}

// printfStage is a row of printfStages.
type printfStage struct {
	arg     string
	khronos bool
	calls   func() [][]stageLine
}

// extraStage is extraStages' row of a stageapp --stage word.
func extraStage(t *testing.T, arg string) (stage, action, feature string) {
	t.Helper()
	for _, st := range extraStages {
		if st.arg == arg {
			return st.stage, st.action, st.feature
		}
	}
	t.Fatalf("no stage %q in extraStages", arg)
	return "", "", ""
}

// sortedLines prints lines one per line, sorted (invocations run in any
// order).
func sortedLines(lines []stageLine) string {
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = l.String()
	}
	slices.Sort(s)
	return strings.Join(s, "\n")
}

// TestPrintfStages: debugPrintfEXT in a tessellation control, tessellation
// evaluation, geometry, task, mesh, vertex, fragment, ray generation,
// closest-hit, any-hit, miss, intersection and callable shader, run under
// gpuav-dbg: one group per call site (the ray generation shader has two),
// each with the stage, the action, the command buffer and pipeline names,
// the call's source line, no problem, and exactly the lines every
// invocation prints, each with its invocation's stage coordinates (which
// the text prints too), none lost.
func TestPrintfStages(t *testing.T) {
	for _, st := range printfStages {
		t.Run(st.arg, func(t *testing.T) {
			_, action, _ := extraStage(t, st.arg)
			checkPrintfStage(t, st.arg, action, "")
		})
	}
}

// TestPrintfIndirectActions: the lines of the indirect forms of the
// mesh-task and ray-tracing actions (stageapp --action: the same sizes in
// the indirect buffer) are TestPrintfStages' lines, under the action's
// name.
func TestPrintfIndirectActions(t *testing.T) {
	for _, tc := range []struct {
		stage, action, reported string
		actionFeature           string // the action's own feature, if any
	}{
		{"task", "indirect", "vkCmdDrawMeshTasksIndirectEXT", ""},
		{"mesh", "indirect-count", "vkCmdDrawMeshTasksIndirectCountEXT", ""},
		{"rgen", "indirect", "vkCmdTraceRaysIndirectKHR", ""},
		{"rchit", "indirect2", "vkCmdTraceRaysIndirect2KHR", "rayTracingPipelineTraceRaysIndirect2"},
	} {
		t.Run(tc.stage+"/"+tc.action, func(t *testing.T) {
			checkPrintfStage(t, tc.stage, tc.reported, tc.actionFeature, "--action", tc.action)
		})
	}
}

// TestPrintfPipelineLibrary: in a ray-tracing pipeline linked from a
// pipeline library that holds its stages (stageapp --library), every
// ray-tracing stage prints TestPrintfStages' lines.
func TestPrintfPipelineLibrary(t *testing.T) {
	for _, arg := range []string{"rgen", "rchit", "rahit", "rmiss", "rint", "rcall"} {
		t.Run(arg, func(t *testing.T) {
			checkPrintfStage(t, arg, "vkCmdTraceRaysKHR", "VK_KHR_pipeline_library", "--library")
		})
	}
}

// checkPrintfStage runs stageapp --case printf in stage arg with more
// arguments and checks its printf groups: one per call, attributed to the
// action reported, with printfStages' lines. needs is the vulkaninfo
// feature or device extension (VK_...) the arguments need besides the
// stage ("": none); without it the test is skipped.
func checkPrintfStage(t *testing.T, arg, reported, needs string, more ...string) {
	t.Helper()
	stage, _, feature := extraStage(t, arg)
	requireStage(t, arg, feature)
	k := slices.IndexFunc(printfStages, func(s printfStage) bool { return s.arg == arg })
	if k < 0 {
		t.Fatalf("no stage %q in printfStages", arg)
	}
	file := "stage_printf." + arg
	calls := printfCalls(t, file)
	want := printfStages[k].calls()
	if len(want) != len(calls) {
		t.Fatalf("%s has %d calls, the table %d", file, len(calls), len(want))
	}
	var r printfReport
	code, out := stageApp.runInto(t, &r, nil, nil, append([]string{"--stage", arg, "--case", "printf"}, more...)...)
	if needs != "" && code == 0 && strings.Contains(out, "unsupported "+arg+"\n") {
		if driverHas(t, needs) {
			t.Fatalf("stageapp says the device lacks what %v needs, but vulkaninfo reports %s", more, needs)
		}
		t.Skipf("the driver does not have %v (vulkaninfo: no %s)", more, needs)
	}
	if code != 0 || len(r.Printf) != len(calls) || r.Lost != 0 {
		t.Fatalf("exit %d, %d printf groups, %d lost; want 0, %d, 0\n%s", code, len(r.Printf), r.Lost, len(calls), out)
	}
	for k, c := range calls {
		i := slices.IndexFunc(r.Printf, func(g printfGroup) bool { return g.Format == c.format })
		if i < 0 {
			t.Errorf("no group of call %q", c.format)
			continue
		}
		g := r.Printf[i]
		if g.Stage != stage || g.Action != reported || g.ActionIndex != 0 || g.CommandBuffer.Name != "stage-cmd" ||
			g.Pipeline.Name != "stage-pipeline" || g.Problem != "" || g.Source == nil ||
			g.Source.File != file || g.Source.Line != c.line {
			t.Errorf("group %q: stage %q action %q #%d cb %q pipeline %q problem %q source %+v; "+
				"want %s %s #0 stage-cmd stage-pipeline, no problem, %s:%d",
				g.Format, g.Stage, g.Action, g.ActionIndex, g.CommandBuffer.Name, g.Pipeline.Name, g.Problem,
				g.Source, stage, reported, file, c.line)
		}
		var got []stageLine
		for _, l := range g.Lines {
			got = append(got, stageLine{l.Text, coordText(l.Coords)})
		}
		if g.Count != len(want[k]) || sortedLines(got) != sortedLines(want[k]) {
			t.Errorf("group %q: count %d, lines:\n%s\nwant %d:\n%s", g.Format, g.Count, sortedLines(got),
				len(want[k]), sortedLines(want[k]))
		}
	}
}

// TestPrintfStagesAsKhronos: the Khronos layer 1.3.239's Debug Printf on
// lavapipe prints, for the same app, exactly the texts gpuav-dbg prints
// (TestPrintfStages' lines), in every stage but task and mesh, where it
// prints nothing and says nothing.
func TestPrintfStagesAsKhronos(t *testing.T) {
	for _, st := range printfStages {
		t.Run(st.arg, func(t *testing.T) {
			_, _, feature := extraStage(t, st.arg)
			requireStage(t, st.arg, feature)
			theirs := stageApp.khronosPrintf(t, "--stage", st.arg, "--case", "printf")
			var want []string
			if st.khronos {
				for _, c := range st.calls() {
					for _, l := range c {
						want = append(want, l.text)
					}
				}
			}
			slices.Sort(want)
			slices.Sort(theirs)
			if !slices.Equal(theirs, want) {
				t.Errorf("Khronos printed:\n%s\nwant:\n%s", strings.Join(theirs, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestPrintfAtStages: --printf-at's forms for the stages beyond compute,
// vertex and fragment (primitive, invocation_id, tess_coord, invocation for
// a mesh shader, launch) keep exactly the lines of the invocations named,
// in the report (with their coordinates) and the headless output (with
// theirs, labelled where a stage has two) and, with the layer alone (no
// launcher, so no filter after the run: VK_LAYER_GPUAV_DBG_PRINTF_AT), in
// what the shaders wrote: the filter is compiled into the calls.
func TestPrintfAtStages(t *testing.T) {
	cases := []struct {
		arg, at string
		want    []stageLine
		shown   string // one of the lines as the headless output prints it
	}{
		{"tesc", "primitive=2 invocation_id=1", []stageLine{{"tesc primitive 2 invocation 1", "invocation_id=[1] primitive_id=[2]"}},
			"(primitive_id 2, invocation_id 1) tesc primitive 2 invocation 1"},
		{"tese", "primitive=1 tess_coord=1,0.5", []stageLine{{"tese primitive 1 tess coord 1.00, 0.50", "primitive_id=[1] tess_coord=[1 0.5]"}},
			"(primitive_id 1, tess_coord (1,0.5)) tese primitive 1 tess coord 1.00, 0.50"},
		{"geom", "primitive=1", []stageLine{
			{"geom primitive 1 invocation 0", "invocation_id=[0] primitive_id=[1]"},
			{"geom primitive 1 invocation 1", "invocation_id=[1] primitive_id=[1]"},
			{"geom primitive 1 invocation 2", "invocation_id=[2] primitive_id=[1]"}},
			"(primitive_id 1, invocation_id 2) geom primitive 1 invocation 2"},
		{"mesh", "invocation=3,1,0", []stageLine{{"mesh invocation 3, 1, 0 workgroup 1, 1, 0", "global_invocation_id=[3 1 0]"}},
			"(3,1,0) mesh invocation 3, 1, 0 workgroup 1, 1, 0"},
		{"rgen", "launch=3,1,0", []stageLine{
			{"raygen launch 3, 1, 0 of 4, 2, 1 line 0", "launch_id=[3 1 0]"},
			{"raygen launch 3, 1, 0 of 4, 2, 1 line 1", "launch_id=[3 1 0]"},
			{"raygen launch 3, 1, 0 of 4, 2, 1 line 2", "launch_id=[3 1 0]"},
			{"raygen launch 3, 1, 0 of 4, 2, 1 line 3", "launch_id=[3 1 0]"},
			{"raygen launch 3, 1, 0 done after 4 lines", "launch_id=[3 1 0]"}},
			"(3,1,0) raygen launch 3, 1, 0 done after 4 lines"},
		// A term of another stage's coordinates keeps every line.
		{"rmiss", "pixel=0,0", launches(func(x, y int) []string { return one("miss launch %d, %d, 0 tmax 10.0", x, y) }),
			"(2,1,0) miss launch 2, 1, 0 tmax 10.0"},
	}
	for _, tc := range cases {
		t.Run(tc.arg, func(t *testing.T) {
			_, _, feature := extraStage(t, tc.arg)
			requireStage(t, tc.arg, feature)
			args := []string{"--stage", tc.arg, "--case", "printf"}
			var r printfReport
			code, out := stageApp.runInto(t, &r, nil, []string{"--printf-at", tc.at}, args...)
			var got []stageLine
			for _, g := range r.Printf {
				for _, l := range g.Lines {
					got = append(got, stageLine{l.Text, coordText(l.Coords)})
				}
			}
			if !strings.Contains(out, "\ngpuav-dbg:   "+tc.shown+"\n") {
				t.Errorf("--printf-at %s: the headless output has no line %q:\n%s", tc.at, tc.shown, out)
			}
			if code != 0 || r.Lost != 0 || sortedLines(got) != sortedLines(tc.want) {
				t.Errorf("--printf-at %s: exit %d, %d lost, lines:\n%s\nwant:\n%s\n%s", tc.at, code, r.Lost,
					sortedLines(got), sortedLines(tc.want), out)
			}
			stdout, _ := stageApp.layerAlone(t, []string{"VK_LAYER_GPUAV_DBG_PRINTF_AT=" + tc.at}, args...)
			heard := heardPrintf(stdout)
			var want []string
			for _, l := range tc.want {
				want = append(want, l.text)
			}
			slices.Sort(heard)
			slices.Sort(want)
			if !slices.Equal(heard, want) {
				t.Errorf("the layer alone, printf_at %s, wrote:\n%s\nwant:\n%s", tc.at, strings.Join(heard, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestTUIPrintfTessEval: the TUI (`open` of a real session, in tmux) shows
// a tessellation evaluation shader's printf group with its stage, and the
// lines the filter typed after the run keeps (/ primitive=1), each with its
// primitive and tessellation coordinates.
func TestTUIPrintfTessEval(t *testing.T) {
	_, _, feature := extraStage(t, "tese")
	requireStage(t, "tese", feature)
	dir := stageApp.dir(t)
	s := filepath.Join(t.TempDir(), "tese.gvs")
	ctx, cancel := context.WithTimeout(context.Background(), appTimeout())
	defer cancel()
	run := exec.CommandContext(ctx, bin("gpuav-dbg"), "run", "--headless", "--session", s, "--",
		filepath.Join(dir, "stageapp"), "--shaders", dir, "--stage", "tese", "--case", "printf")
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("gpuav-dbg run: %v\n%s", err, out)
	}
	tm := startTmux(t, 100, 30, nil, "open", s)
	tm.waitFor("exited 0")
	tm.keys("p")
	tm.waitFor(`"tese primitive %d tess coord %.2f, %.2f"  ×12 lines · tess_eval`)
	tm.keys("/", "C-u", "primitive=1", "Enter")
	screen := tm.waitFor("Lines at primitive=1 (4 of 12)")
	want := []string{"printf (1 call, 12 lines) — at primitive=1",
		`stage_printf.tese:8 "tese primitive %d tess coord %.2f, %.2f" ×12`}
	for _, v := range []float64{0, 0.5} {
		for _, u := range []float64{0, 1} {
			want = append(want, fmt.Sprintf("submit 1  (primitive_id 1, tess_coord (%v,%v))  tese primitive 1 tess coord %.2f, %.2f",
				u, v, u, v))
		}
	}
	for _, w := range want {
		if !strings.Contains(screen, w) {
			t.Errorf("the printf screen lacks %q:\n%s", w, screen)
		}
	}
	if strings.Contains(screen, "(primitive_id 0,") || strings.Contains(screen, "(primitive_id 2,") {
		t.Errorf("the filter kept lines of other primitives:\n%s", screen)
	}
	tm.keys("q")
}
