package gpuav

import (
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// This file holds the select form of a read (docs/decisions/reads-as-selects.md):
// in the fast variant, a read through a descriptor array whose index
// check is the only check left, and whose binding's fact proves every
// element readable at the read's offset, always reads (an element the
// index selects: the index itself where it passed, element 0 where it
// failed), its value is selected to zero where the check failed, and only
// the report is behind a branch. The precise variant keeps the guard.

// selectRead is what a guard needs to build the select form of its read.
type selectRead struct {
	// fast is true in the fast variant only (!precise, in the function's
	// entry block): the head branches on it between this form and the
	// guard, and each variant's pruning keeps one.
	fast uint32
	// operands emits the read's access chains with the index selected
	// (ok ? index : a valid element) and returns the renames the read's
	// clone takes.
	operands func(e *emitter, ok uint32) map[uint32]uint32
	// read receives the read's clone, which needs no check of its own.
	read func(in *spirv.Instruction)
}

// splitSelect is split for a guard with a select form:
//
//	head: the instructions before it, the check (%ok)
//	      OpSelectionMerge %M0; OpBranchConditional %fast %S %G
//	S:    the access chains with the index selected, the read (a clone),
//	      %r = OpSelect %ok %value %null
//	      OpSelectionMerge %SM; OpBranchConditional %ok %SM %SF
//	SF:   the report; OpBranch %SM
//	SM:   OpBranch %M0
//	G:    OpSelectionMerge %M; OpBranchConditional %ok %T %F
//	T, F: as split's; M: their phi; OpBranch %M0
//	M0:   a phi of %r and M's result, and the rest of the block
//
// A guard whose report writes nothing (one that reuses an earlier guard's
// result) has no SF and SM: S branches to M0.
func (g guardedAccess) splitSelect(m *spirv.Module, f *spirv.Function, b *spirv.Block, j int) ([]*spirv.Block, bool) {
	rest := b.Insts[j:]
	post := rest[1:]
	in := g.access
	sID, gID, m0ID := m.NewID(), m.NewID(), m.NewID()
	ok, checked := g.head(m, b, m0ID, sID, gID, g.sel.fast)
	if !checked {
		return nil, false
	}
	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }

	s := &emitter{m: m}
	read := g.cloneAccess(m, s, g.sel.operands(s, ok))
	g.sel.read(s.insts[len(s.insts)-1])
	read = selectValue(s, in.ResultType(), ok, read, g.null())
	sf := &emitter{m: m}
	if !g.silent {
		g.report(sf)
	}
	var blocks []*spirv.Block
	sEnd := sID
	if len(sf.insts) == 0 {
		s.void(spirv.OpBranch, m0ID)
		blocks = append(blocks, &spirv.Block{Label: label(sID), Insts: s.insts})
	} else {
		smID, sfID := m.NewID(), m.NewID()
		s.void(spirv.OpSelectionMerge, smID, uint32(spirv.SelectionControlNone))
		s.void(spirv.OpBranchConditional, ok, smID, sfID)
		sf.void(spirv.OpBranch, smID)
		blocks = append(blocks, &spirv.Block{Label: label(sID), Insts: s.insts}, &spirv.Block{Label: label(sfID), Insts: sf.insts},
			&spirv.Block{Label: label(smID), Insts: []*spirv.Instruction{spirv.NewInstruction(spirv.OpBranch, m0ID)}})
		sEnd = smID
	}

	tID, fID, mID := m.NewID(), m.NewID(), m.NewID()
	gh := &emitter{m: m}
	gh.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	gh.void(spirv.OpBranchConditional, ok, tID, fID)
	guarded, phi := g.guardedSide(m, tID, fID, mID, m0ID)
	merge := &emitter{m: m, insts: post}
	if in.ResultID() != 0 {
		rest[0] = spirv.NewInstruction(spirv.OpPhi, in.ResultType(), in.ResultID(), read, sEnd, phi, mID)
		merge.insts = rest
	}
	retargetPhis(f, post, b.ID(), m0ID)
	blocks = append(blocks, &spirv.Block{Label: label(gID), Insts: gh.insts})
	blocks = append(blocks, guarded...)
	return append(blocks, &spirv.Block{Label: label(m0ID), Insts: merge.insts}), true
}

// selectValue emits ok ? value : null for a scalar or vector value (a
// vector takes a vector of ok, as SPIR-V before 1.4 requires).
func selectValue(e *emitter, typ, ok, value, null uint32) uint32 {
	m := e.m
	cond := ok
	if t := m.Def(typ); t.Opcode() == spirv.OpTypeVector {
		n := t.Words[3]
		oks := make([]uint32, n)
		for i := range oks {
			oks[i] = ok
		}
		cond = e.op(spirv.OpCompositeConstruct, m.TypeVector(m.TypeBool(), n), oks...)
	}
	return e.op(spirv.OpSelect, typ, cond, value, null)
}

