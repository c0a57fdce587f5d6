package gpuav

import (
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// GLSL.std.450 instructions the sanitizer checks.
const (
	glslAtan2  = 25
	glslPow    = 26
	glslExp    = 27
	glslExp2   = 29
	glslLength = 66
)

// sanitizerPass is the shader sanitizer (docs/decisions/shader-sanitizer.md):
// operations whose result, or whose behaviour, the SPIR-V and GLSL.std.450
// specifications leave undefined for some operand values. One pass serves
// the five checks (one per family, each switched on its own):
//
//   - sanitizer_divide: OpUDiv, OpSDiv, OpUMod, OpSMod and OpSRem by zero,
//     and the signed ones of the minimum value by -1 (an overflow); OpFMod
//     and OpFRem by zero;
//   - sanitizer_pow: Pow with x < 0, or x == 0 and y <= 0;
//   - sanitizer_atan2: Atan2 with y == 0 and x == 0;
//   - sanitizer_minmax: FMin, FMax and FClamp with a NaN operand;
//   - sanitizer_gather: OpImageGather's component outside 0..3.
//
// Vectors are checked lane by lane; the record names the first failing
// lane and its operands. An operand the analyses prove safe (a non-zero
// constant divisor, x | 1, clamp(x, 1, n), a pow base in (0, ∞)...) gets
// no check (operand_facts.go). An operation is guarded as
//
//	B: ... %badv = the lanes' test; %bad = OpAny %badv (a vector)
//	       OpSelectionMerge %M None; OpBranchConditional %bad %F %T
//	T: %r1 = the operation as written; OpBranch %M
//	F: the first failing lane and its operands; OpFunctionCall
//	   gpuav_report_sanitizer ...; %r2 = what on_error says; OpBranch %M
//	M: %r = OpPhi %r1 %T %r2 %F; the rest of B
//
// where %r2 is, under skip, 0 in the failing lanes (a division, pow,
// atan2) or NMin/NMax/NClamp of the same operands (FMin, FMax, FClamp: a
// NaN operand then yields the other one); under clamp, the division by
// the divisor with its failing lanes replaced by 1 (the others have no
// clamp and skip); under execute, the operation as written. A gather's
// component is a constant: one outside 0..3 reports every time the
// gather runs (no branch), and the gather reads component 0 under skip,
// 3 under clamp; a specialization constant is compared in the shader.
var sanitizerPass = &passSpec{
	name:      "sanitizer",
	preserves: analysisLayoutSizes,
	run: func(sh *shader) int {
		return walk(sh, &sanitizerChecker{sh: sh, done: map[*spirv.Instruction]bool{}, splats: map[[2]uint32]uint32{}})
	},
}

// sanKind is a family of the sanitizer's operations.
type sanKind uint8

const (
	sanIntDivide sanKind = iota
	sanFloatDivide
	sanPow
	sanAtan2
	sanMinMax
	sanGather
)

// sanOverflowKind is the kind a division reports its overflow under
// (gpuav_sanitizer_code, shaders/sanitizer.glsl).
const sanOverflowKind = 6

// sanitizerChecker is the sanitizer pass over one shader.
type sanitizerChecker struct {
	sh     *shader
	facts  *operandFacts
	glsl   uint32
	done   map[*spirv.Instruction]bool
	splats map[[2]uint32]uint32 // (vector type, scalar constant) → composite
}

// sanSite is what match found out about an operation.
type sanSite struct {
	kind  sanKind
	check string
	op    uint32   // the opcode, or the GLSL.std.450 instruction
	ops   []uint32 // the operands the check reads
	num   numInfo  // their type
	// zero, overflow: a division's divisor may be 0; a signed one's
	// operands may be the minimum value and -1.
	zero, overflow bool
	// nan: bit i set when operand i of a min/max/clamp may be NaN.
	nan uint32
	// comp, spec: a gather's component (constant), or that it is a
	// specialization constant.
	comp uint32
	spec bool
}

// numInfo describes a numeric scalar or vector type.
type numInfo struct {
	typ, scalar uint32
	n           uint32 // components; 0 for a scalar
	width       uint32
	float       bool
	signed      bool
}

// numTypeOf describes typ, false when it is no numeric scalar or vector.
func numTypeOf(m *spirv.Module, typ uint32) (numInfo, bool) {
	t := m.Def(typ)
	info := numInfo{typ: typ, scalar: typ}
	if t != nil && t.Opcode() == spirv.OpTypeVector && len(t.Words) > 3 {
		info.scalar, info.n = t.Words[2], t.Words[3]
		t = m.Def(t.Words[2])
	}
	if t == nil || len(t.Words) < 3 {
		return info, false
	}
	switch t.Opcode() {
	case spirv.OpTypeInt:
		info.width, info.signed = t.Words[2], len(t.Words) > 3 && t.Words[3] == 1
	case spirv.OpTypeFloat:
		info.width, info.float = t.Words[2], true
	default:
		return info, false
	}
	return info, info.width == 8 || info.width == 16 || info.width == 32 || info.width == 64
}

func (p *sanitizerChecker) skip() bool { return false }

func (p *sanitizerChecker) beginFunction(fn *function) {
	p.facts = newOperandFacts(p.sh, fn.f)
}

func (p *sanitizerChecker) beginBlock(*function, bool) {}

func (p *sanitizerChecker) match(fn *function, b *spirv.Block, j int) (sanSite, bool) {
	in := b.Insts[j]
	if p.done[in] {
		return sanSite{}, false
	}
	sh, m := p.sh, p.sh.m
	w := in.Words
	op := in.Opcode()
	switch op {
	case spirv.OpUDiv, spirv.OpSDiv, spirv.OpUMod, spirv.OpSMod, spirv.OpSRem:
		if !sh.opt.enabled(CheckSanitizerDivide) || len(w) != 5 {
			return sanSite{}, false
		}
		num, ok := numTypeOf(m, in.ResultType())
		if !ok || num.float {
			return sanSite{}, false
		}
		s := sanSite{kind: sanIntDivide, check: CheckSanitizerDivide, op: uint32(op), ops: []uint32{w[3], w[4]}, num: num}
		s.zero = !p.facts.intNonZero(b, w[4])
		if op == spirv.OpSDiv || op == spirv.OpSMod || op == spirv.OpSRem {
			s.overflow = !p.facts.notAllOnes(w[4]) && !p.facts.notSignedMin(w[3]) && !p.facts.guardedPositive(b, w[4]) &&
				!p.facts.guardedPositive(b, w[3])
		}
		return s, s.zero || s.overflow
	case spirv.OpFMod, spirv.OpFRem:
		if !sh.opt.enabled(CheckSanitizerDivide) || len(w) != 5 {
			return sanSite{}, false
		}
		num, ok := numTypeOf(m, in.ResultType())
		if !ok || !num.float || p.facts.floatNonZero(w[4]) {
			return sanSite{}, false
		}
		return sanSite{kind: sanFloatDivide, check: CheckSanitizerDivide, op: uint32(op), ops: []uint32{w[3], w[4]}, num: num, zero: true}, true
	case spirv.OpImageGather, spirv.OpImageSparseGather:
		if !sh.opt.enabled(CheckSanitizerGather) || len(w) < 6 {
			return sanSite{}, false
		}
		return p.matchGather(in)
	case spirv.OpExtInst:
		if len(w) < 7 || w[3] != p.glslID() {
			return sanSite{}, false
		}
		num, ok := numTypeOf(m, in.ResultType())
		if !ok || !num.float {
			return sanSite{}, false
		}
		ops := w[5:]
		switch w[4] {
		case glslPow:
			// x > 0, or x >= 0 and y > 0: defined whatever else.
			if !sh.opt.enabled(CheckSanitizerPow) || len(ops) != 2 || p.facts.floatAtLeast(ops[0], true) ||
				p.facts.floatAtLeast(ops[0], false) && p.facts.floatAtLeast(ops[1], true) {
				return sanSite{}, false
			}
			return sanSite{kind: sanPow, check: CheckSanitizerPow, op: glslPow, ops: ops, num: num}, true
		case glslAtan2:
			if !sh.opt.enabled(CheckSanitizerAtan2) || len(ops) != 2 || p.facts.floatNonZero(ops[0]) || p.facts.floatNonZero(ops[1]) ||
				p.facts.floatAtLeast(ops[0], true) || p.facts.floatAtLeast(ops[1], true) {
				return sanSite{}, false
			}
			return sanSite{kind: sanAtan2, check: CheckSanitizerAtan2, op: glslAtan2, ops: ops, num: num}, true
		case glslFMin, glslFMax, glslFClamp:
			if !sh.opt.enabled(CheckSanitizerMinMax) || len(ops) != 2 && len(ops) != 3 || (w[4] == glslFClamp) != (len(ops) == 3) {
				return sanSite{}, false
			}
			s := sanSite{kind: sanMinMax, check: CheckSanitizerMinMax, op: w[4], ops: ops, num: num}
			for i, x := range ops {
				if !p.facts.notNaN(x, 0) {
					s.nan |= 1 << i
				}
			}
			return s, s.nan != 0
		}
	}
	return sanSite{}, false
}

// glslID is the module's GLSL.std.450 import (0: none).
func (p *sanitizerChecker) glslID() uint32 {
	if p.glsl == 0 {
		p.glsl = glslImport(p.sh.m)
		if p.glsl == 0 {
			p.glsl = ^uint32(0)
		}
	}
	return p.glsl
}

// matchGather makes a gather whose component is a constant outside 0..3,
// or a specialization constant, a site.
func (p *sanitizerChecker) matchGather(in *spirv.Instruction) (sanSite, bool) {
	m := p.sh.m
	c := in.Words[5]
	d := m.Def(c)
	if d == nil || int32Type(m, c) == nil {
		return sanSite{}, false
	}
	s := sanSite{kind: sanGather, check: CheckSanitizerGather, op: uint32(in.Opcode()), ops: []uint32{c}}
	switch d.Opcode() {
	case spirv.OpConstant:
		s.comp = d.Words[3]
		return s, s.comp > 3
	case spirv.OpSpecConstant, spirv.OpSpecConstantOp:
		s.spec = true
		return s, true
	}
	return sanSite{}, false
}

// Sanitizer record parameters: p0/p1, p2/p3 and p4/p5 the bits (low and
// high words) of the checked operands in the instruction's order (a
// division's dividend and divisor, pow's x and y, atan2's y and x, min's
// and max's x and y, clamp's x, minVal and maxVal; a gather's component in
// p0), p6 the failing lane (bits 0-7) and which operands are NaN (bits
// 8-10, operand i at bit 8+i), p7 the operation (SPIR-V opcode, or the
// GLSL.std.450 instruction number) in bits 0-15, the operands' scalar
// width in bits 16-23, SanitizerFloat, and the vector's component count
// in bits 25-27 (0: a scalar). Operands narrower than 32 bits are
// recorded converted to 32 bits (signed values sign-extended, float16 as
// float32); 64-bit ones as their two words.
const (
	SanitizerWidthShift      = 16
	SanitizerFloat           = 1 << 24
	SanitizerComponentsShift = 25
	SanitizerNaNShift        = 8
)

func (p *sanitizerChecker) guard(fn *function, b *spirv.Block, j int, s sanSite) (guarded, bool) {
	sh := p.sh
	in := b.Insts[j]
	if s.kind == sanGather {
		return p.guardGather(fn, b, j, s)
	}
	if sh.inLoopHeader(fn, b, j, "checked operation") {
		return guarded{}, false
	}
	m := sh.m
	num := s.num
	boolT := m.TypeBool()
	bvec := boolT
	if num.n > 0 {
		bvec = m.TypeVector(boolT, num.n)
	}
	tID, fID, mID := m.NewID(), m.NewID(), m.NewID()
	rest := b.Insts[j:]
	post := rest[1:]

	// head: the lanes' test.
	head := emitterAfter(m, b.Insts[:j], 16)
	badv := p.test(head, s, bvec)
	bad := badv
	if num.n > 0 {
		bad = head.op(spirv.OpAny, boolT, badv)
	}
	if s.kind == sanIntDivide || s.kind == sanFloatDivide {
		return p.guardDivide(fn, b, j, s, head, badv, bad)
	}
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, bad, fID, tID)
	b.Insts = head.insts

	// T: the operation as written.
	then := newEmitter(m, 2)
	r1 := p.clone(then, in, nil)
	then.void(spirv.OpBranch, mID)

	// F: the report, then what on_error says.
	fail := newEmitter(m, 32)
	onError := sh.onError()
	if !sh.opt.RobustOnly {
		p.report(fail, s, badv)
	}
	r2, behaved := p.failed(fail, in, s, badv, onError)
	fail.void(spirv.OpBranch, mID)

	rest[0] = spirv.NewInstruction(spirv.OpPhi, in.ResultType(), in.ResultID(), r1, tID, r2, fID)
	retargetPhis(fn.f, post, b.ID(), mID)
	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }
	blocks := []*spirv.Block{{Label: label(tID), Insts: then.insts}, {Label: label(fID), Insts: fail.insts},
		{Label: label(mID), Insts: rest}}
	return guarded{blocks: blocks, checks: []string{s.check}, record: sanRecord(s), onError: behaved}, true
}

