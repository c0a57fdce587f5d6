package gpuav

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestSelectRead: the fast variant reads through a descriptor array with
// the index selected (ok ? k : 0) and the value selected to zero exactly
// where the read's element is covered by its binding's fact and nothing
// but the index is checked; the precise variant never does, and stores,
// atomics, volatile or coherent memory, unbounded offsets, composite
// values and other failure behaviours keep the guard in both. Both
// variants pass spirv-val.
func TestSelectRead(t *testing.T) {
	// bufs (binding 0) holds the reads' 4096 bytes; idx (binding 2) is
	// read at offsets masked to 4092.
	// o[g] (binding 1) is bounded in the dispatch's grid: g ≤ 64·Wx + 63.
	idxFact := Fact{Set: 0, Binding: 2, Length: 1, Bound: 4096, Kind: FactBuffer}
	gridFact := gridFact(1, 256, FactTerm{ParamWorkgroupX, 256})
	memoryFact := []Fact{{Set: 0, Binding: 0, Length: 2, Bound: 4096, Kind: FactBuffer}, gridFact, idxFact}
	tests := []struct {
		name   string
		define string
		opt    Options
		// selected reads in the fast variant (the precise one has none);
		// reports: calls of the descriptor index report left in it.
		selected, reports int
		facts             []Fact
	}{
		// Two reads of one index value: the second reuses the first's
		// result and has no report of its own.
		{name: "memory", selected: 2, reports: 1, facts: memoryFact},
		{name: "memory/sized", opt: Options{SizedElementChecks: true}, selected: 2, reports: 1, facts: memoryFact},
		{name: "vector", define: "VECTOR", selected: 1, reports: 1, facts: memoryFact},
		{name: "uniform", define: "UNIFORM", selected: 1, reports: 1, facts: memoryFact},
		{name: "store", define: "STORE", reports: 1, facts: memoryFact},
		{name: "atomic", define: "ATOMIC", reports: 1, facts: memoryFact},
		{name: "coherent", define: "COHERENT", reports: 1, facts: memoryFact},
		{name: "volatile", define: "VOLATILE", reports: 1, facts: memoryFact},
		// A struct value: OpSelect takes scalars and vectors only.
		{name: "struct", define: "STRUCT", reports: 1, facts: []Fact{{Set: 0, Binding: 0, Length: 2, Bound: 2048, Kind: FactBuffer}, gridFact, idxFact}},
		// An offset read from memory: no fact covers the element.
		{name: "unbounded", define: "UNBOUNDED", reports: 1, facts: []Fact{gridFact, idxFact}},
		{name: "clamp", opt: Options{OnError: OnErrorClamp}, reports: 1, facts: memoryFact},
		{name: "execute", opt: Options{OnError: OnErrorExecute}, reports: 1, facts: memoryFact},
		{name: "robust-only", opt: Options{RobustOnly: true}, facts: memoryFact},
		{name: "no buffer_oob", opt: Options{Checks: map[string]bool{CheckDescriptorIndexOOB: true}}, reports: 1},
		{name: "no buffer_oob/sized", opt: Options{Checks: map[string]bool{CheckDescriptorIndexOOB: true}, SizedElementChecks: true}, reports: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			flags := []string{"--target-env", "vulkan1.1"}
			if tt.define != "" {
				flags = append(flags, "-D"+tt.define)
			}
			w := compileFlags(t, "select_read.comp", "-g", flags...)
			opt := tt.opt
			opt.ShaderID, opt.DescriptorSet = 3, 7
			res, err := Instrument(w, opt)
			if err != nil {
				t.Fatal(err)
			}
			fast := res.Words
			if res.Precise != nil {
				fast = res.Precise.FastWords
				facts := slices.Clone(res.Precise.Facts)
				slices.SortFunc(facts, func(a, b Fact) int { return int(a.Binding) - int(b.Binding) })
				if !slices.Equal(facts, tt.facts) {
					t.Errorf("facts %+v, want %+v", res.Precise.Facts, tt.facts)
				}
			} else if tt.facts != nil {
				t.Errorf("no fast variant, want facts %+v", tt.facts)
			}
			for _, v := range []struct {
				name              string
				words             []uint32
				selected, reports int
			}{{"fast", fast, tt.selected, tt.reports}, {"precise", res.Words, 0, -1}} {
				validate(t, v.words, "vulkan1.1")
				loads, others := selectedAccesses(t, v.words)
				if loads != v.selected || others != 0 {
					t.Errorf("%s: %d reads and %d other accesses through a selected index, want %d and 0", v.name, loads, others, v.selected)
				}
				if n := strings.Count(disassemble(t, v.words), "OpFunctionCall %void %gpuav_report_descriptor_index"); v.reports >= 0 && n != v.reports {
					t.Errorf("%s: %d descriptor index reports, want %d", v.name, n, v.reports)
				}
			}
		})
	}
}

// selectedAccesses counts the loads, and the other memory accesses,
// through an access chain into a descriptor array of buffers whose
// descriptor index is OpSelect %ok %index 0: the select form's reads (a
// clamp's OpSelect picks the array's last element).
func selectedAccesses(t *testing.T, words []uint32) (loads, others int) {
	t.Helper()
	m, err := spirv.Parse(words)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				k := pointerOperand(in.Opcode())
				if k == 0 || k >= len(in.Words) {
					continue
				}
				ac := m.Def(in.Words[k])
				if ac == nil || !(isArrayVar(m, ac, spirv.StorageClassStorageBuffer) || isArrayVar(m, ac, spirv.StorageClassUniform)) {
					continue
				}
				if d := m.Def(ac.Words[4]); d == nil || d.Opcode() != spirv.OpSelect {
					continue
				} else if v, ok := m.ConstantValue(d.Words[5]); !ok || v != 0 {
					continue
				}
				if in.Opcode() == spirv.OpLoad {
					loads++
				} else {
					others++
				}
			}
		}
	}
	return loads, others
}
