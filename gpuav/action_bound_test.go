package gpuav

import (
	"slices"
	"strings"
	"testing"
)

// gridFact is a FactBufferAction of binding b with the bound and terms.
func gridFact(b, bound uint32, terms ...FactTerm) Fact {
	return Fact{Set: 0, Binding: b, Length: 1, Bound: bound, Kind: FactBufferAction, Terms: termArray(terms)}
}

// TestActionFacts: which stores of grid_index.comp are bounded in the
// dispatch's grid (their fact: Bound + Σ Coef·P, P the largest WorkgroupID
// components) and have no check in the fast variant, and which keep it
// (no fact). Both variants pass spirv-val; the precise variant keeps
// every check.
func TestActionFacts(t *testing.T) {
	wx, wy, wz := uint32(ParamWorkgroupX), uint32(ParamWorkgroupY), uint32(ParamWorkgroupZ)
	p := func(word uint32) uint32 { return ParamPushConstant + word }
	pcFact := func(b, bound uint32, kind uint32, length uint32, terms ...FactTerm) Fact {
		return Fact{Set: 0, Binding: b, Length: length, Bound: bound, Kind: kind, Terms: termArray(terms)}
	}
	tests := []struct {
		file   string // default grid_index.comp
		sized  bool   // Options.SizedElementChecks
		define string
		env    string
		facts  []Fact // nil: no fast variant
		// checked: the store keeps its check in the fast variant (else
		// the fast variant has none).
		checked bool
	}{
		// g ≤ 64·Wx + 63; end = 4g + 4.
		{define: "", facts: []Fact{gridFact(0, 256, FactTerm{wx, 256})}},
		{define: "", env: "vulkan1.3", facts: []Fact{gridFact(0, 256, FactTerm{wx, 256})}},
		// g ≤ 32·Wx + 31 + 32·(2·Wy + 1); end = 16g + 16.
		{define: "XY", facts: []Fact{gridFact(1, 1024, FactTerm{wx, 512}, FactTerm{wy, 1024})}},
		// 2·Wy + 1; end = 8·Wy + 8.
		{define: "WG", facts: []Fact{gridFact(0, 8, FactTerm{wy, 8})}},
		// WorkgroupID needs no local size: a specialized one is no matter.
		{define: "SPEC_WG", facts: []Fact{gridFact(0, 8, FactTerm{wy, 8})}},
		{define: "SPEC_WG", env: "vulkan1.3", facts: []Fact{gridFact(0, 8, FactTerm{wy, 8})}},
		// (64·Wx + 63) << 2; end = 4·that + 4.
		{define: "SHIFT", facts: []Fact{gridFact(0, 1012, FactTerm{wx, 1024})}},
		// 15 + Wx: a number and a parameter.
		{define: "MASKED", facts: []Fact{gridFact(0, 64, FactTerm{wx, 4})}},
		// either 64·Wx + 63 or Wz + 3: each part the larger.
		{define: "SELECT", facts: []Fact{{Set: 0, Binding: 2, Length: 1, Bound: 4, Kind: FactBuffer},
			gridFact(0, 256, FactTerm{wx, 256}, FactTerm{wz, 4})}},
		// A local size from a specialization constant: GlobalInvocationID
		// is not bounded (LocalSizeId in SPIR-V 1.6, a WorkgroupSize spec
		// constant before).
		{define: "SPEC", checked: true},
		{define: "SPEC", env: "vulkan1.3", checked: true},
		{define: "SQUARE", checked: true},
		// The index read from memory; the read of idx (8 elements) is a
		// plain bounded access: its fact, no grid.
		{define: "MEMORY", facts: []Fact{{Set: 0, Binding: 2, Length: 1, Bound: 32, Kind: FactBuffer}}, checked: true},
		// A subtraction may wrap below zero.
		{define: "SIGNED", checked: true},
		// g incremented in a loop: its stores depend on itself (the
		// loop's bound idx.v[1] is a plain bounded read).
		{define: "COUNTER", facts: []Fact{{Set: 0, Binding: 2, Length: 1, Bound: 8, Kind: FactBuffer}}, checked: true},

		// pc_index.comp: PC { uint a; uint base; int i; uint arr[4]; }
		// (words 0, 1, 2, 3..6). o.v[pc.base + 1u]: 4·(base + 1) + 4.
		{file: "pc_index.comp", facts: []Fact{gridFact(0, 8, FactTerm{p(1), 4})}},
		{file: "pc_index.comp", env: "vulkan1.3", facts: []Fact{gridFact(0, 8, FactTerm{p(1), 4})}},
		// gl_LocalInvocationID.x is at most 63.
		{file: "pc_index.comp", define: "LOCAL", facts: []Fact{gridFact(0, 256, FactTerm{p(1), 4})}},
		// No parameter left: a plain fact.
		{file: "pc_index.comp", define: "LID_ONLY", facts: []Fact{{Set: 0, Binding: 0, Length: 1, Bound: 256, Kind: FactBuffer}}},
		// bufs[pc.a + 1u]: the index below 4 at each action; v[0] a
		// plain bounded access of the same binding.
		{file: "pc_index.comp", define: "INDEX", facts: []Fact{
			pcFact(1, 1, FactIndexAction, 4, FactTerm{p(0), 1}),
			{Set: 0, Binding: 1, Length: 4, Bound: 4, Kind: FactBuffer}}},
		// texs[pc.a] with the element checks: every element written and
		// alive as well.
		{file: "pc_index.comp", define: "TEX", sized: true, facts: []Fact{
			pcFact(2, 0, FactIndexAction, 4, FactTerm{p(0), 1}),
			{Set: 0, Binding: 2, Length: 4, Bound: 1, Kind: FactElements},
			{Set: 0, Binding: 0, Length: 1, Bound: 4, Kind: FactBuffer}}},
		// A signed word: its bit pattern, which the layer finds past the
		// limit when it is negative.
		{file: "pc_index.comp", define: "SIGNED", facts: []Fact{gridFact(0, 4, FactTerm{p(2), 4})}},
		// pc.arr indexed from memory: not a word of its own.
		{file: "pc_index.comp", define: "DYNAMIC", facts: []Fact{{Set: 0, Binding: 3, Length: 1, Bound: 4, Kind: FactBuffer}}, checked: true},
		// 2·base + 64·Wx + 63.
		{file: "pc_index.comp", define: "MIXED", facts: []Fact{gridFact(0, 256, FactTerm{wx, 256}, FactTerm{p(1), 8})}},
	}
	for _, tt := range tests {
		env := tt.env
		if env == "" {
			env = "vulkan1.1"
		}
		file := tt.file
		if file == "" {
			file = "grid_index.comp"
		}
		name := tt.define
		if name == "" {
			name = "plain"
		}
		name = strings.TrimSuffix(file, ".comp") + "/" + name
		t.Run(name+"/"+env, func(t *testing.T) {
			t.Parallel()
			flags := []string{"--target-env", env}
			if tt.define != "" {
				flags = append(flags, "-D"+tt.define)
			}
			w := compileFlags(t, file, "-g", flags...)
			res, err := Instrument(w, Options{ShaderID: 3, DescriptorSet: 7, SizedElementChecks: tt.sized})
			if err != nil {
				t.Fatal(err)
			}
			validate(t, res.Words, env)
			reports := func(words []uint32) int { // the checks of the accesses (COUNTER's loop has loop_budget's too)
				dis := disassemble(t, words)
				return strings.Count(dis, "OpFunctionCall %void %gpuav_report_") - strings.Count(dis, "OpFunctionCall %void %gpuav_report_loop_budget")
			}
			if n := reports(res.Words); n == 0 {
				t.Errorf("precise variant: no check")
			}
			if tt.facts == nil {
				if res.Precise != nil {
					t.Fatalf("facts %+v, want no fast variant", res.Precise.Facts)
				}
				return
			}
			if res.Precise == nil {
				t.Fatalf("no fast variant, want facts %+v", tt.facts)
			}
			if !slices.Equal(res.Precise.Facts, tt.facts) {
				t.Errorf("facts %+v, want %+v", res.Precise.Facts, tt.facts)
			}
			validate(t, res.Precise.FastWords, env)
			want := 0
			if tt.checked {
				want = 1
			}
			if n := reports(res.Precise.FastWords); n != want {
				t.Errorf("fast variant: %d checks, want %d", n, want)
			}
		})
	}
}