// selectable reports whether the read at site s can take the select form
// in the fast variant, and returns its buffer access and the largest end
// (byte offset + size) it reaches: a plain OpLoad (no volatile or coherent
// memory, no memory operand but Aligned and Nontemporal) of a scalar or
// vector, through a sized array of uniform or storage buffer blocks whose
// only check here is the index against the array's length, whose offset
// has a static bound (so that the binding's fact, every element written,
// alive and bound to at least that many bytes, covers the element the
// select reads), with buffer_oob on and a failed access skipped.
func (p *descriptorChecker) selectable(fn *function, b *spirv.Block, s site) (bufferAccess, uint64, bool) {
	sh, m, in := p.sh, p.sh.m, s.inst
	if in.Opcode() != spirv.OpLoad || s.state != 0 || s.runtime || s.plain || s.lengthID != 0 ||
		len(s.inner) != 0 || len(s.chain) != 0 || s.ac == nil || sh.onError() != OnErrorSkip || sh.opt.RobustOnly ||
		!sh.opt.enabled(CheckBufferOOB) || !scalarOrVector(m, in.ResultType()) {
		return bufferAccess{}, 0, false
	}
	if len(in.Words) > 4 && in.Words[4]&^uint32(spirv.MemoryAccessAligned|spirv.MemoryAccessNontemporal) != 0 {
		return bufferAccess{}, 0, false
	}
	acc, err := bufferAccessOf(m, sh.an.layoutSizes(), in.Words[3])
	if err != nil || acc.runtime || acc.length != s.length || len(acc.chain) == 0 || acc.chain[0] != s.ac ||
		acc.chain[len(acc.chain)-1].ResultID() != in.Words[3] || volatileOrCoherent(m, s.variable) {
		return bufferAccess{}, 0, false
	}
	end, ok := boundedEnd(sh, fn, b, acc)
	return acc, end, ok
}

// scalarOrVector reports whether typ is a numeric scalar or vector (what
// OpSelect takes in every SPIR-V version).
func scalarOrVector(m *spirv.Module, typ uint32) bool {
	t := m.Def(typ)
	if t != nil && t.Opcode() == spirv.OpTypeVector {
		t = m.Def(t.Words[2])
	}
	return t != nil && (t.Opcode() == spirv.OpTypeInt || t.Opcode() == spirv.OpTypeFloat)
}

// volatileOrCoherent reports whether the buffer variable, or a member of
// its block, is decorated Volatile or Coherent: such a read is never
// moved out of its guard.
func volatileOrCoherent(m *spirv.Module, variable uint32) bool {
	qualified := func(d uint32) bool {
		return d == uint32(spirv.DecorationVolatile) || d == uint32(spirv.DecorationCoherent)
	}
	for _, d := range m.Decorations(variable) {
		if qualified(d.Words[2]) {
			return true
		}
	}
	v := m.Def(variable)
	block := m.Def(m.Def(v.ResultType()).Words[3]) // the array
	blockID := block.Words[2]
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		if in.Opcode() == spirv.OpMemberDecorate && len(in.Words) > 3 && in.Words[1] == blockID && qualified(in.Words[3]) {
			return true
		}
	}
	return false
}

// selectRead builds the select form of site s's read, whose buffer access
// is acc: the fast variant's read goes to the element the index selects
// (the index where ok, else element 0, which the binding's fact proves
// written, alive and large enough), through clones of acc's access chains.
// idx is the guard's index as a uint (0 where the guard reuses an earlier
// one's result and computed none).
func (p *descriptorChecker) selectRead(fn *function, s site, acc bufferAccess, idxType *spirv.Instruction, idx *uint32) *selectRead {
	sh, m := p.sh, p.sh.m
	return &selectRead{
		fast: sh.notPrecise(fn),
		operands: func(e *emitter, ok uint32) map[uint32]uint32 {
			i := *idx
			if i == 0 {
				i = e.asUint(s.indexID, idxType.Words[1])
			}
			u := m.TypeUint32()
			selected := e.op(spirv.OpSelect, u, ok, i, m.ConstantUint32(0))
			renamed := map[uint32]uint32{}
			for n, ac := range acc.chain {
				cl := ac.Clone()
				cl.OrigIndex, cl.OrigOffset = -1, -1
				renameOperands(m, cl, renamed)
				if n == 0 {
					cl.Words[4] = selected
				}
				id := m.NewID()
				cl.SetResultID(id)
				copyDecorations(m, ac.ResultID(), id, false)
				e.insts = append(e.insts, cl)
				renamed[ac.ResultID()] = id
			}
			return renamed
		},
		read: func(in *spirv.Instruction) {
			if sh.decided == nil {
				sh.decided = map[*spirv.Instruction]bool{}
			}
			sh.decided[in] = true
		},
	}
}