// guardDivide guards a division without moving it into a branch: a
// division in a selection of its own keeps the driver from sharing one
// division between x / d and x % d, which costs a hot loop dividing by a
// divisor from memory 1.8x on an NVIDIA GPU (docs/decisions/shader-sanitizer.md).
// So the division stays in B, by the divisor with its failing lanes
// replaced by 1 (skip and clamp; execute: as written), and only the
// report is branched to:
//
//	B: ... %badv, %bad; %d1 = OpSelect %badv 1 %d; %q = x / %d1;
//	       %r = OpSelect %badv 0 %q (skip; clamp: %r = %q)
//	       OpSelectionMerge %M None; OpBranchConditional %bad %F %M
//	F: the report; OpBranch %M
//	M: the rest of B
//
// head holds B's instructions before the division and the lanes' test.
func (p *sanitizerChecker) guardDivide(fn *function, b *spirv.Block, j int, s sanSite, head *emitter, badv,
	bad uint32) (guarded, bool) {
	sh := p.sh
	m := sh.m
	num := s.num
	in := b.Insts[j]
	post := b.Insts[j+1:]
	behaved := sh.onError()
	switch {
	case behaved == OnErrorExecute:
		head.insts = append(head.insts, in)
		p.done[in] = true // checked: not a site again when the walk goes on in B
	default:
		divisor := head.op(spirv.OpSelect, num.typ, badv, p.one(num), s.ops[1])
		c := in.Clone()
		p.done[c] = true
		renameOperands(m, c, map[uint32]uint32{s.ops[1]: divisor})
		if behaved == OnErrorClamp && s.kind == sanIntDivide {
			head.insts = append(head.insts, c) // the result keeps its id
			break
		}
		behaved = OnErrorSkip // a float divisor has nothing to clamp into
		q := m.NewID()
		c.SetResultID(q)
		copyDecorations(m, in.ResultID(), q, false)
		head.insts = append(head.insts, c,
			spirv.NewInstruction(spirv.OpSelect, num.typ, in.ResultID(), badv, m.ConstantNull(num.typ), q))
	}
	record := sanRecord(s)
	if sh.opt.RobustOnly { // nothing to report: no branch
		b.Insts = append(head.insts, post...)
		return guarded{checks: []string{s.check}, record: record, onError: behaved}, true
	}
	fID, mID := m.NewID(), m.NewID()
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, bad, fID, mID)
	b.Insts = head.insts
	fail := newEmitter(m, 32)
	p.report(fail, s, badv)
	fail.void(spirv.OpBranch, mID)
	retargetPhis(fn.f, post, b.ID(), mID)
	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }
	blocks := []*spirv.Block{{Label: label(fID), Insts: fail.insts}, {Label: label(mID), Insts: post}}
	return guarded{blocks: blocks, checks: []string{s.check}, record: record, onError: behaved}, true
}

