package gpuav

import (
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
func descriptorIndexPass(c *context) {
	safe := newSafeIndex(c.m)  // safe_index.go: indices provably in range
	same := newSameValues(c.m) // same_value.go: index ids that hold one value
	for _, f := range c.m.Functions {
		uses := useCounts(c.m, f)
		d := newDescHoist(c.m)
		for bi := 0; bi < len(f.Blocks); bi++ {
			b := f.Blocks[bi]
			if !d.cont[b.ID()] {
				clear(d.checked) // a new block of the original code
			}
			for j := 0; j < len(b.Insts); j++ {
				s, ok := c.descriptorSite(b.Insts[j])
				if !ok {
					continue
				}
				// The descriptor-state path (descriptor_state.go) covers
				// runtime arrays and the uninitialized/destroyed checks.
				s.state = c.stateChecks(s)
				if s.state == 0 && (s.runtime || s.plain || !c.opt.enabled(CheckDescriptorIndexOOB)) {
					continue
				}
				if !s.runtime && (s.constIndex && s.index < s.length || len(s.inner) == 0 && safe.inBounds(f, b, s.indexID, s.length)) {
					// Provably in bounds: no index check, the element
					// checks (if any) remain.
					// Experiment ideal: the element checks of a provably
					// in-range index are decided per binding, outside the
					// access (not emitted here: the floor of that design).
					continue
				}
				if s.plain {
					s.indexID = c.m.ConstantUint32(0)
				}
				key := [2]uint32{s.variable, same.canon(s.indexID)}
				if len(s.inner) == 0 {
					s.prior = d.checked[key]
				}
				newBlocks, okID, ok := c.guard(f, b, j, s, uses, d)
				if !ok {
					continue
				}
				if s.prior == 0 && len(s.inner) == 0 {
					d.checked[key] = okID
				}
				d.cont[newBlocks[len(newBlocks)-1].ID()] = true
				// Skip T (the guarded clone) and F; the outer loop goes on
				// with the merge block, which holds the rest of b.
				f.Blocks = append(f.Blocks[:bi+1], append(newBlocks, f.Blocks[bi+1:]...)...)
				bi += len(newBlocks) - 1
				break
			}
		}
		d.h.splice(f)
	}
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
	// prior is the "ok" of an earlier guard of the same variable and index
	// in the same original block: reused, no compare, no report.
	prior uint32
}

// imageOperand returns the word index of the image operand of an image
// instruction the check covers (seed 000's list), or 0.
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
func (c *context) descriptorSite(in *spirv.Instruction) (site, bool) {
	m := c.m
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
			return c.plainSite(s, ac), true
		}
		if ac == nil || !c.isArrayVar(ac, spirv.StorageClassUniformConstant) {
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
			if ac == nil || !c.isArrayVar(ac, spirv.StorageClassUniformConstant) {
				return s, false
			}
		} else if op := ac.Opcode(); (op == spirv.OpAccessChain || op == spirv.OpInBoundsAccessChain) && len(ac.Words) > 3 {
			if v := m.Def(ac.Words[3]); v != nil && (isPlainVar(m, v, spirv.StorageClassUniform) || isPlainVar(m, v, spirv.StorageClassStorageBuffer)) {
				return c.plainSite(s, v), true
			}
		}
		if len(s.chain) == 0 && !(c.isArrayVar(ac, spirv.StorageClassUniform) || c.isArrayVar(ac, spirv.StorageClassStorageBuffer)) {
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
	} else {
		length, ok = m.ConstantValue(arr.Words[3])
	}
	if !ok {
		c.warnf("instruction %d: descriptor array length is a specialization constant: access left unchecked", in.OrigIndex)
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
		if !ok || s.runtime || k >= len(ac.Words) {
			c.warnf("instruction %d: array of descriptor arrays (runtime, specialization-constant length or partly indexed): access left unchecked", in.OrigIndex)
			return s, false
		}
		s.inner = append(s.inner, ac.Words[k])
		s.dims = append(s.dims, dim)
		s.length *= dim
		v, isConst := m.ConstantValue(ac.Words[k])
		s.index, s.constIndex = s.index*dim+v, s.constIndex && isConst
	}
	if set, ok := m.Decoration(variable.Words[2], spirv.DecorationDescriptorSet); ok && len(set) > 0 {
		s.set = set[0]
	}
	if bnd, ok := m.Decoration(variable.Words[2], spirv.DecorationBinding); ok && len(bnd) > 0 {
		s.binding = bnd[0]
	}
	return s, true
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
func (c *context) plainSite(s site, v *spirv.Instruction) site {
	m := c.m
	s.plain = true
	s.variable = v.Words[2]
	s.length = 1
	s.index, s.constIndex = 0, true // indexID: made when the site is guarded
	if set, ok := m.Decoration(v.Words[2], spirv.DecorationDescriptorSet); ok && len(set) > 0 {
		s.set = set[0]
	}
	if bnd, ok := m.Decoration(v.Words[2], spirv.DecorationBinding); ok && len(bnd) > 0 {
		s.binding = bnd[0]
	}
	return s
}

// isArrayVar reports whether ac is an access chain that indexes (at least)
// into a global variable of the storage class whose type is a sized array.
func (c *context) isArrayVar(ac *spirv.Instruction, sc spirv.StorageClass) bool {
	op := ac.Opcode()
	if (op != spirv.OpAccessChain && op != spirv.OpInBoundsAccessChain) || len(ac.Words) < 5 {
		return false
	}
	v := c.m.Def(ac.Words[3])
	if v == nil || v.Opcode() != spirv.OpVariable || spirv.StorageClass(v.Words[3]) != sc {
		return false
	}
	ptr := c.m.Def(v.Words[1])
	if ptr == nil || ptr.Opcode() != spirv.OpTypePointer {
		return false
	}
	arr := c.m.Def(ptr.Words[3])
	return arr != nil && (arr.Opcode() == spirv.OpTypeArray || arr.Opcode() == spirv.OpTypeRuntimeArray)
}

// useCounts counts the uses of each id inside a function.
func useCounts(m *spirv.Module, f *spirv.Function) map[uint32]int {
	uses := map[uint32]int{}
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			r := in.ResultID()
			_ = spirv.ForEachID(in.Words, m, func(i int) {
				if in.Words[i] != r || i > 2 {
					uses[in.Words[i]]++
				}
			})
		}
	}
	return uses
}

