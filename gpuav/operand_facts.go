package gpuav

import (
	"math"
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// operandFacts answers what the sanitizer's checks ask of an operand
// (docs/decisions/shader-sanitizer.md): whether an integer is provably
// non-zero in every lane, not -1, not the minimum signed value; whether a
// float is provably not 0, positive, not NaN. It builds on the value
// bounds (safe_index.go: an upper bound of the bit pattern) and the float
// intervals (float_index.go), and adds what they do not know: lower
// bounds of the shapes a non-zero divisor takes in shaders (a non-zero
// constant, x | 1, max(x, 1u), clamp(x, 1, n), x + 1 that cannot wrap)
// and the branches above a block that compare the value with 0. Where it
// cannot prove a fact the answer is no and the operation keeps its check.
type operandFacts struct {
	sh *shader
	fr *floatRanges
	// nz memoises nonZero (value facts only: they hold in every block);
	// busy breaks cycles through phis.
	nz   map[uint32]bool
	nnan map[uint32]bool
	busy map[uint32]bool
	fn   *spirv.Function
}

// newOperandFacts returns the facts of function f (beginFunction).
func newOperandFacts(sh *shader, f *spirv.Function) *operandFacts {
	fr := &floatRanges{m: sh.m, glsl: glslImport(sh.m)}
	fr.index(f)
	return &operandFacts{sh: sh, fr: fr, nz: map[uint32]bool{}, nnan: map[uint32]bool{}, busy: map[uint32]bool{}, fn: f}
}

// safe returns the value bounds, asked about this function.
func (o *operandFacts) safe() *safeIndex {
	a := o.sh.an.safeIndex()
	if a.fn != o.fn {
		a.fn, a.cur = o.fn, a.funcs[o.fn]
	}
	return a
}

// intNonZero reports whether the integer (scalar or vector) id is non-zero
// in every lane where it is used in block b: by its value, or by a branch
// above b that compared it with 0.
func (o *operandFacts) intNonZero(b *spirv.Block, id uint32) bool {
	if o.nonZero(id, 0) {
		return true
	}
	return o.guardedNonZero(b, id)
}

// nonZero is the value part of intNonZero.
func (o *operandFacts) nonZero(id uint32, depth int) bool {
	if v, ok := o.nz[id]; ok {
		return v
	}
	if o.busy[id] || depth > maxBoundDepth {
		return false
	}
	o.busy[id] = true
	v := o.computeNonZero(id, depth+1)
	delete(o.busy, id)
	o.nz[id] = v
	return v
}

func (o *operandFacts) computeNonZero(id uint32, depth int) bool {
	m := o.sh.m
	d := m.Def(id)
	if d == nil || len(d.Words) < 3 {
		return false
	}
	a := o.safe()
	w := d.Words
	all := func(ids []uint32) bool {
		for _, x := range ids {
			if !o.nonZero(x, depth) {
				return false
			}
		}
		return len(ids) > 0
	}
	any := func(ids ...uint32) bool {
		for _, x := range ids {
			if o.nonZero(x, depth) {
				return true
			}
		}
		return false
	}
	switch d.Opcode() {
	case spirv.OpConstant:
		v, ok := a.constValue(id)
		return ok && v != 0
	case spirv.OpConstantComposite, spirv.OpCompositeConstruct:
		return all(w[3:])
	case spirv.OpCopyObject:
		return o.nonZero(w[3], depth)
	case spirv.OpBitcast, spirv.OpUConvert, spirv.OpSConvert:
		// The same width, or a wider one: a non-zero value stays non-zero.
		return a.width(w[3]) != 0 && a.width(w[3]) <= a.typeWidth(w[1]) && o.nonZero(w[3], depth)
	case spirv.OpCompositeExtract:
		return len(w) == 5 && o.nonZero(w[3], depth)
	case spirv.OpVectorShuffle:
		return len(w) >= 5 && all(w[3:5])
	case spirv.OpBitwiseOr:
		return any(w[3], w[4])
	case spirv.OpSelect:
		return len(w) == 6 && all(w[4:6])
	case spirv.OpPhi:
		var vals []uint32
		for k := 3; k+1 < len(w); k += 2 {
			vals = append(vals, w[k])
		}
		return all(vals)
	case spirv.OpIAdd, spirv.OpIMul:
		// No wrap-around (the value bounds say so): a sum is at least its
		// non-zero operand, a product of non-zero operands is non-zero.
		x, xok := a.bound(w[3])
		y, yok := a.bound(w[4])
		top := maxOf(a.typeWidth(w[1]))
		if !xok || !yok {
			return false
		}
		if d.Opcode() == spirv.OpIAdd {
			return x <= top-y && any(w[3], w[4])
		}
		return (y == 0 || x <= top/y) && all(w[3:5])
	case spirv.OpExtInst:
		if len(w) < 6 || m.ExtInstSetName(w[3]) != "GLSL.std.450" {
			return false
		}
		ops := w[5:]
		switch w[4] {
		case glslUMax:
			return len(ops) == 2 && any(ops...)
		case glslSMax:
			return len(ops) == 2 && (o.positive(ops[0], depth) || o.positive(ops[1], depth))
		case glslUMin, glslSMin:
			return len(ops) == 2 && all(ops)
		case glslUClamp:
			// min(max(x, lo), hi): non-zero when lo and hi are.
			return len(ops) == 3 && all(ops[1:])
		case glslSClamp:
			return len(ops) == 3 && o.positive(ops[1], depth) && o.nonZero(ops[2], depth)
		}
	}
	return false
}

// positive reports whether the signed integer id is greater than 0 in
// every lane.
func (o *operandFacts) positive(id uint32, depth int) bool {
	a := o.safe()
	w := a.width(id)
	if w == 0 {
		return false
	}
	if hi, ok := a.bound(id); ok && hi <= signedMax(w) && o.nonZero(id, depth) {
		return true
	}
	d := o.sh.m.Def(id)
	if d == nil {
		return false
	}
	switch d.Opcode() {
	case spirv.OpConstantComposite, spirv.OpCompositeConstruct:
		for _, x := range d.Words[3:] {
			if !o.positive(x, depth+1) {
				return false
			}
		}
		return len(d.Words) > 3
	case spirv.OpExtInst:
		if len(d.Words) < 7 || o.sh.m.ExtInstSetName(d.Words[3]) != "GLSL.std.450" {
			return false
		}
		ops := d.Words[5:]
		switch d.Words[4] {
		case glslSMax:
			return o.positive(ops[0], depth+1) || o.positive(ops[1], depth+1)
		case glslSClamp:
			return len(ops) == 3 && o.positive(ops[1], depth+1) && o.positive(ops[2], depth+1)
		case glslSMin:
			return o.positive(ops[0], depth+1) && o.positive(ops[1], depth+1)
		}
	}
	return false
}

// notAllOnes reports whether the integer id is never -1 (all ones) in any
// lane: its bit pattern is bounded below the type's maximum.
func (o *operandFacts) notAllOnes(id uint32) bool {
	a := o.safe()
	w := a.width(id)
	hi, ok := a.bound(id)
	return w != 0 && ok && hi < maxOf(w)
}

// notSignedMin reports whether the integer id is never the minimum signed
// value: its bit pattern is bounded at or below the signed maximum.
func (o *operandFacts) notSignedMin(id uint32) bool {
	a := o.safe()
	w := a.width(id)
	hi, ok := a.bound(id)
	return w != 0 && ok && hi <= signedMax(w)
}

// guardedNonZero reports whether a branch above block b compared the
// scalar id with a constant so that it is non-zero in b: id != 0 taken,
// id == 0 not taken, id > C (unsigned, or signed with C >= 0) taken,
// C < id taken, id >= C with C > 0 taken (safe_index.go's guard, for the
// lower bound). With positive, only signed comparisons that make id > 0
// as a signed value count (so id is not -1 either).
func (o *operandFacts) guardedNonZero(b *spirv.Block, id uint32) bool {
	return o.guarded(b, id, false)
}

// guardedPositive is guardedNonZero for id > 0 as a signed value.
func (o *operandFacts) guardedPositive(b *spirv.Block, id uint32) bool {
	return o.guarded(b, id, true)
}

func (o *operandFacts) guarded(b *spirv.Block, id uint32, positive bool) bool {
	a := o.safe()
	if a.width(id) == 0 || o.sh.m.Def(id) == nil {
		return false
	}
	f := a.facts()
	if f == nil {
		return false
	}
	blk := f.blockOf(b)
	for t, n := blk, 0; t >= 0 && n <= len(f.blocks); t, n = f.idom[t], n+1 {
		if len(f.preds[t]) == 1 {
			h := f.preds[t][0]
			if br := f.blocks[h]; br.cmp != nil && br.trueT != br.falseT {
				same := func(x uint32) bool { return x == id || a.sameLoad(x, id, h, t) }
				nz, pos := o.edgeNonZero(br.cmp, same, t == br.trueT)
				if pos || nz && !positive {
					return true
				}
			}
		}
		if f.idom[t] == t {
			break
		}
	}
	return false
}

// edgeNonZero reads a comparison on the edge taken (taken) or not: the
// value is non-zero there, and positive as a signed value.
func (o *operandFacts) edgeNonZero(cmp *spirv.Instruction, same func(uint32) bool, taken bool) (nonZero, positive bool) {
	if len(cmp.Words) != 5 {
		return false, false
	}
	a := o.safe()
	l, r := cmp.Words[3], cmp.Words[4]
	isConst := func(id uint32, test func(v uint64, w uint32) bool) bool {
		v, ok := a.constValue(id)
		return ok && test(v, a.width(id))
	}
	zero := func(v uint64, _ uint32) bool { return v == 0 }
	anyC := func(uint64, uint32) bool { return true }
	nonNeg := func(v uint64, w uint32) bool { return v <= signedMax(w) }
	pos := func(v uint64, w uint32) bool { return v > 0 && v <= signedMax(w) }
	switch cmp.Opcode() {
	case spirv.OpINotEqual:
		return taken && (same(l) && isConst(r, zero) || same(r) && isConst(l, zero)), false
	case spirv.OpIEqual:
		return !taken && (same(l) && isConst(r, zero) || same(r) && isConst(l, zero)), false
	case spirv.OpUGreaterThan:
		return taken && same(l) && isConst(r, anyC), false
	case spirv.OpULessThan:
		return taken && same(r) && isConst(l, anyC), false
	case spirv.OpUGreaterThanEqual:
		return taken && same(l) && isConst(r, func(v uint64, _ uint32) bool { return v > 0 }), false
	case spirv.OpULessThanEqual:
		return !taken && same(l) && isConst(r, zero), false // !(x <= 0): x > 0
	case spirv.OpSGreaterThan:
		p := taken && same(l) && isConst(r, nonNeg)
		return p, p
	case spirv.OpSLessThan:
		p := taken && same(r) && isConst(l, nonNeg)
		return p, p
	case spirv.OpSGreaterThanEqual:
		p := taken && same(l) && isConst(r, pos)
		return p, p
	}
	return false, false
}

// floatNonZero reports whether the float id's interval (every lane)
// excludes 0.
func (o *operandFacts) floatNonZero(id uint32) bool {
	r, ok := o.fr.rangeOf(id)
	return ok && (r.lo > 0 || r.hi < 0)
}

// floatAtLeast reports whether the float id is provably > 0 (strict) or
// >= 0 in every lane, where it is not NaN (a NaN lane compares false with
// anything, which the checks that ask this treat as valid): by its
// interval, or by its shape (abs, sqrt, exp, x * x, max(x, 0.0),
// clamp(x, 0.0, 1.0), a sum of such values...).
func (o *operandFacts) floatAtLeast(id uint32, strict bool) bool {
	return o.floatSign(id, strict, 0)
}

func (o *operandFacts) floatSign(id uint32, strict bool, depth int) bool {
	if r, ok := o.fr.rangeOf(id); ok {
		if strict && r.lo > 0 || !strict && r.lo >= 0 {
			return true
		}
	}
	d := o.sh.m.Def(id)
	if d == nil || depth > 16 || len(d.Words) < 4 {
		return false
	}
	w := d.Words
	sign := func(x uint32, strict bool) bool { return o.floatSign(x, strict, depth+1) }
	switch d.Opcode() {
	case spirv.OpLoad:
		v, ok := o.storedValue(d)
		return ok && sign(v, strict)
	case spirv.OpCopyObject:
		return sign(w[3], strict)
	case spirv.OpCompositeExtract:
		return sign(w[3], strict)
	case spirv.OpCompositeConstruct:
		for _, x := range w[3:] {
			if !sign(x, strict) {
				return false
			}
		}
		return true
	case spirv.OpFMul:
		// x * x; a product of non-negative values (of positive ones, when
		// strict, may still round to 0: not proven).
		return !strict && len(w) == 5 && (w[3] == w[4] || o.sameLoads(w[3], w[4]) || sign(w[3], false) && sign(w[4], false))
	case spirv.OpFAdd:
		return len(w) == 5 && (sign(w[3], false) && sign(w[4], strict) || sign(w[3], strict) && sign(w[4], false))
	case spirv.OpExtInst:
		if len(w) < 6 || w[3] != o.fr.glsl || o.fr.glsl == 0 {
			return false
		}
		ops := w[5:]
		switch w[4] {
		case glslFAbs, glslSqrt, glslFract, glslExp, glslExp2, glslLength:
			return !strict
		case glslFMax, glslNMax:
			return len(ops) == 2 && (sign(ops[0], strict) || sign(ops[1], strict))
		case glslFClamp, glslNClamp:
			return len(ops) == 3 && sign(ops[1], strict)
		}
	}
	return false
}

// storedValue returns the value a load of a Function variable reads: the
// last whole store into the same variable (or the same constant-index part
// of it) earlier in the load's block, as float_index.go's load finds it;
// false when anything may write the variable in between or there is no
// such store.
func (o *operandFacts) storedValue(ld *spirv.Instruction) (uint32, bool) {
	fr := o.fr
	if len(ld.Words) < 4 {
		return 0, false
	}
	v, path, ok := fr.variable(ld.Words[3])
	if !ok || fr.escapes(v) {
		return 0, false
	}
	b, ok := fr.blockOf(ld.ResultID())
	if !ok {
		return 0, false
	}
	at := indexOf(b.Insts, ld)
	for i := at - 1; i >= 0; i-- {
		in := b.Insts[i]
		if in.Opcode() != spirv.OpStore || len(in.Words) < 3 {
			continue
		}
		sv, spath, ok := fr.variable(in.Words[1])
		if !ok || sv != v {
			continue
		}
		if slices.Equal(spath, path) {
			return in.Words[2], true
		}
		return 0, false // a store into another part, or the whole: not one value
	}
	return 0, false
}

// sameLoads reports whether x and y are loads of the same memory (one
// pointer, or two access chains of the same base and indices) in one block
// with nothing between them that may write memory: x * x as glslang
// writes it for an expression read twice.
func (o *operandFacts) sameLoads(x, y uint32) bool {
	m := o.sh.m
	lx, ly := m.Def(x), m.Def(y)
	if lx == nil || ly == nil || lx.Opcode() != spirv.OpLoad || ly.Opcode() != spirv.OpLoad || len(lx.Words) != 4 || len(ly.Words) != 4 {
		return false
	}
	if px, py := lx.Words[3], ly.Words[3]; px != py {
		cx, cy := m.Def(px), m.Def(py)
		if cx == nil || cy == nil || cx.Opcode() != spirv.OpAccessChain || cy.Opcode() != spirv.OpAccessChain ||
			len(cx.Words) != len(cy.Words) || cx.Words[1] != cy.Words[1] {
			return false
		}
		for k := 3; k < len(cx.Words); k++ {
			if cx.Words[k] != cy.Words[k] {
				return false
			}
		}
	}
	b, ok := o.fr.blockOf(x)
	if !ok {
		return false
	}
	i, j := indexOf(b.Insts, lx), indexOf(b.Insts, ly)
	if i < 0 || j < 0 {
		return false
	}
	for _, in := range b.Insts[min(i, j)+1 : max(i, j)] {
		switch in.Opcode() {
		case spirv.OpStore, spirv.OpFunctionCall, spirv.OpCopyMemory, spirv.OpControlBarrier, spirv.OpMemoryBarrier:
			return false
		}
		if in.Opcode() >= spirv.OpAtomicLoad && in.Opcode() <= spirv.OpAtomicXor {
			return false
		}
	}
	return true
}

// notNaN reports whether the float id is never NaN in any lane: a
// constant that is not NaN, an integer converted to float, and what
// copies, negations, absolute values, roundings, mins, maxes and selects
// make of such values.
func (o *operandFacts) notNaN(id uint32, depth int) bool {
	if v, ok := o.nnan[id]; ok {
		return v
	}
	if o.busy[id] || depth > maxBoundDepth {
		return false
	}
	o.busy[id] = true
	v := o.computeNotNaN(id, depth+1)
	delete(o.busy, id)
	o.nnan[id] = v
	return v
}

func (o *operandFacts) computeNotNaN(id uint32, depth int) bool {
	m := o.sh.m
	d := m.Def(id)
	if d == nil || len(d.Words) < 3 {
		return false
	}
	w := d.Words
	all := func(ids []uint32) bool {
		for _, x := range ids {
			if !o.notNaN(x, depth) {
				return false
			}
		}
		return len(ids) > 0
	}
	switch d.Opcode() {
	case spirv.OpConstant:
		t := m.Def(w[1])
		if t == nil || t.Opcode() != spirv.OpTypeFloat || len(w) < 4 {
			return false
		}
		switch t.Words[2] {
		case 16:
			return w[3]&0x7c00 != 0x7c00 || w[3]&0x3ff == 0
		case 32:
			return !math.IsNaN(float64(math.Float32frombits(w[3])))
		case 64:
			return len(w) == 5 && !math.IsNaN(math.Float64frombits(uint64(w[3])|uint64(w[4])<<32))
		}
	case spirv.OpConstantNull, spirv.OpConvertSToF, spirv.OpConvertUToF:
		return true
	case spirv.OpConstantComposite, spirv.OpCompositeConstruct:
		return all(w[3:])
	case spirv.OpCopyObject, spirv.OpFNegate, spirv.OpFConvert:
		return all(w[3:4])
	case spirv.OpCompositeExtract:
		return len(w) == 5 && o.notNaN(w[3], depth)
	case spirv.OpVectorShuffle:
		return len(w) >= 5 && all(w[3:5])
	case spirv.OpSelect:
		return len(w) == 6 && all(w[4:6])
	case spirv.OpPhi:
		var vals []uint32
		for k := 3; k+1 < len(w); k += 2 {
			vals = append(vals, w[k])
		}
		return all(vals)
	case spirv.OpExtInst:
		if len(w) < 6 || m.ExtInstSetName(w[3]) != "GLSL.std.450" {
			return false
		}
		switch w[4] {
		case glslFAbs, glslFloor, glslCeil, glslTrunc, glslRound, glslRoundEven, glslFMin, glslFMax, glslFClamp,
			glslNMin, glslNMax, glslNClamp:
			return all(w[5:])
		}
	}
	return false
}
