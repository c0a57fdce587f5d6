package gpuav

import (
	"maps"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// descriptorIndexPass guards every access through an element of a sized
// descriptor array whose index is not provably in bounds:
//
//	B: ...  %ok = OpULessThan %bool %index %length
//	        OpSelectionMerge %M None
//	        OpBranchConditional %ok %T %F
//	T: the descriptor load(s) and the access, cloned; OpBranch %M
//	F: stage words; OpFunctionCall gpuav_report_descriptor_index; OpBranch %M
//	M: %result = OpPhi %type %access %T %null %F ... the rest of B
//
// The comparison is inline and the report out of line, so an in-bounds
// access costs a compare and a branch. A failed check skips the access: a
// load or sample yields zero, a store or atomic does nothing. An atomic
// through an OpImageTexelPointer into an image array element is a site:
// the texel pointer is cloned into T next to the atomic.
//
// With descriptor_uninitialized or descriptor_destroyed on, sized arrays
// and plain bindings also check the element's state (elementCheck, its
// per-binding lookup hoisted to the function's entry block), runtime
// arrays call gpuav_check_descriptor (stateCheck).
//
// A second access in the same block of the original code through the same
// descriptor variable and index value (the same id, or one sameValues
// proves equal) branches on the first guard's result and reports nothing:
// it is skipped exactly when the first was, and the first already
// reported.
var descriptorIndexPass = &passSpec{
	name:      "descriptor_index",
	preserves: analysisLayoutSizes,
	run:       func(sh *shader) int { return walk(sh, &descriptorChecker{sh: sh}) },
}

// descriptorChecker is the descriptor pass over one shader.
type descriptorChecker struct {
	sh *shader
	// uses counts the uses of each id in the function, as it was before
	// the pass changed it: a descriptor load used only by its access goes
	// under the guard instead of being cloned.
	uses useCount
	// bindings shares the per-binding lookup of the element checks
	// (gpuav_desc_binding, hoisted to the entry block) between the
	// accesses of one function.
	bindings map[[2]uint32]uint32
	// checked maps (variable, index value) to the first guard's "ok" in
	// the current block of the original code.
	checked map[[2]uint32]uint32
	// facts maps (set, binding) to the function's gpuav_binding_fact.
	facts map[[2]uint32]uint32
	// locals numbers the loads of the function's local variables for
	// sameValues.
	locals localLoads
}

func (p *descriptorChecker) skip() bool { return false }

func (p *descriptorChecker) beginFunction(fn *function) {
	p.uses = useCounts(p.sh.m, fn.f)
	p.bindings = map[[2]uint32]uint32{}
	p.checked = map[[2]uint32]uint32{}
	p.facts = map[[2]uint32]uint32{}
	p.locals.begin(p.sh.m, fn.f)
}

func (p *descriptorChecker) beginBlock(_ *function, continued bool) {
	if !continued {
		clear(p.checked) // a new block of the original code
		p.locals.newBlock()
	}
}

// match finds an access through a descriptor and decides what it needs:
// nothing when its index is provably in bounds and no element check is on.
func (p *descriptorChecker) match(fn *function, b *spirv.Block, j int) (site, bool) {
	sh := p.sh
	p.locals.see(sh.an.sameValues(), b.Insts[j])
	s, ok := descriptorSite(sh, b.Insts[j])
	if !ok {
		return s, false
	}
	// The descriptor-state path (descriptor_state.go) covers runtime
	// arrays and the uninitialized/destroyed checks.
	s.state = stateChecks(sh.opt, s)
	if p.bufferCovers(s) {
		s.state = 0 // buffer_oob's check covers the element's state
	}
	if s.state == 0 && (s.runtime || s.plain || !sh.opt.enabled(CheckDescriptorIndexOOB)) {
		return s, false
	}
	if !s.runtime && s.lengthID == 0 && (s.constIndex && s.index < s.length || len(s.inner) == 0 && sh.an.safeIndex().inBounds(fn.f, b, s.indexID, s.length)) {
		// Provably in bounds: no index check, the element checks (if
		// any) remain.
		s.state &^= stateCheckIndex
		if s.state == 0 {
			return s, false
		}
	} else if !s.runtime && s.lengthID == 0 && len(s.inner) == 0 && !s.constIndex {
		if x, ok := sh.an.safeIndex().actionBound(fn.f, b, s.indexID); ok && len(x.terms) > 0 {
			s.act = &x
		}
	}
	if s.plain {
		s.indexID = sh.m.ConstantUint32(0)
	}
	s.key = [2]uint32{s.variable, sh.an.sameValues().canon(s.indexID)}
	if len(s.inner) == 0 {
		s.prior = p.checked[s.key]
	}
	return s, true
}

// bufferCovers reports whether the buffer_oob pass will check this access
// through a sized array or a plain binding of buffer blocks, the element's
// state and a variable-count binding's length included
// (bufferChecker.elementChecks): the descriptor pass then checks at most
// the index against the shader's array length.
func (p *descriptorChecker) bufferCovers(s site) bool {
	sh, in := p.sh, s.inst
	if s.runtime || !sh.opt.enabled(CheckBufferOOB) || len(s.chain) != 0 {
		return false
	}
	k := pointerOperand(in.Opcode())
	if k == 0 || k >= len(in.Words) || in.Opcode() == spirv.OpArrayLength {
		return false
	}
	if rt := sh.m.Def(in.ResultType()); in.ResultID() != 0 && rt != nil && rt.Opcode() == spirv.OpTypePointer {
		return false
	}
	_, err := bufferAccessOf(sh.m, sh.an.layoutSizes(), in.Words[k])
	return err == nil
}

// fact returns, for a site whose only checks are the element's state
// (its index is provably in range), the binding's fact: every element
// written and alive, as many as the shader declares
// (gpuav_binding_fact in the entry block, once per function and binding,
// behind the precise switch); 0 for other sites.
func (p *descriptorChecker) fact(fn *function, s site) uint32 {
	if s.runtime || s.state == 0 || s.state&stateCheckIndex != 0 || s.prior != 0 {
		return 0
	}
	m := p.sh.m
	key := [2]uint32{s.set, s.binding}
	if id, ok := p.facts[key]; ok {
		return id
	}
	call := fn.entry.op(spirv.OpFunctionCall, m.TypeBool(), p.sh.lib.function("gpuav_binding_fact"),
		m.ConstantUint32(s.set), m.ConstantUint32(s.binding), m.ConstantUint32(s.length), m.ConstantUint32(1))
	p.sh.noteFact(s.set, s.binding, s.length, 1, FactElements)
	id := p.sh.gateFact(fn, call)
	p.facts[key] = id
	return id
}

// checks names the checks a site's guard reports.
func (s site) checks() []string {
	switch {
	case s.prior != 0:
		return nil
	case s.state == 0:
		return []string{CheckDescriptorIndexOOB}
	}
	var ids []string
	for _, c := range []struct {
		bit uint32
		id  string
	}{{stateCheckIndex, CheckDescriptorIndexOOB}, {stateCheckUninit, CheckDescriptorUninit}, {stateCheckDestroyed, CheckDescriptorDestroyed}} {
		if s.state&c.bit != 0 {
			ids = append(ids, c.id)
		}
	}
	return ids
}

// site is one access through a descriptor-array element.
type site struct {
	inst       *spirv.Instruction   // the access (sample, load, store...)
	chain      []*spirv.Instruction // loads (or the texel pointer) feeding it, outermost first
	indexID    uint32
	constIndex bool
	index      uint32
	length     uint32
	set        uint32
	binding    uint32
	variable   uint32 // the descriptor variable's id
	lengthID   uint32 // the specialization constant sizing the array, or 0
	runtime    bool   // a runtime array: the length comes from the descriptor state
	plain      bool   // a plain binding (not an array): index 0 of length 1
	// inner are the index ids of an array of arrays' inner dimensions
	// (bufs[i][j]: j) and dims their lengths; the check uses the flattened
	// index i*dims[0]+j against the product of all lengths (length).
	inner []uint32
	dims  []uint32
	// state is the checks done through the descriptor state (stateChecks),
	// 0: inline compare only.
	state uint32
	// key is (variable, the index's value number): a later access with
	// the same key in the same original block reuses this one's guard.
	key [2]uint32
	// prior is the "ok" of an earlier guard of the same variable and index
	// in the same original block: reused, no compare, no report.
	prior uint32
	// ac is the access chain into the descriptor array (nil for a plain
	// binding): a clamped access takes a clone with clamped indices.
	ac *spirv.Instruction
	// act is the index's bound at each action (action_bound.go) when no
	// number bounds it: the fast variant has no guard, the layer decides.
	act *affine
}

// imageOperand returns the word index of the image operand of an image
// instruction the check covers, or 0.
func imageOperand(op spirv.Opcode) int {
	switch op {
	case spirv.OpImageSampleImplicitLod, spirv.OpImageSampleExplicitLod,
		spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleDrefExplicitLod,
		spirv.OpImageSampleProjImplicitLod, spirv.OpImageSampleProjExplicitLod,
		spirv.OpImageSampleProjDrefImplicitLod, spirv.OpImageSampleProjDrefExplicitLod,
		spirv.OpImageGather, spirv.OpImageDrefGather, spirv.OpImageQueryLod,
		spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSparseSampleExplicitLod,
		spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleDrefExplicitLod,
		spirv.OpImageSparseSampleProjImplicitLod, spirv.OpImageSparseSampleProjExplicitLod,
		spirv.OpImageSparseSampleProjDrefImplicitLod, spirv.OpImageSparseSampleProjDrefExplicitLod,
		spirv.OpImageSparseGather, spirv.OpImageSparseDrefGather,
		spirv.OpImageFetch, spirv.OpImageRead, spirv.OpImageQueryFormat, spirv.OpImageQueryOrder,
		spirv.OpImageQuerySizeLod, spirv.OpImageQuerySize, spirv.OpImageQueryLevels,
		spirv.OpImageQuerySamples, spirv.OpImageSparseFetch, spirv.OpImageSparseRead:
		return 3
	case spirv.OpImageWrite:
		return 1
	}
	return 0
}

// pointerOperand returns the word index of the pointer operand of a memory
// instruction the check covers, or 0.
func pointerOperand(op spirv.Opcode) int {
	switch op {
	case spirv.OpLoad, spirv.OpArrayLength,
		spirv.OpAtomicLoad, spirv.OpAtomicExchange, spirv.OpAtomicCompareExchange,
		spirv.OpAtomicIIncrement, spirv.OpAtomicIDecrement, spirv.OpAtomicIAdd, spirv.OpAtomicISub,
		spirv.OpAtomicSMin, spirv.OpAtomicUMin, spirv.OpAtomicSMax, spirv.OpAtomicUMax,
		spirv.OpAtomicAnd, spirv.OpAtomicOr, spirv.OpAtomicXor, spirv.OpAtomicFAddEXT,
		spirv.OpAtomicFMinEXT, spirv.OpAtomicFMaxEXT:
		return 3
	case spirv.OpStore, spirv.OpAtomicStore:
		return 1
	}
	return 0
}

// descriptorSite recognises an access through a sized descriptor array.
func descriptorSite(sh *shader, in *spirv.Instruction) (site, bool) {
	m := sh.m
	s := site{inst: in}
	var ac *spirv.Instruction
	if k := imageOperand(in.Opcode()); k > 0 && k < len(in.Words) {
		id := in.Words[k]
		for depth := 0; depth < 4; depth++ {
			d := m.Def(id)
			if d == nil {
				return s, false
			}
			switch d.Opcode() {
			case spirv.OpSampledImage, spirv.OpImage:
				s.chain = append([]*spirv.Instruction{d}, s.chain...)
				id = d.Words[3]
				continue
			case spirv.OpLoad:
				s.chain = append([]*spirv.Instruction{d}, s.chain...)
				ac = m.Def(d.Words[3])
			}
			break
		}
		if ac != nil && isPlainVar(m, ac, spirv.StorageClassUniformConstant) {
			return plainSite(m, s, ac), true
		}
		if ac == nil || !isArrayVar(m, ac, spirv.StorageClassUniformConstant) {
			return s, false
		}
	} else if k := pointerOperand(in.Opcode()); k > 0 && k < len(in.Words) {
		ac = m.Def(in.Words[k])
		if ac == nil {
			return s, false
		}
		if ac.Opcode() == spirv.OpImageTexelPointer {
			// An atomic on an image element: the texel pointer goes under
			// the guard with the atomic; its image operand is the access
			// chain into the image array.
			if len(ac.Words) < 6 {
				return s, false
			}
			s.chain = []*spirv.Instruction{ac}
			ac = m.Def(ac.Words[3])
			if ac == nil || !isArrayVar(m, ac, spirv.StorageClassUniformConstant) {
				return s, false
			}
		} else if op := ac.Opcode(); (op == spirv.OpAccessChain || op == spirv.OpInBoundsAccessChain) && len(ac.Words) > 3 {
			if v := m.Def(ac.Words[3]); v != nil && (isPlainVar(m, v, spirv.StorageClassUniform) || isPlainVar(m, v, spirv.StorageClassStorageBuffer)) {
				return plainSite(m, s, v), true
			}
		}
		if len(s.chain) == 0 && !(isArrayVar(m, ac, spirv.StorageClassUniform) || isArrayVar(m, ac, spirv.StorageClassStorageBuffer)) {
			return s, false
		}
	} else {
		return s, false
	}
	variable := m.Def(ac.Words[3])
	s.variable = variable.Words[2]
	arr := m.Def(m.Def(variable.Words[1]).Words[3])
	length, ok := uint32(0), true
	if arr.Opcode() == spirv.OpTypeRuntimeArray {
		s.runtime = true
	} else if length, ok = m.ConstantValue(arr.Words[3]); !ok {
		// A specialization constant: the compare takes the constant
		// itself, which the driver specializes (length is its default).
		length, ok = specLength(m, arr.Words[3])
		s.lengthID = arr.Words[3]
	}
	if !ok {
		sh.warnf("instruction %d: descriptor array length is a specialization constant this pass cannot read: access left unchecked", in.OrigIndex)
		return s, false
	}
	s.length = length
	s.indexID = ac.Words[4]
	s.index, s.constIndex = m.ConstantValue(s.indexID)
	// An array of arrays: flatten the indices (row-major, as the binding's
	// descriptorCount counts the elements).
	for elem := m.Def(arr.Words[2]); elem != nil && elem.Opcode() == spirv.OpTypeArray; elem = m.Def(elem.Words[2]) {
		dim, ok := m.ConstantValue(elem.Words[3])
		k := 5 + len(s.inner)
		if !ok || s.runtime || s.lengthID != 0 || k >= len(ac.Words) {
			sh.warnf("instruction %d: array of descriptor arrays (runtime, specialization-constant length or partly indexed): access left unchecked", in.OrigIndex)
			return s, false
		}
		s.inner = append(s.inner, ac.Words[k])
		s.dims = append(s.dims, dim)
		s.length *= dim
		v, isConst := m.ConstantValue(ac.Words[k])
		s.index, s.constIndex = s.index*dim+v, s.constIndex && isConst
	}
	s.set, s.binding = setAndBinding(m, variable.Words[2])
	s.ac = ac
	return s, true
}

// specLength reports whether id is a 32-bit integer specialization
// constant (OpSpecConstant, or OpSpecConstantOp) and returns its default
// value (0 for OpSpecConstantOp).
func specLength(m *spirv.Module, id uint32) (uint32, bool) {
	def := m.Def(id)
	if def == nil || (def.Opcode() != spirv.OpSpecConstant && def.Opcode() != spirv.OpSpecConstantOp) {
		return 0, false
	}
	t := m.Def(def.ResultType())
	if t == nil || t.Opcode() != spirv.OpTypeInt || len(t.Words) < 4 || t.Words[2] != 32 {
		return 0, false
	}
	if def.Opcode() == spirv.OpSpecConstant && len(def.Words) > 3 {
		return def.Words[3], true
	}
	return 0, true
}

// lengthOperand emits (into e, where needed) the site's array length as a
// 32-bit unsigned operand: a constant, or the specialization constant
// sizing the array (bitcast when it is signed).
func (s site) lengthOperand(e *emitter) uint32 {
	m := e.m
	if s.lengthID == 0 {
		return m.ConstantUint32(s.length)
	}
	if t := m.Def(m.Def(s.lengthID).ResultType()); t.Words[3] == 1 {
		return e.op(spirv.OpBitcast, m.TypeUint32(), s.lengthID)
	}
	return s.lengthID
}

// isPlainVar reports whether v is a global variable of the storage class
// whose type is not an array: a plain binding.
func isPlainVar(m *spirv.Module, v *spirv.Instruction, sc spirv.StorageClass) bool {
	if v.Opcode() != spirv.OpVariable || len(v.Words) < 4 || spirv.StorageClass(v.Words[3]) != sc {
		return false
	}
	ptr := m.Def(v.Words[1])
	if ptr == nil || ptr.Opcode() != spirv.OpTypePointer {
		return false
	}
	t := m.Def(ptr.Words[3])
	return t != nil && t.Opcode() != spirv.OpTypeArray && t.Opcode() != spirv.OpTypeRuntimeArray
}

// plainSite fills site s for an access through the plain binding v: element
// 0 of an array of 1.
func plainSite(m *spirv.Module, s site, v *spirv.Instruction) site {
	s.plain = true
	s.variable = v.Words[2]
	s.length = 1
	s.index, s.constIndex = 0, true // indexID: made when the site is guarded
	s.set, s.binding = setAndBinding(m, v.Words[2])
	return s
}

// isArrayVar reports whether ac is an access chain that indexes (at least)
// into a global variable of the storage class whose type is a sized array.
func isArrayVar(m *spirv.Module, ac *spirv.Instruction, sc spirv.StorageClass) bool {
	op := ac.Opcode()
	if (op != spirv.OpAccessChain && op != spirv.OpInBoundsAccessChain) || len(ac.Words) < 5 {
		return false
	}
	v := m.Def(ac.Words[3])
	if v == nil || v.Opcode() != spirv.OpVariable || spirv.StorageClass(v.Words[3]) != sc {
		return false
	}
	ptr := m.Def(v.Words[1])
	if ptr == nil || ptr.Opcode() != spirv.OpTypePointer {
		return false
	}
	arr := m.Def(ptr.Words[3])
	return arr != nil && (arr.Opcode() == spirv.OpTypeArray || arr.Opcode() == spirv.OpTypeRuntimeArray)
}

// actionFact returns the fact the site's check runs behind: fact, or,
// for an index decided at each action (s.act), the fast variant's switch,
// with the index's action fact and the binding's element fact (every
// element written and alive) noted; the precise variant keeps the whole
// check.
func (p *descriptorChecker) actionFact(fn *function, s site, fact uint32) uint32 {
	if s.act == nil || s.prior != 0 {
		return fact
	}
	sh := p.sh
	sh.noteActionFact(s.set, s.binding, s.length, *s.act, FactIndexAction)
	if s.state&^stateCheckIndex != 0 {
		sh.noteFact(s.set, s.binding, s.length, 1, FactElements)
	}
	return sh.notPrecise(fn)
}

// guard splits block b at the site's access (T, F, M). With s.prior, the
// branch tests that earlier guard's result and F reports nothing.
func (p *descriptorChecker) guard(fn *function, b *spirv.Block, j int, s site) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	idxType, ok := p.guardable(fn, b, j, s)
	if !ok {
		return guarded{}, false
	}
	report, removed := p.prepare(fn, b, s)
	j = indexOf(b.Insts, s.inst)
	u := m.TypeUint32()
	// clampCode is the code the clamped element failed with (clamp's can,
	// which runs before the report; 0 where it does not).
	var idx, code, length, okID, clampCode uint32
	fact := p.actionFact(fn, s, p.fact(fn, s))
	clones, totalClones := 0, 0
	var passed uint32
	g := guardedAccess{
		executed: sh.executed,
		fact:     fact,
		passed:   &passed,
		pre:      append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			if s.prior != 0 {
				okID = s.prior
				return s.prior, true
			}
			idx = flatIndex(head, s, idxType, u)
			length = s.lengthOperand(head)
			okID, code, length = p.check(fn, head, s, idx, length)
			return okID, true
		},
		then: func(then *emitter, base map[uint32]uint32) map[uint32]uint32 {
			// The access is cloned once per path that does it (T, A with a
			// fact, F when a failed access clamps or executes): the clones
			// of a moved load copy its decorations, the last takes them over.
			clones++
			if clones < totalClones {
				return cloneChain(then, s.chain, nil, base)
			}
			return cloneChain(then, s.chain, removed, base)
		},
		access: s.inst,
		report: func(fail *emitter) {
			if s.prior != 0 {
				return // the first guard reported
			}
			stage := sh.stage.emit(fail)
			void := m.TypeVoid()
			args := []uint32{report, m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage}
			if s.state != 0 {
				args = append(args, code)
			}
			args = append(args, m.ConstantUint32(s.set), m.ConstantUint32(s.binding), idx, length)
			if s.state != 0 && clampCode == 0 {
				clampCode = m.ConstantUint32(0) // no clamp ran
			}
			if s.state != 0 {
				args = append(args, clampCode)
			}
			fail.op(spirv.OpFunctionCall, void, args...)
		},
		null:    func() uint32 { return m.ConstantNull(s.inst.ResultType()) },
		onError: sh.onError(),
		silent:  sh.opt.RobustOnly,
	}
	if g.onError == OnErrorClamp { // only a clamping guard reads it (failOnError)
		g.clamp = p.clamp(fn, s, idxType, &clampCode, func(fail *emitter) (uint32, uint32) {
			if s.prior == 0 {
				return idx, length
			}
			// A guard that reuses an earlier one's result computed neither.
			i, n := flatIndex(fail, s, idxType, u), s.lengthOperand(fail)
			if s.state != 0 {
				_, _, n = p.check(fn, fail, s, i, n)
			}
			return i, n
		})
	}
	totalClones = 1
	if fact != 0 {
		totalClones++
	}
	if g.failOnError() != OnErrorSkip {
		totalClones++
	}
	if acc, end, ok := p.selectable(fn, b, s); ok && fact == 0 {
		g.sel = p.selectRead(fn, s, acc, idxType, &idx)
		sh.noteFact(acc.set, acc.binding, acc.length, uint32(end), FactBuffer)
		totalClones++
	}
	blocks, ok := g.split(m, fn.f, b, j)
	if !ok {
		return guarded{}, false
	}
	if s.prior == 0 && len(s.inner) == 0 {
		if fact != 0 {
			okID = passed // the check itself, behind the fact, does not dominate what follows
		}
		p.checked[s.key] = okID
	}
	return guarded{blocks: blocks, checks: s.checks(), record: descriptorRecord(s, g.failOnError()), onError: g.failOnError()}, true
}

