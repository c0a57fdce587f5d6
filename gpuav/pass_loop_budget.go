package gpuav

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// loopBudgetPass gives every structured loop whose trip count the
// analyses do not prove within the budget (trip_count.go) an iteration
// counter, and leaves the loop when an invocation starts the iteration
// past the budget (docs/decisions/loop-budget.md):
//
//	H:  the header's phis
//	    %c = OpPhi %uint %uint_0 <entry> ... %c1 <back edge> ...
//	    the header's other instructions
//	    %lim = OpLoad %uint %limit        ; Private, the budget at first
//	    %c1 = OpIAdd %uint %c %uint_1
//	    %over = OpUGreaterThanEqual %bool %c %lim   (execute: OpIEqual)
//	    OpLoopMerge %merge %continue ...
//	    OpBranchConditional %over %R %H2
//	R:  %first = OpINotEqual %bool %lim %uint_0
//	    OpStore %limit %uint_0
//	    OpSelectionMerge %RM None
//	    OpBranchConditional %first %RR %RM
//	RR: stage words; OpFunctionCall gpuav_report_loop_budget ... %c; OpBranch %RM
//	RM: OpBranch %merge                       (execute: OpBranch %H2)
//	H2: the header's terminator
//
// The limit is per invocation and loop (a Private variable): once the
// invocation has reported, the limit is 0, so the loop reports no more
// and, skipped, is left at once whenever it is entered again (a runaway
// loop inside another runaway loop then costs the budget once, not its
// square). Executed, the loop goes on (R's branch at the first iteration
// of each later entry does nothing). The merge block's phis get, for RM,
// a value of theirs defined in the header or before it, else a null value
// (OpUndef for a pointer); a merge block that was unreachable
// (OpUnreachable) returns instead. The header's instructions run once
// more before the loop is left: only its terminator moves to H2, so that
// what it defines still dominates the merge block.
var loopBudgetPass = &passSpec{
	name: "loop_budget",
	// It splits loop headers, which no other pass's guard does (they
	// leave sites in headers unchecked): running last leaves what they do
	// unchanged, and it sees the loops as they end up.
	last:      true,
	preserves: analysisLayoutSizes,
	run:       func(sh *shader) int { return walk(sh, &loopBudget{sh: sh, budget: sh.opt.loopBudget()}) },
}

// The loop budget's default and range (the setting is the options
// table's loop_budget_iterations).
const (
	// DefaultLoopBudget is 2^24 iterations of one loop entry by one
	// invocation: past any loop a real shader runs per invocation (a
	// 4096² image walked by one invocation is 2^24 texels), and still a
	// fraction of a second on a GPU for a small loop body, far inside the
	// drivers' watchdogs (docs/decisions/loop-budget.md).
	DefaultLoopBudget = 1 << 24
	MinLoopBudget     = 1
	MaxLoopBudget     = 1 << 31
)

// LoopLeft (CodeLoopBudget p2): the invocation left the loop (every
// on_error but execute).
const LoopLeft = 1

// LoopBudgetHelp says in one sentence what the budget is (manifest, CLI
// usage, settings pane).
const LoopBudgetHelp = "Iterations one invocation may run in one entry of a loop whose trip count no analysis proves before loop_budget reports it and leaves the loop (on_error=execute: keeps looping)."

// ParseLoopBudget reads a loop budget setting: a number of iterations in
// [MinLoopBudget, MaxLoopBudget], in decimal or 0x hex, or a power of two
// written 2^N.
func ParseLoopBudget(s string) (uint32, error) {
	v := strings.TrimSpace(s)
	var n uint64
	var err error
	if e, ok := strings.CutPrefix(v, "2^"); ok {
		var k uint64
		if k, err = strconv.ParseUint(e, 10, 8); err == nil && k < 64 {
			n = 1 << k
		} else {
			err = fmt.Errorf("bad exponent")
		}
	} else {
		n, err = strconv.ParseUint(v, 0, 64)
	}
	if err != nil || n < MinLoopBudget || n > MaxLoopBudget {
		return 0, fmt.Errorf("%q is not a loop budget (iterations from %d to %d, e.g. 16777216 or 2^24)", s, MinLoopBudget, MaxLoopBudget)
	}
	return uint32(n), nil
}

