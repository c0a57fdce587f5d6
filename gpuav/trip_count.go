package gpuav

import (
	"math"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// This file bounds how many times a structured loop's header runs per
// entry of the loop, for loop_budget (pass_loop_budget.go): a loop the
// bound proves to stay within the budget gets no iteration counter
// (docs/decisions/loop-budget.md says which loops are proven).
//
// A loop is bounded by an exit test: a conditional branch that every
// iteration reaches (its block dominates every back edge and is in no
// loop nested in this one), one side of which leaves the loop (the merge
// block, or a block from which no back edge can be reached: a break, a
// return) while the other stays, on a comparison (<, <=, >, >=, signed or
// unsigned) of a counter with a value the value bounds know (a constant,
// a mask, a min, a Function variable whose stores are such values, a
// value under a dominating test...). A counter is
//
//   - a phi of the header whose value on every back edge is the phi plus
//     (or minus) one constant, or
//   - a Function variable (loaded and stored only, safe_index.go's
//     varFacts) that the loop stores exactly once, outside nested loops,
//     on every iteration (the store dominates every back edge), the value
//     a load of itself plus or minus one constant,
//
// compared as it is, through a bit cast of the same width, or plus a
// constant. Between two runs of the test the counter moves by exactly the
// step; while the test stays, its value is within [lo, hi] (the compared
// value's bound on the staying side, and for a counter moving away from
// that bound, its value at the first test, from the values it enters the
// loop with), and [lo, hi] plus the step does not wrap around, so the
// values that stay form an arithmetic progression inside [lo, hi]: at most
// (hi - lo) / |step| + 1 tests stay, and the header runs at most once
// more than that.

// loopEntries returns an upper bound of how many times the header of the
// loop headed by header runs per entry of the loop (at least 1), and
// whether one is proven. Counters are 32 bits wide or narrower.
func (a *safeIndex) loopEntries(f *spirv.Function, header *spirv.Block) (uint64, bool) {
	if a == nil || f == nil || header == nil {
		return 0, false
	}
	a.fn, a.cur = f, a.funcs[f]
	ff := a.facts()
	h, ok := ff.label[header.ID()]
	if !ok {
		return 0, false
	}
	merge, found := -1, false
	for _, l := range ff.loops {
		if l[0] == h {
			merge, found = l[1], true
		}
	}
	if !found {
		return 0, false
	}
	if ff.idom[h] < 0 {
		return 0, true // never reached
	}
	lp := ff.loopBlocks(h, merge)
	if len(lp.latches) == 0 {
		return 1, true // no back edge: the header runs once
	}
	best, proven := uint64(0), false
	for x := range ff.blocks {
		if !lp.body[x] || lp.inner[x] || ff.blocks[x].cmp == nil {
			continue
		}
		trips, ok := a.exitTest(lp, x)
		if ok && (!proven || trips < best) {
			best, proven = trips, true
		}
	}
	return best, proven
}

// loopInfo is one loop's blocks, by index in funcFacts.
type loopInfo struct {
	header  int
	body    []bool // the loop's construct: reached from the header without the merge block
	inner   []bool // the blocks of loops nested in it
	reach   []bool // body blocks from which a back edge can be reached inside the body
	latches []int  // body blocks that branch to the header
}

// loopBlocks finds the blocks of the loop headed by block h with merge
// block merge (-1: none).
func (f *funcFacts) loopBlocks(h, merge int) *loopInfo {
	n := len(f.blocks)
	lp := &loopInfo{header: h, body: f.construct(h, merge), inner: make([]bool, n), reach: make([]bool, n)}
	for _, l := range f.loops {
		if l[0] == h || !lp.body[l[0]] {
			continue
		}
		for b, in := range f.construct(l[0], l[1]) {
			if in {
				lp.inner[b] = true
			}
		}
	}
	for _, p := range f.preds[h] {
		if lp.body[p] {
			lp.latches = append(lp.latches, p)
		}
	}
	work := append([]int(nil), lp.latches...)
	for _, b := range work {
		lp.reach[b] = true
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range f.preds[b] {
			if lp.body[p] && !lp.reach[p] {
				lp.reach[p] = true
				work = append(work, p)
			}
		}
	}
	return lp
}

// construct returns the blocks reached from header h without passing its
// merge block (-1: none) that h dominates.
func (f *funcFacts) construct(h, merge int) []bool {
	in := make([]bool, len(f.blocks))
	in[h] = true
	for work := []int{h}; len(work) > 0; {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range f.succs[b] {
			if s != merge && !in[s] && f.dominates(h, s) {
				in[s] = true
				work = append(work, s)
			}
		}
	}
	return in
}

// exitTest bounds the header's runs by the conditional branch of block x,
// when it is an exit test of a counter (see the top of the file).
func (a *safeIndex) exitTest(lp *loopInfo, x int) (uint64, bool) {
	f := a.cur
	br := f.blocks[x]
	if br.trueT < 0 || br.falseT < 0 || br.trueT == br.falseT {
		return 0, false
	}
	for _, l := range lp.latches {
		if !f.dominates(x, l) {
			return 0, false
		}
	}
	leaves := func(t int) bool { return !lp.body[t] || !lp.reach[t] }
	var stayTrue bool
	switch {
	case leaves(br.trueT) && !leaves(br.falseT):
		stayTrue = false
	case leaves(br.falseT) && !leaves(br.trueT):
		stayTrue = true
	default:
		return 0, false
	}
	cmp := br.cmp
	if len(cmp.Words) != 5 {
		return 0, false
	}
	rel, signed, ok := relation(cmp.Opcode(), stayTrue)
	if !ok {
		return 0, false
	}
	l, r := cmp.Words[3], cmp.Words[4]
	if c, ok := a.counter(lp, l, x); ok {
		return a.progressionEntries(c, rel, signed, r, x)
	}
	if c, ok := a.counter(lp, r, x); ok {
		return a.progressionEntries(c, mirror(rel), signed, l, x)
	}
	return 0, false
}

// Relations of a counter v to a value C on the side of an exit test that
// stays in the loop.
const (
	relLT = iota // v < C
	relLE        // v <= C
	relGT        // v > C
	relGE        // v >= C
	relNE        // v != C (only a shrinking counter, C 0)
)

// relation reads a comparison l OP r as l's relation to r where it is
// true (taken) or false, and whether it is signed.
func relation(op spirv.Opcode, taken bool) (rel int, signed, ok bool) {
	switch op {
	case spirv.OpULessThan, spirv.OpSLessThan:
		rel = relLT
	case spirv.OpULessThanEqual, spirv.OpSLessThanEqual:
		rel = relLE
	case spirv.OpUGreaterThan, spirv.OpSGreaterThan:
		rel = relGT
	case spirv.OpUGreaterThanEqual, spirv.OpSGreaterThanEqual:
		rel = relGE
	case spirv.OpINotEqual, spirv.OpIEqual:
		if (op == spirv.OpINotEqual) != taken {
			return 0, false, false // stays where v == C: no bound of a counter
		}
		return relNE, false, true
	default:
		return 0, false, false
	}
	switch op {
	case spirv.OpSLessThan, spirv.OpSLessThanEqual, spirv.OpSGreaterThan, spirv.OpSGreaterThanEqual:
		signed = true
	}
	if !taken {
		rel = [...]int{relGE, relGT, relLE, relLT}[rel] // the negation
	}
	return rel, signed, true
}

// mirror turns C REL v into v REL' C.
func mirror(rel int) int { return [...]int{relGT, relGE, relLT, relLE, relNE}[rel] }

// progression is what counter found of a compared value: from one run of
// the exit test to the next it is updated once (add: plus step, modulo
// 2^w; shrink: shifted right by step bits or divided by 2^step at least;
// grow: multiplied by step), and at the first run it is one of starts
// (nil: unknown) plus offset (add), or one update past one of them (post,
// shrink and grow).
type progression struct {
	w      uint32
	kind   int
	step   int64
	offset int64
	post   bool
	// arith: a shrink is an arithmetic shift (whose negative values never
	// reach 0: only a signed test that stays for positive values bounds it)
	arith  bool
	starts []uint32
}

// Kinds of counter update.
const (
	progAdd = iota
	progShrink
	progGrow
)

// counter reports whether v, compared in block x, is a counter of the
// loop lp (see the top of the file).
func (a *safeIndex) counter(lp *loopInfo, v uint32, x int) (progression, bool) {
	w := a.width(v)
	if w == 0 || w > 32 {
		return progression{}, false
	}
	d := a.m.Def(v)
	if d == nil {
		return progression{}, false
	}
	switch d.Opcode() {
	case spirv.OpBitcast:
		if len(d.Words) == 4 && a.width(d.Words[3]) == w {
			return a.counter(lp, d.Words[3], x)
		}
	case spirv.OpIAdd, spirv.OpISub:
		// the counter plus a constant
		if len(d.Words) != 5 {
			return progression{}, false
		}
		for k := 3; k <= 4; k++ {
			if d.Opcode() == spirv.OpISub && k == 3 {
				continue // c - v counts the other way: not read
			}
			c, ok := a.constValue(d.Words[k])
			base := d.Words[7-k]
			if !ok {
				continue
			}
			if p, ok := a.counterValue(lp, base, x); ok && p.w == w && p.kind == progAdd {
				off := signedValue(c, w)
				if d.Opcode() == spirv.OpISub {
					off = -off
				}
				p.offset += off
				return p, true
			}
		}
		return progression{}, false
	}
	return a.counterValue(lp, v, x)
}

// counterValue is counter for the counter itself: a phi of the header or
// a load of a Function variable.
func (a *safeIndex) counterValue(lp *loopInfo, v uint32, x int) (progression, bool) {
	f := a.cur
	d := a.m.Def(v)
	pos, ok := f.pos.of(v)
	w := a.width(v)
	if d == nil || !ok || w == 0 || w > 32 {
		return progression{}, false
	}
	switch d.Opcode() {
	case spirv.OpPhi:
		if pos.blk != lp.header {
			return progression{}, false
		}
		p := progression{w: w}
		for k := 3; k+1 < len(d.Words); k += 2 {
			val, pred := d.Words[k], d.Words[k+1]
			pb, ok := f.label[pred]
			if !ok {
				return progression{}, false
			}
			if !lp.body[pb] {
				p.starts = append(p.starts, val)
				continue
			}
			u, ok := a.updateOf(val, func(id uint32) bool { return id == v }, w)
			if !ok || (p.step != 0 && (u.kind != p.kind || u.step != p.step || u.arith != p.arith)) {
				return progression{}, false
			}
			p.kind, p.step, p.arith = u.kind, u.step, u.arith
		}
		return p, p.step != 0 && len(p.starts) > 0
	case spirv.OpLoad:
		return a.variableCounter(lp, d, pos, x)
	}
	return progression{}, false
}

// variableCounter is counterValue for load ld (at pos) of a Function
// variable.
func (a *safeIndex) variableCounter(lp *loopInfo, ld *spirv.Instruction, pos instPos, x int) (progression, bool) {
	f := a.cur
	if len(ld.Words) < 4 || !lp.body[pos.blk] {
		return progression{}, false
	}
	vid := ld.Words[3]
	v := f.vars[vid]
	w := a.width(ld.Words[2])
	if v == nil || v.escaped || w == 0 {
		return progression{}, false
	}
	var store *storeFacts
	p := progression{w: w}
	for i := range v.stores {
		s := &v.stores[i]
		if !lp.body[s.at.blk] {
			p.starts = append(p.starts, s.value)
			continue
		}
		if store != nil {
			return progression{}, false // stored twice in the loop
		}
		store = s
	}
	if store == nil || lp.inner[store.at.blk] {
		return progression{}, false
	}
	for _, l := range lp.latches {
		if !f.dominates(store.at.blk, l) {
			return progression{}, false
		}
	}
	// The stored value is a load of the variable in the loop plus a step.
	u, ok := a.updateOf(store.value, func(id uint32) bool {
		d := a.m.Def(id)
		lp2, ok := f.pos.of(id)
		return ok && d != nil && d.Opcode() == spirv.OpLoad && len(d.Words) >= 4 && d.Words[3] == vid && lp.body[lp2.blk]
	}, w)
	if !ok {
		return progression{}, false
	}
	p.kind, p.step, p.arith = u.kind, u.step, u.arith
	if v.init != 0 {
		p.starts = append(p.starts, v.init)
	} else if !f.storedBefore(v, instPos{lp.header, 0}) {
		p.starts = nil // may enter undefined
	}
	if len(p.starts) == 0 {
		p.starts = nil
	}
	// Is the load after the store in the iteration? Both are on the
	// dominator chain of the back edges (the load's block dominates x's).
	after := pos.blk == store.at.blk && pos.i > store.at.i ||
		pos.blk != store.at.blk && f.dominates(store.at.blk, pos.blk)
	if after && p.kind == progAdd {
		p.offset = p.step
	}
	p.post = after
	return p, true
}

// updateOf reports whether val is one update of a counter: base + C,
// C + base, base - C (add), base >> C, base / C (shrink), base << C,
// base * C, C * base (grow), for an id isBase accepts and a constant C,
// and returns the update with its step.
func (a *safeIndex) updateOf(val uint32, isBase func(uint32) bool, w uint32) (progression, bool) {
	d := a.m.Def(val)
	if d == nil || len(d.Words) != 5 || a.width(val) != w {
		return progression{}, false
	}
	x, y := d.Words[3], d.Words[4]
	konst := func(id uint32) (uint64, bool) {
		c, ok := a.constValue(id)
		return c & maxOf(w), ok
	}
	switch d.Opcode() {
	case spirv.OpIAdd:
		for _, k := range [][2]uint32{{y, x}, {x, y}} {
			if c, ok := konst(k[0]); ok && isBase(k[1]) {
				s := signedValue(c, w)
				return progression{kind: progAdd, step: s}, s != 0
			}
		}
	case spirv.OpISub:
		if c, ok := konst(y); ok && isBase(x) {
			s := -signedValue(c, w)
			return progression{kind: progAdd, step: s}, s != 0
		}
	case spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic:
		if c, ok := konst(y); ok && isBase(x) && c >= 1 && c < uint64(w) {
			return progression{kind: progShrink, step: int64(c), arith: d.Opcode() == spirv.OpShiftRightArithmetic}, true
		}
	case spirv.OpUDiv:
		if c, ok := konst(y); ok && isBase(x) && c >= 2 {
			k := int64(0)
			for c >= 2 {
				c >>= 1
				k++
			}
			return progression{kind: progShrink, step: k}, true
		}
	case spirv.OpShiftLeftLogical:
		if c, ok := konst(y); ok && isBase(x) && c >= 1 && c < uint64(w) {
			return progression{kind: progGrow, step: 1 << c}, true
		}
	case spirv.OpIMul:
		for _, k := range [][2]uint32{{y, x}, {x, y}} {
			if c, ok := konst(k[0]); ok && isBase(k[1]) && c >= 2 && c <= signedMax(w) {
				return progression{kind: progGrow, step: int64(c)}, true
			}
		}
	}
	return progression{}, false
}

// signedValue reads the low w bits of c as a signed number.
func signedValue(c uint64, w uint32) int64 {
	c &= maxOf(w)
	if c > signedMax(w) {
		return int64(c) - int64(maxOf(w)) - 1
	}
	return int64(c)
}

// intRange is a range of values of a w-bit integer read signed or not.
type intRange struct{ lo, hi int64 }

// rangeOf returns the full range of w-bit integers.
func rangeOf(w uint32, signed bool) intRange {
	if signed {
		return intRange{-int64(signedMax(w)) - 1, int64(signedMax(w))}
	}
	return intRange{0, int64(maxOf(w))}
}

// valueRange is the range of id's values where block x uses it: a
// constant's value, or [0, its bound] (for a signed reading only when the
// bound proves it non-negative).
func (a *safeIndex) valueRange(id uint32, x int, w uint32, signed bool) intRange {
	full := rangeOf(w, signed)
	if c, ok := a.constValue(id); ok && a.width(id) == w {
		if signed {
			s := signedValue(c, w)
			return intRange{s, s}
		}
		return intRange{int64(c), int64(c)}
	}
	hi, ok := a.boundAt(id, x)
	if !ok || (signed && hi > signedMax(w)) || hi > maxOf(w) {
		return full
	}
	return intRange{0, int64(hi)}
}

// boundAt is upperBound for a block given by its index in the facts.
func (a *safeIndex) boundAt(id uint32, blk int) (uint64, bool) {
	limit := uint64(math.MaxUint64)
	hi, ok := a.bound(id)
	if ok {
		limit = hi
	}
	if w := a.width(id); w != 0 {
		g := a.guard(id, blk)
		if g.uok {
			limit = min(limit, g.u)
		}
		if g.sok && ok && hi <= signedMax(w) {
			limit = min(limit, g.s)
		}
	}
	return limit, limit != math.MaxUint64
}

// progressionEntries bounds the header's runs per entry of the loop
// for a counter p compared (rel, signed) with c in block x.
func (a *safeIndex) progressionEntries(p progression, rel int, signed bool, c uint32, x int) (uint64, bool) {
	if a.width(c) != p.w {
		return 0, false
	}
	full := rangeOf(p.w, signed)
	cr := a.valueRange(c, x, p.w, signed)
	stay := full
	switch rel {
	case relLT:
		stay.hi = cr.hi - 1
	case relLE:
		stay.hi = cr.hi
	case relGT:
		stay.lo = cr.lo + 1
	case relGE:
		stay.lo = cr.lo
	case relNE:
		if cr.lo != 0 || cr.hi != 0 {
			return 0, false
		}
		stay.lo = 1 // unsigned: v != 0 is v >= 1
	}
	if stay.lo > stay.hi {
		return 1, true // the first test leaves
	}
	switch p.kind {
	case progShrink:
		// Every staying value is at least 1 and positive, and each update
		// at least halves it (an arithmetic shift only keeps a positive
		// value positive: its test must be signed): at most
		// ceil(w / step) updates reach 0.
		if stay.lo < 1 || p.arith && !signed {
			return 0, false
		}
		return uint64((int64(p.w)+p.step-1)/p.step) + 2, true
	case progGrow:
		return a.growEntries(p, stay, full, signed, x)
	}
	// The first test's value: a start plus the offset, without wrapping.
	first := a.firstRange(p, full, signed, x)
	first.lo, first.hi = first.lo+p.offset, first.hi+p.offset
	if first.lo < full.lo || first.hi > full.hi {
		first = full
	}
	var span int64
	switch {
	case p.step > 0 && (rel == relLT || rel == relLE):
		if stay.hi+p.step > full.hi {
			return 0, false // the step past the last staying value wraps
		}
		span = stay.hi - max(stay.lo, first.lo)
	case p.step < 0 && (rel == relGT || rel == relGE):
		if stay.lo+p.step < full.lo {
			return 0, false
		}
		span = min(stay.hi, first.hi) - stay.lo
	default:
		return 0, false // moving away from the bound
	}
	if span < 0 {
		return 1, true
	}
	step := p.step
	if step < 0 {
		step = -step
	}
	return uint64(span/step) + 2, true
}

// firstRange is the range of the values a counter enters the loop with
// (full when unknown).
func (a *safeIndex) firstRange(p progression, full intRange, signed bool, x int) intRange {
	if p.starts == nil {
		return full
	}
	first := intRange{full.hi, full.lo}
	for _, s := range p.starts {
		r := a.valueRange(s, x, p.w, signed)
		first.lo, first.hi = min(first.lo, r.lo), max(first.hi, r.hi)
	}
	return first
}

// growEntries bounds a counter multiplied by p.step at each update while
// it stays at most stay.hi: it starts at 1 or more (else 0 stays 0), and
// stay.hi times the factor does not wrap.
func (a *safeIndex) growEntries(p progression, stay, full intRange, signed bool, x int) (uint64, bool) {
	first := a.firstRange(p, full, signed, x)
	if p.post {
		if first.hi > full.hi/p.step {
			return 0, false // the first update may wrap
		}
		first.lo *= p.step
	}
	if first.lo < 1 || stay.hi > full.hi/p.step {
		return 0, false
	}
	n := uint64(0)
	for v := max(first.lo, stay.lo); v <= stay.hi; v *= p.step {
		n++
	}
	return n + 1, true
}