// descriptorRecord is the static part of a descriptor guard's records:
// set and binding static, the index (p2) and length (p3) dynamic, and
// where a clamp checks the element it goes to, that element's code (p7).
func descriptorRecord(s site, onError OnError) SiteRecord {
	order := []int{-1, -1, 0, 1}
	if s.state != 0 && onError == OnErrorClamp {
		order = append(order, -1, -1, -1, 2)
	}
	return dynamicRecord([RecordParams]uint32{s.set, s.binding}, order...)
}

// prepare requests the site's library functions and returns its report
// function; the state checks' functions are requested before anything
// moves, so that their ids come first. It then takes the chain's loads
// out of their original position when nothing else uses them (clones go
// under the guard) and returns those it removed.
func (p *descriptorChecker) prepare(fn *function, b *spirv.Block, s site) (report uint32, removed map[uint32]bool) {
	reportName := "gpuav_report_descriptor_index"
	if s.state != 0 {
		reportName = "gpuav_report_descriptor"
	}
	report = p.sh.lib.function(reportName)
	if s.state != 0 && s.prior == 0 {
		if s.runtime {
			p.sh.lib.function("gpuav_check_descriptor")
		} else {
			p.sh.lib.functions("gpuav_desc_binding", "gpuav_desc_element")
		}
	}
	removed = map[uint32]bool{}
	for _, ch := range s.chain {
		if p.uses.of(ch.ResultID()) == 1 {
			removeInst(fn.f, b, ch)
			removed[ch.ResultID()] = true
		}
	}
	return report, removed
}