// loopBudget returns the budget Instrument uses.
func (o Options) loopBudget() uint32 {
	if o.LoopBudget == 0 {
		return DefaultLoopBudget
	}
	return min(max(o.LoopBudget, MinLoopBudget), MaxLoopBudget)
}

// loopBudget is the loop_budget pass over one shader.
type loopBudget struct {
	sh     *shader
	budget uint32
	// counted are the headers of the function being walked that get a
	// counter, decided before the first is split.
	counted map[uint32]bool
	facts   *funcFacts
}

func (p *loopBudget) skip() bool                 { return false }
func (p *loopBudget) beginBlock(*function, bool) {}

// beginFunction decides which of the function's loops get a counter: those
// whose header runs are not proven at most the budget.
func (p *loopBudget) beginFunction(fn *function) {
	p.counted, p.facts = map[uint32]bool{}, nil
	if !fn.hasLoops() {
		return
	}
	a := p.sh.an.safeIndex()
	for _, b := range fn.f.Blocks {
		if !isLoopHeader(b) {
			continue
		}
		if n, ok := a.loopEntries(fn.f, b); !ok || n > uint64(p.budget) {
			p.counted[b.ID()] = true
		}
	}
	p.facts = a.funcs[fn.f]
}

func (p *loopBudget) match(fn *function, b *spirv.Block, j int) (struct{}, bool) {
	return struct{}{}, j == len(b.Insts)-2 && b.Insts[j].Opcode() == spirv.OpLoopMerge && p.counted[b.ID()]
}

