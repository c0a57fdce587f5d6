package gpuav

import (
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// This file folds the reports of the sites inside loops
// (docs/decisions/loop-failures-folded.md). After the checks' passes, a
// report call inside an outermost structured loop no longer writes a
// record where it is: the invocation keeps, per site, the number of
// failures and the values of the last one in Function variables, updated
// without a branch where the report was the only thing behind one (the
// select form of a read) and in place otherwise, and writes one record
// with that count after the loop: at its merge block and before every
// return, kill or termination inside it. The access itself stays guarded
// per iteration as the pass made it.
//
//	S:  ...; OpSelectionMerge %SM; OpBranchConditional %ok %SM %SF
//	SF: stage words; OpFunctionCall %report ... %idx ...; OpBranch %SM
//
// becomes
//
//	S:  ...; OpStore %cnt (%cnt + (%ok ? 0 : 1)); OpStore %v (%ok ? %v : %idx)
//	    OpBranch %SM
//
// (the last failure's values, not the first's: on the H100 keeping the
// first, a compare with the count carried across iterations, cost 0.12 of
// the hot loop's time more than keeping the last)
//
// and the merge block starts with
//
//	%c = OpLoad %cnt; OpSelectionMerge %M; OpBranchConditional (%c != 0) %R %M
//	R: OpFunctionCall %report ... (stage with %c first) ... (OpLoad %v) ...; OpBranch %M
//	M: the rest of the merge block

// loopRegion is an outermost structured loop of a function.
type loopRegion struct {
	header, merge uint32
	// blocks are the blocks of its construct: those reached from the
	// header without going through the merge block.
	blocks map[uint32]bool
}

// foldedSite is the private state of one site folded in a loop.
type foldedSite struct {
	site  uint32
	calls []*spirv.Instruction // its report calls in the loop (the first is the flush's template)
	count uint32               // the Function variable of its count of failures
	args  []foldedArg          // the calls' arguments (Words[4:])
}

// foldedArg says where the flush takes one argument of the report from.
type foldedArg struct {
	id       uint32 // the value itself (it dominates the flush), or an invariant tree to clone
	tree     bool
	variable uint32 // a Function variable holding the last failure's value (id is then 0)
	typ      uint32
}

// foldLoops folds the report calls inside outermost loops of every
// function. It returns the number of sites folded.
func (sh *shader) foldLoops() int {
	reports := map[uint32]bool{}
	for name, id := range sh.lib.ids {
		// loop_budget's report must be written where it is: the loop it
		// is about may never end.
		if strings.HasPrefix(name, "gpuav_report_") && name != "gpuav_report_loop_budget" {
			reports[id] = true
		}
	}
	if len(reports) == 0 {
		return 0
	}
	fl := &loopFolder{sh: sh, reports: reports}
	n := 0
	for _, f := range sh.m.Functions {
		if !callsAny(f, reports) {
			continue
		}
		for _, l := range outermostLoops(sh.m, f) {
			n += fl.foldLoop(f, l)
		}
		fl.done()
	}
	return n
}

// loopFolder is foldLoops' state: what it found of the module, and the
// folder of the function it is in (made for the first loop with a report).
type loopFolder struct {
	sh          *shader
	reports     map[uint32]bool
	terminating map[uint32]bool // terminatingFunctions, once a loop has a report
	blockOf     []uint32        // scratch for folders, by id
	fd          *folder
}

// folder returns the folder of f, made on first use.
func (fl *loopFolder) folder(f *spirv.Function) *folder {
	if fl.fd == nil {
		if fl.blockOf == nil {
			fl.blockOf = make([]uint32, fl.sh.m.Header.Bound)
		}
		fl.fd = newFolder(fl.sh, f, fl.blockOf)
	}
	return fl.fd
}

// done clears what the function's folder left in the scratch.
func (fl *loopFolder) done() {
	if fl.fd == nil {
		return
	}
	for _, b := range fl.fd.f.Blocks {
		for _, in := range b.Insts {
			if id := in.ResultID(); int(id) < len(fl.blockOf) {
				fl.blockOf[id] = 0
			}
		}
	}
	fl.fd = nil
}

// callsAny reports whether f calls one of fns.
func callsAny(f *spirv.Function, fns map[uint32]bool) bool {
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			if in.Opcode() == spirv.OpFunctionCall && fns[in.Words[3]] {
				return true
			}
		}
	}
	return false
}