// sanRecord is the static part of a guarded operation's records: p7 the
// operation and its operand type, p0-p6 written by the report.
func sanRecord(s sanSite) SiteRecord {
	kind := uint32(s.num.width)<<SanitizerWidthShift | s.num.n<<SanitizerComponentsShift | s.op
	if s.num.float {
		kind |= SanitizerFloat
	}
	return dynamicRecord([RecordParams]uint32{7: kind}, 0, 1, 2, 3, 4, 5, 6, -1)
}

// test emits the lanes' test of s into head: a bool (a bool vector for a
// vector) that is true where the operation is undefined.
func (p *sanitizerChecker) test(e *emitter, s sanSite, bvec uint32) uint32 {
	m := p.sh.m
	num := s.num
	zero := m.ConstantNull(num.typ)
	or := func(x, y uint32) uint32 {
		if x == 0 {
			return y
		}
		return e.op(spirv.OpLogicalOr, bvec, x, y)
	}
	switch s.kind {
	case sanIntDivide:
		var bad uint32
		if s.zero {
			bad = e.op(spirv.OpIEqual, bvec, s.ops[1], zero)
		}
		if s.overflow {
			minus1 := p.intConst(num, maxOf(num.width))
			lowest := p.intConst(num, 1<<(num.width-1))
			ovf := e.op(spirv.OpLogicalAnd, bvec, e.op(spirv.OpIEqual, bvec, s.ops[1], minus1),
				e.op(spirv.OpIEqual, bvec, s.ops[0], lowest))
			bad = or(bad, ovf)
		}
		return bad
	case sanFloatDivide:
		return e.op(spirv.OpFOrdEqual, bvec, s.ops[1], zero)
	case sanPow:
		lt := e.op(spirv.OpFOrdLessThan, bvec, s.ops[0], zero)
		eq := e.op(spirv.OpFOrdEqual, bvec, s.ops[0], zero)
		le := e.op(spirv.OpFOrdLessThanEqual, bvec, s.ops[1], zero)
		return e.op(spirv.OpLogicalOr, bvec, lt, e.op(spirv.OpLogicalAnd, bvec, eq, le))
	case sanAtan2:
		return e.op(spirv.OpLogicalAnd, bvec, e.op(spirv.OpFOrdEqual, bvec, s.ops[0], zero),
			e.op(spirv.OpFOrdEqual, bvec, s.ops[1], zero))
	case sanMinMax:
		var bad uint32
		for i, x := range s.ops {
			if s.nan&(1<<i) != 0 {
				bad = or(bad, e.op(spirv.OpIsNan, bvec, x))
			}
		}
		return bad
	}
	panic("sanitizer: unknown kind")
}

