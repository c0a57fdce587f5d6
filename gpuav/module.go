package gpuav

import (
	"math"
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// This file holds the module helpers every pass uses: an emitter that
// appends instructions to a block, and questions and edits over a
// spirv.Module that know nothing of checks.

// emitter appends instructions to a block, allocating result ids.
type emitter struct {
	m     *spirv.Module
	insts []*spirv.Instruction
}

// newEmitter returns an emitter with room for n instructions (a guard's
// blocks are built one instruction at a time: growing their lists from
// nothing was a tenth of the bytes instrumentation allocates).
func newEmitter(m *spirv.Module, n int) *emitter {
	return &emitter{m: m, insts: make([]*spirv.Instruction, 0, n)}
}

// emitterAfter returns an emitter whose block starts with a copy of pre,
// with room for n more instructions.
func emitterAfter(m *spirv.Module, pre []*spirv.Instruction, n int) *emitter {
	return &emitter{m: m, insts: append(make([]*spirv.Instruction, 0, len(pre)+n), pre...)}
}

// op appends an instruction with a result and returns the result's id.
func (e *emitter) op(op spirv.Opcode, typ uint32, operands ...uint32) uint32 {
	id := e.m.NewID()
	e.insts = append(e.insts, spirv.NewResultInstruction(op, typ, id, operands...))
	return id
}

// void appends an instruction without a result.
func (e *emitter) void(op spirv.Opcode, operands ...uint32) {
	e.insts = append(e.insts, spirv.NewInstruction(op, operands...))
}

// asUint converts a 32-bit scalar of any numeric type to uint (bit cast).
func (e *emitter) asUint(id, typ uint32) uint32 {
	u := e.m.TypeUint32()
	if typ == u {
		return id
	}
	return e.op(spirv.OpBitcast, u, id)
}

// pointerType returns the OpTypePointer of a pointer id, or nil.
func pointerType(m *spirv.Module, id uint32) *spirv.Instruction {
	d := m.Def(id)
	if d == nil {
		return nil
	}
	t := m.Def(d.ResultType())
	if t == nil || t.Opcode() != spirv.OpTypePointer || len(t.Words) < 4 {
		return nil
	}
	return t
}

// int32Type returns the 32-bit integer type of id, or nil.
func int32Type(m *spirv.Module, id uint32) *spirv.Instruction {
	d := m.Def(id)
	if d == nil {
		return nil
	}
	t := m.Def(d.ResultType())
	if t == nil || t.Opcode() != spirv.OpTypeInt || t.Words[2] != 32 {
		return nil
	}
	return t
}

// physicalAddressing reports whether the module uses PhysicalStorageBuffer64.
func physicalAddressing(m *spirv.Module) bool {
	for _, in := range m.Sections[spirv.SectionMemoryModel] {
		if in.Opcode() == spirv.OpMemoryModel && len(in.Words) > 1 &&
			spirv.AddressingModel(in.Words[1]) == spirv.AddressingModelPhysicalStorageBuffer64 {
			return true
		}
	}
	return false
}

// nullValue returns a zero value of a type: OpConstantNull, except for
// types that hold PhysicalStorageBuffer pointers, which OpConstantNull does
// not accept; those get OpUndef (a failed access is skipped either way, and
// a later dereference of this value is checked on its own).
func nullValue(m *spirv.Module, typ uint32) uint32 {
	if !holdsPhysicalPointer(m, typ, 0) {
		return m.ConstantNull(typ)
	}
	id := m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpUndef, typ, id))
	return id
}

// holdsPhysicalPointer reports whether a type is or contains a
// PhysicalStorageBuffer pointer.
func holdsPhysicalPointer(m *spirv.Module, typ uint32, depth int) bool {
	t := m.Def(typ)
	if t == nil || depth > 16 {
		return false
	}
	switch t.Opcode() {
	case spirv.OpTypePointer:
		return spirv.StorageClass(t.Words[2]) == spirv.StorageClassPhysicalStorageBuffer
	case spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
		return holdsPhysicalPointer(m, t.Words[2], depth+1)
	case spirv.OpTypeStruct:
		for _, mt := range t.Words[2:] {
			if holdsPhysicalPointer(m, mt, depth+1) {
				return true
			}
		}
	}
	return false
}

