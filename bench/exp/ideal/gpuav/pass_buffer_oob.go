package gpuav

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Buffer access flags: the low 8 bits of word p6 of a CodeBufferOOB record
// (the descriptor array's length is in the bits above).
const (
	// BufferWrite marks a store or an atomic that writes.
	BufferWrite = 1 << 0
	// BufferAtomic marks an atomic instruction.
	BufferAtomic = 1 << 1
	// BufferUniform marks a uniform buffer (else a storage buffer).
	BufferUniform = 1 << 2
	// BufferRobust says the device enabled robustBufferAccess: the access
	// is defined behaviour, reported as a warning.
	BufferRobust = 1 << 3
	// BufferFlagBits is the number of low bits of p6 the flags take.
	BufferFlagBits = 8
)

// bufferOOBPass guards every OpLoad, OpStore and atomic through an access
// chain into a uniform or storage buffer block (a plain binding, or an
// element of a sized or runtime array of blocks):
//
//	B: ... %off = the access's byte offset from the start of the block, as
//	       (offset, overflow): constant parts folded, dynamic indices
//	       added by gpuav_buffer_offset_add (index * ArrayStride or
//	       MatrixStride or component size)
//	       %rl = the element's (range, length): hoisted, see bufferHoist
//	       %ok = OpFunctionCall %bool gpuav_buffer_in_range %off size %rl.x
//	       OpSelectionMerge %M None
//	       OpBranchConditional %ok %T %F
//	T: the access; OpBranch %M
//	F: stage words; OpFunctionCall gpuav_report_buffer_oob ...; OpBranch %M
//	M: %result = OpPhi %type %access %T %null %F ... the rest of B
//
// Every access is checked: the bound range is only known at submit (a
// range may be as small as 1 byte), so no offset is provably inside it.
// The pass runs after the descriptor index pass, so an access it guards
// there is checked here only once its index is known to be in bounds.
func bufferOOBPass(c *context) {
	sizes := newLayoutSizes(c.m)
	safe := newSafeIndex(c.m)
	for _, f := range c.m.Functions {
		h := newBufferHoist(c.m)
		for bi := 0; bi < len(f.Blocks); bi++ {
			b := f.Blocks[bi]
			if !h.cont[b.ID()] {
				clear(h.local) // a new block of the original code
			}
			for j := 0; j < len(b.Insts); j++ {
				in := b.Insts[j]
				k := pointerOperand(in.Opcode())
				if k == 0 || k >= len(in.Words) || in.Opcode() == spirv.OpArrayLength {
					continue
				}
				ptrType := c.pointerType(in.Words[k])
				if ptrType == nil {
					continue
				}
				sc := spirv.StorageClass(ptrType.Words[2])
				if sc != spirv.StorageClassUniform && sc != spirv.StorageClassStorageBuffer {
					continue
				}
				acc, err := bufferAccessOf(c.m, sizes, in.Words[k])
				if err != nil {
					c.warnf("instruction %d: %v: buffer access left unchecked", in.OrigIndex, err)
					continue
				}
				if expBounded(c, safe, f, b, acc) {
					// Experiment ideal: a statically bounded offset into a
					// provably in-range element is decided per binding,
					// outside the access (not emitted: the floor of that design).
					continue
				}
				acc.flags |= bufferFlags(in.Opcode())
				if c.opt.Robust {
					acc.flags |= BufferRobust
				}
				newBlocks, ok := c.guardBuffer(f, b, j, acc, h)
				if !ok {
					continue
				}
				h.cont[newBlocks[len(newBlocks)-1].ID()] = true
				f.Blocks = append(f.Blocks[:bi+1], append(newBlocks, f.Blocks[bi+1:]...)...)
				bi += len(newBlocks) - 1
				break
			}
		}
		h.splice(f)
	}
}

// rangeKey names one element's range lookup: (set, binding) and the array
// index, a constant value (konst) or an id.
type rangeKey struct {
	set, binding, index uint32
	konst               bool
}

// bufferHoist shares range lookups between the accesses of one function:
// the per-binding part (gpuav_buffer_binding) and the range of a constant
// element are computed once in the function's entry block; the range of
// an element with a dynamic index once per block of the original code
// (the blocks guardBuffer splits off stay dominated by the first lookup).
type bufferHoist struct {
	m        *spirv.Module
	entry    emitter              // lookups for the entry block, spliced in by splice
	bindings map[[2]uint32]uint32 // (set, binding) → gpuav_buffer_binding result
	ranges   map[rangeKey]uint32  // constant elements → gpuav_buffer_range result
	local    map[rangeKey]uint32  // dynamic elements of the current block
	cont     map[uint32]bool      // merge blocks guardBuffer made: same original block
}