// report emits, into F, the first failing lane, its operands and the
// report call.
func (p *sanitizerChecker) report(e *emitter, s sanSite, badv uint32) {
	sh, m := p.sh, p.sh.m
	u := m.TypeUint32()
	num := s.num
	lane := m.ConstantUint32(0)
	if num.n > 0 {
		lane = m.ConstantUint32(num.n - 1)
		for i := int(num.n) - 2; i >= 0; i-- {
			bi := e.op(spirv.OpCompositeExtract, m.TypeBool(), badv, uint32(i))
			lane = e.op(spirv.OpSelect, u, bi, m.ConstantUint32(uint32(i)), lane)
		}
	}
	at := func(x uint32) uint32 {
		if num.n == 0 {
			return x
		}
		return e.op(spirv.OpVectorExtractDynamic, num.scalar, x, lane)
	}
	vals := make([]uint32, len(s.ops))
	for i, x := range s.ops {
		vals[i] = at(x)
	}
	bits := [3]uint32{}
	for i := range bits {
		if i < len(vals) {
			bits[i] = p.bits(e, num, vals[i])
		} else {
			bits[i] = m.ConstantNull(m.TypeVector(u, 2))
		}
	}
	extra := lane
	code := m.ConstantUint32(uint32(s.kind))
	switch s.kind {
	case sanIntDivide:
		if s.zero && s.overflow {
			isZero := e.op(spirv.OpIEqual, m.TypeBool(), vals[1], m.ConstantNull(num.scalar))
			code = e.op(spirv.OpSelect, u, isZero, code, m.ConstantUint32(sanOverflowKind))
		} else if !s.zero {
			code = m.ConstantUint32(sanOverflowKind)
		}
	case sanMinMax:
		for i, x := range vals {
			if s.nan&(1<<i) == 0 {
				continue
			}
			isn := e.op(spirv.OpIsNan, m.TypeBool(), x)
			bit := e.op(spirv.OpSelect, u, isn, m.ConstantUint32(1<<(SanitizerNaNShift+i)), m.ConstantUint32(0))
			extra = e.op(spirv.OpBitwiseOr, u, extra, bit)
		}
	}
	stage := sh.stage.emit(e)
	e.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_report_sanitizer"),
		m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage, code, bits[0], bits[1], bits[2], extra)
}

