package gpuav

import "github.com/gpuav-dbg/gpuav-dbg/spirv"

// This file holds the guard the checking passes share: an access is split
// out of its block into
//
//	head: the instructions before it, the check, a selection on its result
//	T:    the access (a clone with a fresh result id), when the check passed
//	F:    the report, when it failed
//	M:    a phi of the access's result (a null value from F) and the rest
//	      of the block
//
// so that a failed access is skipped, never done: the "skip" form of a
// guard (OnErrorSkip). With onError set, F goes on after the report:
//
//	execute: F does the access as written (another clone) and M's phi
//	         takes its result;
//	clamp:   F computes in-range operands (clampSpec) and does the access
//	         with them; where the clamp has no meaning at run time (a
//	         runtime array of no element...) F branches around it:
//	         F: can; report; OpSelectionMerge %FM; OpBranchConditional %can %C %FM
//	         C: the clamped operands, the access; OpBranch %FM
//	         FM: a phi of C's result and the null value; OpBranch %M
//
// docs/decisions/on-error-behaviours.md says what each check clamps.

// guardedAccess describes one split: what goes in each block. Ids are
// taken in the order the passes always took them: T, F, M, then what
// check emits, then the clones of then, then the access's result.
type guardedAccess struct {
	// pre is the head block's instructions before the check (usually
	// b.Insts[:j]); the head block gets a copy of them.
	pre []*spirv.Instruction
	// check emits the check into head and returns the boolean id that is
	// true when the access may go ahead, or false to leave the access
	// unchecked (having warned; b is then left as it was).
	check func(head *emitter) (uint32, bool)
	// then emits what the access needs in T before it (moved or cloned
	// instructions) and returns the ids to rename in the access's clone
	// (nil: none). It may be nil. base holds renames made before it in the
	// same block (a clamp's operands), which its clones must apply; it is
	// nil but in a clamped clone. then is called once per clone.
	then func(t *emitter, base map[uint32]uint32) map[uint32]uint32
	// access is the original access; T holds its clone.
	access *spirv.Instruction
	// report emits the report into F.
	report func(fail *emitter)
	// null returns the value the access's result takes on F (called only
	// when the access has a result, after F is emitted).
	null func() uint32
	// fact, when not 0, is a bool id computed in the function's entry
	// block that, when true, proves the check passes (a bound decided for
	// the whole binding, docs/decisions/cheap-checks.md): the head then
	// branches on it first, and only when it is false does the check run
	// (splitFact). then is called once per clone of the access.
	fact uint32
	// passed, when not nil with a fact, receives a bool id defined after
	// the guard that is true where the access went ahead (a phi of true
	// from the fact's side and the check's result), for later guards that
	// reuse this one's result.
	passed *uint32
	// onError is what a failed access does; "" is OnErrorSkip.
	onError OnError
	// clamp builds the clamped access for OnErrorClamp; without it a
	// failed access is skipped.
	clamp *clampSpec
	// silent: F writes no record (the robust-only mode).
	silent bool
	// executed receives the clone F makes under OnErrorExecute
	// (shader.executed), so that no later pass guards it again.
	executed map[*spirv.Instruction]bool
	// sel, when not nil, gives a read a second form for the fast
	// variant (splitSelect); the guard stays for the precise one.
	sel *selectRead
}

// clampSpec is how a pass clamps an access's operands into range.
type clampSpec struct {
	// can emits into F the bool id that is true where the clamp has a
	// meaning at run time; nil, or 0 returned: always. It runs before the
	// report, so that the report can record what it found (the element or
	// offset the access goes to, or why it cannot).
	can func(fail *emitter) uint32
	// operands emits the in-range operands before the clamped access and
	// returns the ids the access (and then's clones) take instead.
	operands func(e *emitter) map[uint32]uint32
}

// failOnError is the behaviour F builds: clamp only where the pass gave a
// clampSpec.
func (g guardedAccess) failOnError() OnError {
	switch {
	case g.onError == OnErrorExecute:
		return OnErrorExecute
	case g.onError == OnErrorClamp && g.clamp != nil:
		return OnErrorClamp
	}
	return OnErrorSkip
}

