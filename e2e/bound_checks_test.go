package e2e

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// boundApp exercises the bounds decided once per binding
// (docs/decisions/cheap-checks.md): reads whose offsets have a static bound
// run unchecked while the binding's range holds that bound, and are checked
// one by one, with their exact values, when it does not.
var boundApp = newCheckApp("boundapp", "bound.comp", "bound_set1.comp", "bound_free.comp", "bound.frag", "buf_plain.vert")

// TestBoundsDecidedPerBinding runs boundapp with the default checks
// (every check) through the launcher on lavapipe. It must catch the last
// iteration of a loop reading past the range, reads past a range smaller
// than their bound, and a bound that holds in one dispatch and not the
// next (only the second reported) or the other way round (only the first);
// and must not report reads that stay in range, whether the range holds
// the bound or is smaller than it. The reads past the range are skipped
// (they yield 0). The layer decides the facts on the CPU
// (docs/decisions/precise-variant.md): the pipeline runs its fast variant
// where they hold, and its precise variant, created once, with a notice,
// wherever they do not; a set rewritten between two recordings of a command
// buffer is decided again (rewritten: only the second submit is reported).
func TestBoundsDecidedPerBinding(t *testing.T) {
	const loopLine, maskedLine = 19, 21
	tests := []struct {
		kase   string
		result string
		// The one error group expected (line 0: none): its line, action,
		// count, offsets (the group shows one of its records' values) and
		// the global invocation ids of its records.
		line, action, count int
		offsets             []uint32
		rng                 uint32
		invocations         []float64
		// precise: the notice of the precise variant's creation ("":
		// none), with the binding's floor.
		precise string
	}{
		{kase: "clean", result: "r=1136,6136,3136,8136"},
		{kase: "loop_short", result: "r=1036,6036,3036,8036", precise: preciseNotice(32)},
		{"loop_last", "r=1120,6120,3120,8120", loopLine, 0, 4, []uint32{60}, 60, []float64{0, 1, 2, 3}, preciseNotice(60)},
		{"masked_past", "r=1000,0,3000,0", maskedLine, 0, 2, []uint32{20, 28}, 16, []float64{1, 3}, preciseNotice(16)},
		{"holds_then_not", "r=1120,6120,3120,8120", loopLine, 1, 4, []uint32{60}, 60, []float64{0, 1, 2, 3}, preciseNotice(60)},
		{"fails_then_holds", "r=1136,6136,3136,8136", loopLine, 0, 4, []uint32{60}, 60, []float64{0, 1, 2, 3}, preciseNotice(60)},
		{"rewritten", "first r=1136,6136,3136,8136\nr=1120,6120,3120,8120", loopLine, 0, 4, []uint32{60}, 60, []float64{0, 1, 2, 3}, preciseNotice(60)},
	}
	for _, tt := range tests {
		t.Run(tt.kase, func(t *testing.T) {
			code, r, out := boundApp.run(t, nil, nil, "--case", tt.kase)
			if !strings.Contains(out, tt.result+"\n") {
				t.Errorf("app printed no %q:\n%s", tt.result, out)
			}
			precise := preciseNotices(r)
			switch {
			case tt.precise == "" && len(precise) > 0:
				t.Errorf("precise variant notices %q, want none", precise)
			case tt.precise != "" && (len(precise) != 1 || !strings.HasSuffix(precise[0], tt.precise)):
				t.Errorf("precise variant notices %q, want one ending %q", precise, tt.precise)
			}
			if tt.line == 0 {
				requireSilent(t, code, r, out)
				return
			}
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d error groups; want 1, 1\n%s", code, len(r.Errors), out)
			}
			e := r.Errors[0]
			b := e.Buffer
			if e.Check != "buffer_oob" || e.Source.File != "bound.comp" || e.Source.Line != tt.line ||
				e.ActionIndex != tt.action || e.Count != tt.count || e.CommandBuffer.Name != "bound-cmd" ||
				b == nil || !slices.Contains(tt.offsets, b.Offset) || b.Size != 4 || b.Range != tt.rng ||
				b.Highest != uint64(b.Offset)+3 || b.Write {
				t.Errorf("group: %s %s:%d action %d count %d values %+v; want buffer_oob bound.comp:%d action %d count %d, offset in %v, range %d",
					e.Check, e.Source.File, e.Source.Line, e.ActionIndex, e.Count, b, tt.line, tt.action, tt.count, tt.offsets, tt.rng)
			}
			var got []float64
			for _, s := range e.Samples {
				got = append(got, s["global_invocation_id"][0])
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.invocations) {
				t.Errorf("invocations %v, want %v", got, tt.invocations)
			}
		})
	}
}