func newBufferHoist(m *spirv.Module) *bufferHoist {
	return &bufferHoist{
		m:        m,
		entry:    emitter{m: m},
		bindings: map[[2]uint32]uint32{},
		ranges:   map[rangeKey]uint32{},
		local:    map[rangeKey]uint32{},
		cont:     map[uint32]bool{},
	}
}

// splice inserts the hoisted lookups into f's entry block after its
// OpVariables (and the debug lines among them).
func (h *bufferHoist) splice(f *spirv.Function) {
	if len(h.entry.insts) == 0 || len(f.Blocks) == 0 {
		return
	}
	b := f.Blocks[0]
	at := 0
	for i, in := range b.Insts {
		if in.Opcode() == spirv.OpVariable {
			at = i + 1
		}
	}
	b.Insts = append(b.Insts[:at], append(h.entry.insts, b.Insts[at:]...)...)
	h.entry.insts = nil
}

// bufferFlags says what kind of access an instruction is (Buffer* bits).
func bufferFlags(op spirv.Opcode) uint32 {
	switch op {
	case spirv.OpLoad:
		return 0
	case spirv.OpStore:
		return BufferWrite
	case spirv.OpAtomicLoad:
		return BufferAtomic
	}
	return BufferWrite | BufferAtomic
}

// offsetTerm is a dynamic part of an access's byte offset: the value of
// index (a 32-bit integer id) times stride.
type offsetTerm struct {
	index, stride uint32
}

// bufferAccess is where an access through a buffer block lands.
type bufferAccess struct {
	set, binding uint32
	// descIndex is the descriptor array index id, 0 for a plain binding.
	descIndex uint32
	// offset is the constant part of the byte offset; terms the dynamic.
	offset uint64
	terms  []offsetTerm
	size   uint32
	flags  uint32
}

// bufferAccessOf follows the access chains from ptr back to its buffer
// variable and computes the access's offset and size from the block's
// explicit layout.
func bufferAccessOf(m *spirv.Module, s *layoutSizes, ptr uint32) (bufferAccess, error) {
	var acc bufferAccess
	var indices []uint32
	v := m.Def(ptr)
	for depth := 0; ; depth++ {
		if v == nil || depth > 64 {
			return acc, fmt.Errorf("pointer has no definition")
		}
		op := v.Opcode()
		if op == spirv.OpVariable {
			break
		}
		if (op != spirv.OpAccessChain && op != spirv.OpInBoundsAccessChain) || len(v.Words) < 4 {
			return acc, fmt.Errorf("pointer comes from %v, not an access chain of a buffer variable", op)
		}
		indices = append(append([]uint32(nil), v.Words[4:]...), indices...)
		v = m.Def(v.Words[3])
	}
	if d, ok := m.Decoration(v.Words[2], spirv.DecorationDescriptorSet); ok && len(d) > 0 {
		acc.set = d[0]
	}
	if d, ok := m.Decoration(v.Words[2], spirv.DecorationBinding); ok && len(d) > 0 {
		acc.binding = d[0]
	}
	vt := m.Def(v.Words[1])
	if vt == nil || vt.Opcode() != spirv.OpTypePointer {
		return acc, fmt.Errorf("buffer variable has no pointer type")
	}
	sc := spirv.StorageClass(vt.Words[2])
	t := vt.Words[3]
	if td := m.Def(t); td != nil && (td.Opcode() == spirv.OpTypeArray || td.Opcode() == spirv.OpTypeRuntimeArray) {
		if len(indices) == 0 {
			return acc, fmt.Errorf("access to a whole descriptor array")
		}
		acc.descIndex = indices[0]
		indices = indices[1:]
		t = td.Words[2]
	}
	_, block := m.Decoration(t, spirv.DecorationBlock)
	_, bufferBlock := m.Decoration(t, spirv.DecorationBufferBlock)
	switch {
	case sc == spirv.StorageClassUniform && block:
		acc.flags |= BufferUniform
	case bufferBlock || sc == spirv.StorageClassStorageBuffer && block:
	default:
		return acc, fmt.Errorf("buffer variable's type is not a Block or BufferBlock struct")
	}
	off, terms, last, ml, err := s.walk(t, indices)
	if err != nil {
		return acc, err
	}
	acc.offset, acc.terms = off, terms
	var size uint64
	lt := m.Def(last)
	if ml.column && lt != nil && lt.Opcode() == spirv.OpTypeVector && ml.rowMajor {
		// A column of a row-major matrix: one component per row, MatrixStride apart.
		comp, ok := s.size(lt.Words[2], matrixLayout{}, 0)
		if !ok {
			return acc, fmt.Errorf("unknown component size")
		}
		size = uint64(lt.Words[3]-1)*uint64(ml.stride) + comp
	} else {
		n, ok := s.size(last, ml.matrixLayout, 0)
		if !ok {
			return acc, fmt.Errorf("the size of the accessed type is unknown")
		}
		size = n
	}
	if size == 0 || size > 1<<30 {
		return acc, fmt.Errorf("access size %d out of range", size)
	}
	acc.size = uint32(size)
	return acc, nil
}

