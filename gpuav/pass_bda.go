package gpuav

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// bdaPass guards every OpLoad, OpStore and atomic through a pointer in the
// PhysicalStorageBuffer storage class, in modules whose addressing model is
// PhysicalStorageBuffer64 (others have no such pointers):
//
//	B: ... %a = the pointer as uvec2 (OpConvertPtrToU + OpBitcast, or
//	       OpBitcast of the pointer on SPIR-V 1.5+)
//	       %code = OpFunctionCall %uint gpuav_bda_check %a %size
//	       %ok = OpIEqual %bool %code %uint_0
//	       OpSelectionMerge %M None
//	       OpBranchConditional %ok %T %F
//	T: the access; OpBranch %M
//	F: stage words; OpFunctionCall gpuav_report_bda ...; OpBranch %M
//	M: %result = OpPhi %type %access %T %null %F ... the rest of B
//
// A failed check skips the access: a load yields zero, a store or an
// atomic does nothing.
func bdaPass(c *context) {
	if !c.physicalAddressing() {
		return
	}
	sizes := newLayoutSizes(c.m)
	for _, f := range c.m.Functions {
		for bi := 0; bi < len(f.Blocks); bi++ {
			b := f.Blocks[bi]
			for j := 0; j < len(b.Insts); j++ {
				in := b.Insts[j]
				k := pointerOperand(in.Opcode())
				if k == 0 || k >= len(in.Words) || in.Opcode() == spirv.OpArrayLength {
					continue
				}
				ptrType := c.pointerType(in.Words[k])
				if ptrType == nil || spirv.StorageClass(ptrType.Words[2]) != spirv.StorageClassPhysicalStorageBuffer {
					continue
				}
				size, ok := sizes.accessSize(in.Words[k], ptrType.Words[3])
				if !ok {
					c.warnf("instruction %d: the size of the type behind a PhysicalStorageBuffer pointer is unknown: left unchecked", in.OrigIndex)
					continue
				}
				newBlocks, ok := c.guardBDA(f, b, j, size, bdaFlags(in.Opcode(), c.m.Def(ptrType.Words[3])))
				if !ok {
					continue
				}
				f.Blocks = append(f.Blocks[:bi+1], append(newBlocks, f.Blocks[bi+1:]...)...)
				bi += len(newBlocks) - 1
				break
			}
		}
	}
}

// physicalAddressing reports whether the module uses PhysicalStorageBuffer64.
func (c *context) physicalAddressing() bool {
	for _, in := range c.m.Sections[spirv.SectionMemoryModel] {
		if in.Opcode() == spirv.OpMemoryModel && len(in.Words) > 1 &&
			spirv.AddressingModel(in.Words[1]) == spirv.AddressingModelPhysicalStorageBuffer64 {
			return true
		}
	}
	return false
}

// pointerType returns the OpTypePointer of a pointer id, or nil.
func (c *context) pointerType(id uint32) *spirv.Instruction {
	d := c.m.Def(id)
	if d == nil {
		return nil
	}
	t := c.m.Def(d.ResultType())
	if t == nil || t.Opcode() != spirv.OpTypePointer || len(t.Words) < 4 {
		return nil
	}
	return t
}

// bdaFlags says what kind of access an instruction is (BDA* bits).
func bdaFlags(op spirv.Opcode, pointee *spirv.Instruction) uint32 {
	var f uint32
	switch op {
	case spirv.OpLoad:
	case spirv.OpStore:
		f = BDAWrite
	case spirv.OpAtomicLoad:
		f = BDAAtomic
	default:
		f = BDAWrite | BDAAtomic
	}
	if pointee != nil && pointee.Opcode() == spirv.OpTypeStruct {
		f |= BDAStruct
	}
	return f
}