// bits converts a scalar of num's scalar type to the uvec2 a record holds.
func (p *sanitizerChecker) bits(e *emitter, num numInfo, x uint32) uint32 {
	m := p.sh.m
	u := m.TypeUint32()
	v2 := m.TypeVector(u, 2)
	if num.width == 64 {
		return e.op(spirv.OpBitcast, v2, x)
	}
	switch {
	case num.float && num.width == 16:
		x = e.op(spirv.OpFConvert, m.TypeFloat(32), x)
		x = e.op(spirv.OpBitcast, u, x)
	case num.float:
		x = e.op(spirv.OpBitcast, u, x)
	case num.width < 32 && num.signed:
		x = e.op(spirv.OpBitcast, u, e.op(spirv.OpSConvert, m.TypeInt(32, true), x))
	case num.width < 32:
		x = e.op(spirv.OpUConvert, u, x)
	case num.signed:
		x = e.op(spirv.OpBitcast, u, x)
	}
	return e.op(spirv.OpCompositeConstruct, v2, x, m.ConstantUint32(0))
}

// failed emits, into F, the value the operation yields after a failed
// check under onError, and returns it with the behaviour built.
func (p *sanitizerChecker) failed(e *emitter, in *spirv.Instruction, s sanSite, badv uint32, onError OnError) (uint32, OnError) {
	m := p.sh.m
	num := s.num
	zero := m.ConstantNull(num.typ)
	if onError == OnErrorExecute {
		return p.clone(e, in, nil), OnErrorExecute
	}
	masked := func(x uint32) uint32 { // 0 in the failing lanes
		if num.n == 0 {
			return zero
		}
		return e.op(spirv.OpSelect, num.typ, badv, zero, x)
	}
	switch s.kind {
	case sanIntDivide, sanFloatDivide:
		one := p.one(num)
		divisor := one
		if num.n > 0 {
			divisor = e.op(spirv.OpSelect, num.typ, badv, one, s.ops[1])
		}
		if onError == OnErrorClamp && s.kind == sanIntDivide {
			return p.clone(e, in, map[uint32]uint32{s.ops[1]: divisor}), OnErrorClamp
		}
		if num.n == 0 {
			return zero, OnErrorSkip
		}
		return masked(p.clone(e, in, map[uint32]uint32{s.ops[1]: divisor})), OnErrorSkip
	case sanPow, sanAtan2:
		if num.n == 0 {
			return zero, OnErrorSkip
		}
		return masked(p.clone(e, in, nil)), OnErrorSkip
	case sanMinMax:
		c := in.Clone()
		c.Words[4] = map[uint32]uint32{glslFMin: glslNMin, glslFMax: glslNMax, glslFClamp: glslNClamp}[s.op]
		id := m.NewID()
		c.SetResultID(id)
		copyDecorations(m, in.ResultID(), id, false)
		e.insts = append(e.insts, c)
		return id, OnErrorSkip
	}
	panic("sanitizer: unknown kind")
}