// clamp says how a failed access of site s is clamped
// (docs/decisions/on-error-behaviours.md): each
// index of the access chain to its array's last element, a runtime
// array's through the count the descriptor state gives. Where the state
// checks the element, the clamped element is checked too: an unwritten
// or destroyed element, or an array of none, has nothing to clamp to and
// the access is skipped, and *code receives the code the clamped element
// failed with (0 where it is fine), for the record. at returns the guard's
// flattened index and length as F sees them. A plain binding has no index
// to clamp (nil).
func (p *descriptorChecker) clamp(fn *function, s site, idxType *spirv.Instruction, code *uint32, at func(fail *emitter) (uint32, uint32)) *clampSpec {
	if s.ac == nil || s.plain {
		return nil
	}
	m := p.sh.m
	var clamped []uint32 // the access chain's indices, outermost first
	return &clampSpec{
		can: func(fail *emitter) uint32 {
			u := m.TypeUint32()
			_, length := at(fail)
			outer := length
			if len(s.inner) > 0 {
				n := s.length
				for _, d := range s.dims {
					n /= d
				}
				outer = m.ConstantUint32(n)
			}
			last := fail.op(spirv.OpISub, u, outer, m.ConstantUint32(1))
			clamped = []uint32{uMin(fail, fail.asUint(s.indexID, idxType.Words[1]), last)}
			flat := clamped[0]
			for k, id := range s.inner {
				c := uMin(fail, fail.asUint(id, m.Def(id).ResultType()), m.ConstantUint32(s.dims[k]-1))
				clamped = append(clamped, c)
				flat = fail.op(spirv.OpIAdd, u, fail.op(spirv.OpIMul, u, flat, m.ConstantUint32(s.dims[k])), c)
			}
			if s.state == 0 {
				return 0 // a sized array: its last element is always there
			}
			ok, c, _ := p.check(fn, fail, s, flat, s.lengthOperand(fail))
			*code = c
			return ok
		},
		operands: func(e *emitter) map[uint32]uint32 {
			cl := s.ac.Clone()
			cl.OrigIndex, cl.OrigOffset = -1, -1
			for k, c := range clamped {
				cl.Words[4+k] = c
			}
			id := m.NewID()
			cl.SetResultID(id)
			copyDecorations(m, s.ac.ResultID(), id, false)
			e.insts = append(e.insts, cl)
			return map[uint32]uint32{s.ac.ResultID(): id}
		},
	}
}

