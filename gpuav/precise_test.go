package gpuav

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestPreciseSwitch: the facts a module's fast variant takes for granted
// are exactly its bounded accesses' bindings with their largest ends; the
// fast variant keeps only the record writes of the accesses that are not
// bounded, the precise variant all of them (counted after spirv-opt -O,
// which inlines them), neither has the switch left, and neither calls a
// library lookup whose value it does not use.
func TestPreciseSwitch(t *testing.T) {
	tests := []struct {
		shader string
		opt    Options
		facts  []Fact
		// reports in the optimized fast and precise variants: calls of
		// the record write that survive (OpAtomicIAdd on the record count).
		fast, precise int
		// fastCalls counts calls per library function in the fast variant
		// (before any optimization): the lookups its checks read, no more
		// (docs/decisions/dead-lookups-removed.md).
		fastCalls map[string]int
	}{
		{
			// u: u.v[0] (16), u.v[i*4] in the loop (528), u.v[g&31] (512);
			// b: b[i&3].x[i] (32); out_.o[g] is bounded in the dispatch's
			// grid (g ≤ Wx with a local size of 1: 16·Wx + 16).
			shader: "buffer_oob_fact.comp",
			facts: []Fact{
				{Set: 0, Binding: 0, Length: 1, Bound: 528, Kind: FactBuffer},
				{Set: 0, Binding: 1, Length: 4, Bound: 32, Kind: FactBuffer},
				gridFact(2, 16, FactTerm{ParamWorkgroupX, 16}),
			},
			// The precise variant's five sites in the loop report once
			// after it (folded, docs/decisions/loop-failures-folded.md):
			// each write there is two atomics, the claim and the count of
			// a record that did not fit, so 1 + 5·2.
			fast: 0, precise: 11,
			// No check is left: the facts' lookups are gone.
			fastCalls: map[string]int{"gpuav_buffer_binding": 0, "gpuav_binding_fact": 0, "gpuav_buffer_check": 0},
		},
		{
			// texs[pc.i & 3u]: its element's state behind the binding's
			// fact (every element written and alive); texs[pc.j & 7u]
			// keeps its index and element checks in both variants.
			shader: "safe_texture.frag",
			opt:    Options{SizedElementChecks: true},
			facts:  []Fact{{Set: 0, Binding: 1, Length: 4, Bound: 1, Kind: FactElements}},
			fast:   1, precise: 2,
		},
		{
			// The hot loop with a printf never reached: the same fact as
			// without printf (both reads bounded by 4096 bytes), the
			// store's in the dispatch's grid, and the printf's two atomics
			// (the line's room, the lost count) in both variants; the
			// loop's reads and the store keep their record writes in the
			// precise variant only.
			shader: "printf_hotloop.comp",
			opt:    Options{Printf: true},
			facts: []Fact{{Set: 0, Binding: 0, Length: 2, Bound: 4096, Kind: FactBuffer},
				gridFact(1, 256, FactTerm{ParamWorkgroupX, 256})},
			// (The two reads' sites in the loop are folded: their writes
			// after it are two atomics each; with the printf's two and
			// the store's one, 3 + 2·2.)
			fast: 2, precise: 7,
		},
		{
			// The store at the invocation's own index is bounded in the
			// grid (local size 4: 16·Wx + 16), its descriptor index by
			// the push constant (word 0) at each action: no check in the
			// fast variant.
			shader: "oob_compute.comp",
			facts: []Fact{
				{Set: 0, Binding: 0, Length: 2, Bound: 0, Kind: FactIndexAction,
					Terms: termArray([]FactTerm{{ParamPushConstant, 1}})},
				{Set: 0, Binding: 0, Length: 2, Bound: 16, Kind: FactBufferAction,
					Terms: termArray([]FactTerm{{ParamWorkgroupX, 16}})},
			},
			// (Both guards' record writes survive -O in the precise
			// variant; without the facts it merged them into one.)
			fast: 0, precise: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.shader, func(t *testing.T) {
			w := compile(t, tt.shader, "vulkan1.1")
			opt := tt.opt
			opt.ShaderID, opt.DescriptorSet = 3, 7
			res, err := Instrument(w, opt)
			if err != nil {
				t.Fatal(err)
			}
			if tt.facts == nil {
				if res.Precise != nil {
					t.Fatalf("precise switch %+v, want none", res.Precise)
				}
				return
			}
			if res.Precise == nil {
				t.Fatal("no precise switch")
			}
			if !slices.Equal(res.Precise.Facts, tt.facts) {
				t.Errorf("facts %+v, want %+v", res.Precise.Facts, tt.facts)
			}
			for _, v := range []struct {
				name  string
				words []uint32
				want  int
			}{{"fast", res.Precise.FastWords, tt.fast}, {"precise", res.Words, tt.precise}} {
				validate(t, v.words, "vulkan1.1")
				calls := deadLookups(t, v.words)
				for fn, want := range tt.fastCalls {
					if v.name == "fast" && calls[fn] != want {
						t.Errorf("fast: %d calls of %s, want %d", calls[fn], fn, want)
					}
				}
				if got := recordWrites(t, v.words); got != v.want {
					t.Errorf("%s: %d record writes after spirv-opt -O, want %d", v.name, got, v.want)
				}
				if dis := disassemble(t, v.words); strings.Contains(dis, "SpecId 1196") || strings.Contains(dis, "OpSpecConstantTrue") {
					t.Errorf("%s: the switch is still there", v.name)
				}
			}
		})
	}
}