// endsInvocation reports whether op ends the invocation (or, demote, its
// writes) where it runs.
func endsInvocation(op spirv.Opcode) bool {
	switch op {
	case spirv.OpKill, spirv.OpTerminateInvocation, spirv.OpDemoteToHelperInvocation, spirv.OpTerminateRayKHR,
		spirv.OpIgnoreIntersectionKHR, spirv.OpEmitMeshTasksEXT:
		return true
	}
	return false
}

// terminatingFunctions returns the functions that may end the invocation
// (endsInvocation), themselves or through a call: a loop that calls one
// is not folded, as its count would be lost.
func terminatingFunctions(m *spirv.Module) map[uint32]bool {
	out := map[uint32]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range m.Functions {
			if out[f.ID()] {
				continue
			}
			for _, b := range f.Blocks {
				for _, in := range b.Insts {
					if endsInvocation(in.Opcode()) || in.Opcode() == spirv.OpFunctionCall && out[in.Words[3]] {
						out[f.ID()], changed = true, true
					}
				}
			}
		}
	}
	return out
}

// outermostLoops returns the loops of f that no other loop contains, in
// block order (a header comes before the loops it contains).
func outermostLoops(m *spirv.Module, f *spirv.Function) []*loopRegion {
	var out []*loopRegion
	inside := map[uint32]bool{}
	for _, b := range f.Blocks {
		if inside[b.ID()] {
			continue
		}
		n := len(b.Insts)
		if n < 2 || b.Insts[n-2].Opcode() != spirv.OpLoopMerge {
			continue
		}
		l := &loopRegion{header: b.ID(), merge: b.Insts[n-2].Words[1], blocks: map[uint32]bool{b.ID(): true}}
		for work := []*spirv.Block{b}; len(work) > 0; {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			for _, s := range blockTargets(m, x) {
				if s == l.merge || l.blocks[s] {
					continue
				}
				if sb := f.Block(s); sb != nil {
					l.blocks[s] = true
					work = append(work, sb)
				}
			}
		}
		for id := range l.blocks {
			inside[id] = true
		}
		out = append(out, l)
	}
	return out
}

// blockTargets are the blocks b's terminator branches to.
func blockTargets(m *spirv.Module, b *spirv.Block) []uint32 {
	if len(b.Insts) == 0 {
		return nil
	}
	return successors(m, b.Insts[len(b.Insts)-1])
}

// foldLoop folds the report calls of loop l and returns the number of
// sites folded. A loop whose merge block is another loop's header, or
// that demotes the invocation or calls a function that may end it, is
// left as it is: its sites report in place, one record per failure.
func (fl *loopFolder) foldLoop(f *spirv.Function, l *loopRegion) int {
	sh, m := fl.sh, fl.sh.m
	merge := f.Block(l.merge)
	if merge == nil || isLoopHeader(merge) {
		return 0
	}
	var sites []*foldedSite
	bySite := map[uint32]*foldedSite{}
	var exits []*spirv.Block
	var calls []*spirv.Instruction // of other functions
	for _, b := range f.Blocks {
		if !l.blocks[b.ID()] || len(b.Insts) == 0 {
			continue
		}
		for _, in := range b.Insts {
			op := in.Opcode()
			if op == spirv.OpDemoteToHelperInvocation {
				return 0
			}
			if op == spirv.OpFunctionCall && !fl.reports[in.Words[3]] {
				calls = append(calls, in)
			}
			if op != spirv.OpFunctionCall || !fl.reports[in.Words[3]] || len(in.Words) < 7 {
				continue
			}
			id, ok := constUint32(m, in.Words[5])
			if !ok || int(id) >= len(sh.sites) {
				continue
			}
			s := bySite[id]
			if s == nil {
				s = &foldedSite{site: id}
				bySite[id] = s
				sites = append(sites, s)
			}
			s.calls = append(s.calls, in)
		}
		// A terminator that leaves the loop other than through its merge
		// (a demote is no terminator, so endsInvocation names only these).
		if t := b.Insts[len(b.Insts)-1].Opcode(); t == spirv.OpReturn || t == spirv.OpReturnValue || endsInvocation(t) {
			exits = append(exits, b)
		}
	}
	if len(sites) == 0 {
		return 0
	}
	if len(calls) > 0 && fl.terminating == nil {
		fl.terminating = terminatingFunctions(m)
	}
	for _, c := range calls {
		if fl.terminating[c.Words[3]] {
			return 0
		}
	}
	fd := fl.folder(f)
	kept := sites[:0]
	for _, s := range sites {
		if fd.classify(s) {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		return 0
	}
	fd.variables(kept)
	for _, s := range kept {
		for _, c := range s.calls {
			fd.rewrite(s, c)
		}
		sh.sites[s.site].Loop = true
	}
	at := 0
	for at < len(merge.Insts) && merge.Insts[at].Opcode() == spirv.OpPhi {
		at++
	}
	fd.flush(merge, at, kept)
	for _, b := range exits {
		fd.flush(b, len(b.Insts)-1, kept)
	}
	f.InvalidateBlocks()
	return len(kept)
}

// isLoopHeader reports whether b declares a loop.
func isLoopHeader(b *spirv.Block) bool {
	n := len(b.Insts)
	return n >= 2 && b.Insts[n-2].Opcode() == spirv.OpLoopMerge
}

// folder folds the sites of one function's loops.
type folder struct {
	sh *shader
	m  *spirv.Module
	f  *spirv.Function
	// blockOf is the block defining each id of the function (0: none, a
	// constant, a global or a parameter), for the ids that existed when
	// the folder was made.
	blockOf []uint32
	entry   uint32
	preds   map[uint32][]uint32
}

// newFolder makes the folder of f, blockOf (all 0) its scratch.
func newFolder(sh *shader, f *spirv.Function, blockOf []uint32) *folder {
	fd := &folder{sh: sh, m: sh.m, f: f, blockOf: blockOf, entry: f.Blocks[0].ID(), preds: map[uint32][]uint32{}}
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			if id := in.ResultID(); int(id) < len(blockOf) {
				blockOf[id] = b.ID()
			}
		}
		for _, s := range blockTargets(sh.m, b) {
			fd.preds[s] = append(fd.preds[s], b.ID())
		}
	}
	return fd
}