// split splits block b of f at the access at j as g says: b becomes the
// head, and the new blocks T, F and M, to go right after it, are returned.
// Phis that named b as a predecessor name M. It returns false when g.check
// does.
func (g guardedAccess) split(m *spirv.Module, f *spirv.Function, b *spirv.Block, j int) ([]*spirv.Block, bool) {
	if g.fact != 0 {
		return g.splitFact(m, f, b, j)
	}
	if g.sel != nil {
		return g.splitSelect(m, f, b, j)
	}
	// M takes over b's instructions from j on (slot j becomes the access's
	// phi, or is dropped) without copying them: copying the rest of the
	// block at every split made a block with many accesses quadratic. The
	// head gets an array of its own (Clip), so appending to it cannot
	// overwrite them.
	rest := b.Insts[j:]
	post := rest[1:]
	tID, fID, mID := m.NewID(), m.NewID(), m.NewID()
	if _, checked := g.head(m, b, mID, tID, fID, 0); !checked {
		return nil, false
	}

	then := newEmitter(m, 4)
	accessID := g.cloneAccess(m, then, nil)
	in := g.access
	then.void(spirv.OpBranch, mID)

	failBlocks, failRes, failFrom := g.fail(m, fID, mID)

	merge := &emitter{m: m, insts: post}
	if accessID != 0 {
		rest[0] = spirv.NewInstruction(spirv.OpPhi, in.ResultType(), in.ResultID(), accessID, tID, failRes, failFrom)
		merge.insts = rest
	}
	retargetPhis(f, post, b.ID(), mID)
	blocks := []*spirv.Block{{Label: spirv.NewInstruction(spirv.OpLabel, tID), Insts: then.insts}}
	blocks = append(blocks, failBlocks...)
	return append(blocks, &spirv.Block{Label: spirv.NewInstruction(spirv.OpLabel, mID), Insts: merge.insts}), true
}

// head makes b the head of a split: g.pre, the check, and a selection
// merging at mID that branches to tID or fID on cond (0: the check's
// result). It returns the check's result, or false (b unchanged) when
// g.check does.
func (g guardedAccess) head(m *spirv.Module, b *spirv.Block, mID, tID, fID, cond uint32) (uint32, bool) {
	head := emitterAfter(m, g.pre, 16)
	ok, checked := g.check(head)
	if !checked {
		return 0, false
	}
	if cond == 0 {
		cond = ok
	}
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, cond, tID, fID)
	b.Insts = head.insts
	return ok, true
}

// fail builds the failed side from block F (fID) to the branch to mID:
// the report, then what onError says. It returns its blocks, the value
// the access's result takes there (0 when the access has none) and the
// block that value comes from.
func (g guardedAccess) fail(m *spirv.Module, fID, mID uint32) ([]*spirv.Block, uint32, uint32) {
	fail := newEmitter(m, 16)
	mode := g.failOnError()
	var can uint32
	if mode == OnErrorClamp && g.clamp.can != nil {
		// Before the report, which may record what the clamp found.
		can = g.clamp.can(fail)
	}
	if !g.silent {
		g.report(fail)
	}
	hasResult := g.access.ResultID() != 0
	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }
	switch mode {
	case OnErrorExecute:
		res := g.cloneAccess(m, fail, nil)
		if g.executed != nil {
			g.executed[fail.insts[len(fail.insts)-1]] = true
		}
		fail.void(spirv.OpBranch, mID)
		return []*spirv.Block{{Label: label(fID), Insts: fail.insts}}, res, fID
	case OnErrorClamp:
		if can == 0 {
			res := g.cloneAccess(m, fail, g.clamp.operands(fail))
			fail.void(spirv.OpBranch, mID)
			return []*spirv.Block{{Label: label(fID), Insts: fail.insts}}, res, fID
		}
		cID, fmID := m.NewID(), m.NewID()
		fail.void(spirv.OpSelectionMerge, fmID, uint32(spirv.SelectionControlNone))
		fail.void(spirv.OpBranchConditional, can, cID, fmID)
		c := newEmitter(m, 8)
		res := g.cloneAccess(m, c, g.clamp.operands(c))
		c.void(spirv.OpBranch, fmID)
		fm := newEmitter(m, 2)
		if hasResult {
			res = fm.op(spirv.OpPhi, g.access.ResultType(), res, cID, g.null(), fID)
		}
		fm.void(spirv.OpBranch, mID)
		return []*spirv.Block{{Label: label(fID), Insts: fail.insts}, {Label: label(cID), Insts: c.insts},
			{Label: label(fmID), Insts: fm.insts}}, res, fmID
	}
	fail.void(spirv.OpBranch, mID)
	var null uint32
	if hasResult {
		null = g.null()
	}
	return []*spirv.Block{{Label: label(fID), Insts: fail.insts}}, null, fID
}

// cloneAccess emits into e what the access needs (then) and a clone of it
// under a fresh result id, which it returns (0 when the access has none).
// base are renames already made (a clamp's operands).
func (g guardedAccess) cloneAccess(m *spirv.Module, e *emitter, base map[uint32]uint32) uint32 {
	renamed := base
	if g.then != nil {
		renamed = g.then(e, base)
	}
	in := g.access
	access := in.Clone()
	if renamed != nil {
		renameOperands(m, access, renamed)
	}
	var id uint32
	if in.ResultID() != 0 {
		id = m.NewID()
		access.SetResultID(id)
		copyDecorations(m, in.ResultID(), id, false)
	}
	e.insts = append(e.insts, access)
	return id
}

