package gpuav

import (
	"slices"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Dead code the instrumentation leaves (docs/decisions/dead-lookups-removed.md):
// a pass emits the per-function lookups a check needs (gpuav_buffer_binding,
// gpuav_desc_binding, gpuav_binding_fact...) in the entry block before it
// knows whether any access will use them, and folding the precise switch
// (prune) leaves the lookups of the checks it removed without a use. A
// driver inlines such a call before it finds it dead, and lavapipe does not
// find a load from the layer's descriptor state dead at all: two unused
// gpuav_buffer_binding calls cost a vertex shader as much to compile as
// the shader itself. removeDeadAdded removes them before the driver sees
// the module.

// removeDeadAdded removes, from every function of m, the instructions the
// instrumentation added (a result id at or above bound, the module's id
// bound before it) whose result nothing uses and that have no effect: a
// call of a function without effects (pureFunctions), a load without
// memory operands, an access chain, an array length, a phi, a GLSL.std.450
// extended instruction, and arithmetic, bit, logical, relational,
// conversion and composite instructions. What becomes unused by a removal
// goes too. Names and decorations of removed ids go with them. The app's
// own instructions (ids below bound) are never touched. pure is
// pureFunctions(m), which both variants of a module share.
func removeDeadAdded(m *spirv.Module, bound uint32, pure map[uint32]bool) {
	sc := deadScratchPool.Get().(*deadScratch)
	removeDeadAddedWith(m, bound, pure, sc)
	clear(sc.defs) // the module's instructions: not kept alive by the pool
	deadScratchPool.Put(sc)
}

// deadScratchPool holds removeDeadAdded's working memory between calls
// (between the modules the layer instruments; a pool keeps nothing across
// two collections).
var deadScratchPool = sync.Pool{New: func() any { return &deadScratch{} }}

// deadScratch is removeDeadAdded's working memory, which the two variants
// of a module may share (take clears it).
type deadScratch struct {
	uses []int32
	defs []*spirv.Instruction
	dead []bool
}

// take returns the scratch slices cleared, of the lengths asked for.
func (sc *deadScratch) take(top, added uint32) ([]int32, []*spirv.Instruction, []bool) {
	if uint32(cap(sc.uses)) < top || uint32(cap(sc.defs)) < added {
		sc.uses, sc.defs, sc.dead = make([]int32, top), make([]*spirv.Instruction, added), make([]bool, added)
		return sc.uses, sc.defs, sc.dead
	}
	uses, defs, dead := sc.uses[:top], sc.defs[:added], sc.dead[:added]
	clear(uses)
	clear(defs)
	clear(dead)
	return uses, defs, dead
}

// removeDeadAddedWith is removeDeadAdded in the working memory sc.
func removeDeadAddedWith(m *spirv.Module, bound uint32, pure map[uint32]bool, sc *deadScratch) {
	top := m.Header.Bound
	if bound >= top {
		return
	}
	glsl := glslImport(m)
	// uses counts the uses of added ids only (addedOperands).
	uses, defs, dead := sc.take(top, top-bound)
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if r := in.ResultID(); r >= bound && r < top {
					defs[r-bound] = in
				}
				addedOperands(in, bound, top, func(id uint32) { uses[id]++ })
			}
		}
	}
	var work []uint32
	for i, in := range defs {
		if in != nil && uses[bound+uint32(i)] == 0 && noEffect(m, in, pure, glsl) {
			work = append(work, bound+uint32(i))
		}
	}
	n := 0
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		if dead[id-bound] {
			continue
		}
		dead[id-bound] = true
		n++
		addedOperands(defs[id-bound], bound, top, func(op uint32) {
			if uses[op]--; uses[op] == 0 && defs[op-bound] != nil && !dead[op-bound] && noEffect(m, defs[op-bound], pure, glsl) {
				work = append(work, op)
			}
		})
	}
	if n == 0 {
		return
	}
	isDead := func(id uint32) bool { return id >= bound && id < top && dead[id-bound] }
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			b.Insts = slices.DeleteFunc(b.Insts, func(in *spirv.Instruction) bool { return isDead(in.ResultID()) })
		}
	}
	for _, s := range []spirv.Section{spirv.SectionDebug, spirv.SectionAnnotation} {
		m.Sections[s] = slices.DeleteFunc(m.Sections[s], func(in *spirv.Instruction) bool {
			return len(in.Words) >= 2 && isDead(in.Words[1]) && in.Opcode() != spirv.OpDecorationGroup
		})
	}
	m.InvalidateIndex()
}

// addedOperands calls fn with every word of in after its opcode, other
// than its result id, that lies in [bound, top): the added ids it may use.
// A literal operand in that range counts too, without the grammar walk
// that would tell them apart, so a use count is never lower than the
// true one (a value kept that could go, never one removed that is used),
// and removing in subtracts exactly what counting it added.
func addedOperands(in *spirv.Instruction, bound, top uint32, fn func(uint32)) {
	r := in.ResultID()
	for i, w := range in.Words[1:] {
		if w >= bound && w < top && (w != r || i > 1) {
			fn(w)
		}
	}
}

// glslImport returns the id of m's GLSL.std.450 import, or 0.
func glslImport(m *spirv.Module) uint32 {
	id, _ := m.FindExtInstImport("GLSL.std.450")
	return id
}

// valueClasses are the grammar's classes of instructions that compute a
// value from their operands and do nothing else.
var valueClasses = map[string]bool{
	"Arithmetic": true, "Bit": true, "Relational_and_Logical": true, "Conversion": true, "Composite": true,
}

