package gpuav

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// loopShape counts, in a module's outermost loops, the conditional
// branches and the calls of report functions, and the report calls
// outside every loop.
func loopShape(t *testing.T, words []uint32) (branches, inLoop, outside int) {
	t.Helper()
	m, err := spirv.Parse(words)
	if err != nil {
		t.Fatal(err)
	}
	reports := map[uint32]bool{}
	for _, in := range m.Sections[spirv.SectionDebug] {
		if in.Opcode() != spirv.OpName {
			continue
		}
		if name, _ := spirv.DecodeString(in.Words[2:]); strings.HasPrefix(name, "gpuav_report_") {
			reports[in.Words[1]] = true
		}
	}
	for _, f := range m.Functions {
		inside := map[uint32]bool{}
		for _, l := range outermostLoops(m, f) {
			for id := range l.blocks {
				inside[id] = true
			}
		}
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				switch {
				case in.Opcode() == spirv.OpBranchConditional && inside[b.ID()]:
					branches++
				case in.Opcode() == spirv.OpFunctionCall && reports[in.Words[3]] && inside[b.ID()]:
					inLoop++
				case in.Opcode() == spirv.OpFunctionCall && reports[in.Words[3]]:
					outside++
				}
			}
		}
	}
	return branches, inLoop, outside
}

// TestLoopFoldShape: the hot loop's shape (select_read.comp: an index read
// from memory, two reads of bufs[k]) with every check on. In the fast
// variant the loop keeps one conditional branch, its own exit test: the
// reads are selects and their failures are counted with selects, and the
// one report is after the loop (the index's; the buffer checks' flushes
// went with their guards). In the precise variant the guards' branches
// stay in the loop (the accesses need them: the exit test and eight of
// the guards' facts and checks) but no report is left there: the four
// folded sites report after it, as the output store (outside the loop,
// in place) does.
func TestLoopFoldShape(t *testing.T) {
	w := shadertest.Compile(t, "testdata/passes", "select_read.comp", "-g", "--target-env", "vulkan1.1")
	res, err := Instrument(w, Options{ShaderID: 5, DescriptorSet: 7})
	if err != nil || res.Precise == nil {
		t.Fatalf("instrument: %v, precise switch %v", err, res.Precise)
	}
	for _, v := range []struct {
		name                      string
		words                     []uint32
		branches, inLoop, outside int
	}{
		{"fast", res.Precise.FastWords, 1, 0, 1},
		{"precise", res.Words, 9, 0, 4 + 1},
	} {
		b, in, out := loopShape(t, v.words)
		if b != v.branches || in != v.inLoop || out != v.outside {
			t.Errorf("%s: %d conditional branches and %d reports in the loop, %d reports after it; want %d, %d, %d",
				v.name, b, in, out, v.branches, v.inLoop, v.outside)
		}
	}
}
