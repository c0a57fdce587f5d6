package gpuav

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// layoutSizes computes the byte size of explicitly laid out types from
// their Offset, ArrayStride and MatrixStride decorations.
type layoutSizes struct {
	m       *spirv.Module
	members map[uint32]map[uint32]memberLayout // struct → member → layout
	strides map[uint32]uint32                  // array type → ArrayStride
	// blocks holds the Block (1) and BufferBlock (2) decorations of the
	// ids below bound, the module's bound when the analysis was made: no
	// pass decorates an id it did not make, so they hold while it lives.
	blocks map[uint32]uint8
	bound  uint32
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
	s := &layoutSizes{m: m, members: map[uint32]map[uint32]memberLayout{}, strides: map[uint32]uint32{},
		blocks: map[uint32]uint8{}, bound: m.Header.Bound}
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		switch op := in.Opcode(); op {
		case spirv.OpDecorate, spirv.OpDecorateId, spirv.OpDecorateString:
			if len(in.Words) > 2 {
				switch spirv.Decoration(in.Words[2]) {
				case spirv.DecorationBlock:
					s.blocks[in.Words[1]] |= 1
				case spirv.DecorationBufferBlock:
					s.blocks[in.Words[1]] |= 2
				}
			}
			if op == spirv.OpDecorate && len(in.Words) > 3 && spirv.Decoration(in.Words[2]) == spirv.DecorationArrayStride {
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

// blockDecorations reports whether type t is decorated Block and whether
// BufferBlock (spirv.Module.Decoration's answers, from the analysis's
// index for the ids it knows).
func (s *layoutSizes) blockDecorations(t uint32) (block, bufferBlock bool) {
	if t >= s.bound {
		_, block = s.m.Decoration(t, spirv.DecorationBlock)
		_, bufferBlock = s.m.Decoration(t, spirv.DecorationBufferBlock)
		return block, bufferBlock
	}
	b := s.blocks[t]
	return b&1 != 0, b&2 != 0
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
	// step adds the index at position pos of indices, into a composite of
	// count elements (0: a runtime array, or a length that is not a plain
	// constant), stride bytes apart.
	step := func(pos int, idx, stride, count uint32) error {
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
		terms = append(terms, offsetTerm{index: idx, stride: stride, pos: pos, count: count})
		return nil
	}
	for pos, idx := range indices {
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
			var count uint32
			if td.Opcode() == spirv.OpTypeArray {
				count, _ = m.ConstantValue(td.Words[3])
			}
			if err := step(pos, idx, stride, count); err != nil {
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
			if err := step(pos, idx, stride, td.Words[3]); err != nil {
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
			if err := step(pos, idx, stride, td.Words[3]); err != nil {
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