// guard splits block b at instruction j to guard site s. It returns the new
// blocks (T, F, M) and the boolean id the branch tests, or false when the
// site is left unchecked. With s.prior, the branch tests that id and F
// reports nothing.
func (c *context) guard(f *spirv.Function, b *spirv.Block, j int, s site, uses map[uint32]int, d *descHoist) ([]*spirv.Block, uint32, bool) {
	m := c.m
	if c.headerBlockAccess(b, j, "access") {
		return nil, 0, false
	}
	idxType := m.Def(m.Def(s.indexID).ResultType())
	if idxType == nil || idxType.Opcode() != spirv.OpTypeInt || idxType.Words[2] != 32 {
		c.warnf("instruction %d: descriptor index is not a 32-bit integer: left unchecked", s.inst.OrigIndex)
		return nil, 0, false
	}
	for _, id := range s.inner {
		if t := m.Def(m.Def(id).ResultType()); t == nil || t.Opcode() != spirv.OpTypeInt || t.Words[2] != 32 {
			c.warnf("instruction %d: descriptor index is not a 32-bit integer: left unchecked", s.inst.OrigIndex)
			return nil, 0, false
		}
	}
	resultType := s.inst.ResultType()
	if rt := m.Def(resultType); rt != nil && rt.Opcode() == spirv.OpTypePointer {
		c.warnf("instruction %d: access yields a pointer: left unchecked", s.inst.OrigIndex)
		return nil, 0, false
	}
	reportName := "gpuav_report_descriptor_index"
	if s.state != 0 {
		reportName = "gpuav_report_descriptor"
	}
	report, err := c.function(reportName)
	if err != nil {
		c.warnf("instruction %d: %v: left unchecked", s.inst.OrigIndex, err)
		return nil, 0, false
	}

	// The state checks' library functions must link before anything is
	// moved: a check that cannot be added leaves the access as it was.
	if s.state != 0 && s.prior == 0 {
		need := []string{"gpuav_check_descriptor"}
		if !s.runtime {
			need = []string{"gpuav_desc_binding", "gpuav_desc_element"}
		}
		if _, linked := c.libFunctions(s.inst.OrigIndex, need...); !linked {
			return nil, 0, false
		}
	}

	// Take the chain's loads out of the original position when nothing
	// else uses them; clones go under the guard.
	removed := map[uint32]bool{}
	for _, ch := range s.chain {
		if uses[ch.ResultID()] == 1 {
			removeInst(f, ch)
			removed[ch.ResultID()] = true
		}
	}
	j = indexOf(b.Insts, s.inst)
	u := m.TypeUint32()
	var idx, code, length, okID uint32
	blocks, ok := c.splitGuarded(f, b, j, guardedAccess{
		pre: append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			if s.prior != 0 {
				okID = s.prior
				return s.prior, true
			}
			idx = s.indexID
			if idxType.Words[3] == 1 {
				idx = head.op(spirv.OpBitcast, u, idx)
			}
			for k, id := range s.inner { // idx = idx*dim + inner index
				if m.Def(m.Def(id).ResultType()).Words[3] == 1 {
					id = head.op(spirv.OpBitcast, u, id)
				}
				idx = head.op(spirv.OpIAdd, u, head.op(spirv.OpIMul, u, idx, m.ConstantUint32(s.dims[k])), id)
			}
			length = m.ConstantUint32(s.length)
			if s.state == 0 {
				okID = head.op(spirv.OpULessThan, m.TypeBool(), idx, length)
				return okID, true
			}
			if !s.runtime {
				var linked bool
				okID, code, length, linked = c.elementCheck(head, s, idx, d)
				return okID, linked
			}
			var err error
			okID, code, length, err = c.stateCheck(head, s, idx)
			if err != nil {
				c.warnf("instruction %d: %v: left unchecked", s.inst.OrigIndex, err)
				return 0, false
			}
			return okID, true
		},
		// T: the access, with its descriptor loads cloned.
		then: func(then *emitter) map[uint32]uint32 {
			renamed := map[uint32]uint32{}
			for _, ch := range s.chain {
				cl := ch.Clone()
				cl.OrigIndex, cl.OrigOffset = -1, -1
				c.renameOperands(cl, renamed)
				nid := m.NewID()
				renamed[ch.ResultID()] = nid
				cl.SetResultID(nid)
				then.insts = append(then.insts, cl)
				c.copyDecorations(ch.ResultID(), nid, removed[ch.ResultID()])
			}
			return renamed
		},
		access: s.inst,
		report: func(fail *emitter) {
			if s.prior != 0 {
				return // the first guard reported
			}
			stage := c.stageInfo(fail)
			if s.state != 0 {
				fail.op(spirv.OpFunctionCall, m.TypeVoid(), report,
					m.ConstantUint32(c.opt.ShaderID), m.ConstantUint32(uint32(s.inst.OrigIndex)), stage, code,
					m.ConstantUint32(s.set), m.ConstantUint32(s.binding), idx, length)
			} else {
				fail.op(spirv.OpFunctionCall, m.TypeVoid(), report,
					m.ConstantUint32(c.opt.ShaderID), m.ConstantUint32(uint32(s.inst.OrigIndex)), stage,
					m.ConstantUint32(s.set), m.ConstantUint32(s.binding), idx, length)
			}
		},
		null: func() uint32 { return m.ConstantNull(resultType) },
	})
	return blocks, okID, ok
}