// guard adds the counter to the loop whose OpLoopMerge is at j of its
// header b (see loopBudgetPass).
func (p *loopBudget) guard(fn *function, b *spirv.Block, j int, _ struct{}) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	lm, term := b.Insts[j], b.Insts[j+1]
	if len(lm.Words) < 4 {
		return guarded{}, false
	}
	mergeID, contID := lm.Words[1], lm.Words[2]
	merge := fn.f.Block(mergeID)
	if merge == nil {
		return guarded{}, false
	}
	if term.Opcode() == spirv.OpBranchConditional && len(term.Words) >= 4 &&
		!oneOf(term.Words[2], mergeID, contID) && !oneOf(term.Words[3], mergeID, contID) {
		sh.warnf("instruction %d: loop header ends in a two-way branch that neither leaves nor continues the loop: loop left uncounted",
			lm.OrigIndex)
		return guarded{}, false
	}
	if contID == b.ID() {
		sh.warnf("instruction %d: loop is its own continue target: loop left uncounted", lm.OrigIndex)
		return guarded{}, false
	}
	execute := sh.onError() == OnErrorExecute
	u, bl := m.TypeUint32(), m.TypeBool()
	zero, one := m.ConstantUint32(0), m.ConstantUint32(1)

	// The invocation's limit for this loop.
	limit := m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpVariable, m.TypePointer(spirv.StorageClassPrivate, u), limit,
		uint32(spirv.StorageClassPrivate), m.ConstantUint32(p.budget)))
	if m.VersionAtLeast(1, 4) {
		for _, ep := range m.EntryPoints() {
			m.AddToInterface(ep.Inst, limit)
		}
	}

	rID, h2ID := m.NewID(), m.NewID()
	inLoop := loopConstruct(m, fn.f, b, mergeID)
	nPhi := 0
	for nPhi < j && (b.Insts[nPhi].Opcode() == spirv.OpPhi || b.Insts[nPhi].Opcode() == spirv.OpLine ||
		b.Insts[nPhi].Opcode() == spirv.OpNoLine) {
		nPhi++
	}
	for nPhi > 0 && b.Insts[nPhi-1].Opcode() != spirv.OpPhi {
		nPhi-- // lines after the last phi stay with what follows
	}
	head := emitterAfter(m, b.Insts[:nPhi], j-nPhi+8)
	c := m.NewID()
	c1 := m.NewID()
	phi := []uint32{u, c}
	for _, pred := range predecessors(m, fn.f, b.ID()) {
		if inLoop[pred] {
			phi = append(phi, c1, pred)
		} else {
			phi = append(phi, zero, pred)
		}
	}
	head.insts = append(head.insts, spirv.NewInstruction(spirv.OpPhi, phi...))
	head.insts = append(head.insts, b.Insts[nPhi:j]...)
	lim := head.op(spirv.OpLoad, u, limit)
	head.insts = append(head.insts, spirv.NewResultInstruction(spirv.OpIAdd, u, c1, c, one))
	var over uint32
	if execute {
		over = head.op(spirv.OpIEqual, bl, c, lim)
	} else {
		over = head.op(spirv.OpUGreaterThanEqual, bl, c, lim)
	}
	head.insts = append(head.insts, lm)
	head.void(spirv.OpBranchConditional, over, rID, h2ID)
	b.Insts = head.insts

	// R, RR, RM.
	next := mergeID
	if execute {
		next = h2ID
	}
	r := newEmitter(m, 6)
	var blocks []*spirv.Block
	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }
	rmID := rID
	if sh.opt.RobustOnly {
		r.void(spirv.OpStore, limit, zero)
		r.void(spirv.OpBranch, next)
		blocks = append(blocks, &spirv.Block{Label: label(rID), Insts: r.insts})
	} else {
		rrID := m.NewID()
		rmID = m.NewID()
		first := r.op(spirv.OpINotEqual, bl, lim, zero)
		r.void(spirv.OpStore, limit, zero)
		r.void(spirv.OpSelectionMerge, rmID, uint32(spirv.SelectionControlNone))
		r.void(spirv.OpBranchConditional, first, rrID, rmID)
		rr := newEmitter(m, 8)
		stage := sh.stage.emit(rr)
		rr.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_report_loop_budget"),
			m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage, c)
		rr.void(spirv.OpBranch, rmID)
		blocks = append(blocks, &spirv.Block{Label: label(rID), Insts: r.insts},
			&spirv.Block{Label: label(rrID), Insts: rr.insts},
			&spirv.Block{Label: label(rmID), Insts: []*spirv.Instruction{spirv.NewInstruction(spirv.OpBranch, next)}})
	}
	h2 := &spirv.Block{Label: label(h2ID), Insts: []*spirv.Instruction{term}}
	retargetPhis(fn.f, h2.Insts, b.ID(), h2ID)
	if !execute {
		p.leaveTo(fn, merge, b.ID(), rmID)
	}
	flags := uint32(0)
	onError := OnErrorExecute
	if !execute {
		flags, onError = LoopLeft, OnErrorSkip
	}
	return guarded{blocks: append(blocks, h2), checks: []string{CheckLoopBudget},
		record: dynamicRecord([RecordParams]uint32{1: p.budget, 2: flags}, 0), onError: onError}, true
}

