package gpuav

import (
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// This file holds the guard the checking passes share: an access is split
// out of its block into
//
//	head: the instructions before it, the check, a selection on its result
//	T:    the access (a clone with a fresh result id), when the check passed
//	F:    the report, when it failed
//	M:    a phi of the access's result (a null value from F) and the rest
//	      of the block
//
// so that a failed access is skipped, never done. This is the "skip" form
// of a guard. A "clamp" form (F computes an in-range operand and does the
// access with it) or an "execute" form (F reports, then M does the access
// anyway) would be further fields here, filled by the passes that can
// offer them (docs/decisions/pass-framework.md).

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

// split splits block b of f at the access at j as g says: b becomes the
// head, and the new blocks T, F and M, to go right after it, are returned.
// Phis that named b as a predecessor name M. It returns false when g.check
// does.
func (g guardedAccess) split(m *spirv.Module, f *spirv.Function, b *spirv.Block, j int) ([]*spirv.Block, bool) {
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
		renameOperands(m, access, renamed)
	}
	var accessID uint32
	if in.ResultID() != 0 {
		accessID = m.NewID()
		access.SetResultID(accessID)
		copyDecorations(m, in.ResultID(), accessID, false)
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
	retargetPhis(f, post, b.ID(), mID)
	return []*spirv.Block{
		{Label: spirv.NewInstruction(spirv.OpLabel, tID), Insts: then.insts},
		{Label: spirv.NewInstruction(spirv.OpLabel, fID), Insts: fail.insts},
		{Label: spirv.NewInstruction(spirv.OpLabel, mID), Insts: merge.insts},
	}, true
}