// defined returns the block defining id (0: none).
func (fd *folder) defined(id uint32) uint32 {
	if int(id) < len(fd.blockOf) {
		return fd.blockOf[id]
	}
	return ^uint32(0) // made since: inside the function, somewhere
}

// dominatesAll reports whether id is defined outside the function's
// blocks (a constant, a global, a parameter) or in its entry block.
func (fd *folder) dominatesAll(id uint32) bool {
	b := fd.defined(id)
	return b == 0 || b == fd.entry
}

// treeOperands are the operand words of an invariant tree's instruction
// that are ids of the tree (a load's pointer is a global: not one).
func treeOperands(in *spirv.Instruction) []int {
	switch in.Opcode() {
	case spirv.OpCompositeExtract, spirv.OpBitcast:
		return []int{3}
	case spirv.OpCompositeInsert:
		return []int{3, 4}
	case spirv.OpCompositeConstruct:
		out := make([]int, 0, len(in.Words)-3)
		for i := 3; i < len(in.Words); i++ {
			out = append(out, i)
		}
		return out
	}
	return nil
}

// invariant reports whether id is the same value wherever the invocation
// computes it: it dominates everything, or it is built by extracts,
// inserts, constructs and bit casts from loads of Input variables (the
// stage's builtins) and such values.
func (fd *folder) invariant(id uint32, depth int) bool {
	if fd.dominatesAll(id) {
		return true
	}
	in := fd.m.Def(id)
	if in == nil || depth > 8 {
		return false
	}
	switch in.Opcode() {
	case spirv.OpLoad:
		v := fd.m.Def(in.Words[3])
		return len(in.Words) == 4 && fd.defined(in.Words[3]) == 0 && v != nil && v.Opcode() == spirv.OpVariable &&
			spirv.StorageClass(v.Words[3]) == spirv.StorageClassInput
	case spirv.OpCompositeExtract, spirv.OpBitcast, spirv.OpCompositeInsert, spirv.OpCompositeConstruct:
		for _, i := range treeOperands(in) {
			if !fd.invariant(in.Words[i], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// sameTree reports whether a and b compute the same value the same way
// (two report calls of one site: the fast and the precise side).
func (fd *folder) sameTree(a, b uint32, depth int) bool {
	if a == b {
		return true
	}
	if fd.dominatesAll(a) || fd.dominatesAll(b) || depth > 8 {
		return false
	}
	x, y := fd.m.Def(a), fd.m.Def(b)
	if x == nil || y == nil || x.Opcode() != y.Opcode() || len(x.Words) != len(y.Words) || x.Words[1] != y.Words[1] ||
		x.Opcode() != spirv.OpLoad && treeOperands(x) == nil {
		return false
	}
	ids := treeOperands(x)
	for i := 3; i < len(x.Words); i++ {
		if len(ids) > 0 && ids[0] == i {
			ids = ids[1:]
			if !fd.sameTree(x.Words[i], y.Words[i], depth+1) {
				return false
			}
		} else if x.Words[i] != y.Words[i] {
			return false
		}
	}
	return true
}

// classify decides where the flush takes each argument of site s's
// report from; false when a value can be kept in no variable.
func (fd *folder) classify(s *foldedSite) bool {
	m := fd.m
	first := s.calls[0].Words[4:]
	for _, c := range s.calls[1:] {
		if len(c.Words) != len(s.calls[0].Words) {
			return false
		}
	}
	if len(first) < 3 || !isUvec4(m, m.Def(first[2])) {
		return false // no stage words to carry the count
	}
	s.args = make([]foldedArg, len(first))
	for k, id := range first {
		d := m.Def(id)
		if d == nil {
			return false
		}
		a := foldedArg{typ: d.ResultType()}
		same := true
		for _, c := range s.calls[1:] {
			same = same && fd.sameTree(id, c.Words[4+k], 0)
		}
		switch {
		case same && fd.dominatesAll(id):
			a.id = id
		case same && fd.invariant(id, 0):
			a.id, a.tree = id, true
		case selectableType(m, a.typ):
			a.variable = 1 // made by variables
		default:
			return false
		}
		s.args[k] = a
	}
	return true
}

// selectableType reports whether OpSelect takes values of typ: a numeric
// or bool scalar or vector.
func selectableType(m *spirv.Module, typ uint32) bool {
	t := m.Def(typ)
	if t != nil && t.Opcode() == spirv.OpTypeVector {
		t = m.Def(t.Words[2])
	}
	return t != nil && (t.Opcode() == spirv.OpTypeInt || t.Opcode() == spirv.OpTypeFloat || t.Opcode() == spirv.OpTypeBool)
}

// variables adds the sites' Function variables to the entry block: each
// site's count (0 at the start) and the values of its last failure.
func (fd *folder) variables(sites []*foldedSite) {
	m := fd.m
	var vars []*spirv.Instruction
	add := func(typ, init uint32) uint32 {
		id := m.NewID()
		vars = append(vars, spirv.NewResultInstruction(spirv.OpVariable, m.TypePointer(spirv.StorageClassFunction, typ), id,
			uint32(spirv.StorageClassFunction), init))
		return id
	}
	u := m.TypeUint32()
	for _, s := range sites {
		s.count = add(u, m.ConstantUint32(0))
		for k := range s.args {
			if a := &s.args[k]; a.variable != 0 {
				a.variable = add(a.typ, m.ConstantNull(a.typ))
			}
		}
	}
	entry := fd.f.Blocks[0]
	entry.Insts = append(vars, entry.Insts...)
}

// rewrite replaces report call c of site s with the update of its state:
// in the select form the branch to the report goes too, elsewhere the
// update takes the call's place.
func (fd *folder) rewrite(s *foldedSite, c *spirv.Instruction) {
	b := fd.f.Block(fd.defined(c.ResultID()))
	if b == nil {
		return
	}
	if id := c.ResultID(); int(id) < len(fd.blockOf) {
		fd.blockOf[id] = 0 // the call goes
	}
	if fd.selectForm(s, c, b) {
		return
	}
	ci := indexOf(b.Insts, c)
	e := &emitter{m: fd.m, insts: slices.Clip(b.Insts[:ci])}
	fd.update(e, s, c, 0)
	b.Insts = append(e.insts, b.Insts[ci+1:]...)
}

// selectForm folds call c in block b when b holds only the report (and
// the values it computes without effect) behind a selection of its own:
// b's instructions go to the block that branched to it, the update runs
// there on every iteration with the branch's condition, and b goes.
func (fd *folder) selectForm(s *foldedSite, c *spirv.Instruction, b *spirv.Block) bool {
	m, f := fd.m, fd.f
	n := len(b.Insts)
	ps := fd.preds[b.ID()]
	if n < 2 || b.Insts[n-1].Opcode() != spirv.OpBranch || len(ps) != 1 {
		return false
	}
	sm := b.Insts[n-1].Words[1]
	p := f.Block(ps[0])
	if p == nil || len(p.Insts) < 2 {
		return false
	}
	pn := len(p.Insts)
	sel, t := p.Insts[pn-2], p.Insts[pn-1]
	if sel.Opcode() != spirv.OpSelectionMerge || sel.Words[1] != sm || t.Opcode() != spirv.OpBranchConditional {
		return false
	}
	ok := t.Words[1] // the report is on the false side: the check passed where it holds
	switch {
	case t.Words[2] == sm && t.Words[3] == b.ID():
	case t.Words[2] == b.ID() && t.Words[3] == sm:
		ok = 0
	default:
		return false
	}
	if smb := f.Block(sm); smb == nil || len(smb.Insts) > 0 && smb.Insts[0].Opcode() == spirv.OpPhi {
		return false
	}
	for _, in := range b.Insts[:n-1] {
		if in != c && !fd.movable(in) {
			return false
		}
	}
	e := &emitter{m: m, insts: slices.Clip(p.Insts[:pn-2])}
	for _, in := range b.Insts[:n-1] {
		if in != c {
			e.insts = append(e.insts, in)
			if id := in.ResultID(); int(id) < len(fd.blockOf) {
				fd.blockOf[id] = p.ID()
			}
		}
	}
	if ok == 0 {
		ok = e.op(spirv.OpLogicalNot, m.TypeBool(), t.Words[1])
	}
	fd.update(e, s, c, ok)
	e.void(spirv.OpBranch, sm)
	p.Insts = e.insts
	f.Blocks = slices.DeleteFunc(f.Blocks, func(x *spirv.Block) bool { return x == b })
	return true
}

// movable reports whether in may run where it did not (no effect, no
// memory but the invocation's inputs).
func (fd *folder) movable(in *spirv.Instruction) bool {
	switch in.Opcode() {
	case spirv.OpLine, spirv.OpNoLine, spirv.OpCompositeExtract, spirv.OpCompositeConstruct, spirv.OpCompositeInsert,
		spirv.OpBitcast, spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpSelect, spirv.OpShiftLeftLogical,
		spirv.OpShiftRightLogical, spirv.OpBitwiseAnd, spirv.OpBitwiseOr, spirv.OpUConvert, spirv.OpSConvert,
		spirv.OpIEqual, spirv.OpINotEqual, spirv.OpULessThan, spirv.OpLogicalNot, spirv.OpLogicalAnd, spirv.OpLogicalOr:
		return true
	case spirv.OpLoad:
		return fd.invariant(in.ResultID(), 0)
	}
	return false
}

// update emits the update of site s's state for report call c: where
// the check failed (ok is false; ok 0: it always did), one more failure,
// and the call's values kept, the last failure's. Nothing compares with
// the count: each iteration's update depends on the previous one only
// through the value it keeps.
func (fd *folder) update(e *emitter, s *foldedSite, c *spirv.Instruction, ok uint32) {
	m := fd.m
	u := m.TypeUint32()
	n := e.op(spirv.OpLoad, u, s.count)
	inc := m.ConstantUint32(1)
	if ok != 0 {
		inc = e.op(spirv.OpSelect, u, ok, m.ConstantUint32(0), inc)
	}
	e.void(spirv.OpStore, s.count, e.op(spirv.OpIAdd, u, n, inc))
	for k, a := range s.args {
		if a.variable == 0 {
			continue
		}
		v := c.Words[4+k]
		if ok != 0 {
			v = selectValue(e, a.typ, ok, e.op(spirv.OpLoad, a.typ, a.variable), v)
		}
		e.void(spirv.OpStore, a.variable, v)
	}
}

// flush splits block b before instruction at: for each site, when its
// count is not 0, its report with the last failure's values and the
// count (the stage argument's first component), then the rest of b.
func (fd *folder) flush(b *spirv.Block, at int, sites []*foldedSite) {
	m, f := fd.m, fd.f
	if b.Insts[len(b.Insts)-1].Opcode() == spirv.OpUnreachable {
		return
	}
	u, bl := m.TypeUint32(), m.TypeBool()
	rest := slices.Clone(b.Insts[at:])
	e := &emitter{m: m, insts: slices.Clip(b.Insts[:at])}
	cur := b
	var added []*spirv.Block
	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }
	for _, s := range sites {
		n := e.op(spirv.OpLoad, u, s.count)
		nz := e.op(spirv.OpINotEqual, bl, n, m.ConstantUint32(0))
		rID, mID := m.NewID(), m.NewID()
		e.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
		e.void(spirv.OpBranchConditional, nz, rID, mID)
		cur.Insts = e.insts
		r := &emitter{m: m}
		call := s.calls[0]
		args := []uint32{call.Words[3]}
		cloned := map[uint32]uint32{}
		for k, a := range s.args {
			v := a.id
			switch {
			case a.variable != 0:
				v = r.op(spirv.OpLoad, a.typ, a.variable)
			case a.tree:
				v = fd.clone(r, a.id, cloned)
			}
			if k == 2 { // the stage words: the count goes first
				v = r.op(spirv.OpCompositeInsert, a.typ, n, v, 0)
			}
			args = append(args, v)
		}
		r.op(spirv.OpFunctionCall, call.ResultType(), args...)
		r.void(spirv.OpBranch, mID)
		cur = &spirv.Block{Label: label(mID)}
		added = append(added, &spirv.Block{Label: label(rID), Insts: r.insts}, cur)
		e = &emitter{m: m}
	}
	cur.Insts = append(e.insts, rest...)
	retargetPhis(f, rest, b.ID(), cur.ID())
	i := slices.Index(f.Blocks, b)
	f.Blocks = slices.Insert(f.Blocks, i+1, added...)
}

// clone emits a copy of invariant tree id (its instructions that do not
// dominate everything) and returns the copy's id.
func (fd *folder) clone(e *emitter, id uint32, cloned map[uint32]uint32) uint32 {
	if fd.dominatesAll(id) {
		return id
	}
	if c, ok := cloned[id]; ok {
		return c
	}
	in := fd.m.Def(id).Clone()
	in.OrigIndex, in.OrigOffset = -1, -1
	for _, i := range treeOperands(in) {
		in.Words[i] = fd.clone(e, in.Words[i], cloned)
	}
	c := fd.m.NewID()
	in.SetResultID(c)
	e.insts = append(e.insts, in)
	cloned[id] = c
	return c
}

// isUvec4 reports whether in's result is a vector of four 32-bit uints.
func isUvec4(m *spirv.Module, in *spirv.Instruction) bool {
	if in == nil {
		return false
	}
	t := m.Def(in.ResultType())
	return t != nil && t.Opcode() == spirv.OpTypeVector && t.Words[3] == 4 && t.Words[2] == m.TypeUint32()
}

// pruneIdleFlushes removes from a variant the flushes of the sites whose
// count nothing stores any more (their updates were on the side prune
// removed): each such flush's branch is known not to be taken.
func pruneIdleFlushes(m *spirv.Module, bound uint32) {
	var pos []int32
	var zero uint32
	for _, f := range m.Functions {
		if len(f.Blocks) == 0 {
			continue
		}
		idle := map[uint32]bool{} // the instrumentation's Function variables initialised to 0
		for _, in := range f.Blocks[0].Insts {
			if in.Opcode() != spirv.OpVariable || in.ResultID() < bound || len(in.Words) != 5 {
				continue
			}
			if zero == 0 {
				zero = m.ConstantUint32(0)
			}
			if in.Words[4] == zero {
				idle[in.ResultID()] = true
			}
		}
		if len(idle) == 0 {
			continue
		}
		forEachInst(f, func(in *spirv.Instruction) {
			if in.Opcode() == spirv.OpStore {
				delete(idle, in.Words[1])
			}
		})
		loads, known := map[uint32]bool{}, map[uint32]bool{}
		forEachInst(f, func(in *spirv.Instruction) {
			switch {
			case in.Opcode() == spirv.OpLoad && idle[in.Words[3]]:
				loads[in.ResultID()] = true
			case in.Opcode() == spirv.OpINotEqual && loads[in.Words[3]] && in.Words[4] == zero:
				known[in.ResultID()] = false
			}
		})
		if len(known) == 0 {
			continue
		}
		if pos == nil {
			pos = make([]int32, m.Header.Bound)
		}
		foldBranches(f, known)
		removeUnreachable(m, f, pos)
	}
	m.InvalidateIndex()
}

// forEachInst calls fn for every instruction of f's blocks.
func forEachInst(f *spirv.Function, fn func(*spirv.Instruction)) {
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			fn(in)
		}
	}
}
