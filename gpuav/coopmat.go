package gpuav

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// coopMatAccess is a cooperative-matrix load or store
// (OpCooperativeMatrixLoadKHR/StoreKHR, OpCooperativeMatrixLoadNV/StoreNV):
// where its operands are and the matrix's shape as it lies in memory. The
// bytes it touches run from the pointer's byte to
//
//	(major-1) * stride * pointee + minor * component - 1
//
// bytes past it, where major is the number of rows (row-major) or columns
// (column-major), minor the other count, stride the Stride operand in
// elements of the pointer's pointee type (pointee bytes; any ArrayStride is
// ignored, as SPV_KHR_cooperative_matrix says) and component the matrix
// component type's bytes: row (or column) i starts at Pointer[i*Stride],
// and its minor elements are contiguous.
type coopMatAccess struct {
	ptr    uint32 // the Pointer operand
	stride uint32 // the Stride operand, a 32-bit integer; 0 when absent
	store  bool
	// rows, cols, component: the matrix type's (component in bytes);
	// colMajor: the layout is column-major.
	rows, cols, component uint32
	colMajor              bool
	// oob and align say which checks the guard makes: buffer_oob and
	// cooperative_matrix_alignment.
	oob, align bool
}

// major and minor are the counts of the layout's strided and contiguous
// dimensions.
func (c coopMatAccess) major() uint32 {
	if c.colMajor {
		return c.cols
	}
	return c.rows
}

func (c coopMatAccess) minor() uint32 {
	if c.colMajor {
		return c.rows
	}
	return c.cols
}

// minorBytes is the bytes of one contiguous row (column-major: column).
func (c coopMatAccess) minorBytes() uint32 { return c.minor() * c.component }

// alignment is what the Pointer and the Stride in bytes must be multiples
// of: the lesser of 16 and minorBytes
// (VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986).
func (c coopMatAccess) alignment() uint32 { return min(16, c.minorBytes()) }

// strideUint emits the Stride as a uint (0 when absent).
func (c coopMatAccess) strideUint(m *spirv.Module, e *emitter) uint32 {
	if c.stride == 0 {
		return m.ConstantUint32(0)
	}
	return e.asUint(c.stride, m.Def(c.stride).ResultType())
}

// isCoopMatAccess says whether op is a cooperative-matrix load or store.
func isCoopMatAccess(op spirv.Opcode) bool {
	switch op {
	case spirv.OpCooperativeMatrixLoadKHR, spirv.OpCooperativeMatrixStoreKHR,
		spirv.OpCooperativeMatrixLoadNV, spirv.OpCooperativeMatrixStoreNV:
		return true
	}
	return false
}

// coopMatOf reads a cooperative-matrix load or store. ok is false for any
// other instruction; err says why one cannot be checked (a layout other
// than row- or column-major, a shape that is not a constant, a Stride
// that is not a 32-bit integer).
func coopMatOf(m *spirv.Module, in *spirv.Instruction) (c coopMatAccess, ok bool, err error) {
	w := in.Words
	var typ, layout, stride uint32
	nv := false
	switch in.Opcode() {
	case spirv.OpCooperativeMatrixLoadKHR: // type, result, pointer, layout, stride?, memory operands?
		if len(w) < 5 {
			return c, true, fmt.Errorf("short cooperative matrix load")
		}
		c.ptr, typ, layout = w[3], w[1], w[4]
		if len(w) > 5 {
			stride = w[5]
		}
	case spirv.OpCooperativeMatrixStoreKHR: // pointer, object, layout, stride?, memory operands?
		if len(w) < 4 {
			return c, true, fmt.Errorf("short cooperative matrix store")
		}
		c.ptr, c.store, layout = w[1], true, w[3]
		typ = valueType(m, w[2])
		if len(w) > 4 {
			stride = w[4]
		}
	case spirv.OpCooperativeMatrixLoadNV: // type, result, pointer, stride, column major, memory operands?
		if len(w) < 6 {
			return c, true, fmt.Errorf("short cooperative matrix load")
		}
		c.ptr, typ, stride, layout, nv = w[3], w[1], w[4], w[5], true
	case spirv.OpCooperativeMatrixStoreNV: // pointer, object, stride, column major, memory operands?
		if len(w) < 5 {
			return c, true, fmt.Errorf("short cooperative matrix store")
		}
		c.ptr, c.store, stride, layout, nv = w[1], true, w[3], w[4], true
		typ = valueType(m, w[2])
	default:
		return c, false, nil
	}
	t := m.Def(typ)
	if t == nil || (t.Opcode() != spirv.OpTypeCooperativeMatrixKHR && t.Opcode() != spirv.OpTypeCooperativeMatrixNV) || len(t.Words) < 6 {
		return c, true, fmt.Errorf("the matrix's type is not a cooperative matrix type")
	}
	var rok, cok bool
	c.rows, rok = m.ConstantValue(t.Words[4])
	c.cols, cok = m.ConstantValue(t.Words[5])
	if !rok || !cok || c.rows == 0 || c.cols == 0 {
		return c, true, fmt.Errorf("the matrix's rows or columns are not a constant")
	}
	ct := m.Def(t.Words[2])
	if ct == nil || (ct.Opcode() != spirv.OpTypeInt && ct.Opcode() != spirv.OpTypeFloat) || ct.Words[2]%8 != 0 {
		return c, true, fmt.Errorf("the matrix's component type has no byte size")
	}
	c.component = ct.Words[2] / 8
	if nv {
		switch d := m.Def(layout); {
		case d != nil && d.Opcode() == spirv.OpConstantTrue:
			c.colMajor = true
		case d != nil && d.Opcode() == spirv.OpConstantFalse:
		default:
			return c, true, fmt.Errorf("the ColumnMajor operand is not a constant")
		}
	} else {
		switch v, isConst := m.ConstantValue(layout); {
		case isConst && v == 0: // RowMajorKHR
		case isConst && v == 1: // ColumnMajorKHR
			c.colMajor = true
		default:
			return c, true, fmt.Errorf("a MemoryLayout other than RowMajorKHR or ColumnMajorKHR")
		}
	}
	if stride != 0 && int32Type(m, stride) == nil {
		return c, true, fmt.Errorf("the Stride is not a 32-bit integer")
	}
	c.stride = stride
	return c, true, nil
}

// valueType returns the type id of a value id, or 0.
func valueType(m *spirv.Module, id uint32) uint32 {
	if d := m.Def(id); d != nil {
		return d.ResultType()
	}
	return 0
}

// coopMatSpan emits the bytes a cooperative-matrix access touches from its
// pointer (gpuav_coopmat_span: 0xFFFFFFFF when that does not fit 32 bits),
// pointee being the bytes of the pointer's pointee type.
func coopMatSpan(sh *shader, e *emitter, c coopMatAccess, pointee uint32) uint32 {
	m := sh.m
	stride := c.strideUint(m, e)
	return e.op(spirv.OpFunctionCall, m.TypeUint32(), sh.lib.function("gpuav_coopmat_span"),
		m.ConstantUint32(c.major()-1), stride, m.ConstantUint32(pointee), m.ConstantUint32(c.minorBytes()))
}