// constUint32 returns the value of a 32-bit integer OpConstant (or
// OpConstantNull).
func constUint32(m *spirv.Module, id uint32) (uint32, bool) {
	d := m.Def(id)
	if d == nil || int32Type(m, id) == nil {
		return 0, false
	}
	switch {
	case d.Opcode() == spirv.OpConstant && len(d.Words) == 4:
		return d.Words[3], true
	case d.Opcode() == spirv.OpConstantNull:
		return 0, true
	}
	return 0, false
}

// constFloats returns the 32-bit float components of a scalar or vector
// constant (OpConstant, OpConstantComposite, OpConstantNull).
func constFloats(m *spirv.Module, id uint32) ([]float32, bool) {
	d := m.Def(id)
	if d == nil {
		return nil, false
	}
	t := m.Def(d.ResultType())
	if t == nil {
		return nil, false
	}
	switch d.Opcode() {
	case spirv.OpConstant:
		if t.Opcode() != spirv.OpTypeFloat || t.Words[2] != 32 || len(d.Words) != 4 {
			return nil, false
		}
		return []float32{math.Float32frombits(d.Words[3])}, true
	case spirv.OpConstantNull:
		switch t.Opcode() {
		case spirv.OpTypeFloat:
			return []float32{0}, true
		case spirv.OpTypeVector:
			return make([]float32, t.Words[3]), true
		}
	case spirv.OpConstantComposite:
		var out []float32
		for _, e := range d.Words[3:] {
			v, ok := constFloats(m, e)
			if !ok || len(v) != 1 {
				return nil, false
			}
			out = append(out, v[0])
		}
		return out, true
	}
	return nil, false
}

// setAndBinding returns a variable's DescriptorSet and Binding decorations
// (0 when absent).
func setAndBinding(m *spirv.Module, variable uint32) (set, binding uint32) {
	if d, ok := m.Decoration(variable, spirv.DecorationDescriptorSet); ok && len(d) > 0 {
		set = d[0]
	}
	if d, ok := m.Decoration(variable, spirv.DecorationBinding); ok && len(d) > 0 {
		binding = d[0]
	}
	return set, binding
}

// copyDecorations gives to's result the decorations of from's (NonUniform,
// RelaxedPrecision...); with move, from's decorations and debug names
// (OpName: Slang names its OpImage and OpSampledImage results) are
// retargeted instead, because from no longer exists.
func copyDecorations(m *spirv.Module, from, to uint32, move bool) {
	if move {
		for _, in := range m.Sections[spirv.SectionDebug] {
			if in.Opcode() == spirv.OpName && len(in.Words) > 2 && in.Words[1] == from {
				in.Words[1] = to
			}
		}
	}
	for _, d := range m.Decorations(from) {
		if move {
			d.Words[1] = to
			continue
		}
		cl := d.Clone()
		cl.OrigIndex, cl.OrigOffset = -1, -1
		cl.Words[1] = to
		m.AddAnnotation(cl)
	}
}

// renameOperands replaces operand ids (not the result) found in renamed.
func renameOperands(m *spirv.Module, in *spirv.Instruction, renamed map[uint32]uint32) {
	r := in.ResultID()
	_ = spirv.ForEachID(in.Words, m, func(i int) {
		if i <= 2 && in.Words[i] == r {
			return
		}
		if n, ok := renamed[in.Words[i]]; ok {
			in.Words[i] = n
		}
	})
}

// useCounts counts the uses of each id inside a function.
func useCounts(m *spirv.Module, f *spirv.Function) useCount {
	uses := make(useCount, m.Header.Bound)
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			r := in.ResultID()
			_ = spirv.ForEachID(in.Words, m, func(i int) {
				if id := in.Words[i]; (id != r || i > 2) && int(id) < len(uses) {
					uses[id]++
				}
			})
		}
	}
	return uses
}

// idBits is a set of ids (a function's variables) as bits over the range
// they span: the walks that ask of every id word of a function whether it
// is one of them answer without hashing.
type idBits struct {
	lo   uint32
	bits []uint64
}

// newIDBits returns the set of ids, empty when there are none.
func newIDBits(ids []uint32) idBits {
	if len(ids) == 0 {
		return idBits{}
	}
	lo, hi := slices.Min(ids), slices.Max(ids)
	s := idBits{lo: lo, bits: make([]uint64, (uint64(hi-lo)+64)/64)}
	for _, id := range ids {
		s.bits[(id-lo)/64] |= 1 << ((id - lo) % 64)
	}
	return s
}

// has reports whether id is in the set.
func (s idBits) has(id uint32) bool {
	i := uint64(id) - uint64(s.lo)
	return id >= s.lo && i/64 < uint64(len(s.bits)) && s.bits[i/64]&(1<<(i%64)) != 0
}

