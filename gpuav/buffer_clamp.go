package gpuav

import (
	"math"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// BufferNoClamp is a buffer_oob record's p7 when the clamp had nothing to
// go to (the bound range is smaller than the access with every dynamic
// index at 0), or when the site does not clamp.
const BufferNoClamp = 0xFFFFFFFF

// bufferClamp clamps a failed buffer access (seed 003, "SPIR-V robust
// resource access"): each dynamic index of its access chains, outermost
// first, to its composite's last element and to what is left of the bound
// range, so that the whole access lands inside the range:
//
//	room = range - (constant offset + size)
//	x'   = min(x, count - 1, room / stride)   (a negative signed x: 0)
//	room = room - x' * stride
//
// An index that was in range stays as it was; a runtime array is bounded by
// the range alone (what OpArrayLength would say, without the partial last
// element). The range is the check's (gpuav_buffer_check's second word), so
// this needs no OpArrayLength and works for uniform buffers too. The clamp
// goes ahead only for a buffer_oob failure whose range holds the access
// somewhere; a failed descriptor check (the element's state, an index past
// a variable count) is skipped.
type bufferClamp struct {
	m   *spirv.Module
	acc bufferAccess
	// cr is the check's (code, range).
	cr uint32
	// clamped are the clamped indices by position (offsetTerm.pos).
	clamped map[int]uint32
	// to is p7 of the record, once can has run: the clamped byte offset,
	// BufferNoClamp when the range holds no position for the access, or
	// the failed check's code when it is not buffer_oob.
	to uint32
}

// bufferClampSpec returns the clamp of a failed access acc whose check's
// result is *cr, or nil when no range can hold it (its constant part
// alone passes 2^32 bytes).
func bufferClampSpec(m *spirv.Module, acc bufferAccess, cr *uint32) (*clampSpec, *bufferClamp) {
	if acc.offset+uint64(acc.size) > math.MaxUint32 {
		return nil, nil
	}
	c := &bufferClamp{m: m, acc: acc}
	return &clampSpec{
		can: func(fail *emitter) uint32 {
			c.cr = *cr
			return c.can(fail)
		},
		operands: c.operands,
	}, c
}

// can emits the clamped indices and returns the bool "the clamped access
// goes ahead".
func (c *bufferClamp) can(fail *emitter) uint32 {
	m, acc := c.m, c.acc
	u, bl := m.TypeUint32(), m.TypeBool()
	code := fail.op(spirv.OpCompositeExtract, u, c.cr, 0)
	rng := fail.op(spirv.OpCompositeExtract, u, c.cr, 1)
	fixed := m.ConstantUint32(uint32(acc.offset) + acc.size)
	fits := fail.op(spirv.OpULessThanEqual, bl, fixed, rng)
	room := fail.op(spirv.OpISub, u, rng, fixed)
	c.clamped = map[int]uint32{}
	for _, t := range acc.terms {
		it := m.Def(m.Def(t.index).ResultType())
		x := fail.asUint(t.index, it.ResultID())
		if it.Words[3] == 1 {
			neg := fail.op(spirv.OpSLessThan, bl, t.index, m.ConstantNull(it.ResultID()))
			x = fail.op(spirv.OpSelect, u, neg, m.ConstantUint32(0), x)
		}
		if t.count > 0 {
			x = uMin(fail, x, m.ConstantUint32(t.count-1))
		}
		if t.stride > 0 {
			x = uMin(fail, x, fail.op(spirv.OpUDiv, u, room, m.ConstantUint32(t.stride)))
			room = fail.op(spirv.OpISub, u, room, fail.op(spirv.OpIMul, u, x, m.ConstantUint32(t.stride)))
		}
		c.clamped[t.pos] = x
	}
	// The offset the clamped access uses: range - size - what is left.
	off := fail.op(spirv.OpISub, u, fail.op(spirv.OpISub, u, rng, room), m.ConstantUint32(acc.size))
	isBuf := fail.op(spirv.OpIEqual, bl, code, m.ConstantUint32(uint32(CodeBufferOOB)))
	c.to = fail.op(spirv.OpSelect, u, isBuf, fail.op(spirv.OpSelect, u, fits, off, m.ConstantUint32(BufferNoClamp)), code)
	return fail.op(spirv.OpLogicalAnd, bl, isBuf, fits)
}

// operands emits clones of the access chains with the clamped indices and
// returns the rename of the access's pointer.
func (c *bufferClamp) operands(e *emitter) map[uint32]uint32 {
	m := c.m
	if len(c.acc.chain) == 0 {
		return nil // no index to clamp: can is false wherever the check fails
	}
	var base uint32
	pos := 0
	for _, ac := range c.acc.chain {
		cl := ac.Clone()
		cl.OrigIndex, cl.OrigOffset = -1, -1
		if base != 0 {
			cl.Words[3] = base
		}
		for w := 4; w < len(cl.Words); w, pos = w+1, pos+1 {
			if x, ok := c.clamped[pos]; ok {
				cl.Words[w] = x
			}
		}
		base = m.NewID()
		cl.SetResultID(base)
		copyDecorations(m, ac.ResultID(), base, false)
		e.insts = append(e.insts, cl)
	}
	last := c.acc.chain[len(c.acc.chain)-1]
	return map[uint32]uint32{last.ResultID(): base}
}
