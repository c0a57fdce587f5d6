package gpuav

import (
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Action facts (docs/decisions/action-facts.md): a bound that is not a
// number but affine in values the CPU knows only at each action,
//
//	hi = b + Σ coef · P
//
// with P the largest WorkgroupID component of a dispatch (base + count −
// 1) or a push-constant word. gl_GlobalInvocationID.c is at most
// LocalSize_c · P_c + LocalSize_c − 1, so it is affine in the same P;
// gl_LocalInvocationID.c is at most LocalSize_c − 1. Addition, multiplication and left
// shifts by a constant, zero extension, bit casts, selects, phis and loads
// of function variables keep the form; everything else is unbounded as
// before (a mask or a min bounds it as a number first).
//
// All coefficients are non-negative, so every value the shader computes on
// the way is at most the final form evaluated at the action's maxima. The
// layer fails the fact when that evaluation reaches ActionLimit: below it
// no 32-bit operation of the shader wrapped (each intermediate value is at
// most the final one) and a signed index is non-negative, so the value's
// bound holds exactly as a numeric bound does.

// Action parameters: the P of a FactTerm.
const (
	// ParamWorkgroupX, Y and Z: the action's largest WorkgroupID
	// components (a dispatch's base + count − 1).
	ParamWorkgroupX = iota
	ParamWorkgroupY
	ParamWorkgroupZ
	// ParamPushConstant + k: the 32-bit push-constant word at byte 4k,
	// as the action sees it (the last vkCmdPushConstants of those bytes).
	ParamPushConstant = 16
	// PushConstantWords is how many words the layer follows (256 bytes).
	PushConstantWords = 64
)

// MaxFactTerms is how many parameters one action fact may name.
const MaxFactTerms = 4

// ActionLimit: an action fact whose bound evaluates to this or more fails.
const ActionLimit = 1 << 31

// FactTerm is one term coef · P of an action fact (Coef 0: unused).
type FactTerm struct {
	Param, Coef uint32
}

// affine is an upper bound b + Σ terms, the terms sorted by parameter.
type affine struct {
	b     uint64
	terms []FactTerm
}

// plus returns x + y.
func (x affine) plus(y affine) affine {
	out := affine{b: x.b + y.b, terms: slices.Clone(x.terms)}
	for _, t := range y.terms {
		out.terms = addTerm(out.terms, t, func(a, b uint64) uint64 { return a + b })
	}
	return out
}

// scale returns c · x.
func (x affine) scale(c uint64) affine {
	if c == 0 {
		return affine{}
	}
	out := affine{b: x.b * c}
	for _, t := range x.terms {
		out.terms = append(out.terms, FactTerm{t.Param, uint32(min(uint64(t.Coef)*c, ActionLimit))})
	}
	return out
}

// upper returns a bound of both x and y: the larger of each part.
func (x affine) upper(y affine) affine {
	out := affine{b: max(x.b, y.b), terms: slices.Clone(x.terms)}
	for _, t := range y.terms {
		out.terms = addTerm(out.terms, t, func(a, b uint64) uint64 { return max(a, b) })
	}
	return out
}

// addTerm merges t into the sorted terms, combining coefficients of one
// parameter with f.
func addTerm(terms []FactTerm, t FactTerm, f func(a, b uint64) uint64) []FactTerm {
	i, found := slices.BinarySearchFunc(terms, t.Param, func(e FactTerm, p uint32) int { return int(e.Param) - int(p) })
	if found {
		terms[i].Coef = uint32(min(f(uint64(terms[i].Coef), uint64(t.Coef)), ActionLimit))
		return terms
	}
	return slices.Insert(terms, i, t)
}

// fits reports whether the form can hold at some action: every part below
// ActionLimit, at most MaxFactTerms terms.
func (x affine) fits() bool {
	if x.b >= ActionLimit || len(x.terms) > MaxFactTerms {
		return false
	}
	for _, t := range x.terms {
		if t.Coef >= ActionLimit {
			return false
		}
	}
	return true
}

// gridInfo is what the module says about its dispatch grid: the builtin
// variables of WorkgroupID and GlobalInvocationID, and the largest literal
// local size of its entry points (gid false when one has none, or a
// specialization constant sets it).
type gridInfo struct {
	wgVar, gidVar, lidVar uint32
	local                 [3]uint64
	wg, gid               bool
}

// grid finds the module's grid builtins, once.
func (a *safeIndex) grid() *gridInfo {
	if a.gridDone {
		return &a.gridInfo
	}
	a.gridDone = true
	g := &a.gridInfo
	m := a.m
	eps := m.EntryPoints()
	g.wg, g.gid = len(eps) > 0, len(eps) > 0
	for _, ep := range eps {
		if ep.Model != spirv.ExecutionModelGLCompute {
			g.wg, g.gid = false, false
		}
		sized, spec := false, false
		for _, in := range m.Sections[spirv.SectionExecutionMode] {
			if len(in.Words) < 6 || in.Words[1] != ep.Function {
				continue
			}
			switch mode := spirv.ExecutionMode(in.Words[2]); {
			case in.Opcode() == spirv.OpExecutionMode && mode == spirv.ExecutionModeLocalSize:
				sized = true
				for c := range 3 {
					g.local[c] = max(g.local[c], uint64(in.Words[3+c]))
				}
			case in.Opcode() == spirv.OpExecutionModeId && mode == spirv.ExecutionModeLocalSizeId:
				// Plain constants are the size; specialization constants
				// are not read (the decision says why).
				sized = true
				for c := range 3 {
					v, ok := a.constValue(in.Words[3+c])
					spec = spec || !ok
					g.local[c] = max(g.local[c], v)
				}
			}
		}
		g.gid = g.gid && sized && !spec
	}
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		if in.Opcode() != spirv.OpDecorate || len(in.Words) < 4 || spirv.Decoration(in.Words[2]) != spirv.DecorationBuiltIn {
			continue
		}
		switch spirv.BuiltIn(in.Words[3]) {
		case spirv.BuiltInWorkgroupId:
			g.wgVar = in.Words[1]
		case spirv.BuiltInGlobalInvocationId:
			g.gidVar = in.Words[1]
		case spirv.BuiltInLocalInvocationId:
			g.lidVar = in.Words[1]
		case spirv.BuiltInWorkgroupSize:
			// It overrides LocalSize: a literal composite is the size, a
			// specialization constant is not known.
			g.gid = g.gid && a.literalSize(in.Words[1], &g.local)
		}
	}
	return g
}

