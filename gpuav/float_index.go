package gpuav

import (
	"math"
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Float-derived indices (docs/decisions/float-derived-index-bound.md).
// A shader that indexes with uint(fract(x) * 63.0) reads at most element
// 63, but an integer analysis cannot see through the conversion. Before
// the passes run, boundFloatIndices finds each 32-bit OpConvertFToU or
// OpConvertFToS whose float operand has a known finite range and clamps
// its result to what that range allows: UMin(t, H) (SClamp(t, 0, H) for a
// signed conversion whose range starts above -1), H the largest integer
// the range reaches. For every operand the range holds, the clamp returns
// the conversion's own value; it differs only for a NaN or an out-of-range
// float, whose conversion the SPIR-V specification leaves undefined, and
// there it picks one of the values the app may get. The integer analysis
// (safe_index.go) then bounds the index by H, and an access the range
// keeps inside its array needs no check, or only the binding's fact.

// GLSL.std.450 float instructions the float range analysis understands.
const (
	glslRound     = 1
	glslRoundEven = 2
	glslTrunc     = 3
	glslFAbs      = 4
	glslFloor     = 8
	glslCeil      = 9
	glslFract     = 10
	glslSqrt      = 31
	glslFMin      = 37
	glslFMax      = 40
	glslFClamp    = 43
	glslNMin      = 79
	glslNMax      = 80
	glslNClamp    = 81
)

// floatSlack widens every computed bound, relative to its size: a float32
// addition or multiplication rounds its exact result by at most half an ulp
// (2^-24), a division by 2.5 ulp, and an operation decorated
// RelaxedPrecision may compute at 16-bit precision (2^-11); the interval is
// computed in float64 and widened by 2^-9 at each step, more than any of
// them.
const floatSlack = 1.0 / 512

// interval is a closed range of finite float values. A value in it may
// also be NaN: the analysis never excludes NaN, which is why the
// conversion is clamped rather than trusted.
type interval struct{ lo, hi float64 }

func (r interval) union(o interval) interval {
	return interval{math.Min(r.lo, o.lo), math.Max(r.hi, o.hi)}
}

// widened is r with room for float32 rounding.
func (r interval) widened() interval {
	pad := func(x float64) float64 { return math.Abs(x)*floatSlack + 1e-30 }
	return interval{r.lo - pad(r.lo), r.hi + pad(r.hi)}
}

// finite reports whether both ends are finite and within float32's range.
func (r interval) finite() bool {
	return !math.IsNaN(r.lo) && !math.IsNaN(r.hi) && math.Abs(r.lo) <= math.MaxFloat32 && math.Abs(r.hi) <= math.MaxFloat32
}

// floatRanges computes intervals of 32-bit float SSA values in one
// function of a module that the passes have not changed yet.
type floatRanges struct {
	m     *spirv.Module
	memo  map[uint32]*interval // nil entry: no range
	busy  map[uint32]bool
	depth int
	glsl  uint32          // the GLSL.std.450 import's id, 0 if none
	fn    *spirv.Function // the current function
	pos   *positions      // result id → its block's index, in the current function (blockOf)
	// escaped: the current function's variables whose pointer escapes,
	// found the first time a load asks.
	escaped map[uint32]bool
}

// boundFloatIndices clamps the float-to-integer conversions whose float
// range is known and returns how many it clamped.
func boundFloatIndices(m *spirv.Module) int {
	fr := &floatRanges{m: m, glsl: glslImport(m)}
	n := 0
	for _, f := range m.Functions {
		fr.index(f)
		for _, b := range f.Blocks {
			var out []*spirv.Instruction // the block with its clamps, once one is made
			for i, in := range b.Insts {
				c := fr.clamp(in)
				if c != nil && out == nil {
					out = append(make([]*spirv.Instruction, 0, len(b.Insts)+8), b.Insts[:i]...)
				}
				if out != nil {
					out = append(out, in)
				}
				if c != nil {
					out = append(out, c)
					n++
				}
			}
			if out != nil {
				b.Insts = out
			}
		}
	}
	if n > 0 {
		m.InvalidateIndex() // each clamp took over its conversion's id
	}
	return n
}

// index records where each result of function f is, and forgets the
// previous function's ranges (a load's range depends on its block).
func (fr *floatRanges) index(f *spirv.Function) {
	fr.fn, fr.memo, fr.busy, fr.escaped, fr.pos = f, map[uint32]*interval{}, map[uint32]bool{}, nil, nil
}

// blockOf returns the block of the current function that holds the load
// with result id r. The index is made the first time a load asks (most
// functions convert no float to an integer); loads never move to another
// block or change their ids, so clamps added before that do not matter.
func (fr *floatRanges) blockOf(r uint32) (*spirv.Block, bool) {
	if fr.pos == nil {
		p := newPositions(fr.fn.Blocks)
		fr.pos = &p
	}
	at, ok := fr.pos.of(r)
	if !ok {
		return nil, false
	}
	return fr.fn.Blocks[at.blk], true
}

// clamp returns the clamp of the conversion in when its operand's range
// allows, nil otherwise. The clamp takes over the
// conversion's result id (the conversion gets a new one); the caller
// places it right after the conversion.
func (fr *floatRanges) clamp(in *spirv.Instruction) *spirv.Instruction {
	op := in.Opcode()
	if (op != spirv.OpConvertFToU && op != spirv.OpConvertFToS) || len(in.Words) != 4 {
		return nil
	}
	rt := fr.m.Def(in.ResultType())
	if rt == nil || rt.Opcode() != spirv.OpTypeInt || rt.Words[2] != 32 {
		return nil
	}
	r, ok := fr.rangeOf(in.Words[3])
	if !ok {
		return nil
	}
	r = r.widened()
	signed := op == spirv.OpConvertFToS
	limit := float64(math.MaxUint32)
	if signed {
		limit = math.MaxInt32
		if r.lo <= -1 {
			return nil // a negative index is a value the app may really compute
		}
	}
	if r.hi >= limit {
		return nil
	}
	hi := uint32(0)
	if r.hi > 0 {
		hi = uint32(math.Floor(r.hi))
	}
	if fr.glsl == 0 {
		fr.glsl = fr.m.ExtInstImport("GLSL.std.450")
	}
	res := in.ResultID()
	t := fr.m.NewID()
	in.SetResultID(t)
	var c *spirv.Instruction
	if signed {
		c = spirv.NewInstruction(spirv.OpExtInst, in.ResultType(), res, fr.glsl, glslSClamp, t,
			fr.m.ConstantOf(in.ResultType(), 0), fr.m.ConstantOf(in.ResultType(), hi))
	} else {
		c = spirv.NewInstruction(spirv.OpExtInst, in.ResultType(), res, fr.glsl, glslUMin, t,
			fr.m.ConstantOf(in.ResultType(), hi))
	}
	return c
}

// rangeOf returns the interval of a 32-bit float (scalar or vector: the
// union of its components) SSA value, and whether one is known.
func (fr *floatRanges) rangeOf(id uint32) (interval, bool) {
	if r, ok := fr.memo[id]; ok {
		if r == nil {
			return interval{}, false
		}
		return *r, true
	}
	if fr.busy[id] || fr.depth >= maxBoundDepth {
		return interval{}, false // a cycle (a loop's phi) or too far
	}
	fr.busy[id] = true
	fr.depth++
	r, ok := fr.compute(id)
	fr.depth--
	delete(fr.busy, id)
	if ok && !r.finite() {
		ok = false
	}
	if ok {
		fr.memo[id] = &r
	} else {
		fr.memo[id] = nil
	}
	return r, ok
}

// isFloat32 reports whether typ is a 32-bit float or a vector of them.
func (fr *floatRanges) isFloat32(typ uint32) bool {
	t := fr.m.Def(typ)
	if t != nil && t.Opcode() == spirv.OpTypeVector {
		t = fr.m.Def(t.Words[2])
	}
	return t != nil && t.Opcode() == spirv.OpTypeFloat && t.Words[2] == 32
}

func (fr *floatRanges) compute(id uint32) (interval, bool) {
	d := fr.m.Def(id)
	if d == nil || d.ResultID() == 0 || !fr.isFloat32(d.ResultType()) {
		return interval{}, false
	}
	w := d.Words
	switch d.Opcode() {
	case spirv.OpConstant:
		if len(w) != 4 {
			return interval{}, false
		}
		x := float64(math.Float32frombits(w[3]))
		return interval{x, x}, true
	case spirv.OpConstantComposite, spirv.OpCompositeConstruct:
		return fr.unionOf(w[3:])
	case spirv.OpCopyObject, spirv.OpCompositeExtract:
		return fr.rangeOf(w[3])
	case spirv.OpVectorShuffle:
		if len(w) < 5 {
			return interval{}, false
		}
		return fr.unionOf(w[3:5])
	case spirv.OpFNegate:
		r, ok := fr.rangeOf(w[3])
		return interval{-r.hi, -r.lo}, ok
	case spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv, spirv.OpVectorTimesScalar:
		return fr.arithmetic(d.Opcode(), w[3:])
	case spirv.OpExtInst:
		return fr.extInst(w)
	case spirv.OpLoad:
		return fr.load(d)
	}
	return interval{}, false
}

// unionOf is the union of the ids' intervals; every one must be known.
func (fr *floatRanges) unionOf(ids []uint32) (interval, bool) {
	if len(ids) == 0 {
		return interval{}, false
	}
	r, ok := fr.rangeOf(ids[0])
	for _, id := range ids[1:] {
		if !ok {
			break
		}
		var o interval
		o, ok = fr.rangeOf(id)
		r = r.union(o)
	}
	return r, ok
}

// arithmetic is interval arithmetic on two operands, widened for rounding.
func (fr *floatRanges) arithmetic(op spirv.Opcode, ops []uint32) (interval, bool) {
	if len(ops) != 2 {
		return interval{}, false
	}
	x, ok := fr.rangeOf(ops[0])
	if !ok {
		return interval{}, false
	}
	y, ok := fr.rangeOf(ops[1])
	if !ok {
		return interval{}, false
	}
	var r interval
	switch op {
	case spirv.OpFAdd:
		r = interval{x.lo + y.lo, x.hi + y.hi}
	case spirv.OpFSub:
		r = interval{x.lo - y.hi, x.hi - y.lo}
	case spirv.OpFDiv:
		if y.lo <= 0 && y.hi >= 0 {
			return interval{}, false // the divisor may be zero
		}
		y = interval{1 / y.hi, 1 / y.lo}
		fallthrough
	default: // OpFMul, OpVectorTimesScalar
		a, b, c, e := x.lo*y.lo, x.lo*y.hi, x.hi*y.lo, x.hi*y.hi
		r = interval{math.Min(math.Min(a, b), math.Min(c, e)), math.Max(math.Max(a, b), math.Max(c, e))}
	}
	return r.widened(), true
}

// extInst bounds the GLSL.std.450 float functions whose range follows
// from their operands' (or is fixed, as fract's). Not sin and cos: Vulkan
// leaves their precision undefined outside [-π, π], so a result past
// [-1, 1] is not excluded.
func (fr *floatRanges) extInst(w []uint32) (interval, bool) {
	if len(w) < 6 || fr.glsl == 0 || w[3] != fr.glsl {
		return interval{}, false
	}
	ops := w[5:]
	switch w[4] {
	case glslFract:
		return interval{0, 1}, true // 1.0 itself: x - floor(x) may round up
	case glslFAbs:
		r, ok := fr.rangeOf(ops[0])
		m := math.Max(math.Abs(r.lo), math.Abs(r.hi))
		if r.lo >= 0 {
			return r, ok
		}
		return interval{0, m}, ok
	case glslFloor, glslCeil, glslTrunc, glslRound, glslRoundEven:
		// Each is monotonic: the ends map to the ends. Round may go
		// either way at .5.
		r, ok := fr.rangeOf(ops[0])
		switch w[4] {
		case glslFloor:
			return interval{math.Floor(r.lo), math.Floor(r.hi)}, ok
		case glslCeil:
			return interval{math.Ceil(r.lo), math.Ceil(r.hi)}, ok
		case glslTrunc:
			return interval{math.Trunc(r.lo), math.Trunc(r.hi)}, ok
		}
		return interval{math.Floor(r.lo), math.Ceil(r.hi)}, ok
	case glslSqrt:
		r, ok := fr.rangeOf(ops[0])
		return interval{0, math.Sqrt(math.Max(r.hi, 0))}.widened(), ok
	case glslFMin, glslNMin, glslFMax, glslNMax:
		if len(ops) != 2 {
			return interval{}, false
		}
		return fr.minMax(w[4], ops[0], ops[1])
	case glslFClamp, glslNClamp:
		if len(ops) != 3 {
			return interval{}, false
		}
		lo, lok := fr.rangeOf(ops[1])
		hi, hok := fr.rangeOf(ops[2])
		if !lok || !hok || lo.hi > hi.lo {
			return interval{}, false // clamp is undefined when minVal > maxVal
		}
		return interval{lo.lo, hi.hi}, true
	}
	return interval{}, false
}

// minMax bounds min and max: one bounded side is enough for the end it
// decides (min(x, 3.0) ≤ 3.0 whatever x is), both for the other.
func (fr *floatRanges) minMax(inst uint32, a, b uint32) (interval, bool) {
	x, xok := fr.rangeOf(a)
	y, yok := fr.rangeOf(b)
	isMin := inst == glslFMin || inst == glslNMin
	switch {
	case xok && yok && isMin:
		return interval{math.Min(x.lo, y.lo), math.Min(x.hi, y.hi)}, true
	case xok && yok:
		return interval{math.Max(x.lo, y.lo), math.Max(x.hi, y.hi)}, true
	case isMin && (xok || yok):
		hi := x.hi
		if !xok {
			hi = y.hi
		}
		return interval{-math.MaxFloat32, hi}, true
	case xok || yok:
		lo := x.lo
		if !xok {
			lo = y.lo
		}
		return interval{lo, math.MaxFloat32}, true
	}
	return interval{}, false
}

// load bounds a load from a Function variable (directly or through an
// access chain with constant indices) by the value last stored into the
// variable earlier in the same block: a whole store ends the search, a
// store into a part of the variable adds its value's range and the search
// goes on. Anything else that takes the variable's pointer (a call, a
// copy, an access chain with a dynamic index) or reaching the block's
// start leaves the load unbounded.
func (fr *floatRanges) load(d *spirv.Instruction) (interval, bool) {
	if len(d.Words) < 4 {
		return interval{}, false
	}
	v, path, ok := fr.variable(d.Words[3])
	if !ok {
		return interval{}, false
	}
	b, ok := fr.blockOf(d.ResultID())
	if !ok || fr.escapes(v) {
		return interval{}, false
	}
	at := slices.Index(b.Insts, d) // where it is now: clamps move it
	if at < 0 {
		return interval{}, false
	}
	var r interval
	have := false
	for i := at - 1; i >= 0; i-- {
		in := b.Insts[i]
		if in.Opcode() != spirv.OpStore || len(in.Words) < 3 {
			continue
		}
		sv, spath, ok := fr.variable(in.Words[1])
		if !ok || sv != v {
			continue
		}
		sr, ok := fr.rangeOf(in.Words[2])
		if !ok {
			return interval{}, false
		}
		if have {
			r = r.union(sr)
		} else {
			r, have = sr, true
		}
		if len(spath) == 0 || slices.Equal(spath, path) {
			return r, true // this store wrote everything the load reads
		}
	}
	return interval{}, false
}

// variable returns the Function variable a pointer designates and the
// constant indices of the access chain that leads to it (none for the
// variable itself).
func (fr *floatRanges) variable(ptr uint32) (uint32, []uint32, bool) {
	d := fr.m.Def(ptr)
	if d == nil {
		return 0, nil, false
	}
	switch d.Opcode() {
	case spirv.OpVariable:
		if len(d.Words) < 4 || spirv.StorageClass(d.Words[3]) != spirv.StorageClassFunction {
			return 0, nil, false
		}
		return ptr, nil, true
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
		if len(d.Words) < 5 {
			return 0, nil, false
		}
		base := fr.m.Def(d.Words[3])
		if base == nil || base.Opcode() != spirv.OpVariable {
			return 0, nil, false
		}
		var path []uint32
		for _, x := range d.Words[4:] {
			c, ok := fr.m.ConstantValue(x)
			if !ok {
				return 0, nil, false
			}
			path = append(path, c)
		}
		v, _, ok := fr.variable(d.Words[3])
		return v, path, ok
	}
	return 0, nil, false
}

// escapes reports whether variable v's pointer, or one derived from it,
// is taken by anything but loads, stores into it and access chains with
// constant indices in the function: then a write the block scan cannot
// see may change it.
func (fr *floatRanges) escapes(v uint32) bool {
	if fr.escaped == nil {
		fr.escaped = fr.findEscapes()
	}
	return fr.escaped[v]
}

// findEscapes marks, in one walk of the current function, every Function
// variable whose pointer escapes (see escapes).
func (fr *floatRanges) findEscapes() map[uint32]bool {
	root := map[uint32]uint32{} // pointer → its variable
	for _, b := range fr.fn.Blocks {
		for _, in := range b.Insts {
			w := in.Words
			switch in.Opcode() {
			case spirv.OpVariable:
				root[w[2]] = w[2]
			case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
				if r, ok := root[w[3]]; ok && len(w) > 3 {
					root[w[2]] = r
				}
			}
		}
	}
	escaped := map[uint32]bool{}
	for _, b := range fr.fn.Blocks {
		for _, in := range b.Insts {
			w := in.Words
			op := in.Opcode()
			if op == spirv.OpAccessChain || op == spirv.OpInBoundsAccessChain {
				if r, ok := root[w[2]]; ok {
					if _, _, ok := fr.variable(w[2]); !ok {
						escaped[r] = true // a dynamic index: which part is unknown
					}
					continue
				}
			}
			_ = spirv.ForEachID(w, fr.m, func(k int) {
				r, ok := root[w[k]]
				switch {
				case !ok, w[k] == in.ResultID(), op == spirv.OpLoad && k == 3, op == spirv.OpStore && k == 1:
				default:
					escaped[r] = true
				}
			})
		}
	}
	return escaped
}
