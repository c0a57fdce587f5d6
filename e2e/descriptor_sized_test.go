package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestDescriptorSizedArrayElements: descriptor_uninitialized and
// descriptor_destroyed on a sized array (data[8], binding 1 PARTIALLY_BOUND
// with a layout count of 8): a never-written element 2 and an element 3
// whose buffer was destroyed after the write, in a compute, a vertex and a
// fragment shader, and in a compute shader that reads in a loop whose
// counter is the index (desc_loop.comp: the read runs behind its binding's
// fact, which fails here): one error each with the exact set, binding,
// index, array length 8, action, coordinates, VUID and line; the failed
// load yields 0 (value=1). The clean case reads element 1 (value=102) and
// reports nothing; in the loop also when every element is written, so
// that the fact holds (loop_full: element 7, value=108).
func TestDescriptorSizedArrayElements(t *testing.T) {
	cases := []struct {
		name, check, msg string
		index            uint32
	}{
		{"uninitialized", "descriptor_uninitialized",
			"(set = 0, binding = 1) Descriptor index 2 is uninitialized (never written).", 2},
		{"destroyed", "descriptor_destroyed",
			"(set = 0, binding = 1) Descriptor index 3 references a resource that was destroyed.", 3},
	}
	type variant struct {
		name, kase, file string // kase: descapp's case prefix
		stage            int    // in descStages
	}
	var variants []variant
	for i, st := range descStages {
		variants = append(variants, variant{st.stage, "sized", strings.Replace(st.file, "desc.", "desc_sized.", 1), i})
	}
	variants = append(variants, variant{"compute_loop", "loop", "desc_loop.comp", 0})
	for _, v := range variants {
		st := descStages[v.stage]
		for _, c := range cases {
			t.Run(v.name+"/"+c.name, func(t *testing.T) {
				code, r, out := descApp.run(t, sizedOn, nil, "--stage", st.stage, "--case", v.kase+"_"+c.name)
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
				vuid := "VUID-" + st.action + "-None-08114"
				if e.Check != c.check || e.VUID != vuid || e.Count != 1 || e.Stage != st.stage ||
					e.Action != st.action || e.ActionIndex != 0 || e.Submit != 1 {
					t.Errorf("group: check %q vuid %q count %d stage %q action %q #%d submit %d; want %s %s 1 %s %s #0 submit 1",
						e.Check, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.Submit, c.check, vuid, st.stage, st.action)
				}
				if d := e.Descriptor; d == nil || d.Set != 0 || d.Binding != 1 || d.Index != c.index || d.ArrayLength != 8 {
					t.Errorf("descriptor %+v, want set 0 binding 1 index %d array_length 8", d, c.index)
				}
				if !strings.Contains(e.Message, c.msg) {
					t.Errorf("message %q, want it to contain %q", e.Message, c.msg)
				}
				if fmt.Sprint(e.Coords) != fmt.Sprint(st.coords) {
					t.Errorf("coords %v, want %v", e.Coords, st.coords)
				}
				if at := expectAt(t, v.file, c.check); !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
					t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
				}
			})
		}
		t.Run(v.name+"/clean", func(t *testing.T) {
			descApp.runClean(t, sizedOn, "value=102", "clean read must see data[1].v[0] = 101",
				"--stage", st.stage, "--case", v.kase+"_clean")
		})
	}
	t.Run("compute_loop/full", func(t *testing.T) {
		descApp.runClean(t, nil, "value=108", "every element written: the read must see data[7].v[0] = 107",
			"--stage", "compute", "--case", "loop_full")
	})
}

