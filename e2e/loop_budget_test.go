package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// budgetApp runs loops whose bound comes from memory (loop_budget,
// docs/decisions/loop-budget.md); buf_plain's shaders are the other stage
// of its graphics pipelines.
var budgetApp = newCheckApp("budgetapp", "budget.comp", "budget_proven.comp", "budget.vert", "budget.frag",
	"budget.task", "buf_plain.vert", "buf_plain.frag", "stage_plain.mesh")

// budgetReport is the part of the report the loop_budget tests read.
type budgetReport struct {
	Settings struct {
		LoopBudget uint32 `json:"loop_budget_iterations"`
	} `json:"settings"`
	Errors []budgetGroup `json:"errors"`
}

// budgetGroup is one error group of a budgetReport.
type budgetGroup struct {
	Check      string               `json:"check"`
	VUID       string               `json:"vuid"`
	Message    string               `json:"message"`
	Count      int                  `json:"count"`
	Loop       int                  `json:"loop"`
	Stage      string               `json:"stage"`
	Coords     map[string][]float64 `json:"coords"`
	LoopBudget *struct {
		Iterations uint32 `json:"iterations"`
		Budget     uint32 `json:"budget"`
		Left       bool   `json:"left"`
	} `json:"loop_budget"`
	Outcome *struct {
		Access string `json:"access"`
		Reason string `json:"reason"`
	} `json:"outcome"`
	errorWhere
}

