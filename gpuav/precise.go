package gpuav

import (
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// The precise switch (docs/decisions/precise-variant.md): a boolean
// specialization constant in front of every binding fact. With it true
// (its default: every pipeline the layer does not decide for runs exactly
// the checks of before) a fact is gpuav_binding_fact's answer on the GPU
// and the precise check behind it runs when that fails; with it false
// every fact folds to true, and the driver drops the fact's lookup and
// the precise check (compare, branch, record write) behind it. The layer
// sets it false only where it has decided the facts on the CPU
// (Result.Precise.Facts) and they hold.

// PreciseSpecIDBase is the first SpecId the switch tries; the next one is
// taken while the module already uses it.
const PreciseSpecIDBase = 0x47500000

// Fact kinds.
const (
	// FactBuffer: the binding's smallest range is at least Bound bytes.
	FactBuffer = iota
	// FactElements: every element of the binding is written and alive
	// (Bound is 1).
	FactElements
)

// Fact is what the fast variant of a module takes for granted about one
// binding, as gpuav_binding_fact tests it on the GPU: the binding is known
// in the action's descriptor state, holds at least Length elements, and
// its floor (inputs.go: a buffer binding's smallest range, another
// binding's 1 when every element is written and alive) is at least Bound.
type Fact struct {
	Set, Binding, Length, Bound uint32
	Kind                        uint32
}

// PreciseSwitch is a module's precise switch: its SpecId, and the facts
// the layer must find true to run the module with the switch off.
type PreciseSwitch struct {
	SpecID uint32
	Facts  []Fact
}

// preciseState is the switch of one shader: the spec constant's id, made
// on first use, and the facts noted so far.
type preciseState struct {
	id, specID uint32
	facts      []Fact
}

// preciseID returns the switch's id (an OpSpecConstantTrue decorated
// with an unused SpecId), adding it the first time.
func (sh *shader) preciseID() uint32 {
	p := &sh.precise
	if p.id != 0 {
		return p.id
	}
	m := sh.m
	used := map[uint32]bool{}
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		if in.Opcode() == spirv.OpDecorate && len(in.Words) >= 4 && spirv.Decoration(in.Words[2]) == spirv.DecorationSpecId {
			used[in.Words[3]] = true
		}
	}
	p.specID = PreciseSpecIDBase
	for used[p.specID] {
		p.specID++
	}
	b := m.TypeBool()
	p.id = m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpSpecConstantTrue, b, p.id))
	m.AddAnnotation(spirv.NewInstruction(spirv.OpDecorate, p.id, uint32(spirv.DecorationSpecId), p.specID))
	return p.id
}

// gateFact emits, in fn's entry block, the fact as the fast variant sees
// it: precise ? call : true (OpSelect on the switch), and returns its id.
func (sh *shader) gateFact(fn *function, call uint32) uint32 {
	m := sh.m
	return fn.entry.op(spirv.OpSelect, m.TypeBool(), sh.preciseID(), call, m.ConstantTrue())
}

// notPrecise returns, once per function, !precise in its entry block: the
// fact of a bounded access outside loops, which keeps its plain check in
// the precise variant (the fact is false there) and none in the fast one.
func (sh *shader) notPrecise(fn *function) uint32 {
	if fn.notPrecise == 0 {
		fn.notPrecise = fn.entry.op(spirv.OpLogicalNot, sh.m.TypeBool(), sh.preciseID())
	}
	return fn.notPrecise
}

// noteFact adds what the layer must check for the fast variant: binding
// (set, binding) holds length elements and a floor of at least bound.
// One fact per binding and kind, with the largest bound.
func (sh *shader) noteFact(set, binding, length, bound, kind uint32) {
	p := &sh.precise
	i := slices.IndexFunc(p.facts, func(f Fact) bool { return f.Set == set && f.Binding == binding && f.Kind == kind })
	if i < 0 {
		p.facts = append(p.facts, Fact{Set: set, Binding: binding, Length: length, Bound: bound, Kind: kind})
		return
	}
	f := &p.facts[i]
	f.Length, f.Bound = max(f.Length, length), max(f.Bound, bound)
}

// preciseSwitch is the switch for Result, nil when the module has none.
func (sh *shader) preciseSwitch() *PreciseSwitch {
	if sh.precise.id == 0 {
		return nil
	}
	return &PreciseSwitch{SpecID: sh.precise.specID, Facts: slices.Clone(sh.precise.facts)}
}

// Specialize returns a copy of an instrumented module with its precise
// switch (SpecID) turned into the constant precise: what a driver compiles
// for either setting (for tests and offline measurements). The words come
// back unchanged when no spec constant has that SpecId.
func Specialize(words []uint32, specID uint32, precise bool) ([]uint32, error) {
	m, err := spirv.Parse(append([]uint32(nil), words...))
	if err != nil {
		return nil, err
	}
	var target uint32
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		if in.Opcode() == spirv.OpDecorate && len(in.Words) >= 4 && spirv.Decoration(in.Words[2]) == spirv.DecorationSpecId &&
			in.Words[3] == specID {
			target = in.Words[1]
		}
	}
	if target == 0 {
		return words, nil
	}
	op := spirv.OpConstantFalse
	if precise {
		op = spirv.OpConstantTrue
	}
	for i, in := range m.Sections[spirv.SectionGlobal] {
		if in.ResultID() == target && (in.Opcode() == spirv.OpSpecConstantTrue || in.Opcode() == spirv.OpSpecConstantFalse) {
			m.Sections[spirv.SectionGlobal][i] = spirv.NewInstruction(op, in.Words[1], target)
		}
	}
	m.Sections[spirv.SectionAnnotation] = slices.DeleteFunc(m.Sections[spirv.SectionAnnotation], func(in *spirv.Instruction) bool {
		return in.Opcode() == spirv.OpDecorate && len(in.Words) >= 3 && in.Words[1] == target
	})
	return m.Encode(), nil
}