// uMin emits the unsigned minimum of a and b.
func uMin(e *emitter, a, b uint32) uint32 {
	m := e.m
	return e.op(spirv.OpSelect, m.TypeUint32(), e.op(spirv.OpULessThan, m.TypeBool(), a, b), a, b)
}

// guardable returns the index's type, or warns and returns false when the
// site cannot be guarded: in a loop header, an index that is not a 32-bit
// integer, an access that yields a pointer.
func (p *descriptorChecker) guardable(fn *function, b *spirv.Block, j int, s site) (*spirv.Instruction, bool) {
	sh, m := p.sh, p.sh.m
	if sh.inLoopHeader(fn, b, j, "access") {
		return nil, false
	}
	idxType := int32Type(m, s.indexID)
	for _, id := range s.inner {
		if idxType != nil && int32Type(m, id) == nil {
			idxType = nil
		}
	}
	if idxType == nil {
		sh.warnf("instruction %d: descriptor index is not a 32-bit integer: left unchecked", s.inst.OrigIndex)
		return nil, false
	}
	if rt := m.Def(s.inst.ResultType()); rt != nil && rt.Opcode() == spirv.OpTypePointer {
		sh.warnf("instruction %d: access yields a pointer: left unchecked", s.inst.OrigIndex)
		return nil, false
	}
	return idxType, true
}

