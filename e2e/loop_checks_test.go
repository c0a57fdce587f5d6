package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestLoopFailuresFolded runs loopapp's cases through the launcher on
// lavapipe (docs/decisions/loop-failures-folded.md): each of the four
// invocations reports a check that fails in a loop once after the loop,
// with the last failure's values and its count; the group counts every
// failed access (the invocations' counts added) and says how many times
// its first record's invocation failed in the loop; the failed reads were
// skipped each time (the results). A check outside any loop reports one
// record per invocation, as before.
func TestLoopFailuresFolded(t *testing.T) {
	// data[1] bound to 80 bytes: the precise variant, whose reads are
	// guarded (the fold's update in the failed side); the fast variant's
	// reads are selects (the update runs every iteration, branch-free).
	const floor80 = ": set 0 binding 0 has a floor of 80 where its shaders' accesses need 0 at this action: " +
		"its precise variant was created (precise variants created: 1)"
	// The push constant index 7: the precise variant.
	const index7 = ": set 0 binding 0: its shaders' descriptor index reaches 7 of 2 elements at this action: " +
		"its precise variant was created (precise variants created: 1)"
	tests := []struct {
		kase, check, result string
		precise             string // the precise variant's notice ("": the fast variant runs)
		count, loop         int
		index               uint32   // descriptor_index_oob: the last failing index
		offsets             []uint32 // buffer_oob: the last failing offset of each invocation
	}{
		// Iterations 5..9 of 10 read data[2..6]: 5 per invocation, index 6
		// last; the other five read data[0].v[g] = 100 + g.
		{kase: "flat", check: "descriptor_index_oob", result: "r=500,505,510,515", count: 20, loop: 5, index: 6},
		// Iterations 5..9 read past data[1]'s 80 bytes, words 20 + g to
		// 36 + g (the last at byte 144 + 4g): the first five read
		// 200 + 4i + g.
		{kase: "buffer", check: "buffer_oob", result: "r=1040,1045,1050,1055", count: 20, loop: 5, precise: floor80,
			offsets: []uint32{144, 148, 152, 156}},
		// The inner loop's sites report after the outer loop: (1, 2),
		// (1, 3), (2, 2), (2, 3) fail, index 2 + 2·4 + 3 = 13 last; 8
		// reads happen.
		{kase: "nested", check: "descriptor_index_oob", result: "r=800,808,816,824", count: 16, loop: 4, index: 13},
		// Iterations 3..6 fail, then the loop returns: reported before the
		// return, index 6 last; 3 reads happen.
		{kase: "return", check: "descriptor_index_oob", result: "r=300,303,306,309", count: 16, loop: 4, index: 6},
		// No loop: one record per invocation, no loop count.
		{kase: "outside", check: "descriptor_index_oob", result: "r=0,0,0,0", count: 4, loop: 0, index: 7, precise: index7},
	}
	for _, tt := range tests {
		t.Run(tt.kase, func(t *testing.T) {
			code, r, out := runVariantCase(t, loopApp, tt.kase, tt.result, tt.precise)
			requireOneGroup(t, code, r, out)
			e := r.Errors[0]
			want := expectAt(t, "loop.comp", tt.check, tt.kase)
			if e.Check != tt.check || e.Source.File != "loop.comp" || e.Source.Line != want.line || e.Source.Text != want.text ||
				e.Count != tt.count || e.Loop != tt.loop || e.CommandBuffer.Name != "loop-cmd" || e.Pipeline.Name != "loop-pipeline" {
				t.Errorf("group: %s %s:%d count %d loop %d, %s/%s; want %s loop.comp:%d count %d loop %d, loop-cmd/loop-pipeline",
					e.Check, e.Source.File, e.Source.Line, e.Count, e.Loop, e.CommandBuffer.Name, e.Pipeline.Name,
					tt.check, want.line, tt.count, tt.loop)
			}
			if got := invocationsX(e.Samples); !slices.Equal(got, []float64{0, 1, 2, 3}) {
				t.Errorf("invocations %v, want [0 1 2 3]", got)
			}
			sentence := fmt.Sprintf("The invocation failed %d times in this loop; the values are its last failure's.", tt.loop)
			if has := strings.Contains(e.Message, sentence); has != (tt.loop > 1) {
				t.Errorf("message %q: says %q %v, want %v", e.Message, sentence, has, tt.loop > 1)
			}
			if tt.offsets != nil {
				if b := e.Buffer; b == nil || !slices.Contains(tt.offsets, b.Offset) || b.Size != 4 || b.Range != 80 || b.Write {
					t.Errorf("buffer %+v, want a 4-byte read at one of %v, range 80", b, tt.offsets)
				}
				return
			}
			if d := e.Descriptor; d == nil || d.Set != 0 || d.Binding != 0 || d.Index != tt.index || d.ArrayLength != 2 {
				t.Errorf("descriptor %+v, want set 0 binding 0 index %d of 2", d, tt.index)
			}
		})
	}
}
