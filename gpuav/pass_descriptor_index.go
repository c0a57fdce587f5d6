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
// load or sample yields zero, a store or atomic does nothing.
func descriptorIndexPass(c *context) {
	safe := newSafeIndex(c.m) // safe_index.go: indices provably in range
	for _, f := range c.m.Functions {
		uses := useCounts(c.m, f)
		for bi := 0; bi < len(f.Blocks); bi++ {
			b := f.Blocks[bi]
			for j := 0; j < len(b.Insts); j++ {
				s, ok := c.descriptorSite(b.Insts[j])
				if !ok {
					continue
				}
				// The descriptor-state path (descriptor_state.go) covers
				// runtime arrays and the uninitialized/destroyed checks.
				s.state = c.stateChecks(s)
				if s.state == 0 && (s.runtime || !c.opt.enabled(CheckDescriptorIndexOOB)) {
					continue
				}
				if s.state == 0 && (s.constIndex && s.index < s.length || safe.inBounds(f, b, s.indexID, s.length)) {
					continue // provably in bounds
				}
				newBlocks, ok := c.guard(f, b, j, s, uses)
				if !ok {
					continue
				}
				// Skip T (the guarded clone) and F; the outer loop goes on
				// with the merge block, which holds the rest of b.
				f.Blocks = append(f.Blocks[:bi+1], append(newBlocks, f.Blocks[bi+1:]...)...)
				bi += len(newBlocks) - 1
				break
			}
		}
	}
}

// site is one access through a descriptor-array element.
type site struct {
	inst       *spirv.Instruction   // the access (sample, load, store...)
	chain      []*spirv.Instruction // loads feeding it, outermost first
	indexID    uint32
	constIndex bool
	index      uint32
	length     uint32
	set        uint32
	binding    uint32
	runtime    bool   // a runtime array: the length comes from the descriptor state
	state      uint32 // checks done through gpuav_check_descriptor (stateChecks), 0: inline compare
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
		if ac == nil || !c.isArrayVar(ac, spirv.StorageClassUniformConstant) {
			return s, false
		}
	} else if k := pointerOperand(in.Opcode()); k > 0 && k < len(in.Words) {
		ac = m.Def(in.Words[k])
		if ac == nil || !(c.isArrayVar(ac, spirv.StorageClassUniform) || c.isArrayVar(ac, spirv.StorageClassStorageBuffer)) {
			return s, false
		}
	} else {
		return s, false
	}
	variable := m.Def(ac.Words[3])
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
	if set, ok := m.Decoration(variable.Words[2], spirv.DecorationDescriptorSet); ok && len(set) > 0 {
		s.set = set[0]
	}
	if bnd, ok := m.Decoration(variable.Words[2], spirv.DecorationBinding); ok && len(bnd) > 0 {
		s.binding = bnd[0]
	}
	return s, true
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
// blocks (T, F, M), or false when the site is left unchecked.
func (c *context) guard(f *spirv.Function, b *spirv.Block, j int, s site, uses map[uint32]int) ([]*spirv.Block, bool) {
	m := c.m
	if c.headerBlockAccess(b, j, "access") {
		return nil, false
	}
	idxType := m.Def(m.Def(s.indexID).ResultType())
	if idxType == nil || idxType.Opcode() != spirv.OpTypeInt || idxType.Words[2] != 32 {
		c.warnf("instruction %d: descriptor index is not a 32-bit integer: left unchecked", s.inst.OrigIndex)
		return nil, false
	}
	resultType := s.inst.ResultType()
	if rt := m.Def(resultType); rt != nil && rt.Opcode() == spirv.OpTypePointer {
		c.warnf("instruction %d: access yields a pointer: left unchecked", s.inst.OrigIndex)
		return nil, false
	}
	reportName := "gpuav_report_descriptor_index"
	if s.state != 0 {
		reportName = "gpuav_report_descriptor"
	}
	report, err := c.function(reportName)
	if err != nil {
		c.warnf("instruction %d: %v: left unchecked", s.inst.OrigIndex, err)
		return nil, false
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
	var idx, code, length uint32
	return c.splitGuarded(f, b, j, guardedAccess{
		pre: append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			idx = s.indexID
			if idxType.Words[3] == 1 {
				idx = head.op(spirv.OpBitcast, u, idx)
			}
			length = m.ConstantUint32(s.length)
			if s.state == 0 {
				return head.op(spirv.OpULessThan, m.TypeBool(), idx, length), true
			}
			var ok uint32
			var err error
			ok, code, length, err = c.stateCheck(head, s, idx)
			if err != nil {
				c.warnf("instruction %d: %v: left unchecked", s.inst.OrigIndex, err)
				return 0, false
			}
			return ok, true
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