// TestDescriptorSizedArrayKhronos: Khronos 1.3.239 GPU-AV reports the
// never-written element of the sized PARTIALLY_BOUND array too ("Descriptor
// index 2 is uninitialized", action index and line); gpuav-dbg reports the
// same index, action and line. (It does not catch sized_destroyed: it
// reads the stale buffer, value=104.)
func TestDescriptorSizedArrayKhronos(t *testing.T) {
	requireKhronos(t)
	theirRe := regexp.MustCompile(`Descriptor index (\d+) is uninitialized\.\s+Command buffer \(desc-cmd\)\([0-9a-fx]+\)\. ` +
		`(?:Compute )?(?:Dispatch|Draw) Index (?:0x)?([0-9a-f]+)\..*? at line (\d+)`)
	for _, st := range descStages {
		t.Run(st.stage, func(t *testing.T) {
			out := descApp.runKhronos(t, "--stage", st.stage, "--case", "sized_uninitialized")
			m := theirRe.FindAllStringSubmatch(out, -1)
			if len(m) != 1 {
				t.Fatalf("Khronos reported %d uninitialized descriptors, want 1:\n%s", len(m), out)
			}
			_, r, ours := descApp.run(t, sizedOn, nil, "--stage", st.stage, "--case", "sized_uninitialized")
			if len(r.Errors) != 1 || r.Errors[0].Descriptor == nil {
				t.Fatalf("Khronos finds index %s; gpuav-dbg reported %+v\n%s", m[0][1], r.Errors, ours)
			}
			e := r.Errors[0]
			if e.Check != "descriptor_uninitialized" || fmt.Sprint(e.Descriptor.Index) != m[0][1] ||
				fmt.Sprintf("%x", e.ActionIndex) != m[0][2] || fmt.Sprint(e.Source.Line) != m[0][3] {
				t.Errorf("Khronos: index %s action %s line %s; gpuav-dbg: %s index %d action %d line %d",
					m[0][1], m[0][2], m[0][3], e.Check, e.Descriptor.Index, e.ActionIndex, e.Source.Line)
			}
		})
	}
}

// TestDescriptorSizedArrayChecksOff: with its check off, each sized case
// reports nothing.
func TestDescriptorSizedArrayChecksOff(t *testing.T) {
	for _, c := range []struct{ kase, env string }{
		{"sized_uninitialized", "descriptor_uninitialized=off"},
		{"sized_destroyed", "descriptor_destroyed=off"},
	} {
		t.Run(c.kase, func(t *testing.T) {
			code, r, out := descApp.run(t, sizedOn, []string{"--check", c.env}, "--stage", "compute", "--case", c.kase)
			if code != 0 || len(r.Errors) != 0 {
				t.Fatalf("with %s: exit %d, %d groups, want 0 and none\n%s", c.env, code, len(r.Errors), out)
			}
		})
	}
}

// TestDescriptorSizedElementsOnByDefault: with no setting, an unwritten
// element of a sized array is reported; VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=0
// gives back the element checks of runtime arrays only, and the access is
// not checked (the index still is).
func TestDescriptorSizedElementsOnByDefault(t *testing.T) {
	code, r, out := descApp.run(t, nil, nil, "--stage", "compute", "--case", "sized_uninitialized")
	if code != 1 || len(r.Errors) != 1 || r.Errors[0].Check != "descriptor_uninitialized" {
		t.Fatalf("default checks: exit %d, %d groups, want 1 and one descriptor_uninitialized\n%s", code, len(r.Errors), out)
	}
	code, r, out = descApp.run(t, []string{"VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=0"}, nil, "--stage", "compute", "--case", "sized_uninitialized")
	requireSilent(t, code, r, out)
}

// sizedOn asks the layer for element checks on sized arrays and plain
// bindings explicitly (they are on by default too).
var sizedOn = []string{"VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=1"}

// TestDescriptorSpecLength: an array sized by a specialization constant
// (data[N], N = 2 in the shader, specialized to 4 by the app; layout count
// 4) indexed with 5 in a compute, a vertex and a fragment shader: one
// descriptor_index_oob error each with index 5 and the specialized length
// 4, and the failed load yields 0 (value=1). Index 3 is in bounds only
// with the specialized length: silent, value=104. (The layer used to leave
// such arrays unchecked and the run exited 0.)
func TestDescriptorSpecLength(t *testing.T) {
	for _, st := range descStages {
		file := strings.Replace(st.file, "desc.", "desc_spec.", 1)
		t.Run(st.stage+"/spec_oob", func(t *testing.T) {
			code, r, out := descApp.run(t, nil, nil, "--stage", st.stage, "--case", "spec_oob")
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d error groups; want 1 and 1\n%s", code, len(r.Errors), out)
			}
			e := r.Errors[0]
			if d := e.Descriptor; e.Check != "descriptor_index_oob" || d == nil || d.Set != 0 || d.Binding != 1 || d.Index != 5 ||
				d.ArrayLength != 4 || e.Count != 1 || e.Stage != st.stage || e.Action != st.action {
				t.Errorf("group: %s %+v count %d stage %s action %s; want descriptor_index_oob set 0 binding 1 index 5 length 4, 1, %s, %s",
					e.Check, d, e.Count, e.Stage, e.Action, st.stage, st.action)
			}
			if e.Source.File != file || e.Source.Line != 11 {
				t.Errorf("source %+v, want %s:11", e.Source, file)
			}
			if !strings.Contains(out, "value=1\n") {
				t.Errorf("the failed load must yield 0 (value=1); app printed:\n%s", out)
			}
		})
		t.Run(st.stage+"/spec_clean", func(t *testing.T) {
			descApp.runClean(t, nil, "value=104", "index 3 of the specialized 4 must read data[3].v[0] = 103",
				"--stage", st.stage, "--case", "spec_clean")
		})
	}
}

