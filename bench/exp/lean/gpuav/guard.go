package gpuav

import (
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// This file holds the shape the checking passes share: an access is split
// out of its block into
//
//	head: the instructions before it, the check, a selection on its result
//	T:    the access (a clone with a fresh result id), when the check passed
//	F:    the report, when it failed
//	M:    a phi of the access's result (a null value from F) and the rest
//	      of the block
//
// so that a failed access is skipped, never done.

// headerBlockAccess reports whether block b is a loop header (its merge
// instruction comes after the access at j): the split would move the
// OpLoopMerge away from the header, so the access is left unchecked, with
// a warning naming what (e.g. "buffer access").
func (c *context) headerBlockAccess(b *spirv.Block, j int, what string) bool {
	for _, x := range b.Insts[j+1:] {
		if x.Opcode() == spirv.OpLoopMerge {
			c.warnf("instruction %d: %s in a loop header block: left unchecked", b.Insts[j].OrigIndex, what)
			return true
		}
	}
	return false
}

// libFunctions returns the ids of the named library functions, linking
// them in; when one is missing it warns that the instruction orig is left
// unchecked and returns false.
func (c *context) libFunctions(orig int, names ...string) ([]uint32, bool) {
	ids := make([]uint32, len(names))
	for i, name := range names {
		id, err := c.function(name)
		if err != nil {
			c.warnf("instruction %d: %v: left unchecked", orig, err)
			return nil, false
		}
		ids[i] = id
	}
	return ids, true
}

// guardedAccess describes one split: what goes in each block. Ids are
// taken in the order the passes always took them: T, F, M, then what
// check emits, then the clones of then, then the access's result.
type guardedAccess struct {
	// pre is the head block's instructions before the check (usually
	// b.Insts[:j]).
	pre []*spirv.Instruction
	// check emits the check into head and returns the boolean id that is
	// true when the access may go ahead, or false to leave the access
	// unchecked (having warned; b is then left as it was).
	check func(head *emitter) (uint32, bool)
	// then emits what the access needs in T before it (moved or cloned
	// instructions) and returns the ids to rename in the access's clone
	// (nil: none). It may be nil.
	then func(t *emitter) map[uint32]uint32
	// access is the original access; T holds its clone.
	access *spirv.Instruction
	// report emits the report into F.
	report func(fail *emitter)
	// null returns the value the access's result takes on F (called only
	// when the access has a result, after F is emitted).
	null func() uint32
}

// splitGuarded splits block b at the access at j as g says: b becomes the
// head, and the new blocks T, F and M, to go right after it, are returned.
// Phis that named b as a predecessor name M. It returns false when g.check
// does.
func (c *context) splitGuarded(f *spirv.Function, b *spirv.Block, j int, g guardedAccess) ([]*spirv.Block, bool) {
	m := c.m
	if rt := m.Def(g.access.ResultType()); g.access.Opcode() == spirv.OpLoad && rt != nil &&
		(rt.Opcode() == spirv.OpTypeVector || rt.Opcode() == spirv.OpTypeFloat || rt.Opcode() == spirv.OpTypeInt) {
		return c.splitLean(f, b, j, g)
	}
	// M takes over b's instructions from j on (slot j becomes the access's
	// phi, or is dropped) without copying them: copying the rest of the
	// block at every split made a block with many accesses quadratic. The
	// head gets an array of its own (Clip), so appending to it cannot
	// overwrite them.
	rest := b.Insts[j:]
	post := rest[1:]
	tID, fID, mID := m.NewID(), m.NewID(), m.NewID()
	head := &emitter{m: m, insts: slices.Clip(g.pre)}
	ok, checked := g.check(head)
	if !checked {
		return nil, false
	}
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, ok, tID, fID)
	b.Insts = head.insts

	then := &emitter{m: m}
	var renamed map[uint32]uint32
	if g.then != nil {
		renamed = g.then(then)
	}
	in := g.access
	access := in.Clone()
	if renamed != nil {
		c.renameOperands(access, renamed)
	}
	var accessID uint32
	if in.ResultID() != 0 {
		accessID = m.NewID()
		access.SetResultID(accessID)
		c.copyDecorations(in.ResultID(), accessID, false)
	}
	then.insts = append(then.insts, access)
	then.void(spirv.OpBranch, mID)

	fail := &emitter{m: m}
	g.report(fail)
	fail.void(spirv.OpBranch, mID)

	merge := &emitter{m: m, insts: post}
	if accessID != 0 {
		rest[0] = spirv.NewInstruction(spirv.OpPhi, in.ResultType(), in.ResultID(), accessID, tID, g.null(), fID)
		merge.insts = rest
	}
	c.retargetPhis(f, post, b.ID(), mID)
	c.added++
	return []*spirv.Block{
		{Label: spirv.NewInstruction(spirv.OpLabel, tID), Insts: then.insts},
		{Label: spirv.NewInstruction(spirv.OpLabel, fID), Insts: fail.insts},
		{Label: spirv.NewInstruction(spirv.OpLabel, mID), Insts: merge.insts},
	}, true
}

// splitLean (experiment lean) guards a load without a block for it: the
// load runs in the head (a real design would clamp its offset into range),
// its result is selected against the null value on the check, and only
// the report is branched to:
//
//	head: ...check; %v = the load; %r = OpSelect %ok %v %null
//	      OpSelectionMerge %M; OpBranchConditional %ok %M %F
//	F:    the report; OpBranch %M
//	M:    the rest of the block
func (c *context) splitLean(f *spirv.Function, b *spirv.Block, j int, g guardedAccess) ([]*spirv.Block, bool) {
	m := c.m
	rest := b.Insts[j:]
	post := rest[1:]
	fID, mID := m.NewID(), m.NewID()
	head := &emitter{m: m, insts: slices.Clip(g.pre)}
	ok, checked := g.check(head)
	if !checked {
		return nil, false
	}
	var renamed map[uint32]uint32
	if g.then != nil {
		renamed = g.then(head)
	}
	in := g.access
	access := in.Clone()
	if renamed != nil {
		c.renameOperands(access, renamed)
	}
	accessID := m.NewID()
	access.SetResultID(accessID)
	c.copyDecorations(in.ResultID(), accessID, false)
	head.insts = append(head.insts, access)
	fail := &emitter{m: m}
	g.report(fail)
	fail.void(spirv.OpBranch, mID)
	cond := ok
	if rt := m.Def(in.ResultType()); rt.Opcode() == spirv.OpTypeVector {
		n := rt.Words[3]
		parts := make([]uint32, n)
		for i := range parts {
			parts[i] = ok
		}
		cond = head.op(spirv.OpCompositeConstruct, m.TypeVector(m.TypeBool(), n), parts...)
	}
	head.insts = append(head.insts, spirv.NewInstruction(spirv.OpSelect, in.ResultType(), in.ResultID(), cond, accessID, g.null()))
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, ok, mID, fID)
	b.Insts = head.insts
	c.retargetPhis(f, post, b.ID(), mID)
	c.added++
	return []*spirv.Block{
		{Label: spirv.NewInstruction(spirv.OpLabel, fID), Insts: fail.insts},
		{Label: spirv.NewInstruction(spirv.OpLabel, mID), Insts: post},
	}, true
}
