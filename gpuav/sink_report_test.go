package gpuav

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestReportsAtBlockEnd: in the fast variant, the branch to a select-form
// read's report comes after the reads that follow it in the source's block
// (the hot loop's second read of bufs[k], its select and the sum), as in
// the hand-written reference select, and only up to a call of the shader's
// own function or a barrier, which stay after the report. The precise
// variant keeps its guards where they were. Both pass spirv-val.
func TestReportsAtBlockEnd(t *testing.T) {
	tests := []struct {
		name, define string
		// before: the selected reads in the block that branches to the
		// descriptor index report (the fast variant has one such block).
		before int
	}{
		{name: "memory", before: 2},
		{name: "call", define: "CALL", before: 1},
		{name: "barrier", define: "BARRIER", before: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := Instrument(compileSelectRead(t, tt.define), Options{ShaderID: 3, DescriptorSet: 7})
			if err != nil {
				t.Fatal(err)
			}
			if res.Precise == nil {
				t.Fatal("no fast variant")
			}
			validate(t, res.Words, "vulkan1.1")
			validate(t, res.Precise.FastWords, "vulkan1.1")
			if loads, others := selectedAccesses(t, res.Precise.FastWords); loads != 2 || others != 0 {
				t.Errorf("fast variant: %d selected reads and %d other accesses, want 2 and 0", loads, others)
			}
			heads := reportHeads(t, res.Precise.FastWords)
			if len(heads) != 1 || heads[0] != tt.before {
				t.Errorf("fast variant: selected reads before each descriptor index report %v, want [%d]", heads, tt.before)
			}
		})
	}
}

// reportHeads returns, for each block that branches to a block calling
// gpuav_report_descriptor_index, the selected reads it holds.
func reportHeads(t *testing.T, words []uint32) []int {
	t.Helper()
	m, err := spirv.Parse(words)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, f := range m.Functions {
		reports := map[uint32]bool{}
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode() == spirv.OpFunctionCall && strings.HasPrefix(m.Name(in.Words[3]), "gpuav_report_descriptor_index") {
					reports[b.ID()] = true
				}
			}
		}
		for _, b := range f.Blocks {
			for _, s := range successors(b.Insts[len(b.Insts)-1]) {
				if reports[s] {
					loads, _ := selectedIn(m, b)
					out = append(out, loads)
				}
			}
		}
	}
	return out
}
