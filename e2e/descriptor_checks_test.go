package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// descStages are the stages descapp runs its access in.
var descStages = []struct {
	stage, action, file string
	coords              map[string][]float64
}{
	{"compute", "vkCmdDispatch", "desc.comp", map[string][]float64{"global_invocation_id": {0, 0, 0}}},
	{"vertex", "vkCmdDraw", "desc.vert", map[string][]float64{"vertex_index": {0}, "instance_index": {0}}},
	{"fragment", "vkCmdDraw", "desc.frag", map[string][]float64{"frag_coord": {0.5, 0.5}}},
}

// TestDescriptorStateChecks: a runtime (bindless) array of storage buffers
// indexed past its layout count, past its variable descriptor count, at an
// element never written (PARTIALLY_BOUND), at an element whose buffer was
// destroyed after the write, and at a bad element of the third of three
// sets (one action each), in a compute, a vertex and a fragment shader on
// lavapipe: one error each with the exact set, binding, index, array
// length, action, coordinates, VUID and source line; the failed load yields
// 0 (the app stores value+1: value=1, where lavapipe alone reads the
// destroyed buffer's 103). The same for a set pushed with
// vkCmdPushDescriptorSetKHR and with its template form. The clean cases
// report nothing and read 101.
func TestDescriptorStateChecks(t *testing.T) {
	cases := []struct {
		name, check, vuid, msg string
		index, length          uint32
		action                 int
	}{
		{"runtime_oob", "descriptor_index_oob", "None-10068",
			"(set = 0, binding = 1) Index of 5 used to index descriptor array of length 4.", 5, 4, 0},
		{"variable_count", "descriptor_index_oob", "None-10068",
			"(set = 0, binding = 1) Index of 6 used to index descriptor array of length 6.", 6, 6, 0},
		{"uninitialized", "descriptor_uninitialized", "None-08114",
			"(set = 0, binding = 1) Descriptor index 2 is uninitialized (never written).", 2, 4, 0},
		{"destroyed", "descriptor_destroyed", "None-08114",
			"(set = 0, binding = 1) Descriptor index 3 references a resource that was destroyed.", 3, 4, 0},
		{"many_sets", "descriptor_uninitialized", "None-08114",
			"(set = 0, binding = 1) Descriptor index 2 is uninitialized (never written).", 2, 4, 2},
		// Push descriptors: the pushed set is described per command buffer.
		{"push", "descriptor_uninitialized", "None-08114",
			"(set = 0, binding = 1) Descriptor index 2 is uninitialized (never written).", 2, 8, 0},
		{"push_template", "descriptor_uninitialized", "None-08114",
			"(set = 0, binding = 1) Descriptor index 2 is uninitialized (never written).", 2, 8, 0},
	}
	for _, st := range descStages {
		for _, c := range cases {
			t.Run(st.stage+"/"+c.name, func(t *testing.T) {
				code, r, out := descApp.run(t, nil, nil, "--stage", st.stage, "--case", c.name)
				if code != 1 {
					t.Fatalf("exit code %d, want 1\n%s", code, out)
				}
				if !strings.Contains(out, "value=1\n") {
					t.Errorf("the failed load must yield 0 (value=1); app printed:\n%s", out)
				}
				if len(r.Errors) != 1 {
					t.Fatalf("%d error groups, want 1\n%s", len(r.Errors), out)
				}
				e := r.Errors[0]
				vuid := "VUID-" + st.action + "-" + c.vuid
				if e.Check != c.check || e.VUID != vuid || e.Count != 1 || e.Stage != st.stage ||
					e.Action != st.action || e.ActionIndex != c.action || e.Submit != 1 ||
					e.CommandBuffer.Name != "desc-cmd" || e.Pipeline.Name != "desc-pipeline" {
					t.Errorf("group: check %q vuid %q count %d stage %q action %q #%d submit %d cb %q pipeline %q; want %s %s 1 %s %s #%d submit 1",
						e.Check, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.Submit, e.CommandBuffer.Name,
						e.Pipeline.Name, c.check, vuid, st.stage, st.action, c.action)
				}
				if d := e.Descriptor; d == nil || d.Set != 0 || d.Binding != 1 || d.Index != c.index || d.ArrayLength != c.length {
					t.Errorf("descriptor %+v, want set 0 binding 1 index %d array_length %d", d, c.index, c.length)
				}
				if !strings.Contains(e.Message, c.msg) {
					t.Errorf("message %q, want it to contain %q", e.Message, c.msg)
				}
				if fmt.Sprint(e.Coords) != fmt.Sprint(st.coords) {
					t.Errorf("coords %v, want %v", e.Coords, st.coords)
				}
				if at := expectAt(t, st.file, c.check); !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
					t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
				}
			})
		}
		for _, kase := range []string{"clean", "push_clean"} {
			t.Run(st.stage+"/"+kase, func(t *testing.T) {
				code, r, out := descApp.run(t, nil, nil, "--stage", st.stage, "--case", kase)
				requireSilent(t, code, r, out)
				if !strings.Contains(out, "value=102\n") {
					t.Errorf("clean read must see data[1].v[0] = 101 (value=102); app printed:\n%s", out)
				}
			})
		}
	}
}