// clone emits a copy of in under a fresh result id, its operands renamed.
func (p *sanitizerChecker) clone(e *emitter, in *spirv.Instruction, renamed map[uint32]uint32) uint32 {
	m := p.sh.m
	c := in.Clone()
	if renamed != nil {
		renameOperands(m, c, renamed)
	}
	id := m.NewID()
	c.SetResultID(id)
	copyDecorations(m, in.ResultID(), id, false)
	e.insts = append(e.insts, c)
	return id
}

// one is the constant 1 of num's type (every lane).
func (p *sanitizerChecker) one(num numInfo) uint32 {
	if num.float {
		var c uint32
		switch num.width {
		case 16:
			c = p.scalarConst(num.scalar, 0x3c00)
		case 32:
			c = p.scalarConst(num.scalar, 0x3f800000)
		default:
			c = p.scalarConst(num.scalar, 0, 0x3ff00000)
		}
		return p.splat(num, c)
	}
	return p.intConst(num, 1)
}

// intConst is the integer constant with bit pattern v (of num's width)
// of num's type (every lane).
func (p *sanitizerChecker) intConst(num numInfo, v uint64) uint32 {
	var c uint32
	switch {
	case num.width == 64:
		c = p.scalarConst(num.scalar, uint32(v), uint32(v>>32))
	case num.width < 32 && num.signed && v&(1<<(num.width-1)) != 0:
		c = p.scalarConst(num.scalar, uint32(v)|^uint32(maxOf(num.width))) // sign-extended literal
	default:
		c = p.scalarConst(num.scalar, uint32(v))
	}
	return p.splat(num, c)
}

// scalarConst is a constant of a scalar type with the given literal words.
func (p *sanitizerChecker) scalarConst(typ uint32, words ...uint32) uint32 {
	m := p.sh.m
	if len(words) == 1 {
		return m.ConstantOf(typ, words[0])
	}
	key := [2]uint32{typ, words[0] ^ words[1]*0x9e3779b9}
	if id, ok := p.splats[key]; ok {
		if d := m.Def(id); d != nil && d.Opcode() == spirv.OpConstant && d.Words[3] == words[0] && d.Words[4] == words[1] {
			return id
		}
	}
	id := m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpConstant, append([]uint32{typ, id}, words...)...))
	p.splats[key] = id
	return id
}