// TestLoopBudget runs budgetapp's runaway loops on lavapipe: each loop
// whose bound, read from memory, is past the budget is reported once, at
// its line, with the invocation that ran it, the iterations (the budget)
// and the budget; skipped (and clamped, which has no meaning for a loop)
// the invocation leaves the loop, so the app finishes with the
// iterations it ran; executed, it keeps looping to its own bound.
// Invocation 2 runs the loop (bound --n, with an exit its data never
// reaches); the others' bounds are 10, 20 and 30. On lavapipe the bound is
// 0xFFFFFFFF, a loop that would not end in a test's time; on a GPU, whose
// driver would reset it, bounded: 2^26 iterations, and 4096 in the nested
// loops (2^24 iterations together if the check failed to leave them).
func TestLoopBudget(t *testing.T) {
	runaway, nested := "0xFFFFFFFF", "0xFFFFFFFF"
	if !driverIsLavapipe(t) {
		runaway, nested = "67108864", "4096"
	}
	type group struct {
		words      []string // the EXPECT line's words in budget.*
		iterations uint32
	}
	tests := []struct {
		name, kase, stage string
		flags, args       []string
		result            string
		groups            []group
		coords            map[string][]float64
		access, reason    string
		budget            uint32
	}{
		{name: "compute", kase: "runaway", stage: "compute", flags: []string{"--loop-budget", "1000"}, args: []string{"--n", runaway},
			result: "r=10,20,1000,30",
			groups: []group{{[]string{"runaway"}, 1000}}, access: "skipped"},
		// The inner loop runs away in the first outer iteration and is
		// left; it is left at once in the later ones (its limit is 0):
		// 1000 inner and 1000 outer iterations, not 1000².
		{name: "nested", kase: "nested", stage: "compute", flags: []string{"--loop-budget", "1000"}, args: []string{"--n", nested},
			result: fmt.Sprintf("r=%d,%d,%d,%d", 10<<16+100, 20<<16+400, 1000<<16+1000, 30<<16+900),
			groups: []group{{[]string{"outer"}, 1000}, {[]string{"inner"}, 1000}}, access: "skipped"},
		{name: "vertex", kase: "runaway", stage: "vertex", flags: []string{"--loop-budget", "1000"}, args: []string{"--n", runaway},
			result: "r=1000,0,0,0",
			groups: []group{{nil, 1000}}, coords: map[string][]float64{"vertex_index": {0}, "instance_index": {0}}, access: "skipped"},
		{name: "fragment", kase: "runaway", stage: "fragment", flags: []string{"--loop-budget", "2^10"}, args: []string{"--n", runaway},
			result: "r=1024,0,0,0",
			groups: []group{{nil, 1024}}, coords: map[string][]float64{"frag_coord": {0.5, 0.5}}, access: "skipped", budget: 1024},
		{name: "clamp", kase: "runaway", stage: "compute", flags: []string{"--loop-budget", "1000", "--on-error", "clamp"},
			args: []string{"--n", runaway}, result: "r=10,20,1000,30", groups: []group{{[]string{"runaway"}, 1000}}, access: "skipped",
			reason: "clamp has no meaning here (a loop's iterations are not an index)"},
		// A bounded loop past the budget: reported once, and it runs to
		// its end.
		{name: "execute", kase: "runaway", stage: "compute", flags: []string{"--loop-budget", "1000", "--on-error", "execute"},
			args: []string{"--n", "5000"}, result: "r=10,20,5000,30", groups: []group{{[]string{"runaway"}, 1000}}, access: "executed"},
		// The default budget, 2^24 iterations of one invocation.
		{name: "default", kase: "runaway", stage: "compute", args: []string{"--n", runaway}, result: "r=10,20,16777216,30",
			groups: []group{{[]string{"runaway"}, 1 << 24}}, access: "skipped", budget: 1 << 24},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r budgetReport
			code, out := budgetApp.runInto(t, &r, nil, tt.flags, append([]string{"--case", tt.kase, "--stage", tt.stage}, tt.args...)...)
			if !strings.Contains(out, tt.result+"\n") {
				t.Errorf("app printed no %q (did it finish with the loop left?):\n%s", tt.result, out)
			}
			if code != 1 || len(r.Errors) != len(tt.groups) {
				t.Fatalf("exit %d, %d error groups; want 1, %d\n%s", code, len(r.Errors), len(tt.groups), out)
			}
			budget := tt.budget
			if budget == 0 {
				budget = 1000
			}
			if r.Settings.LoopBudget != budget {
				t.Errorf("settings.loop_budget_iterations %d, want %d", r.Settings.LoopBudget, budget)
			}
			file := "budget.comp"
			if tt.stage == "vertex" {
				file = "budget.vert"
			} else if tt.stage == "fragment" {
				file = "budget.frag"
			}
			coords := tt.coords
			if coords == nil {
				coords = map[string][]float64{"global_invocation_id": {2, 0, 0}}
			}
			for _, g := range tt.groups {
				want := expectAt(t, file, "loop_budget", g.words...)
				i := slices.IndexFunc(r.Errors, func(e budgetGroup) bool {
					return e.Source.Line == want.line
				})
				if i < 0 {
					t.Errorf("no group at %s:%d (%s)", file, want.line, strings.TrimSpace(want.text))
					continue
				}
				e := r.Errors[i]
				if e.Check != "loop_budget" || !want.matches(e.Source.File, e.Source.Line, e.Source.Text) || e.Count != 1 || e.Loop != 0 ||
					e.Stage != tt.stage || fmt.Sprint(e.Coords) != fmt.Sprint(coords) || e.VUID != "" ||
					e.CommandBuffer.Name != "budget-cmd" || e.Pipeline.Name != "budget-pipeline" || e.ActionIndex != 0 {
					t.Errorf("group %s %s:%d count %d loop %d stage %s coords %v vuid %q %s/%s #%d; want loop_budget %s:%d, 1 invocation, %s %v, no VUID, budget-cmd/budget-pipeline #0",
						e.Check, e.Source.File, e.Source.Line, e.Count, e.Loop, e.Stage, e.Coords, e.VUID, e.CommandBuffer.Name,
						e.Pipeline.Name, e.ActionIndex, file, want.line, tt.stage, coords)
				}
				left := tt.access != "executed"
				if v := e.LoopBudget; v == nil || v.Iterations != g.iterations || v.Budget != budget || v.Left != left {
					t.Errorf("loop_budget %+v, want %d iterations of %d, left %v", v, g.iterations, budget, left)
				}
				what := "the invocation left the loop"
				if !left {
					what = "the invocation kept looping (on_error=execute)"
				}
				msg := fmt.Sprintf("loop_budget: Loop ran %d iterations in one invocation (budget %d); %s. Command buffer ", g.iterations, budget, what)
				if !strings.HasPrefix(e.Message, msg) {
					t.Errorf("message %q, want it to start %q", e.Message, msg)
				}
				if o := e.Outcome; o == nil || o.Access != tt.access || o.Reason != tt.reason {
					t.Errorf("outcome %+v, want %s (%q)", o, tt.access, tt.reason)
				}
			}
		})
	}
}