// TestDescriptorInstanceIndex: the case of the one hang seen on an H100
// (docs/decisions/bounded-waits.md): an indexed draw of 4 instances whose
// vertex shader indexes a sized array of 3 with gl_InstanceIndex. One
// error, for instance 3 (index 3 of length 3, vkCmdDrawIndexed); the bad
// load is skipped, so the other instances' 100+101+102 is the sum
// (value=303). The soak test (scripts/hardware/soak.sh) repeats it.
func TestDescriptorInstanceIndex(t *testing.T) {
	code, r, out := descApp.run(t, nil, nil, "--stage", "vertex", "--case", "instance_oob")
	if code != 1 || len(r.Errors) != 1 {
		t.Fatalf("exit %d, %d error groups; want 1 and 1\n%s", code, len(r.Errors), out)
	}
	e := r.Errors[0]
	want := map[string][]float64{"instance_index": {3}, "vertex_index": {0}}
	if d := e.Descriptor; e.Check != "descriptor_index_oob" || d == nil || d.Index != 3 || d.ArrayLength != 3 ||
		e.Count != 1 || e.Action != "vkCmdDrawIndexed" || fmt.Sprint(e.Coords) != fmt.Sprint(want) ||
		e.Source.File != "desc_instance.vert" || e.Source.Line != 9 {
		t.Errorf("group: %s %+v count %d action %s coords %v source %+v; want index 3 of 3 at instance 3, vkCmdDrawIndexed, desc_instance.vert:9",
			e.Check, d, e.Count, e.Action, e.Coords, e.Source)
	}
	if !strings.Contains(out, "value=303\n") {
		t.Errorf("the skipped load must add 0 (value=303); app printed:\n%s", out)
	}
}

// TestDescriptorNonUniformInstance: the draw that hung an app on NVIDIA
// (once on an H100, once on an H200, under this layer and under the
// Khronos layer 1.4.309; never without a layer): vkCmdDraw of one point
// and 5 instances in a render pass, whose vertex shader reads
// data[nonuniformEXT(idx)] of a sized array of 3, idx the pushed 3 for
// instance 3 and 0 for the others. Under every on_error the app finishes
// with the one error exact: skip adds 0 for instance 3 (value=400), clamp
// reads element 2 (value=502), execute lets the read happen (its value is
// undefined and not checked). scripts/hardware/soak.sh repeats it.
func TestDescriptorNonUniformInstance(t *testing.T) {
	for _, c := range []struct{ onError, value string }{
		{"skip", "value=400\n"},
		{"clamp", "value=502\n"},
		{"execute", ""},
	} {
		t.Run(c.onError, func(t *testing.T) {
			code, r, out := descApp.run(t, nil, []string{"--on-error", c.onError}, "--stage", "vertex", "--case", "instance_nonuniform")
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d error groups; want 1 and 1\n%s", code, len(r.Errors), out)
			}
			e := r.Errors[0]
			want := map[string][]float64{"instance_index": {3}, "vertex_index": {0}}
			if d := e.Descriptor; e.Check != "descriptor_index_oob" || d == nil || d.Set != 0 || d.Binding != 1 || d.Index != 3 ||
				d.ArrayLength != 3 || e.Count != 1 || e.Action != "vkCmdDraw" || e.ActionIndex != 0 ||
				fmt.Sprint(e.Coords) != fmt.Sprint(want) || e.Source.File != "desc_nonuniform.vert" || e.Source.Line != 12 {
				t.Errorf("group: %s %+v count %d action %s #%d coords %v source %+v; want set 0 binding 1 index 3 of 3 at instance 3, vkCmdDraw #0, desc_nonuniform.vert:12",
					e.Check, d, e.Count, e.Action, e.ActionIndex, e.Coords, e.Source)
			}
			if c.value != "" && !strings.Contains(out, c.value) {
				t.Errorf("want %q; app printed:\n%s", strings.TrimSpace(c.value), out)
			}
		})
	}
}
