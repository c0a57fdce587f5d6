package e2e

import (
	"slices"
	"strings"
	"testing"
)

// gridApp exercises the facts in the dispatch's grid
// (docs/decisions/action-facts.md): a store at the invocation's own index
// runs unchecked (the fast variant) in a dispatch whose grid keeps it in
// range, and checked (the precise variant) in a dispatch whose grid does
// not or is not known.
var gridApp = newCheckApp("gridapp", "grid.comp", "grid_pc.comp")

// TestGridFacts runs gridapp's cases through the launcher on lavapipe: a
// grid that fits is silent and creates no precise variant; one workgroup
// too many (vkCmdDispatch, vkCmdDispatchBase) is reported for that
// dispatch only, with the exact offsets, range and invocations, its
// stores skipped; an indirect dispatch runs the precise variant.
func TestGridFacts(t *testing.T) {
	const fitNotice = ": set 0 binding 0 has a floor of 64 where its shaders' accesses need 80 at this action: " +
		"its precise variant was created (precise variants created: 1)"
	const indirectNotice = ": set 0 binding 0: its shaders' accesses bounded by the action's grid or push constants are " +
		"not decided for this action (the grid of an indirect dispatch or a draw, a word never pushed, or a bound of " +
		"2^31 or more): its precise variant was created (precise variants created: 1)"
	tests := []struct {
		kase, result string
		action       int // the reported dispatch (-1: none)
		precise      string
	}{
		{kase: "fits", result: "r=136 past=0,0,0,0", action: -1},
		{kase: "base", result: "r=58 past=0,0,0,0", action: -1},
		{kase: "one_too_many", result: "r=136 past=0,0,0,0", action: 1, precise: fitNotice},
		{kase: "base_past", result: "r=126 past=0,0,0,0", action: 1, precise: fitNotice},
		{kase: "indirect", result: "r=136 past=0,0,0,0", action: 0, precise: indirectNotice},
	}
	for _, tt := range tests {
		t.Run(tt.kase, func(t *testing.T) {
			code, r, out := gridApp.run(t, nil, nil, "--case", tt.kase)
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
			if tt.action < 0 {
				requireSilent(t, code, r, out)
				return
			}
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d error groups; want 1, 1\n%s", code, len(r.Errors), out)
			}
			e := r.Errors[0]
			b := e.Buffer
			if e.Check != "buffer_oob" || e.Source.File != "grid.comp" || e.Source.Line != 11 ||
				e.ActionIndex != tt.action || e.Count != 4 || e.CommandBuffer.Name != "grid-cmd" ||
				b == nil || !slices.Contains([]uint32{64, 68, 72, 76}, b.Offset) || b.Size != 4 || b.Range != 64 || !b.Write {
				t.Errorf("group: %s %s:%d action %d count %d values %+v; want buffer_oob grid.comp:11 action %d count 4, "+
					"a write at 64..76, range 64", e.Check, e.Source.File, e.Source.Line, e.ActionIndex, e.Count, b, tt.action)
			}
			var got []float64
			for _, s := range e.Samples {
				got = append(got, s["global_invocation_id"][0])
			}
			slices.Sort(got)
			if !slices.Equal(got, []float64{16, 17, 18, 19}) {
				t.Errorf("invocations %v, want [16 17 18 19]", got)
			}
		})
	}
}

// TestPushConstantFacts: a descriptor index from a push constant
// (bufs[pc.a + 1u] of 4) is decided at each action: pc.a 2 runs the fast
// variant, silent; pc.a 3 in the next dispatch of the same command buffer
// runs the precise variant and is reported (index 4 of 4, action 1, its
// store skipped), and pc.a 0 after it stores again.
func TestPushConstantFacts(t *testing.T) {
	t.Run("holds", func(t *testing.T) {
		code, r, out := gridApp.run(t, nil, nil, "--case", "pc_holds")
		if !strings.Contains(out, "b=0,0,0,12\n") {
			t.Errorf("app printed no b=0,0,0,12:\n%s", out)
		}
		if p := preciseNotices(r); len(p) > 0 {
			t.Errorf("precise variant notices %q, want none", p)
		}
		requireSilent(t, code, r, out)
	})
	t.Run("holds_then_not", func(t *testing.T) {
		code, r, out := gridApp.run(t, nil, nil, "--case", "pc_holds_then_not")
		if !strings.Contains(out, "b=0,10,0,12\n") {
			t.Errorf("app printed no b=0,10,0,12:\n%s", out)
		}
		const want = ": set 0 binding 0: its shaders' descriptor index reaches 4 of 4 elements at this action: " +
			"its precise variant was created (precise variants created: 1)"
		if p := preciseNotices(r); len(p) != 1 || !strings.HasSuffix(p[0], want) {
			t.Errorf("precise variant notices %q, want one ending %q", p, want)
		}
		if code != 1 || len(r.Errors) != 1 {
			t.Fatalf("exit %d, %d error groups; want 1, 1\n%s", code, len(r.Errors), out)
		}
		e := r.Errors[0]
		d := e.Descriptor
		if e.Check != "descriptor_index_oob" || e.Source.File != "grid_pc.comp" || e.Source.Line != 10 ||
			e.ActionIndex != 1 || e.Count != 1 || d == nil || d.Set != 0 || d.Binding != 0 || d.Index != 4 || d.ArrayLength != 4 {
			t.Errorf("group: %s %s:%d action %d count %d descriptor %+v; want descriptor_index_oob grid_pc.comp:10 "+
				"action 1 count 1, set 0 binding 0 index 4 of 4", e.Check, e.Source.File, e.Source.Line, e.ActionIndex, e.Count, d)
		}
	})
}