// TestLoopBudgetProven: a loop of 2^20 iterations of a constant bound is
// proven within the default budget: its module gets no counter (gpuav-dbg
// instrument leaves it byte-identical, where the runaway loops' module
// changes), and the app runs silently to its result.
func TestLoopBudgetProven(t *testing.T) {
	dir := budgetApp.dir(t)
	for file, counted := range map[string]bool{"budget_proven.comp.spv": false, "budget.comp.spv": true} {
		in := filepath.Join(dir, file)
		out := filepath.Join(t.TempDir(), "out.spv")
		if b, err := exec.Command(bin("gpuav-dbg"), "instrument", "--checks", "loop_budget", "-o", out, in).CombinedOutput(); err != nil {
			t.Fatalf("instrument %s: %v\n%s", file, err, b)
		}
		a, _ := os.ReadFile(in)
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if changed := !bytes.Equal(a, b); changed != counted {
			t.Errorf("%s: instrumented by loop_budget %v, want %v", file, changed, counted)
		}
	}
	budgetApp.runClean(t, nil, "r=34078720,34078720,34078720,34078720", "2^20 iterations summing v[(i + g) & 63]",
		"--case", "proven")
}

// TestTaskIndexFromMemory: a task shader reads a storage buffer at an
// index read from memory, past the buffer (a read the Khronos layer is
// known to lose to a device lost). On lavapipe
// the read is reported, with its invocation and line, and skipped, and
// the app finishes: 64 (one element past the end) and 0xFFFFFFFF (an
// offset past 2^32 bytes). The other invocations read v[10], v[20] and
// v[30].
func TestTaskIndexFromMemory(t *testing.T) {
	tests := []struct {
		n               string
		offset, highest uint64
	}{
		{"64", 16 + 64*4, 16 + 64*4 + 3},
		{"0xFFFFFFFF", 0xFFFFFFFF, 0xFFFFFFFF + 3},
	}
	for _, tt := range tests {
		t.Run(tt.n, func(t *testing.T) {
			var r struct {
				Errors []struct {
					budgetGroup
					Buffer *struct {
						Offset  uint64 `json:"offset"`
						Size    uint32 `json:"size"`
						Range   uint32 `json:"range"`
						Highest uint64 `json:"highest_byte"`
						Write   bool   `json:"write"`
					} `json:"buffer"`
				} `json:"errors"`
			}
			code, out := budgetApp.runInto(t, &r, nil, nil, "--case", "oob", "--stage", "task", "--n", tt.n)
			if strings.Contains(out, "unsupported task\n") {
				if driverHas(t, "taskShader") {
					t.Fatalf("budgetapp says the device lacks task shaders, but vulkaninfo reports taskShader = true")
				}
				t.Skip("the driver has no task shaders")
			}
			if !strings.Contains(out, "r=12,22,1,32\n") {
				t.Errorf("the bad read must be skipped and yield 0 (r=12,22,1,32); app printed:\n%s", out)
			}
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d error groups; want 1, 1\n%s", code, len(r.Errors), out)
			}
			e := r.Errors[0]
			want := expectAt(t, "budget.task", "buffer_oob")
			if e.Check != "buffer_oob" || e.VUID != "VUID-vkCmdDrawMeshTasksEXT-storageBuffers-06936" || e.Count != 1 || e.Stage != "task" ||
				e.Action != "vkCmdDrawMeshTasksEXT" || !want.matches(e.Source.File, e.Source.Line, e.Source.Text) ||
				fmt.Sprint(e.Coords) != fmt.Sprint(map[string][]float64{"global_invocation_id": {2, 0, 0}}) ||
				e.CommandBuffer.Name != "budget-cmd" || e.Pipeline.Name != "budget-pipeline" {
				t.Errorf("group %s %s count %d stage %s %s %s:%d coords %v %s/%s; want buffer_oob, the mesh-task VUID, 1 task invocation (2,0,0), vkCmdDrawMeshTasksEXT, %s:%d, budget-cmd/budget-pipeline",
					e.Check, e.VUID, e.Count, e.Stage, e.Action, e.Source.File, e.Source.Line, e.Coords, e.CommandBuffer.Name, e.Pipeline.Name,
					want.file, want.line)
			}
			if b := e.Buffer; b == nil || b.Offset != tt.offset || b.Highest != tt.highest || b.Size != 4 || b.Range != 272 || b.Write {
				t.Errorf("buffer %+v, want a 4-byte read at %d (highest %d) of 272 bytes", b, tt.offset, tt.highest)
			}
		})
	}
}