// TestPreciseSpecIDUnused: a module that already uses the switch's first
// SpecId gets the next one while it is instrumented, and keeps its own.
func TestPreciseSpecIDUnused(t *testing.T) {
	w := compile(t, "buffer_oob_fact.comp", "vulkan1.1")
	m, err := spirv.Parse(append([]uint32(nil), w...))
	if err != nil {
		t.Fatal(err)
	}
	c := m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpSpecConstant, m.TypeUint32(), c, 5))
	m.AddAnnotation(spirv.NewInstruction(spirv.OpDecorate, c, uint32(spirv.DecorationSpecId), PreciseSpecIDBase))
	res, err := Instrument(m.Encode(), Options{ShaderID: 1, DescriptorSet: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Precise == nil {
		t.Fatal("no fast variant")
	}
	for _, w := range [][]uint32{res.Words, res.Precise.FastWords} {
		validate(t, w, "vulkan1.1")
		dis := disassemble(t, w)
		if !strings.Contains(dis, fmt.Sprintf("SpecId %d", PreciseSpecIDBase)) || strings.Contains(dis, fmt.Sprintf("SpecId %d", PreciseSpecIDBase+1)) {
			t.Errorf("SpecIds: want the module's own (%d) only:\n%s", PreciseSpecIDBase, dis)
		}
	}
}

// disassemble returns spirv-dis's text of a module.
func disassemble(t *testing.T, words []uint32) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "m.spv")
	if err := os.WriteFile(p, spirv.BytesFromWords(words), 0o644); err != nil {
		t.Fatal(err)
	}
	dis, err := exec.Command("spirv-dis", p).CombinedOutput()
	if err != nil {
		t.Fatalf("spirv-dis: %v\n%s", err, dis)
	}
	return string(dis)
}

// recordWrites optimizes a module with spirv-opt -O and counts what is left
// of the record writes: the OpAtomicIAdd instructions that claim a slot.
func recordWrites(t *testing.T, words []uint32) int {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.spv"), filepath.Join(dir, "out.spv")
	if err := os.WriteFile(in, spirv.BytesFromWords(words), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("spirv-opt", "-O", in, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("spirv-opt: %v\n%s", err, b)
	}
	dis, err := exec.Command("spirv-dis", out).CombinedOutput()
	if err != nil {
		t.Fatalf("spirv-dis: %v\n%s", err, dis)
	}
	return strings.Count(string(dis), "OpAtomicIAdd")
}

// switch64Module switches on a 64-bit selector: each case literal is two
// words, so a label is every third word after the default.
const switch64Module = `OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%sel = OpConstant %ulong 4294967296
%u10 = OpConstant %uint 10
%u20 = OpConstant %uint 20
%u30 = OpConstant %uint 30
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %sel %default 1 %one 4294967296 %big
%one = OpLabel
OpBranch %merge
%big = OpLabel
OpBranch %merge
%default = OpLabel
OpBranch %merge
%merge = OpLabel
%r = OpPhi %uint %u10 %one %u20 %big %u30 %default
OpReturn
OpFunctionEnd
`

// TestRemoveUnreachableSwitch64 keeps every case of a switch on a 64-bit
// selector, and the phi operands of each: read as 32-bit literals, the
// words of a case's literal were taken for its label and the label for a
// literal, and the case %one was removed.
func TestRemoveUnreachableSwitch64(t *testing.T) {
	m := assembleModule(t, switch64Module)
	f := m.Functions[0]
	removeUnreachable(m, f, make([]int32, m.Header.Bound))
	if len(f.Blocks) != 5 {
		t.Errorf("%d blocks kept, want all 5", len(f.Blocks))
	}
	phi := f.Blocks[len(f.Blocks)-1].Insts[0]
	if phi.Opcode() != spirv.OpPhi || len(phi.Words) != 9 {
		t.Errorf("the merge's phi has %d words, want 9 (three predecessors): %v", len(phi.Words), phi.Words)
	}
	if got := successors(m, f.Blocks[0].Insts[len(f.Blocks[0].Insts)-1]); len(got) != 3 ||
		got[1] != f.Blocks[1].ID() || got[2] != f.Blocks[2].ID() || got[0] != f.Blocks[3].ID() {
		t.Errorf("successors %v, want default %d and cases %d, %d", got, f.Blocks[3].ID(), f.Blocks[1].ID(), f.Blocks[2].ID())
	}
}