// TestDescriptorStateGrowth: a set with 20000 storage-buffer descriptors
// needs a descriptor state larger than the layer's first 64 KiB input
// buffer. The first submit's state is absent: no error (never a false
// one), and one notice that the buffer grew; the command buffer recorded
// again reports the never-written element 19999 exactly, from submit 2.
func TestDescriptorStateGrowth(t *testing.T) {
	for _, st := range descStages {
		t.Run(st.stage, func(t *testing.T) {
			code, r, out := descApp.run(t, nil, nil, "--stage", st.stage, "--case", "growth")
			if code != 1 {
				t.Fatalf("exit code %d, want 1\n%s", code, out)
			}
			if !strings.Contains(out, "submit=1\nsubmit=2\nvalue=1\n") {
				t.Errorf("app must run two submits and the failed load yield 0; app printed:\n%s", out)
			}
			grown := 0
			for _, n := range r.Notices {
				if strings.HasPrefix(n.Text, "input buffer (binding 2) grown to ") &&
					strings.HasSuffix(n.Text, " bytes: the submit before had no room, its checks of that buffer reported nothing") {
					grown++
				}
			}
			if grown != 1 {
				t.Errorf("%d growth notices, want 1: %+v", grown, r.Notices)
			}
			if len(r.Errors) != 1 {
				t.Fatalf("%d error groups, want 1\n%s", len(r.Errors), out)
			}
			e := r.Errors[0]
			if e.Check != "descriptor_uninitialized" || e.Count != 1 || e.Submit != 2 || e.LastSubmit != 2 ||
				e.Stage != st.stage || e.Action != st.action || e.ActionIndex != 0 {
				t.Errorf("group: check %q count %d submits %d..%d stage %q action %q #%d; want descriptor_uninitialized, 1 from submit 2",
					e.Check, e.Count, e.Submit, e.LastSubmit, e.Stage, e.Action, e.ActionIndex)
			}
			if d := e.Descriptor; d == nil || d.Set != 0 || d.Binding != 1 || d.Index != 19999 || d.ArrayLength != 20000 {
				t.Errorf("descriptor %+v, want set 0 binding 1 index 19999 array_length 20000", d)
			}
			if at := expectAt(t, st.file, "descriptor_uninitialized"); !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
				t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
			}
		})
	}
}

// TestDescriptorStateAtLeastWhatKhronosFinds: with descriptor indexing on,
// the Khronos layer 1.3.239 with GPU-assisted validation reports the
// runtime-array index errors and the uninitialized descriptor of descapp
// ("Index of N used to index descriptor array of length L", "Descriptor
// index N is uninitialized", with the action index and the line); gpuav-dbg
// reports the same index, length, action and line. (1.3.239 does not catch
// the destroyed case at all: it reads the stale buffer, value=104.)
func TestDescriptorStateAtLeastWhatKhronosFinds(t *testing.T) {
	requireKhronos(t)
	theirRe := regexp.MustCompile(`(?:Index of (\d+) used to index descriptor array of length (\d+)|Descriptor index (\d+) is uninitialized)\.\s+` +
		`Command buffer \(desc-cmd\)\([0-9a-fx]+\)\. (?:Compute )?(?:Dispatch|Draw) Index (?:0x)?([0-9a-f]+)\..*? at line (\d+)`)
	for _, st := range descStages {
		for _, kase := range []string{"runtime_oob", "variable_count", "uninitialized", "many_sets"} {
			t.Run(st.stage+"/"+kase, func(t *testing.T) {
				out := descApp.runKhronos(t, "--stage", st.stage, "--case", kase)
				m := theirRe.FindAllStringSubmatch(out, -1)
				if len(m) != 1 {
					t.Fatalf("Khronos reported %d descriptor errors, want 1 (the reference must catch it):\n%s", len(m), out)
				}
				check, index, length := "descriptor_index_oob", m[0][1], m[0][2]
				if m[0][3] != "" {
					check, index, length = "descriptor_uninitialized", m[0][3], ""
				}
				_, r, ours := descApp.run(t, nil, nil, "--stage", st.stage, "--case", kase)
				if len(r.Errors) != 1 || r.Errors[0].Descriptor == nil {
					t.Fatalf("Khronos finds %s index %s; gpuav-dbg reported %+v\n%s", check, index, r.Errors, ours)
				}
				e := r.Errors[0]
				d := e.Descriptor
				if e.Check != check || fmt.Sprint(d.Index) != index || (length != "" && fmt.Sprint(d.ArrayLength) != length) ||
					fmt.Sprintf("%x", e.ActionIndex) != m[0][4] || fmt.Sprint(e.Source.Line) != m[0][5] {
					t.Errorf("Khronos: %s index %s length %q action %s line %s; gpuav-dbg: %s index %d length %d action %d line %d",
						check, index, length, m[0][4], m[0][5], e.Check, d.Index, d.ArrayLength, e.ActionIndex, e.Source.Line)
				}
			})
		}
	}
}

// TestDescriptorStateChecksOff: each check is switched off on its own
// (gpuav-dbg run --check ID=off): its case then reports nothing.
func TestDescriptorStateChecksOff(t *testing.T) {
	for _, c := range []struct{ kase, env string }{
		{"runtime_oob", "descriptor_index_oob=off"},
		{"uninitialized", "descriptor_uninitialized=off"},
		{"destroyed", "descriptor_destroyed=off"},
	} {
		t.Run(c.kase, func(t *testing.T) {
			code, r, out := descApp.run(t, nil, []string{"--check", c.env}, "--stage", "compute", "--case", c.kase)
			if code != 0 || len(r.Errors) != 0 {
				t.Fatalf("with %s: exit %d, %d groups, want 0 and none\n%s", c.env, code, len(r.Errors), out)
			}
		})
	}
}