// remove takes id out of the set.
func (s *idBits) remove(id uint32) {
	if s.has(id) {
		s.bits[(id-s.lo)/64] &^= 1 << ((id - s.lo) % 64)
	}
}

// useCount holds the use counts of ids, by id (useCounts): a slice of the
// module's bound, not a map.
type useCount []int32

// of returns id's use count (0 for an id made after the count).
func (u useCount) of(id uint32) int {
	if int(id) < len(u) {
		return int(u[id])
	}
	return 0
}

func indexOf(insts []*spirv.Instruction, in *spirv.Instruction) int {
	for i, x := range insts {
		if x == in {
			return i
		}
	}
	return -1
}

// removeInst removes in from the function, looking in block b (its
// usual place) first.
func removeInst(f *spirv.Function, b *spirv.Block, in *spirv.Instruction) {
	if removeFromBlock(b, in) {
		return
	}
	for _, b := range f.Blocks {
		if removeFromBlock(b, in) {
			return
		}
	}
}

// removeFromBlock removes in from b, moving the shorter side of the
// block's list (a block with many guarded accesses has a long tail after
// each), and reports whether in was there.
func removeFromBlock(b *spirv.Block, in *spirv.Instruction) bool {
	i := indexOf(b.Insts, in)
	switch {
	case i < 0:
		return false
	case i < len(b.Insts)/2:
		copy(b.Insts[1:i+1], b.Insts[:i])
		b.Insts[0] = nil
		b.Insts = b.Insts[1:]
	default:
		b.Insts = append(b.Insts[:i], b.Insts[i+1:]...)
	}
	return true
}

// retargetPhis makes phis that named from as a predecessor name to: the
// code after a split (moved, ending in the old block's terminator) now
// reaches them from the merge block. Only the terminator's targets can
// have such phis, so only their leading phis are visited (a scan of the
// whole function per split made a large block's instrumentation
// quadratic); an OpSwitch, whose literal widths vary, visits every block.
func retargetPhis(f *spirv.Function, moved []*spirv.Instruction, from, to uint32) {
	if len(moved) == 0 {
		return
	}
	term := moved[len(moved)-1]
	switch term.Opcode() {
	case spirv.OpBranch:
		retargetBlockPhis(f.Block(term.Words[1]), from, to)
	case spirv.OpBranchConditional:
		t := f.Block(term.Words[2])
		retargetBlockPhis(t, from, to)
		if e := f.Block(term.Words[3]); e != t {
			retargetBlockPhis(e, from, to)
		}
	case spirv.OpSwitch:
		for _, blk := range f.Blocks {
			retargetBlockPhis(blk, from, to)
		}
	}
}

// retargetBlockPhis renames predecessor from to to in the leading phis of
// blk (nil: none).
func retargetBlockPhis(blk *spirv.Block, from, to uint32) {
	if blk == nil {
		return
	}
	for _, in := range blk.Insts {
		switch in.Opcode() {
		case spirv.OpPhi:
			for k := 4; k < len(in.Words); k += 2 {
				if in.Words[k] == from {
					in.Words[k] = to
				}
			}
		case spirv.OpLine, spirv.OpNoLine:
		default:
			return
		}
	}
}

// dropDanglingNames removes the debug names and decorations (OpName,
// OpDecorate, OpDecorateId, OpDecorateString) of ids that nothing in m
// defines any more: an instruction a pass removed, or a block a variant's
// pruning made unreachable, takes its names with it, which spirv-val
// requires (Slang names the OpImage results the descriptor pass moves
// under its guards). Run before a module is encoded for the driver.
func dropDanglingNames(m *spirv.Module) {
	bound := m.Header.Bound
	defined := make([]bool, bound)
	m.Walk(func(in *spirv.Instruction) {
		if r := in.ResultID(); r != 0 && r < bound {
			defined[r] = true
		}
	})
	dangling := func(in *spirv.Instruction) bool {
		switch in.Opcode() {
		case spirv.OpName, spirv.OpDecorate, spirv.OpDecorateId, spirv.OpDecorateString:
			return len(in.Words) > 1 && (in.Words[1] >= bound || !defined[in.Words[1]])
		}
		return false
	}
	for _, s := range []spirv.Section{spirv.SectionDebug, spirv.SectionAnnotation} {
		if slices.ContainsFunc(m.Sections[s], dangling) {
			m.Sections[s] = slices.DeleteFunc(slices.Clone(m.Sections[s]), dangling)
		}
	}
}