// splat is the vector of num's type with c in every lane (c itself for a
// scalar).
func (p *sanitizerChecker) splat(num numInfo, c uint32) uint32 {
	if num.n == 0 {
		return c
	}
	key := [2]uint32{num.typ, c}
	if id, ok := p.splats[key]; ok {
		return id
	}
	m := p.sh.m
	id := m.NewID()
	w := []uint32{num.typ, id}
	for i := uint32(0); i < num.n; i++ {
		w = append(w, c)
	}
	m.AddGlobal(spirv.NewInstruction(spirv.OpConstantComposite, w...))
	p.splats[key] = id
	return id
}

// guardGather checks a gather's component. A constant outside 0..3 is an
// error each time the gather runs: the report goes right before it, and
// the gather reads component 0 (skip) or 3 (clamp) instead. A
// specialization constant is compared in the shader, and the gather reads
// a specialization-constant select of the component and 0 or 3.
func (p *sanitizerChecker) guardGather(fn *function, b *spirv.Block, j int, s sanSite) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	p.done[in] = true
	c := in.Words[5]
	ct := typeOf(m, c)
	onError := sh.onError()
	safe := m.ConstantOf(ct, 0)
	if onError == OnErrorClamp {
		safe = m.ConstantOf(ct, 3)
	}
	record := dynamicRecord([RecordParams]uint32{0: s.comp, 7: s.op}, -1)
	report := func(e *emitter, comp uint32) {
		if sh.opt.RobustOnly {
			return
		}
		u := m.TypeUint32()
		v2 := m.TypeVector(u, 2)
		stage := sh.stage.emit(e)
		null := m.ConstantNull(v2)
		a := null
		if comp != 0 {
			a = e.op(spirv.OpCompositeConstruct, v2, e.asUint(comp, ct), m.ConstantUint32(0))
		}
		e.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_report_sanitizer"),
			m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage,
			m.ConstantUint32(uint32(sanGather)), a, null, null, m.ConstantUint32(0))
	}
	if !s.spec {
		if sh.inLoopHeader(fn, b, j, "image gather") {
			return guarded{}, false
		}
		e := emitterAfter(m, b.Insts[:j], 8)
		report(e, 0)
		if onError != OnErrorExecute {
			in.Words[5] = safe
		} else {
			onError = OnErrorExecute
		}
		b.Insts = append(e.insts, b.Insts[j:]...)
		return guarded{checks: []string{s.check}, record: record, onError: gatherOnError(onError)}, true
	}
	if sh.inLoopHeader(fn, b, j, "image gather") {
		return guarded{}, false
	}
	boolT := m.TypeBool()
	three := m.ConstantOf(ct, 3)
	fID, mID := m.NewID(), m.NewID()
	post := b.Insts[j:]
	head := emitterAfter(m, b.Insts[:j], 4)
	bad := head.op(spirv.OpUGreaterThan, boolT, c, three)
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, bad, fID, mID)
	b.Insts = head.insts
	fail := newEmitter(m, 8)
	report(fail, c)
	fail.void(spirv.OpBranch, mID)
	if onError != OnErrorExecute {
		badSpec := m.NewID()
		m.AddGlobal(spirv.NewInstruction(spirv.OpSpecConstantOp, boolT, badSpec, uint32(spirv.OpUGreaterThan), c, three))
		sel := m.NewID()
		m.AddGlobal(spirv.NewInstruction(spirv.OpSpecConstantOp, ct, sel, uint32(spirv.OpSelect), badSpec, safe, c))
		in.Words[5] = sel
	}
	retargetPhis(fn.f, post[1:], b.ID(), mID)
	record.Dynamic[0] = 1
	record.Params[0] = 0
	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }
	return guarded{blocks: []*spirv.Block{{Label: label(fID), Insts: fail.insts}, {Label: label(mID), Insts: post}},
		checks: []string{s.check}, record: record, onError: gatherOnError(onError)}, true
}

// gatherOnError is the behaviour a gather guard built.
func gatherOnError(v OnError) OnError {
	if v == "" {
		return OnErrorSkip
	}
	return v
}