// walkLayout is the matrix layout in effect at a step of an access chain:
// that of the struct member the chain last stepped into, and whether the
// chain has stepped into a column of a matrix.
type walkLayout struct {
	matrixLayout
	column bool
}

// walk follows access chain indices from type t, returning the constant
// offset, the dynamic terms, the type reached and its matrix layout.
func (s *layoutSizes) walk(t uint32, indices []uint32) (uint64, []offsetTerm, uint32, walkLayout, error) {
	m := s.m
	var off uint64
	var terms []offsetTerm
	var ml walkLayout
	step := func(idx, stride uint32) error {
		if v, ok := m.ConstantValue(idx); ok {
			off += uint64(v) * uint64(stride)
			return nil
		}
		d := m.Def(idx)
		if d == nil {
			return fmt.Errorf("index %%%d has no definition", idx)
		}
		it := m.Def(d.ResultType())
		if it == nil || it.Opcode() != spirv.OpTypeInt || it.Words[2] != 32 {
			return fmt.Errorf("index %%%d is not a 32-bit integer", idx)
		}
		terms = append(terms, offsetTerm{index: idx, stride: stride})
		return nil
	}
	for _, idx := range indices {
		td := m.Def(t)
		if td == nil {
			return 0, nil, 0, ml, fmt.Errorf("unknown type %%%d", t)
		}
		switch td.Opcode() {
		case spirv.OpTypeStruct:
			i, ok := m.ConstantValue(idx)
			if !ok || int(i)+2 >= len(td.Words) {
				return 0, nil, 0, ml, fmt.Errorf("struct member index is not a constant")
			}
			ly, ok := s.members[t][i]
			if !ok || !ly.hasOffset {
				return 0, nil, 0, ml, fmt.Errorf("struct member %d has no Offset", i)
			}
			off += uint64(ly.offset)
			ml = walkLayout{matrixLayout: matrixLayout{stride: ly.matrixStride, rowMajor: ly.rowMajor}}
			t = td.Words[2+i]
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
			stride, ok := s.strides[t]
			if !ok {
				return 0, nil, 0, ml, fmt.Errorf("array has no ArrayStride")
			}
			if err := step(idx, stride); err != nil {
				return 0, nil, 0, ml, err
			}
			t = td.Words[2]
		case spirv.OpTypeMatrix:
			if ml.stride == 0 {
				return 0, nil, 0, ml, fmt.Errorf("matrix has no MatrixStride")
			}
			col := m.Def(td.Words[2])
			if col == nil || col.Opcode() != spirv.OpTypeVector {
				return 0, nil, 0, ml, fmt.Errorf("matrix column is not a vector")
			}
			stride := ml.stride
			if ml.rowMajor {
				comp, ok := s.size(col.Words[2], matrixLayout{}, 0)
				if !ok {
					return 0, nil, 0, ml, fmt.Errorf("unknown component size")
				}
				stride = uint32(comp)
			}
			if err := step(idx, stride); err != nil {
				return 0, nil, 0, ml, err
			}
			ml.column = true
			t = td.Words[2]
		case spirv.OpTypeVector:
			comp, ok := s.size(td.Words[2], matrixLayout{}, 0)
			if !ok {
				return 0, nil, 0, ml, fmt.Errorf("unknown component size")
			}
			stride := uint32(comp)
			if ml.column && ml.rowMajor {
				stride = ml.stride // rows of a row-major matrix
			}
			if err := step(idx, stride); err != nil {
				return 0, nil, 0, ml, err
			}
			ml = walkLayout{}
			t = td.Words[2]
		default:
			return 0, nil, 0, ml, fmt.Errorf("access chain steps into %v", td.Opcode())
		}
	}
	return off, terms, t, ml, nil
}