// guardBDA splits block b at the access at j. It returns the new blocks
// (T, F, M), or false when the access is left unchecked.
func (c *context) guardBDA(f *spirv.Function, b *spirv.Block, j int, size, flags uint32) ([]*spirv.Block, bool) {
	m := c.m
	in := b.Insts[j]
	if c.headerBlockAccess(b, j, "buffer device address access") {
		return nil, false
	}
	ptr := in.Words[pointerOperand(in.Opcode())]
	u := m.TypeUint32()
	v2 := m.TypeVector(u, 2)
	var addr func(e *emitter) uint32
	switch {
	case m.HasCapability(spirv.CapabilityInt64) || (c.opt.Int64 && !m.VersionAtLeast(1, 5)):
		addr = func(e *emitter) uint32 {
			if !m.HasCapability(spirv.CapabilityInt64) {
				m.AddCapability(spirv.CapabilityInt64)
			}
			a := e.op(spirv.OpConvertPtrToU, m.TypeInt(64, false), ptr)
			return e.op(spirv.OpBitcast, v2, a)
		}
	case m.VersionAtLeast(1, 5):
		addr = func(e *emitter) uint32 { return e.op(spirv.OpBitcast, v2, ptr) }
	default:
		c.warnf("instruction %d: reading a pointer needs Int64 or SPIR-V 1.5, and the device has no shaderInt64: left unchecked", in.OrigIndex)
		return nil, false
	}
	fns, ok := c.libFunctions(in.OrigIndex, "gpuav_bda_check", "gpuav_report_bda")
	if !ok {
		return nil, false
	}
	check, report := fns[0], fns[1]
	var null uint32
	if in.ResultID() != 0 {
		null = c.nullValue(in.ResultType())
	}
	var a, sizeID uint32
	return c.splitGuarded(f, b, j, guardedAccess{
		pre: append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			a = addr(head)
			sizeID = m.ConstantUint32(size)
			code := head.op(spirv.OpFunctionCall, u, check, a, sizeID)
			return head.op(spirv.OpIEqual, m.TypeBool(), code, m.ConstantUint32(0)), true
		},
		access: in,
		report: func(fail *emitter) {
			stage := c.stageInfo(fail)
			fail.op(spirv.OpFunctionCall, m.TypeVoid(), report,
				m.ConstantUint32(c.opt.ShaderID), m.ConstantUint32(uint32(in.OrigIndex)), stage,
				a, sizeID, m.ConstantUint32(flags))
		},
		null: func() uint32 { return null },
	})
}

// nullValue returns a zero value of a type: OpConstantNull, except for
// types that hold PhysicalStorageBuffer pointers, which OpConstantNull does
// not accept; those get a null address built from integer zero.
func (c *context) nullValue(typ uint32) uint32 {
	m := c.m
	if !c.holdsPhysicalPointer(typ, 0) {
		return m.ConstantNull(typ)
	}
	// OpConstantNull is not valid for physical pointers: the phi takes
	// OpUndef. The failed access is skipped either way, and a later
	// dereference of this value is checked on its own.
	id := m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpUndef, typ, id))
	return id
}

// holdsPhysicalPointer reports whether a type is or contains a
// PhysicalStorageBuffer pointer.
func (c *context) holdsPhysicalPointer(typ uint32, depth int) bool {
	t := c.m.Def(typ)
	if t == nil || depth > 16 {
		return false
	}
	switch t.Opcode() {
	case spirv.OpTypePointer:
		return spirv.StorageClass(t.Words[2]) == spirv.StorageClassPhysicalStorageBuffer
	case spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
		return c.holdsPhysicalPointer(t.Words[2], depth+1)
	case spirv.OpTypeStruct:
		for _, mt := range t.Words[2:] {
			if c.holdsPhysicalPointer(mt, depth+1) {
				return true
			}
		}
	}
	return false
}

// layoutSizes computes the byte size of explicitly laid out types from
// their Offset, ArrayStride and MatrixStride decorations.
type layoutSizes struct {
	m       *spirv.Module
	members map[uint32]map[uint32]memberLayout // struct → member → layout
	strides map[uint32]uint32                  // array type → ArrayStride
}

type memberLayout struct {
	offset, matrixStride uint32
	hasOffset, rowMajor  bool
}

// matrixLayout is what a matrix's size depends on: its stride (0 unknown)
// and order, which its enclosing struct member declares.
type matrixLayout struct {
	stride   uint32
	rowMajor bool
}

func newLayoutSizes(m *spirv.Module) *layoutSizes {
	s := &layoutSizes{m: m, members: map[uint32]map[uint32]memberLayout{}, strides: map[uint32]uint32{}}
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		switch in.Opcode() {
		case spirv.OpDecorate:
			if len(in.Words) > 3 && spirv.Decoration(in.Words[2]) == spirv.DecorationArrayStride {
				s.strides[in.Words[1]] = in.Words[3]
			}
		case spirv.OpMemberDecorate:
			if len(in.Words) < 4 {
				continue
			}
			st, mem := in.Words[1], in.Words[2]
			if s.members[st] == nil {
				s.members[st] = map[uint32]memberLayout{}
			}
			ml := s.members[st][mem]
			switch spirv.Decoration(in.Words[3]) {
			case spirv.DecorationOffset:
				if len(in.Words) > 4 {
					ml.offset, ml.hasOffset = in.Words[4], true
				}
			case spirv.DecorationMatrixStride:
				if len(in.Words) > 4 {
					ml.matrixStride = in.Words[4]
				}
			case spirv.DecorationRowMajor:
				ml.rowMajor = true
			}
			s.members[st][mem] = ml
		}
	}
	return s
}

