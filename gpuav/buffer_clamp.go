package gpuav

import (
	"math"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// BufferNoClamp is a buffer_oob record's p7 when the clamp had nothing to
// go to (the bound range is smaller than the access with every dynamic
// index at 0), or when the site does not clamp.
const BufferNoClamp = 0xFFFFFFFF

// bufferClamp clamps a failed buffer access (docs/decisions/buffer-oob-clamp.md,
// robust resource access): each dynamic index of its access chains, outermost
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
// this needs no OpArrayLength and works for uniform buffers too. Where the
// guard also checks the descriptor index against a variable descriptor
// count (sized arrays with element checks), an index past it is clamped to
// the binding's last element first, and that element is checked again (its
// state, and its range for the offsets). A failed element check (unwritten,
// destroyed) and a range with no place for the access are skipped.
type bufferClamp struct {
	m   *spirv.Module
	acc bufferAccess
	// in are the guard's ids, set by its check before F: the binding
	// (gpuav_buffer_binding), the descriptor index as a uint, the offset
	// and the check's (code, range).
	in *bufferGuardIDs
	// checks are gpuav_buffer_check's element check bits; checkFn the
	// function.
	checks, checkFn uint32
	// clamped are the clamped indices by position (offsetTerm.pos; 0 is
	// the descriptor index of an array of blocks).
	clamped map[int]uint32
	// to is p7 of the record, once can has run: for buffer_oob the clamped
	// byte offset, or BufferNoClamp when the range holds no place for the
	// access; for descriptor_index_oob the code the element it was clamped
	// to failed with (0: none); for the other codes, the code.
	to uint32
}

// bufferGuardIDs are the ids a buffer guard's check computes in its head.
type bufferGuardIDs struct {
	bind, idx, off, cr uint32
}

// bufferClampSpec returns the clamp of a failed access acc whose guard's
// ids are in (checks and checkFn: its gpuav_buffer_check), or nil when no range can hold it (its constant part alone
// passes 2^32 bytes).
func bufferClampSpec(m *spirv.Module, acc bufferAccess, checks, checkFn uint32, in *bufferGuardIDs) (*clampSpec, *bufferClamp) {
	if acc.offset+uint64(acc.size) > math.MaxUint32 {
		return nil, nil
	}
	c := &bufferClamp{m: m, acc: acc, in: in, checks: checks, checkFn: checkFn}
	return &clampSpec{can: c.can, operands: c.operands}, c
}

// can emits the clamped indices and returns the bool "the clamped access
// goes ahead".
func (c *bufferClamp) can(fail *emitter) uint32 {
	m := c.m
	u, bl := m.TypeUint32(), m.TypeBool()
	is := func(v uint32, code CheckCode) uint32 {
		return fail.op(spirv.OpIEqual, bl, v, m.ConstantUint32(uint32(code)))
	}
	c.clamped = map[int]uint32{}
	code := fail.op(spirv.OpCompositeExtract, u, c.in.cr, 0)
	cr := c.in.cr
	if c.acc.descIndex != 0 && c.checks&stateCheckIndex != 0 {
		// The binding's last element, and its check with the same offset.
		n := fail.op(spirv.OpCompositeExtract, u, c.in.bind, 1)
		last := fail.op(spirv.OpISub, u, fail.op(spirv.OpSelect, u, is(n, 0), m.ConstantUint32(1), n), m.ConstantUint32(1))
		c.clamped[0] = uMin(fail, c.in.idx, last)
		cr = fail.op(spirv.OpFunctionCall, m.TypeVector(u, 2), c.checkFn, c.in.bind, c.clamped[0], c.in.off,
			m.ConstantUint32(c.acc.size), m.ConstantUint32(c.checks))
	}
	elem := fail.op(spirv.OpCompositeExtract, u, cr, 0)
	rng := fail.op(spirv.OpCompositeExtract, u, cr, 1)
	fits, off := c.offsets(fail, rng)
	isBuf, isIdx := is(code, CodeBufferOOB), is(code, CodeDescriptorIndexOOB)
	// What the element the index went to failed with: its state, or its
	// range when that holds no place for the access.
	elemCode := fail.op(spirv.OpSelect, u, is(elem, CodeBufferOOB),
		fail.op(spirv.OpSelect, u, fits, m.ConstantUint32(0), m.ConstantUint32(uint32(CodeBufferOOB))), elem)
	c.to = fail.op(spirv.OpSelect, u, isBuf, fail.op(spirv.OpSelect, u, fits, off, m.ConstantUint32(BufferNoClamp)),
		fail.op(spirv.OpSelect, u, isIdx, elemCode, code))
	idxOK := fail.op(spirv.OpLogicalAnd, bl, isIdx, is(elemCode, 0))
	return fail.op(spirv.OpLogicalAnd, bl, fits, fail.op(spirv.OpLogicalOr, bl, isBuf, idxOK))
}

// offsets emits the clamped dynamic indices for range rng and returns
// the bools "the access fits somewhere" and the byte offset it then uses.
func (c *bufferClamp) offsets(fail *emitter, rng uint32) (fits, off uint32) {
	m, acc := c.m, c.acc
	u, bl := m.TypeUint32(), m.TypeBool()
	fixed := m.ConstantUint32(uint32(acc.offset) + acc.size)
	fits = fail.op(spirv.OpULessThanEqual, bl, fixed, rng)
	room := fail.op(spirv.OpISub, u, rng, fixed)
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
	off = fail.op(spirv.OpISub, u, fail.op(spirv.OpISub, u, rng, room), m.ConstantUint32(acc.size))
	return fits, off
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
