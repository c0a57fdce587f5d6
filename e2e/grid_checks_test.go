package e2e

import (
	"slices"
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
			code, r, out := runVariantCase(t, gridApp, tt.kase, tt.result, tt.precise)
			if tt.action < 0 {
				requireSilent(t, code, r, out)
				return
			}
			requireOneGroup(t, code, r, out)
			e := r.Errors[0]
			b := e.Buffer
			if e.Check != "buffer_oob" || e.Source.File != "grid.comp" || e.Source.Line != 11 ||
				e.ActionIndex != tt.action || e.Count != 4 || e.CommandBuffer.Name != "grid-cmd" ||
				b == nil || !slices.Contains([]uint32{64, 68, 72, 76}, b.Offset) || b.Size != 4 || b.Range != 64 || !b.Write {
				t.Errorf("group: %s %s:%d action %d count %d values %+v; want buffer_oob grid.comp:11 action %d count 4, "+
					"a write at 64..76, range 64", e.Check, e.Source.File, e.Source.Line, e.ActionIndex, e.Count, b, tt.action)
			}
			if got := invocationsX(e.Samples); !slices.Equal(got, []float64{16, 17, 18, 19}) {
				t.Errorf("invocations %v, want [16 17 18 19]", got)
			}
		})
	}
}

// TestPushConstantFacts: a descriptor index from a push constant
// (bufs[pc.a + 1u] of 4) is decided at each action: pc.a 2 runs the fast
// variant, silent; pc.a 3 in the next dispatch of the same command buffer
// runs the precise variant and is reported (index 4 of 4, action 1, its
// store skipped), and pc.a 0 after it stores again; pc.a 0xFFFFFFFF, whose
// index wraps to 0, runs the precise variant (silent).
func TestPushConstantFacts(t *testing.T) {
	t.Run("holds", func(t *testing.T) {
		code, r, out := runVariantCase(t, gridApp, "pc_holds", "b=0,0,0,12", "")
		requireSilent(t, code, r, out)
	})
	// pc.a + 1u wraps to 0, in range: the 32-bit sum wrapped, which the
	// fact cannot follow (2^31 or more), so the precise variant runs.
	t.Run("wraps", func(t *testing.T) {
		const notice = ": set 0 binding 0: its shaders' accesses bounded by the action's grid or push constants are " +
			"not decided for this action (the grid of an indirect dispatch or a draw, a word never pushed, or a bound of " +
			"2^31 or more): its precise variant was created (precise variants created: 1)"
		code, r, out := runVariantCase(t, gridApp, "pc_wraps", "b=9,0,0,0", notice)
		requireSilent(t, code, r, out)
	})
	t.Run("holds_then_not", func(t *testing.T) {
		const notice = ": set 0 binding 0: its shaders' descriptor index reaches 4 of 4 elements at this action: " +
			"its precise variant was created (precise variants created: 1)"
		code, r, out := runVariantCase(t, gridApp, "pc_holds_then_not", "b=0,10,0,12", notice)
		requireOneGroup(t, code, r, out)
		e := r.Errors[0]
		d := e.Descriptor
		if e.Check != "descriptor_index_oob" || e.Source.File != "grid_pc.comp" || e.Source.Line != 10 ||
			e.ActionIndex != 1 || e.Count != 1 || d == nil || d.Set != 0 || d.Binding != 0 || d.Index != 4 || d.ArrayLength != 4 {
			t.Errorf("group: %s %s:%d action %d count %d descriptor %+v; want descriptor_index_oob grid_pc.comp:10 "+
				"action 1 count 1, set 0 binding 0 index 4 of 4", e.Check, e.Source.File, e.Source.Line, e.ActionIndex, e.Count, d)
		}
	})
}