// TestFactsReadOneSet: bound_set1.comp's binding fact reads set 1 only, so
// the layer tests it again after a bind of set 1 and not after a bind of
// set 0 alone (layer/variants.c). boundapp other_set binds, before four
// dispatches, set 0, set 1 with a range past which the loop's last
// iteration reads, another set 0, and set 1 with the full range: the
// dispatches in between (actions 1 and 2) run the precise variant and are
// reported with their exact values, the last runs the fast one again.
func TestFactsReadOneSet(t *testing.T) {
	code, r, out := boundApp.run(t, nil, nil, "--case", "other_set")
	if !strings.Contains(out, "r=1136,6136,3136,8136\n") || code != 1 {
		t.Fatalf("exit %d, want 1; output:\n%s", code, out)
	}
	precise := preciseNotices(r)
	want := ": set 1 binding 0 has a floor of 60 where its shaders' bounded accesses need 64 (and 1 elements): " +
		"its precise variant was created (precise variants created: 1)"
	if len(precise) != 1 || !strings.HasSuffix(precise[0], want) {
		t.Errorf("precise variant notices %q, want one ending %q", precise, want)
	}
	var actions []int
	for _, e := range r.Errors {
		b := e.Buffer
		if e.Check != "buffer_oob" || e.Source.File != "bound_set1.comp" || e.Source.Line != 19 || e.Count != 4 ||
			b == nil || b.Offset != 60 || b.Range != 60 || b.Size != 4 || b.Write {
			t.Errorf("group %s %s:%d action %d count %d values %+v; want buffer_oob bound_set1.comp:19 count 4 offset 60 range 60",
				e.Check, e.Source.File, e.Source.Line, e.ActionIndex, e.Count, b)
		}
		actions = append(actions, e.ActionIndex)
	}
	slices.Sort(actions)
	if !slices.Equal(actions, []int{1, 2}) {
		t.Errorf("error groups of actions %v, want [1 2]", actions)
	}
}

// preciseNotice is the end of the notice of a boundapp pipeline's precise
// variant, created because data (set 0, binding 0) has a floor of floor
// bytes where the loop's reads need 64.
func preciseNotice(floor int) string {
	return fmt.Sprintf(": set 0 binding 0 has a floor of %d where its shaders' bounded accesses need 64 (and 1 elements): "+
		"its precise variant was created (precise variants created: 1)", floor)
}

// TestPreciseVariantThreads: four threads record the same pipeline with a
// set that fails its fact at once (boundapp threads, its module destroyed
// before): the precise variant is created once, and every command
// buffer's dispatch is checked with its exact values.
func TestPreciseVariantThreads(t *testing.T) {
	code, r, out := boundApp.run(t, nil, nil, "--case", "threads")
	if !strings.Contains(out, "r=1120,6120,3120,8120\n") || code != 1 {
		t.Fatalf("exit %d, want 1; output:\n%s", code, out)
	}
	precise := preciseNotices(r)
	if len(precise) != 1 || !strings.HasSuffix(precise[0], preciseNotice(60)) {
		t.Errorf("precise variant notices %q, want one ending %q", precise, preciseNotice(60))
	}
	cmds := map[string]int{}
	for _, e := range r.Errors {
		b := e.Buffer
		if e.Check != "buffer_oob" || e.Source.Line != 19 || e.ActionIndex != 0 || b == nil || b.Offset != 60 || b.Range != 60 {
			t.Errorf("group %s line %d action %d values %+v; want buffer_oob line 19 action 0 offset 60 range 60",
				e.Check, e.Source.Line, e.ActionIndex, b)
		}
		cmds[e.CommandBuffer.Name] += e.Count
	}
	want := map[string]int{"bound-cmd-0": 4, "bound-cmd-1": 4, "bound-cmd-2": 4, "bound-cmd-3": 4}
	if !maps.Equal(cmds, want) {
		t.Errorf("records per command buffer %v, want %v", cmds, want)
	}
}

// TestPreciseVariantGraphics: boundapp's loop in a fragment shader, a
// graphics pipeline with dynamic rendering: with the range holding the
// loop's bound it runs its fast variant (no notice, nothing reported);
// with the last iteration past the range the precise variant is created
// and reports it with its exact values.
func TestPreciseVariantGraphics(t *testing.T) {
	for _, tt := range []struct {
		kase, result string
		fail         bool
	}{
		{"clean", "r=136", false},
		{"loop_last", "r=120", true},
	} {
		t.Run(tt.kase, func(t *testing.T) {
			code, r, out := boundApp.run(t, nil, nil, "--case", tt.kase, "--stage", "fragment")
			if !strings.Contains(out, tt.result+"\n") {
				t.Errorf("app printed no %q:\n%s", tt.result, out)
			}
			precise := preciseNotices(r)
			if !tt.fail {
				if len(precise) > 0 {
					t.Errorf("precise variant notices %q, want none", precise)
				}
				requireSilent(t, code, r, out)
				return
			}
			if len(precise) != 1 || !strings.HasPrefix(precise[0], "graphics pipeline ") ||
				!strings.HasSuffix(precise[0], preciseNotice(60)) {
				t.Errorf("precise variant notices %q, want one of a graphics pipeline ending %q", precise, preciseNotice(60))
			}
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d error groups; want 1, 1\n%s", code, len(r.Errors), out)
			}
			e := r.Errors[0]
			if b := e.Buffer; e.Check != "buffer_oob" || e.Source.File != "bound.frag" || e.Source.Line != 16 ||
				e.Count != 1 || b == nil || b.Offset != 60 || b.Range != 60 || b.Size != 4 {
				t.Errorf("group %s %s:%d count %d values %+v; want buffer_oob bound.frag:16 count 1 offset 60 range 60",
					e.Check, e.Source.File, e.Source.Line, e.Count, e.Buffer)
			}
		})
	}
}

// preciseNotices are the notices of a run about precise variants.
func preciseNotices(r checkReport) []string {
	var out []string
	for _, n := range r.Notices {
		if strings.Contains(n.Text, "precise variant") {
			out = append(out, n.Text)
		}
	}
	return out
}