// literalSize reads a WorkgroupSize constant made of plain constants.
func (a *safeIndex) literalSize(id uint32, local *[3]uint64) bool {
	d := a.m.Def(id)
	if d == nil || d.Opcode() != spirv.OpConstantComposite || len(d.Words) != 6 {
		return false
	}
	for c := range 3 {
		v, ok := a.m.ConstantValue(d.Words[3+c])
		if !ok {
			return false
		}
		local[c] = uint64(v)
	}
	return true
}

// builtinComponent is the form of component c of the grid builtin
// variable v, if it is one.
func (a *safeIndex) builtinComponent(v uint32, c uint64) (affine, bool) {
	g := a.grid()
	if c > 2 || v == 0 {
		return affine{}, false
	}
	p := uint32(ParamWorkgroupX + c)
	switch {
	case g.wg && v == g.wgVar:
		return affine{terms: []FactTerm{{p, 1}}}, true
	case g.gid && v == g.gidVar && g.local[c] > 0:
		l := g.local[c]
		return affine{b: l - 1, terms: []FactTerm{{p, uint32(l)}}}, true
	case g.gid && v == g.lidVar && g.local[c] > 0:
		return affine{b: g.local[c] - 1}, true // a number: below the local size
	}
	return affine{}, false
}

// actionBound is an upper bound of the 32-bit integer id where it is used
// in block b of function f: upperBound's number when there is one, else an
// affine form in the action's parameters.
func (a *safeIndex) actionBound(f *spirv.Function, b *spirv.Block, id uint32) (affine, bool) {
	if hi, ok := a.upperBound(f, b, id); ok {
		return affine{b: hi}, true
	}
	if a == nil || f == nil {
		return affine{}, false
	}
	a.fn, a.cur = f, a.funcs[f]
	x, ok := a.aff(id)
	return x, ok && x.fits()
}

// aff is the affine form of id's value, memoised.
func (a *safeIndex) aff(id uint32) (affine, bool) {
	if hi, ok := a.bound(id); ok {
		return affine{b: hi}, true
	}
	if v, ok := a.affMemo[id]; ok {
		return v.x, v.ok
	}
	if a.busy[id] || a.depth >= maxBoundDepth {
		return affine{}, false
	}
	a.busy[id] = true
	a.depth++
	x, ok := a.computeAff(id)
	a.depth--
	delete(a.busy, id)
	ok = ok && x.fits()
	if a.affMemo == nil {
		a.affMemo = map[uint32]affineResult{}
	}
	a.affMemo[id] = affineResult{x, ok}
	return x, ok
}

// affineResult is a memoised aff answer.
type affineResult struct {
	x  affine
	ok bool
}