// splitFact is split for a guard with a fact: the check and its report run
// only when the fact does not hold, and the access is cloned twice.
//
//	head: the instructions before it; OpSelectionMerge %M0
//	      OpBranchConditional %fact %A %S
//	A:    the access (a clone); OpBranch %M0
//	S:    the check; OpSelectionMerge %M1; OpBranchConditional %ok %T %F
//	T:    the access (another clone); OpBranch %M1
//	F:    the report; OpBranch %M1
//	M1:   a phi of T's result and the null value; OpBranch %M0
//	M0:   a phi of A's and M1's results, and the rest of the block
func (g guardedAccess) splitFact(m *spirv.Module, f *spirv.Function, b *spirv.Block, j int) ([]*spirv.Block, bool) {
	orig := b.Insts
	rest := b.Insts[j:]
	post := rest[1:]
	aID, sID, tID, fID, m1ID, m0ID := m.NewID(), m.NewID(), m.NewID(), m.NewID(), m.NewID(), m.NewID()
	s := newEmitter(m, 16)
	ok, checked := g.check(s)
	if !checked {
		return nil, false
	}
	head := emitterAfter(m, g.pre, 2)
	head.void(spirv.OpSelectionMerge, m0ID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, g.fact, aID, sID)
	b.Insts = head.insts
	s.void(spirv.OpSelectionMerge, m1ID, uint32(spirv.SelectionControlNone))
	s.void(spirv.OpBranchConditional, ok, tID, fID)

	a := newEmitter(m, 4)
	aRes := g.cloneAccess(m, a, nil)
	a.void(spirv.OpBranch, m0ID)
	guarded, phi := g.guardedSide(m, tID, fID, m1ID, m0ID)

	in := g.access
	merge := &emitter{m: m, insts: post}
	if in.ResultID() != 0 {
		rest[0] = spirv.NewInstruction(spirv.OpPhi, in.ResultType(), in.ResultID(), aRes, aID, phi, m1ID)
		merge.insts = rest
	}
	if g.passed != nil {
		*g.passed = m.NewID()
		phi := spirv.NewInstruction(spirv.OpPhi, m.TypeBool(), *g.passed, m.ConstantTrue(), aID, ok, m1ID)
		merge.insts = prependToRest(orig, j, merge.insts, phi)
	}
	retargetPhis(f, post, b.ID(), m0ID)
	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }
	blocks := append([]*spirv.Block{{Label: label(aID), Insts: a.insts}, {Label: label(sID), Insts: s.insts}}, guarded...)
	return append(blocks, &spirv.Block{Label: label(m0ID), Insts: merge.insts}), true
}

// guardedSide builds T (the access's clone) and the failed side from fID
// (fail), both merging at mID, which branches on to next. It returns the
// blocks from T to M and M's phi of the access's result (0 when the access
// has none).
func (g guardedAccess) guardedSide(m *spirv.Module, tID, fID, mID, next uint32) ([]*spirv.Block, uint32) {
	t := newEmitter(m, 4)
	tRes := g.cloneAccess(m, t, nil)
	t.void(spirv.OpBranch, mID)
	failBlocks, failRes, failFrom := g.fail(m, fID, mID)
	mm := newEmitter(m, 2)
	var phi uint32
	if in := g.access; in.ResultID() != 0 {
		phi = mm.op(spirv.OpPhi, in.ResultType(), tRes, tID, failRes, failFrom)
	}
	mm.void(spirv.OpBranch, next)
	blocks := append([]*spirv.Block{{Label: spirv.NewInstruction(spirv.OpLabel, tID), Insts: t.insts}}, failBlocks...)
	return append(blocks, &spirv.Block{Label: spirv.NewInstruction(spirv.OpLabel, mID), Insts: mm.insts}), phi
}

// prependToRest returns merge (orig[j:] or orig[j+1:], the rest of the
// block the guard split at j) with phi in front. It takes the free slot
// before merge in orig's array where there is one: the access's own (the
// access was cloned), or the last of the head's (the head block holds a
// copy of g.pre, made by emitterAfter), so
// that a block with many guarded accesses is not copied once per access.
func prependToRest(orig []*spirv.Instruction, j int, merge []*spirv.Instruction, phi *spirv.Instruction) []*spirv.Instruction {
	if at := len(orig) - len(merge) - 1; at >= 0 && (at == j || at == j-1) {
		orig[at] = phi
		return orig[at:]
	}
	return append([]*spirv.Instruction{phi}, merge...)
}