// noEffect reports whether in computes a value and does nothing else, so
// that it may go when the value is unused.
func noEffect(m *spirv.Module, in *spirv.Instruction, pure map[uint32]bool, glsl uint32) bool {
	switch op := in.Opcode(); op {
	case spirv.OpLoad:
		return len(in.Words) == 4 // no memory operands (Volatile...)
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpArrayLength, spirv.OpPhi, spirv.OpUndef:
		return true
	case spirv.OpFunctionCall:
		return pure[in.Words[3]]
	case spirv.OpExtInst:
		return glsl != 0 && in.Words[3] == glsl
	default:
		info, ok := spirv.LookupOp(op)
		return ok && info.HasResult && valueClasses[info.Class]
	}
}

// pureFunctions returns the functions the instrumentation added to m (ids
// at or above bound: the check library's) whose calls have no effect:
// they store only to their own Function variables, call only such
// functions, and otherwise hold only value instructions, loads without
// memory operands and structured control flow (no OpKill, barrier, atomic,
// image write or printf).
func pureFunctions(m *spirv.Module, bound uint32) map[uint32]bool {
	glsl := glslImport(m)
	pure := map[uint32]bool{}
	var fns []*spirv.Function
	for _, f := range m.Functions {
		if f.ID() >= bound {
			pure[f.ID()] = true
			fns = append(fns, f)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range fns {
			if pure[f.ID()] && !functionPure(m, f, pure, glsl) {
				pure[f.ID()] = false
				changed = true
			}
		}
	}
	return pure
}

// functionPure reports whether f's body has no effect, given which
// functions are (so far) known to have none.
func functionPure(m *spirv.Module, f *spirv.Function, pure map[uint32]bool, glsl uint32) bool {
	locals := map[uint32]bool{} // Function variables and access chains into them
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			switch in.Opcode() {
			case spirv.OpVariable:
				locals[in.ResultID()] = true
			case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
				if locals[in.Words[3]] {
					locals[in.ResultID()] = true
				}
			}
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			switch in.Opcode() {
			case spirv.OpVariable, spirv.OpLine, spirv.OpNoLine, spirv.OpBranch, spirv.OpBranchConditional,
				spirv.OpSelectionMerge, spirv.OpLoopMerge, spirv.OpSwitch, spirv.OpReturn, spirv.OpReturnValue:
			case spirv.OpStore:
				if !locals[in.Words[1]] || len(in.Words) != 3 {
					return false
				}
			default:
				if !noEffect(m, in, pure, glsl) {
					return false
				}
			}
		}
	}
	return true
}

// removeUncalledAdded removes the functions the instrumentation added (ids
// at or above bound) that nothing that stays reaches: check library
// functions whose every call folding the precise switch removed (a fast
// variant whose facts decide every access keeps none of them). A driver
// translates every function of a module before it finds one uncalled.
// What stays: the app's own functions, every function whose id a word of
// the module's sections names (the debug section's strings and names
// aside; the entry points among them), and, from each function that stays,
// every function a word of its body names (a call, or a word that merely
// equals the id). Names and decorations of the ids defined in a removed
// function go with it.
func removeUncalledAdded(m *spirv.Module, bound uint32) {
	// Indexed by id (dense below the module's bound): a map lookup per
	// word of the module was a tenth of the instrumentation's time.
	idBound := m.Header.Bound
	for _, f := range m.Functions {
		idBound = max(idBound, f.ID()+1)
	}
	byID := make([]*spirv.Function, idBound)
	for _, f := range m.Functions {
		byID[f.ID()] = f
	}
	reached := make([]bool, idBound)
	nReached := 0
	var work []*spirv.Function
	reach := func(id uint32) {
		if id < idBound && byID[id] != nil && !reached[id] {
			reached[id] = true
			nReached++
			work = append(work, byID[id])
		}
	}
	mention := func(in *spirv.Instruction) {
		for _, w := range in.Words[1:] {
			reach(w)
		}
	}
	for s, insts := range m.Sections {
		if spirv.Section(s) != spirv.SectionDebug {
			for _, in := range insts {
				mention(in)
			}
		}
	}
	for _, f := range m.Functions {
		if id := f.ID(); id < bound {
			reach(id)
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, in := range f.Before {
			mention(in)
		}
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				mention(in)
			}
		}
	}
	if nReached == len(m.Functions) {
		return
	}
	// The ids defined in the functions that go: their names go too.
	defined := make([]bool, idBound)
	define := func(id uint32) {
		if id < idBound {
			defined[id] = true
		}
	}
	m.Functions = slices.DeleteFunc(m.Functions, func(f *spirv.Function) bool {
		if reached[f.ID()] {
			return false
		}
		for _, in := range f.Head {
			define(in.ResultID())
		}
		for _, b := range f.Blocks {
			define(b.ID())
			for _, in := range b.Insts {
				if r := in.ResultID(); r != 0 {
					define(r)
				}
			}
		}
		return true
	})
	for _, s := range []spirv.Section{spirv.SectionDebug, spirv.SectionAnnotation} {
		m.Sections[s] = slices.DeleteFunc(m.Sections[s], func(in *spirv.Instruction) bool {
			return len(in.Words) >= 2 && in.Words[1] < idBound && defined[in.Words[1]] && in.Opcode() != spirv.OpDecorationGroup
		})
	}
	m.InvalidateIndex()
}