// accessSize is the number of bytes an access through ptr (whose pointee
// type is pointee) touches. A matrix reached through an access chain takes
// its stride from the struct member the chain last stepped into.
func (s *layoutSizes) accessSize(ptr, pointee uint32) (uint32, bool) {
	ml := s.chainMatrixLayout(ptr)
	n, ok := s.size(pointee, ml, 0)
	if !ok || n == 0 || n > 1<<30 {
		return 0, false
	}
	return uint32(n), true
}

// chainMatrixLayout finds the matrix layout of the struct member an access
// chain ends in, when it does.
func (s *layoutSizes) chainMatrixLayout(ptr uint32) matrixLayout {
	m := s.m
	ac := m.Def(ptr)
	if ac == nil {
		return matrixLayout{}
	}
	first := 4
	switch ac.Opcode() {
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
	case spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain:
		first = 5
	default:
		return matrixLayout{}
	}
	base := m.Def(ac.Words[3])
	if base == nil {
		return matrixLayout{}
	}
	bt := m.Def(base.ResultType())
	if bt == nil || bt.Opcode() != spirv.OpTypePointer {
		return matrixLayout{}
	}
	t := bt.Words[3]
	var last matrixLayout
	for i := first; i < len(ac.Words); i++ {
		td := m.Def(t)
		if td == nil {
			return matrixLayout{}
		}
		last = matrixLayout{}
		switch td.Opcode() {
		case spirv.OpTypeStruct:
			idx, ok := m.ConstantValue(ac.Words[i])
			if !ok || int(idx)+2 >= len(td.Words) {
				return matrixLayout{}
			}
			ml := s.members[t][idx]
			last = matrixLayout{stride: ml.matrixStride, rowMajor: ml.rowMajor}
			t = td.Words[2+idx]
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeMatrix, spirv.OpTypeVector:
			t = td.Words[2]
		default:
			return matrixLayout{}
		}
	}
	// An array of matrices keeps the member's layout for its elements.
	return last
}

// size is the byte extent of a type: for arrays and structs from the
// first byte to the last byte of the last element or member (a lower
// bound when a stride is unknown, so a check never reports a false error).
func (s *layoutSizes) size(typ uint32, ml matrixLayout, depth int) (uint64, bool) {
	m := s.m
	t := m.Def(typ)
	if t == nil || depth > 32 {
		return 0, false
	}
	switch t.Opcode() {
	case spirv.OpTypeInt, spirv.OpTypeFloat:
		return uint64(t.Words[2]) / 8, true
	case spirv.OpTypeVector:
		c, ok := s.size(t.Words[2], ml, depth+1)
		return c * uint64(t.Words[3]), ok
	case spirv.OpTypeMatrix:
		col := m.Def(t.Words[2])
		if col == nil || col.Opcode() != spirv.OpTypeVector {
			return 0, false
		}
		comp, ok := s.size(col.Words[2], ml, depth+1)
		if !ok {
			return 0, false
		}
		cols, rows := uint64(t.Words[3]), uint64(col.Words[3])
		switch {
		case ml.stride == 0:
			return cols * rows * comp, true
		case ml.rowMajor:
			return (rows-1)*uint64(ml.stride) + cols*comp, true
		default:
			return (cols-1)*uint64(ml.stride) + rows*comp, true
		}
	case spirv.OpTypePointer:
		if spirv.StorageClass(t.Words[2]) == spirv.StorageClassPhysicalStorageBuffer {
			return 8, true
		}
		return 0, false
	case spirv.OpTypeArray:
		n, ok := m.ConstantValue(t.Words[3])
		if !ok {
			return 0, false
		}
		e, ok := s.size(t.Words[2], ml, depth+1)
		if !ok || n == 0 {
			return 0, ok && n == 0
		}
		stride, has := s.strides[typ]
		if !has {
			return uint64(n) * e, true
		}
		return uint64(n-1)*uint64(stride) + e, true
	case spirv.OpTypeStruct:
		var end uint64
		for i, mt := range t.Words[2:] {
			ly, ok := s.members[typ][uint32(i)]
			if !ok || !ly.hasOffset {
				return 0, false
			}
			n, ok := s.size(mt, matrixLayout{stride: ly.matrixStride, rowMajor: ly.rowMajor}, depth+1)
			if !ok {
				return 0, false
			}
			if e := uint64(ly.offset) + n; e > end {
				end = e
			}
		}
		return end, true
	}
	return 0, false
}

// String names a layout for test failures.
func (ml matrixLayout) String() string {
	return fmt.Sprintf("stride %d rowMajor %v", ml.stride, ml.rowMajor)
}