// copyDecorations gives to's result the decorations of from's (NonUniform,
// RelaxedPrecision...); with move, from's decorations are retargeted
// instead, because from no longer exists.
func (c *context) copyDecorations(from, to uint32, move bool) {
	for _, d := range c.m.Decorations(from) {
		if move {
			d.Words[1] = to
			continue
		}
		cl := d.Clone()
		cl.OrigIndex, cl.OrigOffset = -1, -1
		cl.Words[1] = to
		c.m.AddAnnotation(cl)
	}
}

// renameOperands replaces operand ids (not the result) found in renamed.
func (c *context) renameOperands(in *spirv.Instruction, renamed map[uint32]uint32) {
	r := in.ResultID()
	_ = spirv.ForEachID(in.Words, c.m, func(i int) {
		if i <= 2 && in.Words[i] == r {
			return
		}
		if n, ok := renamed[in.Words[i]]; ok {
			in.Words[i] = n
		}
	})
}

func indexOf(insts []*spirv.Instruction, in *spirv.Instruction) int {
	for i, x := range insts {
		if x == in {
			return i
		}
	}
	return -1
}

func removeInst(f *spirv.Function, in *spirv.Instruction) {
	for _, b := range f.Blocks {
		if i := indexOf(b.Insts, in); i >= 0 {
			b.Insts = append(b.Insts[:i], b.Insts[i+1:]...)
			return
		}
	}
}