// flatIndex emits the site's index as a uint (u); for an array of arrays
// the flattened index idx*dim + inner, dimension by dimension.
func flatIndex(head *emitter, s site, idxType *spirv.Instruction, u uint32) uint32 {
	m := head.m
	idx := s.indexID
	if idxType.Words[3] == 1 {
		idx = head.op(spirv.OpBitcast, u, idx)
	}
	for k, id := range s.inner {
		if m.Def(m.Def(id).ResultType()).Words[3] == 1 {
			id = head.op(spirv.OpBitcast, u, id)
		}
		idx = head.op(spirv.OpIAdd, u, head.op(spirv.OpIMul, u, idx, m.ConstantUint32(s.dims[k])), id)
	}
	return idx
}

// check emits the site's check into head: the inline compare with the
// array's length, or the descriptor-state checks. ok is the bool "the
// access may go ahead"; code and n (the length) are what the state report
// takes.
func (p *descriptorChecker) check(fn *function, head *emitter, s site, idx, length uint32) (ok, code, n uint32) {
	switch {
	case s.state == 0:
		return head.op(spirv.OpULessThan, p.sh.m.TypeBool(), idx, length), 0, length
	case !s.runtime:
		return p.elementCheck(fn, head, s, idx)
	}
	return p.stateCheck(head, s, idx)
}

// cloneChain emits into then clones of the loads (or the texel pointer)
// feeding an access, under fresh ids, and returns the renames for the
// access's clone. A clone of a load taken out of its place (removed)
// takes over its decorations.
// base holds renames made before (a clamped access chain).
func cloneChain(then *emitter, chain []*spirv.Instruction, removed map[uint32]bool, base map[uint32]uint32) map[uint32]uint32 {
	m := then.m
	renamed := maps.Clone(base)
	if renamed == nil {
		renamed = map[uint32]uint32{}
	}
	for _, ch := range chain {
		cl := ch.Clone()
		cl.OrigIndex, cl.OrigOffset = -1, -1
		renameOperands(m, cl, renamed)
		nid := m.NewID()
		renamed[ch.ResultID()] = nid
		cl.SetResultID(nid)
		then.insts = append(then.insts, cl)
		copyDecorations(m, ch.ResultID(), nid, removed[ch.ResultID()])
	}
	return renamed
}