// guardBuffer splits block b at the access at j. It returns the new
// blocks (T, F, M), or false when the access is left unchecked.
func (c *context) guardBuffer(f *spirv.Function, b *spirv.Block, j int, acc bufferAccess, h *bufferHoist) ([]*spirv.Block, bool) {
	m := c.m
	in := b.Insts[j]
	if c.headerBlockAccess(b, j, "buffer access") {
		return nil, false
	}
	if rt := m.Def(in.ResultType()); in.ResultID() != 0 && rt != nil && rt.Opcode() == spirv.OpTypePointer {
		c.warnf("instruction %d: access yields a pointer: left unchecked", in.OrigIndex)
		return nil, false
	}
	fns, ok := c.libFunctions(in.OrigIndex, "gpuav_buffer_binding", "gpuav_buffer_range", "gpuav_buffer_in_range",
		"gpuav_buffer_offset_add", "gpuav_report_buffer_oob")
	if !ok {
		return nil, false
	}
	bindingFn, rangeFn, inRange, add, report := fns[0], fns[1], fns[2], fns[3], fns[4]
	u := m.TypeUint32()
	v2 := m.TypeVector(u, 2)
	asUint := func(e *emitter, id uint32) uint32 {
		t := m.Def(m.Def(id).ResultType())
		if t.Words[3] == 1 {
			return e.op(spirv.OpBitcast, u, id)
		}
		return id
	}

	var idx, off, set, binding, size, rl uint32
	return c.splitGuarded(f, b, j, guardedAccess{
		pre: append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			idx = m.ConstantUint32(0)
			key := rangeKey{set: acc.set, binding: acc.binding, konst: true}
			if v, ok := m.ConstantValue(acc.descIndex); acc.descIndex != 0 && ok {
				idx, key.index = m.ConstantUint32(v), v
			} else if acc.descIndex != 0 {
				if it := m.Def(m.Def(acc.descIndex).ResultType()); it == nil || it.Opcode() != spirv.OpTypeInt || it.Words[2] != 32 {
					c.warnf("instruction %d: descriptor index is not a 32-bit integer: left unchecked", in.OrigIndex)
					return 0, false
				}
				idx = asUint(head, acc.descIndex)
				key.index, key.konst = acc.descIndex, false
			}
			lo, ovf := uint32(acc.offset), uint32(0)
			if acc.offset > 0xFFFFFFFF {
				lo, ovf = 0xFFFFFFFF, 1
			}
			off = head.op(spirv.OpCompositeConstruct, v2, m.ConstantUint32(lo), m.ConstantUint32(ovf))
			for _, t := range acc.terms {
				off = head.op(spirv.OpFunctionCall, v2, add, off, asUint(head, t.index), m.ConstantUint32(t.stride))
			}
			set, binding, size = m.ConstantUint32(acc.set), m.ConstantUint32(acc.binding), m.ConstantUint32(acc.size)
			bk := [2]uint32{acc.set, acc.binding}
			bind, found := h.bindings[bk]
			if !found {
				bind = h.entry.op(spirv.OpFunctionCall, v2, bindingFn, set, binding)
				h.bindings[bk] = bind
			}
			lookups := h.ranges
			where := &h.entry
			if !key.konst {
				lookups, where = h.local, head
			}
			rl, found = lookups[key]
			if !found {
				rl = where.op(spirv.OpFunctionCall, v2, rangeFn, bind, idx)
				lookups[key] = rl
			}
			rng := head.op(spirv.OpCompositeExtract, u, rl, 0)
			return head.op(spirv.OpFunctionCall, m.TypeBool(), inRange, off, size, rng), true
		},
		access: in,
		report: func(fail *emitter) {
			stage := c.stageInfo(fail)
			fail.op(spirv.OpFunctionCall, m.TypeVoid(), report,
				m.ConstantUint32(c.opt.ShaderID), m.ConstantUint32(uint32(in.OrigIndex)), stage,
				set, binding, idx, off, size, rl, m.ConstantUint32(acc.flags))
		},
		null: func() uint32 { return c.nullValue(in.ResultType()) },
	})
}

// expBounded reports whether the access's element index is provably below
// its array's length (a plain binding's is 0) and every dynamic term of its
// offset has an upper bound.
func expBounded(c *context, safe *safeIndex, f *spirv.Function, b *spirv.Block, acc bufferAccess) bool {
	if acc.descIndex != 0 {
		if _, ok := c.m.ConstantValue(acc.descIndex); !ok {
			length, ok := expArrayLength(c, acc)
			if !ok || !safe.inBounds(f, b, acc.descIndex, length) {
				return false
			}
		}
	}
	for _, t := range acc.terms {
		if !safe.inBounds(f, b, t.index, 1<<24) {
			return false
		}
	}
	return true
}

// expArrayLength finds the sized descriptor array length of the access's
// variable (by set and binding).
func expArrayLength(c *context, acc bufferAccess) (uint32, bool) {
	m := c.m
	for _, in := range m.Sections[spirv.SectionGlobal] {
		if in.Opcode() != spirv.OpVariable {
			continue
		}
		id := in.Words[2]
		s, ok1 := m.Decoration(id, spirv.DecorationDescriptorSet)
		bd, ok2 := m.Decoration(id, spirv.DecorationBinding)
		if !ok1 || !ok2 || len(s) == 0 || len(bd) == 0 || s[0] != acc.set || bd[0] != acc.binding {
			continue
		}
		pt := m.Def(in.Words[1])
		at := m.Def(pt.Words[3])
		if at == nil || at.Opcode() != spirv.OpTypeArray {
			return 0, false
		}
		n, ok := m.ConstantValue(at.Words[3])
		return n, ok
	}
	return 0, false
}