// leaveTo makes merge block mb ready for the new predecessor from, which
// leaves the loop headed by header: each phi gets one of its values that
// is defined in the header or in a block dominating it (the values the
// loop had when it was left), else a null value; a merge block nothing
// reached (OpUnreachable) returns.
func (p *loopBudget) leaveTo(fn *function, mb *spirv.Block, header, from uint32) {
	m := p.sh.m
	ff := p.facts
	h := -1
	if ff != nil {
		if i, ok := ff.label[header]; ok {
			h = i
		}
	}
	dominatesHeader := func(id uint32) bool {
		if ff == nil || h < 0 {
			return false
		}
		pos, ok := ff.pos.of(id)
		if !ok {
			d := m.Def(id)
			return d != nil && !isFunctionLocal(d.Opcode()) // a constant, a global, an undef
		}
		return pos.blk == h || ff.dominates(pos.blk, h)
	}
	for _, in := range mb.Insts {
		if in.Opcode() == spirv.OpLine || in.Opcode() == spirv.OpNoLine {
			continue
		}
		if in.Opcode() != spirv.OpPhi {
			break
		}
		v := uint32(0)
		for k := 3; k+1 < len(in.Words); k += 2 {
			if dominatesHeader(in.Words[k]) {
				v = in.Words[k]
				break
			}
		}
		if v == 0 {
			v = loopExitNull(m, in.ResultType())
		}
		in.Words = append(in.Words, v, from)
		in.Words[0] = uint32(len(in.Words))<<16 | uint32(spirv.OpPhi)
	}
	last := mb.Insts[len(mb.Insts)-1]
	if last.Opcode() != spirv.OpUnreachable {
		return
	}
	ret := fn.f.Head[0].ResultType()
	if t := m.Def(ret); t != nil && t.Opcode() == spirv.OpTypeVoid {
		mb.Insts[len(mb.Insts)-1] = spirv.NewInstruction(spirv.OpReturn)
	} else {
		mb.Insts[len(mb.Insts)-1] = spirv.NewInstruction(spirv.OpReturnValue, loopExitNull(m, ret))
	}
}

// isFunctionLocal reports whether op defines a value inside a function
// (a parameter or an instruction of a block) rather than at module level.
func isFunctionLocal(op spirv.Opcode) bool {
	switch op {
	case spirv.OpFunctionParameter:
		return false // dominates every block of its function
	case spirv.OpConstant, spirv.OpConstantNull, spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpConstantComposite,
		spirv.OpSpecConstant, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse, spirv.OpSpecConstantComposite,
		spirv.OpSpecConstantOp, spirv.OpUndef, spirv.OpVariable:
		return false
	}
	return true
}

// loopExitNull is the value a phi or a return takes where a loop was left
// for its budget: a null value, OpUndef for a pointer.
func loopExitNull(m *spirv.Module, typ uint32) uint32 {
	if t := m.Def(typ); t != nil && t.Opcode() == spirv.OpTypePointer {
		id := m.NewID()
		m.AddGlobal(spirv.NewInstruction(spirv.OpUndef, typ, id))
		return id
	}
	return nullValue(m, typ)
}

// oneOf reports whether id is a or b.
func oneOf(id, a, b uint32) bool { return id == a || id == b }

// predecessors returns the blocks of f that branch to block id, each once,
// in block order.
func predecessors(m *spirv.Module, f *spirv.Function, id uint32) []uint32 {
	var out []uint32
	for _, b := range f.Blocks {
		for _, t := range blockTargets(m, b) {
			if t == id {
				out = append(out, b.ID())
				break
			}
		}
	}
	return out
}

// loopConstruct returns the blocks reached from header without passing
// its merge block.
func loopConstruct(m *spirv.Module, f *spirv.Function, header *spirv.Block, merge uint32) map[uint32]bool {
	in := map[uint32]bool{header.ID(): true}
	for work := []*spirv.Block{header}; len(work) > 0; {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range blockTargets(m, x) {
			if s == merge || in[s] {
				continue
			}
			if sb := f.Block(s); sb != nil {
				in[s] = true
				work = append(work, sb)
			}
		}
	}
	return in
}

// describeLoopBudget fills in a loop_budget error.
func describeLoopBudget(d *Description, _ CheckCode, p [RecordParams]uint32) {
	d.LoopBudget = &LoopBudgetValues{Iterations: p[0], Budget: p[1], Left: p[2]&LoopLeft != 0}
	what := "the invocation left the loop"
	if !d.LoopBudget.Left {
		what = "the invocation kept looping (on_error=execute)"
	}
	d.Message = fmt.Sprintf("Loop ran %d iterations in one invocation (budget %d); %s.", p[0], p[1], what)
}

// LoopBudgetValues describe a loop that ran past the budget.
type LoopBudgetValues struct {
	// Iterations the invocation completed in the loop's entry when it
	// reported (the budget, but where the limit was lowered).
	Iterations uint32
	Budget     uint32
	// Left says the invocation left the loop (on_error other than
	// execute).
	Left bool
}
