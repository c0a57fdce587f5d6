package gpuav

import (
	"math"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// GLSL.std.450 instructions the range analysis understands.
const (
	glslUMin   = 38
	glslSMin   = 39
	glslUMax   = 41
	glslSMax   = 42
	glslUClamp = 44
	glslSClamp = 45
)

// maxBoundDepth limits how deep the analysis follows operands; a value
// further away is taken as unbounded.
const maxBoundDepth = 64

// safeIndex proves that an index value can never reach a sized array's
// length, so the access it indexes needs no check. It computes, for an
// integer SSA id, an upper bound of the value's bit pattern read as an
// unsigned number of the type's width: x & 3u is at most 3, min(x, 3u) at
// most 3, a load of a function variable whose every store is bounded at
// most the largest store. A bound that is at most the largest signed value
// also proves a signed value non-negative. Where it cannot prove a bound
// the answer is "unbounded" and the access keeps its check: the analysis
// never guesses. Specialization constants are not constants: a pipeline
// may give them any value, so OpSpecConstant is unbounded (but
// OpSpecConstantOp of a bounded operation, like K & 3u, is bounded).
//
// Besides value bounds, a site inside the true branch of i < C (a loop
// body, for instance) knows i ≤ C−1; and a loop counter i = phi(start,
// i + step) whose increment runs only where i < C is bounded by
// max(start, C−1+step). These need the function's control-flow graph,
// built the first time an access of the function needs it. The pass may
// have guarded earlier accesses of the function by then: the guarded
// function is a valid program computing the same values, so what the
// graph proves still holds, and a block split off since is found by the
// original terminator it keeps.
type safeIndex struct {
	m     *spirv.Module
	memo  map[uint32]valueBound
	busy  map[uint32]bool
	depth int
	sets  map[uint32]string // ext-inst-import id → set name
	funcs map[*spirv.Function]*funcFacts
	fn    *spirv.Function // the function being asked about
	cur   *funcFacts      // its facts, once needed (see facts)
	// action_bound.go: affine forms in the action's parameters, and the
	// module's grid builtins (found once).
	affMemo  map[uint32]affineResult
	layout   *layoutSizes // push-constant offsets, made on first need
	gridInfo gridInfo
	gridDone bool
}

// valueBound is a memoised answer: ok says a bound is known.
type valueBound struct {
	hi uint64
	ok bool
}

func newSafeIndex(m *spirv.Module) *safeIndex {
	return &safeIndex{m: m, memo: map[uint32]valueBound{}, busy: map[uint32]bool{},
		sets: map[uint32]string{}, funcs: map[*spirv.Function]*funcFacts{}}
}

// inBounds reports whether the 32-bit (or narrower) integer index, used by
// an access in block b of function f, is provably below length.
func (a *safeIndex) inBounds(f *spirv.Function, b *spirv.Block, index, length uint32) bool {
	if a == nil || length == 0 || f == nil || b == nil {
		return false
	}
	a.fn, a.cur = f, a.funcs[f]
	if hi, ok := a.bound(index); ok && hi < uint64(length) {
		return true
	}
	limit, ok := a.upperBound(f, b, index)
	return ok && limit < uint64(length)
}

// inLoop reports whether block b of function f is inside a structured
// loop: dominated by a loop header and not by that loop's merge block.
func (a *safeIndex) inLoop(f *spirv.Function, b *spirv.Block) bool {
	if a == nil || f == nil || b == nil {
		return false
	}
	a.fn, a.cur = f, a.funcs[f]
	ff := a.facts()
	blk := ff.blockOf(b)
	if blk < 0 {
		return false
	}
	for _, l := range ff.loops {
		if ff.dominates(l[0], blk) && (l[1] < 0 || !ff.dominates(l[1], blk)) {
			return true
		}
	}
	return false
}

// upperBound returns an upper bound of the 32-bit (or narrower) integer
// id's value where it is used in block b of function f: its value's bound,
// tightened by the comparisons guarding b. ok is false when neither bounds
// it.
func (a *safeIndex) upperBound(f *spirv.Function, b *spirv.Block, id uint32) (uint64, bool) {
	if a == nil || f == nil || b == nil {
		return 0, false
	}
	a.fn, a.cur = f, a.funcs[f]
	limit := uint64(math.MaxUint64)
	hi, ok := a.bound(id)
	if ok {
		limit = hi
	}
	blk := a.facts().blockOf(b)
	if w := a.width(id); blk >= 0 && w != 0 {
		g := a.guard(id, blk)
		if g.uok {
			limit = min(limit, g.u)
		}
		// A signed comparison bounds the value only when it is non-negative.
		if g.sok && ok && hi <= signedMax(w) {
			limit = min(limit, g.s)
		}
	}
	return limit, limit != math.MaxUint64
}

// bound returns an upper bound of id's value (its bit pattern as an
// unsigned number) and whether one is known.
func (a *safeIndex) bound(id uint32) (uint64, bool) {
	if v, ok := a.memo[id]; ok {
		return v.hi, v.ok
	}
	if a.busy[id] || a.depth >= maxBoundDepth {
		return 0, false // a cycle (a loop's back edge) or too far: unbounded
	}
	a.busy[id] = true
	a.depth++
	hi, ok := a.compute(id)
	a.depth--
	delete(a.busy, id)
	a.memo[id] = valueBound{hi, ok}
	return hi, ok
}

func (a *safeIndex) compute(id uint32) (uint64, bool) {
	d := a.m.Def(id)
	if d == nil {
		return 0, false
	}
	w := a.typeWidth(d.ResultType())
	if w == 0 {
		return 0, false
	}
	top := maxOf(w)
	switch op := d.Opcode(); op {
	case spirv.OpConstant:
		return a.constValue(id)
	case spirv.OpConstantNull:
		return 0, true
	case spirv.OpConstantComposite, spirv.OpCompositeConstruct:
		if len(d.Words) < 4 {
			return 0, false
		}
		return a.maxBound(d.Words[3:])
	case spirv.OpSpecConstantOp:
		if len(d.Words) < 4 {
			return 0, false
		}
		return a.operation(spirv.Opcode(d.Words[3]), w, d.Words[4:])
	case spirv.OpExtInst:
		return a.extInst(d, w)
	case spirv.OpPhi:
		return a.phi(d, w)
	case spirv.OpLoad:
		return a.load(d)
	default:
		// OpSpecConstant, OpSpecConstantTrue..., OpUndef, loads of
		// anything else, arithmetic not listed: unbounded.
		if len(d.Words) < 3 {
			return 0, false
		}
		hi, ok := a.operation(op, w, d.Words[3:])
		return min(hi, top), ok
	}
}

// operation bounds the result of an arithmetic or logical instruction of
// result width w from its operand ids (also used for OpSpecConstantOp).
func (a *safeIndex) operation(op spirv.Opcode, w uint32, ops []uint32) (uint64, bool) {
	o := operands{a: a, ops: ops, w: w}
	switch op {
	case spirv.OpCopyObject:
		return o.arg(0)
	case spirv.OpBitwiseAnd, spirv.OpBitwiseOr, spirv.OpBitwiseXor:
		return o.bitwise(op)
	case spirv.OpUMod, spirv.OpUDiv, spirv.OpSMod, spirv.OpSRem, spirv.OpSDiv:
		return o.division(op)
	case spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic, spirv.OpShiftLeftLogical:
		return o.shift(op)
	case spirv.OpIAdd, spirv.OpIMul, spirv.OpSelect:
		return o.arithmetic(op)
	case spirv.OpUConvert, spirv.OpSConvert, spirv.OpBitcast, spirv.OpCompositeExtract, spirv.OpVectorShuffle:
		return o.conversion(op)
	}
	return 0, false
}

// operands are an operation's operand ids and result width, for the
// bounds of each kind of operation.
type operands struct {
	a   *safeIndex
	ops []uint32
	w   uint32
}

// arg bounds operand i.
func (o operands) arg(i int) (uint64, bool) {
	if i >= len(o.ops) {
		return 0, false
	}
	return o.a.bound(o.ops[i])
}

// konst returns operand i's value when it is a constant.
func (o operands) konst(i int) (uint64, bool) {
	if i >= len(o.ops) {
		return 0, false
	}
	return o.a.constValue(o.ops[i])
}

// bitwise bounds And, Or and Xor. (Operands are bounded only where
// needed, in this order: a bound is memoised, with its depth limit.)
func (o operands) bitwise(op spirv.Opcode) (uint64, bool) {
	if op != spirv.OpBitwiseAnd {
		x, xok := o.arg(0)
		y, yok := o.arg(1)
		if xok && yok {
			return allOnes(max(x, y)), true
		}
		return 0, false
	}
	// x & y is at most either operand; a constant mask (the common
	// x & 3u) answers without looking at x.
	if c, ok := o.konst(1); ok {
		return c, true
	}
	if c, ok := o.konst(0); ok {
		return c, true
	}
	x, xok := o.arg(0)
	y, yok := o.arg(1)
	return atMostBoth(x, xok, y, yok)
}

// atMostBoth bounds a value that is at most both x and y (x & y, min(x,
// y)) by the smaller of the bounds known.
func atMostBoth(x uint64, xok bool, y uint64, yok bool) (uint64, bool) {
	switch {
	case xok && yok:
		return min(x, y), true
	case xok:
		return x, true
	case yok:
		return y, true
	}
	return 0, false
}

// division bounds UMod, UDiv and the signed SMod, SRem and SDiv.
func (o operands) division(op spirv.Opcode) (uint64, bool) {
	switch op {
	case spirv.OpUMod:
		if c, ok := o.konst(1); ok && c > 0 {
			if x, ok := o.arg(0); ok {
				return min(x, c-1), true
			}
			return c - 1, true
		}
	case spirv.OpUDiv:
		if c, ok := o.konst(1); ok && c > 0 {
			if x, ok := o.arg(0); ok {
				return x / c, true
			}
			return maxOf(o.w) / c, true
		}
	case spirv.OpSMod, spirv.OpSRem:
		// Only a non-negative dividend and a positive divisor give a
		// result in [0, c): the sign rules differ for negative operands
		// and GLSL leaves them undefined.
		c, cok := o.konst(1)
		x, xok := o.arg(0)
		if cok && c > 0 && c <= signedMax(o.w) && xok && x <= signedMax(o.w) {
			return min(x, c-1), true
		}
	case spirv.OpSDiv:
		c, cok := o.konst(1)
		x, xok := o.arg(0)
		if cok && c > 0 && c <= signedMax(o.w) && xok && x <= signedMax(o.w) {
			return x / c, true
		}
	}
	return 0, false
}

// shift bounds the shifts by a constant (a shift by the width or more is
// undefined, so only constant shifts are bounded).
func (o operands) shift(op spirv.Opcode) (uint64, bool) {
	top := maxOf(o.w)
	switch op {
	case spirv.OpShiftRightLogical:
		if s, ok := o.konst(1); ok && s < uint64(o.w) {
			if x, ok := o.arg(0); ok {
				return x >> s, true
			}
			return top >> s, true
		}
	case spirv.OpShiftRightArithmetic:
		s, sok := o.konst(1)
		x, xok := o.arg(0)
		if sok && s < uint64(o.w) && xok && x <= signedMax(o.w) {
			return x >> s, true
		}
	case spirv.OpShiftLeftLogical:
		s, sok := o.konst(1)
		x, xok := o.arg(0)
		if sok && s < uint64(o.w) && xok && x <= top>>s {
			return x << s, true
		}
	}
	return 0, false
}

// arithmetic bounds IAdd and IMul (where they cannot wrap around) and
// Select.
func (o operands) arithmetic(op spirv.Opcode) (uint64, bool) {
	top := maxOf(o.w)
	switch op {
	case spirv.OpIAdd:
		x, xok := o.arg(0)
		y, yok := o.arg(1)
		if xok && yok && x <= top-y {
			return x + y, true // no wrap-around
		}
	case spirv.OpIMul:
		x, xok := o.arg(0)
		y, yok := o.arg(1)
		if xok && yok && (y == 0 || x <= top/y) {
			return x * y, true
		}
	case spirv.OpSelect:
		x, xok := o.arg(1)
		y, yok := o.arg(2)
		if xok && yok {
			return max(x, y), true
		}
	}
	return 0, false
}

// conversion bounds width conversions, bit casts and vector components.
func (o operands) conversion(op spirv.Opcode) (uint64, bool) {
	a, top := o.a, maxOf(o.w)
	if len(o.ops) < 1 {
		return 0, false
	}
	switch op {
	case spirv.OpUConvert:
		// Widening keeps the value; narrowing keeps the low bits, which
		// are at most the value and at most the new maximum.
		if x, ok := o.arg(0); ok {
			return min(x, top), true
		}
		if sw := a.width(o.ops[0]); sw > 0 {
			return min(maxOf(sw), top), true
		}
	case spirv.OpSConvert:
		// Sign extension keeps a non-negative value; narrowing keeps one
		// that fits the new signed range.
		sw := a.width(o.ops[0])
		x, ok := o.arg(0)
		if sw > 0 && ok && x <= signedMax(sw) && x <= signedMax(o.w) {
			return x, true
		}
	case spirv.OpBitcast:
		// Between integer types of one width the bits are the value.
		if a.width(o.ops[0]) == o.w {
			return o.arg(0)
		}
	case spirv.OpCompositeExtract:
		// A component of an integer vector is bounded by the vector.
		if a.width(o.ops[0]) == o.w {
			if d := a.m.Def(a.m.Def(o.ops[0]).ResultType()); d != nil && d.Opcode() == spirv.OpTypeVector {
				return o.arg(0)
			}
		}
	case spirv.OpVectorShuffle:
		if len(o.ops) >= 2 {
			return a.maxBound(o.ops[:2])
		}
	}
	return 0, false
}

// extInst bounds GLSL.std.450 min, max and clamp on integers.
func (a *safeIndex) extInst(d *spirv.Instruction, w uint32) (uint64, bool) {
	if len(d.Words) < 5 {
		return 0, false
	}
	set, ok := a.sets[d.Words[3]]
	if !ok {
		set = a.m.ExtInstSetName(d.Words[3])
		a.sets[d.Words[3]] = set
	}
	if set != "GLSL.std.450" {
		return 0, false
	}
	ops := d.Words[5:]
	arg := func(i int) (uint64, bool) {
		if i >= len(ops) {
			return 0, false
		}
		return a.bound(ops[i])
	}
	nonNeg := func(i int) (uint64, bool) {
		x, ok := arg(i)
		return x, ok && x <= signedMax(w)
	}
	switch d.Words[4] {
	case glslUMin:
		for i := 0; i < 2 && i < len(ops); i++ {
			if c, ok := a.constValue(ops[i]); ok {
				return c, true // min(x, 3u) ≤ 3 without looking at x
			}
		}
		x, xok := arg(0)
		y, yok := arg(1)
		return atMostBoth(x, xok, y, yok)
	case glslSMin, glslSMax:
		// A negative operand can win a signed min (or make a signed max
		// meaningless as a bound): both must be non-negative.
		x, xok := nonNeg(0)
		y, yok := nonNeg(1)
		if xok && yok {
			if d.Words[4] == glslSMin {
				return min(x, y), true
			}
			return max(x, y), true
		}
	case glslUMax:
		x, xok := arg(0)
		y, yok := arg(1)
		if xok && yok {
			return max(x, y), true
		}
	case glslUClamp, glslSClamp:
		// clamp is undefined when minVal > maxVal: the bounds must be
		// provably ordered (minVal 0, or both constants in order), and for
		// SClamp non-negative.
		if len(ops) < 3 {
			return 0, false
		}
		lo, lok := a.constValue(ops[1])
		if !lok {
			return 0, false
		}
		signed := d.Words[4] == glslSClamp
		if signed && lo > signedMax(w) {
			return 0, false
		}
		if hc, ok := a.constValue(ops[2]); ok && lo <= hc && (!signed || hc <= signedMax(w)) {
			return hc, true
		}
		if lo == 0 {
			if signed {
				return nonNeg(2)
			}
			return arg(2)
		}
	}
	return 0, false
}

// phi bounds a phi by its operands. An operand that is the phi itself
// plus a constant step (a loop counter's increment) is bounded by the
// branch that guards the increment: where i < C holds, i + step ≤ C−1+step.
// A signed guard bounds i only if i is non-negative, which holds by
// induction when every operand is (checked on the final bound).
func (a *safeIndex) phi(d *spirv.Instruction, w uint32) (uint64, bool) {
	if len(d.Words) < 5 || (len(d.Words)-3)%2 != 0 {
		return 0, false
	}
	phiID := d.Words[2]
	top := maxOf(w)
	var hi uint64
	usedSigned := false
	for k := 3; k+1 < len(d.Words); k += 2 {
		v := d.Words[k]
		if x, ok := a.bound(v); ok {
			hi = max(hi, x)
			continue
		}
		step, ok := a.increment(v, phiID)
		if !ok || a.facts() == nil {
			return 0, false
		}
		limit, signed, ok := a.guardAt(phiID, v)
		if !ok {
			return 0, false
		}
		usedSigned = usedSigned || signed
		if limit > top-step {
			return 0, false
		}
		hi = max(hi, limit+step)
	}
	if usedSigned && hi > signedMax(w) {
		return 0, false
	}
	return hi, true
}

// guardAt is the tighter bound the guards put on x in the block of
// instruction at: the unsigned one, or the signed one when it is lower or
// alone (signed then says it holds only for a non-negative x).
func (a *safeIndex) guardAt(x, at uint32) (limit uint64, signed, ok bool) {
	p, ok := a.cur.pos.of(at)
	if !ok {
		return 0, false, false
	}
	g := a.guard(x, p.blk)
	switch {
	case g.uok && g.sok && g.s < g.u:
		return g.s, true, true
	case g.uok:
		return g.u, false, true
	case g.sok:
		return g.s, true, true
	}
	return 0, false, false
}

// increment reports whether v is OpIAdd of phi and a constant, and the
// constant.
func (a *safeIndex) increment(v, phi uint32) (uint64, bool) {
	d := a.m.Def(v)
	if d == nil || d.Opcode() != spirv.OpIAdd || len(d.Words) != 5 {
		return 0, false
	}
	switch {
	case d.Words[3] == phi:
		return a.constValue(d.Words[4])
	case d.Words[4] == phi:
		return a.constValue(d.Words[3])
	}
	return 0, false
}

// load bounds a load of a function-scope integer variable that is only
// loaded and stored (never passed, indexed or aliased) by the variable's
// bound (varBound). Without an initializer, a store must come before the
// load on every path (see storedBefore); otherwise the load may read an
// undefined value.
func (a *safeIndex) load(d *spirv.Instruction) (uint64, bool) {
	if len(d.Words) < 4 || a.facts() == nil {
		return 0, false
	}
	v := a.cur.vars[d.Words[3]]
	if v == nil || v.escaped || !a.initialized(v, d.Words[2]) {
		return 0, false
	}
	return a.varBound(d.Words[3], v)
}

// initialized reports whether variable v holds a stored value when load
// runs.
func (a *safeIndex) initialized(v *varFacts, load uint32) bool {
	if v.init != 0 {
		return true
	}
	p, ok := a.cur.pos.of(load)
	return ok && a.cur.storedBefore(v, p)
}

// varBound is the largest of the variable's initializer and every value
// stored into it. A stored value that is a load of the variable itself
// plus a constant step (i++ in unoptimized code, where the counter lives
// in a variable) is bounded like a phi's increment: by the branch that
// guards the load, i < C giving i + step ≤ C−1+step; a signed guard counts
// by induction when the final bound is non-negative.
func (a *safeIndex) varBound(id uint32, v *varFacts) (uint64, bool) {
	switch v.state {
	case varBusy:
		return 0, false
	case varDone:
		return v.hi, v.ok
	}
	v.state = varBusy
	hi, ok := a.computeVarBound(id, v)
	v.state, v.hi, v.ok = varDone, hi, ok
	return hi, ok
}

func (a *safeIndex) computeVarBound(id uint32, v *varFacts) (uint64, bool) {
	vals := make([]uint32, 0, len(v.stores)+1)
	if v.init != 0 {
		vals = append(vals, v.init)
	}
	for _, s := range v.stores {
		vals = append(vals, s.value)
	}
	if len(vals) == 0 {
		return 0, false
	}
	var hi uint64
	usedSigned := false
	for _, val := range vals {
		if x, ok := a.bound(val); ok {
			hi = max(hi, x)
			continue
		}
		// val = load of this variable + step?
		d := a.m.Def(val)
		if d == nil || d.Opcode() != spirv.OpIAdd || len(d.Words) != 5 {
			return 0, false
		}
		w := a.typeWidth(d.ResultType())
		var l uint32
		var step uint64
		if c, ok := a.constValue(d.Words[4]); ok {
			l, step = d.Words[3], c
		} else if c, ok := a.constValue(d.Words[3]); ok {
			l, step = d.Words[4], c
		} else {
			return 0, false
		}
		ld := a.m.Def(l)
		if w == 0 || ld == nil || ld.Opcode() != spirv.OpLoad || len(ld.Words) < 4 || ld.Words[3] != id || !a.initialized(v, l) {
			return 0, false
		}
		limit, signed, ok := a.guardAt(l, l)
		if !ok {
			return 0, false
		}
		usedSigned = usedSigned || signed
		if limit > maxOf(w)-step {
			return 0, false
		}
		hi = max(hi, limit+step)
	}
	if usedSigned {
		// The variable's type: OpVariable → pointer type → pointee.
		w := uint32(0)
		if vd := a.m.Def(id); vd != nil {
			if pt := a.m.Def(vd.ResultType()); pt != nil && len(pt.Words) > 3 {
				w = a.typeWidth(pt.Words[3])
			}
		}
		if w == 0 || hi > signedMax(w) {
			return 0, false
		}
	}
	return hi, true
}

// maxBound is the largest bound of ids, when all are bounded.
func (a *safeIndex) maxBound(ids []uint32) (uint64, bool) {
	if len(ids) == 0 {
		return 0, false
	}
	var hi uint64
	for _, id := range ids {
		x, ok := a.bound(id)
		if !ok {
			return 0, false
		}
		hi = max(hi, x)
	}
	return hi, true
}

// constValue returns the value of an integer OpConstant as an unsigned
// number of its width (a narrow signed literal is sign-extended in the
// word; the mask undoes that).
func (a *safeIndex) constValue(id uint32) (uint64, bool) {
	d := a.m.Def(id)
	if d == nil || d.Opcode() != spirv.OpConstant || len(d.Words) < 4 {
		return 0, false
	}
	w := a.typeWidth(d.ResultType())
	t := a.m.Def(d.ResultType())
	if w == 0 || t.Opcode() != spirv.OpTypeInt {
		return 0, false
	}
	v := uint64(d.Words[3])
	if w > 32 {
		if len(d.Words) < 5 {
			return 0, false
		}
		v |= uint64(d.Words[4]) << 32
	}
	return v & maxOf(w), true
}

// width returns the integer width of id's type (of its components for a
// vector), or 0 when it is not an integer.
func (a *safeIndex) width(id uint32) uint32 {
	d := a.m.Def(id)
	if d == nil {
		return 0
	}
	return a.typeWidth(d.ResultType())
}

func (a *safeIndex) typeWidth(t uint32) uint32 {
	d := a.m.Def(t)
	if d != nil && d.Opcode() == spirv.OpTypeVector && len(d.Words) > 2 {
		d = a.m.Def(d.Words[2])
	}
	if d == nil || d.Opcode() != spirv.OpTypeInt || len(d.Words) < 4 || d.Words[2] == 0 || d.Words[2] > 64 {
		return 0
	}
	return d.Words[2]
}

func maxOf(w uint32) uint64 {
	if w >= 64 {
		return math.MaxUint64
	}
	return 1<<w - 1
}

func signedMax(w uint32) uint64 { return maxOf(w) >> 1 }

// allOnes returns the smallest 2^k − 1 that is at least x.
func allOnes(x uint64) uint64 {
	r := x
	for s := 1; s < 64; s <<= 1 {
		r |= r >> s
	}
	return r
}

// guardBounds are what the branches above a block say about a value:
// x ≤ u (unsigned comparisons) and x ≤ s (signed comparisons, valid for a
// non-negative x).
type guardBounds struct {
	u, s     uint64
	uok, sok bool
}

// guard walks up the dominator tree from block blk. Each block T on the
// way whose only predecessor H ends in a conditional branch on a
// comparison of x with a constant, computed in H, tells something on the
// edge H→T: every path to blk passes T, entered only from H, so the last
// time H ran before blk its comparison (of the same x: x's definition
// dominates H, and running it again means passing H again) took this edge.
func (a *safeIndex) guard(x uint32, blk int) guardBounds {
	var g guardBounds
	f := a.facts()
	if f == nil {
		return g
	}
	for t, n := blk, 0; t >= 0 && n <= len(f.blocks); t, n = f.idom[t], n+1 {
		if len(f.preds[t]) == 1 {
			h := f.preds[t][0]
			if br := f.blocks[h]; br.cmp != nil && br.trueT != br.falseT {
				same := func(id uint32) bool { return id == x || a.sameLoad(id, x, h, t) }
				if limit, signed, ok := a.edgeLimit(br.cmp, x, same, t == br.trueT); ok {
					if signed {
						g.s, g.sok = minIf(g.s, g.sok, limit), true
					} else {
						g.u, g.uok = minIf(g.u, g.uok, limit), true
					}
				}
			}
		}
		if f.idom[t] == t {
			break // the entry block
		}
	}
	return g
}

func minIf(cur uint64, ok bool, v uint64) uint64 {
	if ok {
		return min(cur, v)
	}
	return v
}

// edgeLimit reads a comparison of x (an operand for which same is true)
// with a constant C: on the edge taken when it is taken (taken == true) or
// not, x ≤ limit.
func (a *safeIndex) edgeLimit(cmp *spirv.Instruction, x uint32, same func(uint32) bool, taken bool) (limit uint64, signed bool, ok bool) {
	if len(cmp.Words) != 5 {
		return 0, false, false
	}
	l, r := cmp.Words[3], cmp.Words[4]
	w := a.width(x)
	if w == 0 {
		return 0, false, false
	}
	// Normalise to "x < C" (strict) or "x <= C" on this edge.
	var c uint32
	var strict bool
	switch cmp.Opcode() {
	case spirv.OpULessThan, spirv.OpSLessThan: // l < r
		if taken && same(l) {
			c, strict = r, true // x < r
		} else if !taken && same(r) {
			c, strict = l, false // x <= l
		} else {
			return 0, false, false
		}
	case spirv.OpULessThanEqual, spirv.OpSLessThanEqual: // l <= r
		if taken && same(l) {
			c, strict = r, false
		} else if !taken && same(r) {
			c, strict = l, true
		} else {
			return 0, false, false
		}
	case spirv.OpUGreaterThan, spirv.OpSGreaterThan: // l > r
		if taken && same(r) {
			c, strict = l, true
		} else if !taken && same(l) {
			c, strict = r, false
		} else {
			return 0, false, false
		}
	case spirv.OpUGreaterThanEqual, spirv.OpSGreaterThanEqual: // l >= r
		if taken && same(r) {
			c, strict = l, false
		} else if !taken && same(l) {
			c, strict = r, true
		} else {
			return 0, false, false
		}
	default:
		return 0, false, false
	}
	v, ok := a.constValue(c)
	if !ok || a.width(c) != w {
		return 0, false, false
	}
	switch cmp.Opcode() {
	case spirv.OpSLessThan, spirv.OpSLessThanEqual, spirv.OpSGreaterThan, spirv.OpSGreaterThanEqual:
		signed = true
		if v > signedMax(w) {
			return 0, false, false // a negative C: x is negative on this edge
		}
	}
	if strict {
		if v == 0 {
			return 0, false, false // never taken for an unsigned x; nothing to use
		}
		v--
	}
	return v, signed, true
}

// funcFacts is what the analysis knows about one function's control flow
// and its function-scope integer variables, taken when the function was
// first asked about.
type funcFacts struct {
	label  map[uint32]int             // block label → index
	term   map[*spirv.Instruction]int // block terminator → index
	blocks []blockFacts               // by index, in function order
	preds  [][]int                    // predecessors by index
	succs  [][]int                    // successors by index
	idom   []int                      // immediate dominator; entry: itself; unreachable: -1
	pos    positions                  // result id → where it is defined
	vars   map[uint32]*varFacts       // OpVariable Function of integer type
	loops  [][2]int                   // (header, merge) of each structured loop
}

type blockFacts struct {
	cmp           *spirv.Instruction // the branch's condition when computed in this block
	trueT, falseT int                // the conditional branch's targets, or -1
}

type instPos struct{ blk, i int }

// positions maps the result ids of one function's blocks to where they
// are defined: a slice over the range of the ids (a function's ids are
// mostly one run, and a map of every instruction was the analysis's
// largest allocation), or a map when they are spread too far.
type positions struct {
	lo   uint32
	at   []packedPos // by id - lo
	many map[uint32]instPos
}

// packedPos is an instPos with its block counted from 1 (0: no result).
type packedPos struct{ blk, i int32 }

// newPositions indexes the results of blocks.
func newPositions(blocks []*spirv.Block) positions {
	lo, hi, n := uint32(math.MaxUint32), uint32(0), 0
	for _, b := range blocks {
		for _, in := range b.Insts {
			if r := in.ResultID(); r != 0 {
				lo, hi, n = min(lo, r), max(hi, r), n+1
			}
		}
	}
	var p positions
	switch {
	case n == 0:
		return p
	case int(hi-lo) < 2*n+256 && len(blocks) < math.MaxInt32:
		p.lo, p.at = lo, make([]packedPos, hi-lo+1)
	default:
		p.many = make(map[uint32]instPos, n)
	}
	for i, b := range blocks {
		for j, in := range b.Insts {
			r := in.ResultID()
			switch {
			case r == 0:
			case p.many != nil:
				p.many[r] = instPos{i, j}
			default:
				p.at[r-lo] = packedPos{int32(i + 1), int32(j)}
			}
		}
	}
	return p
}

// of returns where id is defined, and whether it is a result of the
// function's blocks.
func (p *positions) of(id uint32) (instPos, bool) {
	if p.many != nil {
		x, ok := p.many[id]
		return x, ok
	}
	if id < p.lo || uint64(id-p.lo) >= uint64(len(p.at)) || p.at[id-p.lo].blk == 0 {
		return instPos{}, false
	}
	x := p.at[id-p.lo]
	return instPos{int(x.blk) - 1, int(x.i)}, true
}

type varFacts struct {
	init     uint32
	escaped  bool
	stores   []storeFacts
	storedIn []bool // by block: stored on every path to its start (computed on demand)
	state    int    // varBound: not yet, busy, done
	hi       uint64
	ok       bool
}

// varFacts.state values.
const (
	varNew = iota
	varBusy
	varDone
)

type storeFacts struct {
	at    instPos
	value uint32
}

// facts returns the facts of the function being asked about, computing
// them the first time an access of it needs them (most accesses are
// bounded by their value alone and never do).
func (a *safeIndex) facts() *funcFacts {
	if a.cur == nil && a.fn != nil {
		a.cur = a.buildFacts(a.fn)
		a.funcs[a.fn] = a.cur
	}
	return a.cur
}

// blockOf finds a block among the facts: by its label, or, for a block the
// pass has split off since (it keeps the original terminator), by its
// terminator.
func (f *funcFacts) blockOf(b *spirv.Block) int {
	if i, ok := f.label[b.ID()]; ok {
		return i
	}
	if n := len(b.Insts); n > 0 {
		if i, ok := f.term[b.Insts[n-1]]; ok {
			return i
		}
	}
	return -1
}

func (a *safeIndex) buildFacts(fn *spirv.Function) *funcFacts {
	m := a.m
	n := len(fn.Blocks)
	f := &funcFacts{label: make(map[uint32]int, n), term: make(map[*spirv.Instruction]int, n),
		blocks: make([]blockFacts, n), preds: make([][]int, n), idom: make([]int, n),
		vars: map[uint32]*varFacts{}}
	f.pos = newPositions(fn.Blocks)
	for i, b := range fn.Blocks {
		f.label[b.ID()] = i
		if k := len(b.Insts); k > 0 {
			f.term[b.Insts[k-1]] = i
		}
	}
	succs := make([][]int, n)
	for i, b := range fn.Blocks {
		f.blocks[i] = blockFacts{trueT: -1, falseT: -1}
		for _, in := range b.Insts {
			if in.Opcode() == spirv.OpVariable && len(in.Words) >= 4 && spirv.StorageClass(in.Words[3]) == spirv.StorageClassFunction {
				if ptr := m.Def(in.Words[1]); ptr != nil && ptr.Opcode() == spirv.OpTypePointer && len(ptr.Words) > 3 && a.typeWidth(ptr.Words[3]) > 0 &&
					m.Def(ptr.Words[3]).Opcode() == spirv.OpTypeInt {
					v := &varFacts{}
					if len(in.Words) > 4 {
						v.init = in.Words[4]
					}
					f.vars[in.Words[2]] = v
				}
			}
		}
		if len(b.Insts) == 0 {
			continue
		}
		t := b.Insts[len(b.Insts)-1]
		target := func(id uint32) int {
			if k, ok := f.label[id]; ok {
				return k
			}
			return -1
		}
		for _, in := range b.Insts {
			if in.Opcode() == spirv.OpLoopMerge && len(in.Words) > 1 {
				f.loops = append(f.loops, [2]int{i, target(in.Words[1])})
			}
		}
		switch t.Opcode() {
		case spirv.OpBranch:
			if len(t.Words) > 1 {
				succs[i] = appendTarget(succs[i], target(t.Words[1]))
			}
		case spirv.OpBranchConditional:
			if len(t.Words) > 3 {
				tt, ft := target(t.Words[2]), target(t.Words[3])
				succs[i] = appendTarget(appendTarget(succs[i], tt), ft)
				f.blocks[i].trueT, f.blocks[i].falseT = tt, ft
				// The condition, when this block computes it.
				for j := len(b.Insts) - 2; j >= 0; j-- {
					if b.Insts[j].ResultID() == t.Words[1] {
						f.blocks[i].cmp = b.Insts[j]
						break
					}
				}
			}
		case spirv.OpSwitch:
			// Every word that names a block of the function counts as a
			// target: extra edges only make the analysis more careful.
			for _, w := range t.Words[min(2, len(t.Words)):] {
				succs[i] = appendTarget(succs[i], target(w))
			}
		}
	}
	for i, ss := range succs {
		for _, s := range ss {
			if !containsInt(f.preds[s], i) {
				f.preds[s] = append(f.preds[s], i)
			}
		}
	}
	f.succs = succs
	f.dominators(succs)
	a.scanVars(fn, f)
	return f
}

func appendTarget(s []int, t int) []int {
	if t < 0 || containsInt(s, t) {
		return s
	}
	return append(s, t)
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// dominators computes immediate dominators (Cooper, Harvey and Kennedy's
// iterative algorithm over reverse postorder).
func (f *funcFacts) dominators(succs [][]int) {
	n := len(f.idom)
	for i := range f.idom {
		f.idom[i] = -1
	}
	if n == 0 {
		return
	}
	// Reverse postorder by an explicit-stack depth-first search.
	order := make([]int, 0, n)
	seen := make([]bool, n)
	type frame struct{ b, next int }
	stack := []frame{{0, 0}}
	seen[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(succs[top.b]) {
			s := succs[top.b][top.next]
			top.next++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		order = append(order, top.b)
		stack = stack[:len(stack)-1]
	}
	rpo := make([]int, n) // block → position in reverse postorder
	for i := range rpo {
		rpo[i] = -1
	}
	for i, b := range order {
		rpo[b] = len(order) - 1 - i
	}
	f.idom[0] = 0
	intersect := func(x, y int) int {
		for x != y {
			for rpo[x] > rpo[y] {
				x = f.idom[x]
			}
			for rpo[y] > rpo[x] {
				y = f.idom[y]
			}
		}
		return x
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			b := order[i]
			if b == 0 {
				continue
			}
			nd := -1
			for _, p := range f.preds[b] {
				if f.idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd >= 0 && f.idom[b] != nd {
				f.idom[b] = nd
				changed = true
			}
		}
	}
}

// sameLoad reports whether l0, compared in block h, and x are loads of
// one variable that x reads the same value as l0 did when h branched to t:
// l0 is in h, x in a block dominated by t (t's only predecessor is h), the
// variable holds a stored value at l0, and no store to it can run between
// them: none in h after l0, none in x's block before x, none in any block
// on a path from t to x's block that does not pass h again.
func (a *safeIndex) sameLoad(l0, x uint32, h, t int) bool {
	f := a.cur
	d0, dx := a.m.Def(l0), a.m.Def(x)
	if d0 == nil || dx == nil || d0.Opcode() != spirv.OpLoad || dx.Opcode() != spirv.OpLoad ||
		len(d0.Words) < 4 || len(dx.Words) < 4 || d0.Words[3] != dx.Words[3] {
		return false
	}
	v := f.vars[d0.Words[3]]
	p0, ok0 := f.pos.of(l0)
	px, okx := f.pos.of(x)
	if v == nil || v.escaped || !ok0 || !okx || p0.blk != h || px.blk == h || !f.dominates(t, px.blk) || !a.initialized(v, l0) {
		return false
	}
	for _, s := range v.stores {
		if (s.at.blk == h && s.at.i > p0.i) || (s.at.blk == px.blk && s.at.i < px.i) {
			return false
		}
	}
	// Blocks reachable from t without passing h, and blocks from which
	// x's block is reached (by at least one edge) without passing h.
	n := len(f.idom)
	from := make([]bool, n)
	to := make([]bool, n)
	stack := []int{t}
	from[t] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range f.succs[b] {
			if s != h && !from[s] {
				from[s] = true
				stack = append(stack, s)
			}
		}
	}
	for _, p := range f.preds[px.blk] {
		if p != h && !to[p] {
			to[p] = true
			stack = append(stack, p)
		}
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range f.preds[b] {
			if p != h && !to[p] {
				to[p] = true
				stack = append(stack, p)
			}
		}
	}
	for _, s := range v.stores {
		if from[s.at.blk] && to[s.at.blk] {
			return false
		}
	}
	return true
}

// dominates reports whether block x dominates block y.
func (f *funcFacts) dominates(x, y int) bool {
	for n := 0; y >= 0 && n <= len(f.idom); n++ {
		if y == x {
			return true
		}
		if f.idom[y] == y {
			return false
		}
		y = f.idom[y]
	}
	return false
}

// storedBefore reports whether a store to v runs before position p on
// every path to it: a store earlier in p's block, or one on every path to
// the block (a forward "must" data flow over the graph, from the greatest
// fixed point: in[b] = AND over predecessors of (in[p] or p stores)).
func (f *funcFacts) storedBefore(v *varFacts, p instPos) bool {
	for _, s := range v.stores {
		if s.at.blk == p.blk && s.at.i < p.i {
			return true
		}
	}
	if v.storedIn == nil {
		n := len(f.idom)
		stores := make([]bool, n)
		for _, s := range v.stores {
			stores[s.at.blk] = true
		}
		in := make([]bool, n)
		for i := 1; i < n; i++ {
			in[i] = true
		}
		for changed := true; changed; {
			changed = false
			for b := 1; b < n; b++ {
				all := true
				for _, q := range f.preds[b] {
					all = all && (in[q] || stores[q])
				}
				if in[b] && !all {
					in[b] = false
					changed = true
				}
			}
		}
		v.storedIn = in
	}
	return p.blk < len(v.storedIn) && v.storedIn[p.blk]
}

// scanVars records the stores to the function's integer variables and
// marks those used in any other way than as the pointer of OpLoad or
// OpStore (passed to a call, indexed, copied, used by an atomic...) as
// escaped. Non-semantic instructions (debug info) do not count.
func (a *safeIndex) scanVars(fn *spirv.Function, f *funcFacts) {
	if len(f.vars) == 0 {
		return
	}
	ids := make([]uint32, 0, len(f.vars))
	for id := range f.vars {
		ids = append(ids, id)
	}
	vars := newIDBits(ids) // asked of every id word: bits before the map
	for bi, b := range fn.Blocks {
		for j, in := range b.Insts {
			op := in.Opcode()
			if op == spirv.OpVariable {
				continue
			}
			if op == spirv.OpExtInst && len(in.Words) > 3 && strings.HasPrefix(a.m.ExtInstSetName(in.Words[3]), "NonSemantic.") {
				continue
			}
			_ = spirv.ForEachID(in.Words, a.m, func(k int) {
				if !vars.has(in.Words[k]) {
					return
				}
				v := f.vars[in.Words[k]]
				switch {
				case op == spirv.OpLoad && k == 3:
				case op == spirv.OpStore && k == 1 && len(in.Words) > 2:
					v.stores = append(v.stores, storeFacts{instPos{bi, j}, in.Words[2]})
				default:
					v.escaped = true
				}
			})
		}
	}
}