func (a *safeIndex) computeAff(id uint32) (affine, bool) {
	d := a.m.Def(id)
	if d == nil || len(d.Words) < 4 || a.typeWidth(d.ResultType()) != 32 {
		return affine{}, false
	}
	ops := d.Words[3:]
	switch d.Opcode() {
	case spirv.OpLoad:
		return a.affLoad(d)
	case spirv.OpCompositeExtract:
		if len(ops) == 2 {
			if l := a.m.Def(ops[0]); l != nil && l.Opcode() == spirv.OpLoad && len(l.Words) >= 4 {
				return a.builtinComponent(l.Words[3], uint64(ops[1]))
			}
		}
	case spirv.OpCopyObject:
		return a.aff(ops[0])
	case spirv.OpUConvert:
		// Zero extension keeps the value (componentwise).
		if w := a.width(ops[0]); w != 0 && w <= 32 {
			return a.aff(ops[0])
		}
	case spirv.OpBitcast:
		// Between 32-bit integers the bits are the value (not from two
		// 16-bit components or to a half of a 64-bit one).
		if a.width(ops[0]) == 32 {
			return a.aff(ops[0])
		}
	case spirv.OpIAdd:
		if len(ops) == 2 {
			x, xok := a.aff(ops[0])
			y, yok := a.aff(ops[1])
			return x.plus(y), xok && yok
		}
	case spirv.OpIMul, spirv.OpShiftLeftLogical:
		return a.affScale(d.Opcode(), ops)
	case spirv.OpSelect:
		if len(ops) == 3 {
			return a.affUpper(ops[1:])
		}
	case spirv.OpPhi:
		var vals []uint32
		for k := 0; k+1 < len(ops); k += 2 {
			vals = append(vals, ops[k])
		}
		return a.affUpper(vals)
	}
	return affine{}, false
}

// affScale is the form of x · c and x << c for a constant c.
func (a *safeIndex) affScale(op spirv.Opcode, ops []uint32) (affine, bool) {
	if len(ops) != 2 {
		return affine{}, false
	}
	if op == spirv.OpShiftLeftLogical {
		s, ok := a.constValue(ops[1])
		if !ok || s >= 31 {
			return affine{}, false
		}
		x, ok := a.aff(ops[0])
		return x.scale(1 << s), ok
	}
	x, c := ops[0], ops[1]
	k, ok := a.constValue(c)
	if !ok {
		x, c = c, x
		if k, ok = a.constValue(c); !ok {
			return affine{}, false
		}
	}
	v, ok := a.aff(x)
	return v.scale(k), ok && k < ActionLimit
}

// affUpper is a form at least each of ids'.
func (a *safeIndex) affUpper(ids []uint32) (affine, bool) {
	if len(ids) == 0 {
		return affine{}, false
	}
	var out affine
	for _, id := range ids {
		x, ok := a.aff(id)
		if !ok {
			return affine{}, false
		}
		out = out.upper(x)
	}
	return out, true
}

// affLoad is the form of a load of a grid builtin's component (through a
// constant access chain) or of a function variable that is only loaded and
// stored (every value stored into it, as safeIndex.load).
func (a *safeIndex) affLoad(d *spirv.Instruction) (affine, bool) {
	ptr := a.m.Def(d.Words[3])
	if ptr != nil && (ptr.Opcode() == spirv.OpAccessChain || ptr.Opcode() == spirv.OpInBoundsAccessChain) && len(ptr.Words) >= 5 {
		if k, ok := a.pushWord(ptr); ok {
			return affine{terms: []FactTerm{{ParamPushConstant + k, 1}}}, true
		}
		if c, ok := a.constValue(ptr.Words[4]); ok && len(ptr.Words) == 5 {
			return a.builtinComponent(ptr.Words[3], c)
		}
		return affine{}, false
	}
	if a.facts() == nil {
		return affine{}, false
	}
	v := a.cur.vars[d.Words[3]]
	if v == nil || v.escaped || !a.initialized(v, d.Words[2]) {
		return affine{}, false
	}
	vals := make([]uint32, 0, len(v.stores)+1)
	if v.init != 0 {
		vals = append(vals, v.init)
	}
	for _, s := range v.stores {
		vals = append(vals, s.value)
	}
	if a.busy[d.Words[3]] {
		return affine{}, false // a store of a value computed from the variable itself
	}
	a.busy[d.Words[3]] = true
	defer delete(a.busy, d.Words[3])
	return a.affUpper(vals)
}

// pushWord is the word of the push-constant block that an access chain
// with constant indices points to: a 32-bit integer at a 4-byte aligned
// offset below PushConstantWords words.
func (a *safeIndex) pushWord(ptr *spirv.Instruction) (uint32, bool) {
	v := a.m.Def(ptr.Words[3])
	if v == nil || v.Opcode() != spirv.OpVariable || len(v.Words) < 4 ||
		spirv.StorageClass(v.Words[3]) != spirv.StorageClassPushConstant {
		return 0, false
	}
	vt := a.m.Def(v.Words[1])
	if vt == nil || vt.Opcode() != spirv.OpTypePointer {
		return 0, false
	}
	for _, idx := range ptr.Words[4:] {
		if _, ok := a.constValue(idx); !ok {
			return 0, false
		}
	}
	if a.layout == nil {
		a.layout = newLayoutSizes(a.m)
	}
	off, terms, _, _, err := a.layout.walk(vt.Words[3], ptr.Words[4:])
	if err != nil || len(terms) != 0 || off%4 != 0 || off/4 >= PushConstantWords {
		return 0, false
	}
	return uint32(off / 4), true
}
