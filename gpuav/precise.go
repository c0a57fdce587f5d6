package gpuav

import (
	"fmt"
	"slices"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// The precise switch (docs/decisions/precise-variant.md): while the passes
// run, a boolean constant (a SpecId'd spec constant, so that the module
// stays valid) in front of every binding fact. With it true a fact is
// gpuav_binding_fact's answer on the GPU and the precise check behind it
// runs when that fails; with it false every fact is true, and nothing of
// the precise check (compare, branch, record write) is left. Instrument
// returns both variants with the switch folded away (variants, prune):
// Result.Words is the precise one (every pipeline the layer does not
// decide for runs exactly the checks of before), Result.Precise.FastWords
// the fast one, which the layer runs only where it has decided the facts
// on the CPU (Result.Precise.Facts) and they hold.

// PreciseSpecIDBase is the first SpecId the switch tries; the next one is
// taken while the module already uses it.
const PreciseSpecIDBase = 0x47500000

// Fact kinds.
const (
	// FactBuffer: the binding's smallest range is at least Bound bytes.
	FactBuffer = iota
	// FactElements: every element of the binding is written and alive
	// (Bound is 1).
	FactElements
	// FactBufferAction: the binding's smallest range is at least Bound +
	// Σ Coef · P over Terms, P the action's parameters (action_bound.go);
	// the layer tests it at each action, and it fails where a parameter
	// is unknown (an indirect dispatch, a draw) or the sum reaches
	// ActionLimit.
	FactBufferAction
	// FactIndexAction: Bound + Σ Coef · P over Terms is below Length,
	// the descriptor array's length (a descriptor index decided at each
	// action; no set is read).
	FactIndexAction
)

// Fact is what the fast variant of a module takes for granted about one
// binding, as gpuav_binding_fact tests it on the GPU: the binding is known
// in the action's descriptor state, holds at least Length elements, and
// its floor (inputs.go: a buffer binding's smallest range, another
// binding's 1 when every element is written and alive) is at least Bound.
type Fact struct {
	Set, Binding, Length, Bound uint32
	Kind                        uint32
	// Terms are an action fact's parameters, sorted (Coef 0: unused).
	Terms [MaxFactTerms]FactTerm
}

// PreciseSwitch is a module's fast variant: its words (Result.Words is
// the precise one), and the facts the layer must find true to run it.
// With Options.PreciseLater the precise words are built on first need
// (PreciseWords).
type PreciseSwitch struct {
	FastWords []uint32
	Facts     []Fact
	// FastReadsLayerSet says whether FastWords use the layer's
	// descriptor set (ReadsSet): false when the facts decide every check,
	// so that the layer binds nothing before its actions.
	FastReadsLayerSet bool
	// later builds the precise words on first need (Options.PreciseLater).
	later *laterPrecise
}

// laterPrecise is a precise variant built on first need: the instrumented
// module's encoding (the switch not folded) until then.
type laterPrecise struct {
	// mu guards the build (done) and what it replaces (module by words).
	mu             sync.Mutex
	done           bool
	module         []uint32
	id, bound, set uint32
	words          []uint32
	readsSet       bool
	err            error
}

// PreciseWords returns the precise variant's words and whether they use
// the layer's descriptor set (ReadsSet), built on the first call (by any
// goroutine; the others wait for it) when Instrument ran with
// Options.PreciseLater; without it, nil (Result.Words holds them). An
// error means the words could not be built: the module must then run
// uninstrumented.
func (p *PreciseSwitch) PreciseWords() (words []uint32, readsSet bool, err error) {
	l := p.later
	if l == nil {
		return nil, false, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		l.build()
		l.done = true
	}
	return l.words, l.readsSet, l.err
}

// build parses the kept module, folds its switch to true and removes
// what that makes dead, as variants does for the precise variant.
func (l *laterPrecise) build() {
	defer func() {
		if r := recover(); r != nil {
			l.words, l.readsSet = nil, false
			l.err = fmt.Errorf("precise variant: internal error: %v", r)
		}
		l.module = nil
	}()
	m, err := spirv.Parse(l.module)
	if err != nil {
		l.err = fmt.Errorf("precise variant: %w", err)
		return
	}
	pure := pureFunctions(m, l.bound)
	prune(m, l.id, true)
	pruneIdleFlushes(m, l.bound)
	removeDeadAdded(m, l.bound, pure)
	removeUncalledAdded(m, l.bound)
	dropDanglingNames(m)
	l.words = m.Encode()
	l.readsSet = ReadsSet(l.words, l.set)
}

// preciseState is the switch of one shader: the spec constant's id, made
// on first use, and the facts noted so far.
type preciseState struct {
	id, specID uint32
	facts      []Fact
}

// preciseID returns the switch's id (an OpSpecConstantTrue decorated
// with an unused SpecId), adding it the first time.
func (sh *shader) preciseID() uint32 {
	p := &sh.precise
	if p.id != 0 {
		return p.id
	}
	m := sh.m
	used := map[uint32]bool{}
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		if in.Opcode() == spirv.OpDecorate && len(in.Words) >= 4 && spirv.Decoration(in.Words[2]) == spirv.DecorationSpecId {
			used[in.Words[3]] = true
		}
	}
	p.specID = PreciseSpecIDBase
	for used[p.specID] {
		p.specID++
	}
	b := m.TypeBool()
	p.id = m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpSpecConstantTrue, b, p.id))
	m.AddAnnotation(spirv.NewInstruction(spirv.OpDecorate, p.id, uint32(spirv.DecorationSpecId), p.specID))
	return p.id
}

// gateFact emits, in fn's entry block, the fact as the fast variant sees
// it: precise ? call : true (OpSelect on the switch), and returns its id.
func (sh *shader) gateFact(fn *function, call uint32) uint32 {
	m := sh.m
	return fn.entry.op(spirv.OpSelect, m.TypeBool(), sh.preciseID(), call, m.ConstantTrue())
}

// notPrecise returns, once per function, !precise in its entry block: the
// fact of a bounded access outside loops, which keeps its plain check in
// the precise variant (the fact is false there) and none in the fast one.
func (sh *shader) notPrecise(fn *function) uint32 {
	if fn.notPrecise == 0 {
		fn.notPrecise = fn.entry.op(spirv.OpLogicalNot, sh.m.TypeBool(), sh.preciseID())
	}
	return fn.notPrecise
}

// noteFact adds what the layer must check for the fast variant: binding
// (set, binding) holds length elements and a floor of at least bound.
// One fact per binding and kind, with the largest bound.
func (sh *shader) noteFact(set, binding, length, bound, kind uint32) {
	p := &sh.precise
	i := slices.IndexFunc(p.facts, func(f Fact) bool { return f.Set == set && f.Binding == binding && f.Kind == kind })
	if i < 0 {
		p.facts = append(p.facts, Fact{Set: set, Binding: binding, Length: length, Bound: bound, Kind: kind})
		return
	}
	f := &p.facts[i]
	f.Length, f.Bound = max(f.Length, length), max(f.Bound, bound)
}

// noteActionFact adds an action fact of kind FactBufferAction (binding
// (set, binding) holds length elements and a floor of at least end at each
// action) or FactIndexAction (end, a descriptor index, is below length). Facts of one
// binding merge (each part the larger) while their parameters fit one
// fact.
func (sh *shader) noteActionFact(set, binding, length uint32, end affine, kind uint32) {
	p := &sh.precise
	for i := range p.facts {
		f := &p.facts[i]
		if f.Set != set || f.Binding != binding || f.Kind != kind {
			continue
		}
		merged := end.upper(f.affine())
		if merged.fits() {
			f.Length, f.Bound, f.Terms = max(f.Length, length), uint32(merged.b), termArray(merged.terms)
			return
		}
	}
	p.facts = append(p.facts, Fact{Set: set, Binding: binding, Length: length, Bound: uint32(end.b),
		Kind: kind, Terms: termArray(end.terms)})
}

// affine is an action fact's bound as a form.
func (f Fact) affine() affine {
	x := affine{b: uint64(f.Bound)}
	for _, t := range f.Terms {
		if t.Coef != 0 {
			x.terms = append(x.terms, t)
		}
	}
	return x
}

// termArray is terms (at most MaxFactTerms, fits) as a Fact's array.
func termArray(terms []FactTerm) (out [MaxFactTerms]FactTerm) {
	copy(out[:], terms)
	return out
}

// variants turns the instrumented module m (with its switch) into the two
// variants the driver gets: precise (the switch on: every check as before
// the switch existed) and fast (the switch off), each with what the
// switch's value makes dead removed (prune), so that a driver compiles
// neither the dead checks nor their failure paths, whether or not it
// folds specialization constants before translating. The switch's spec
// constant is gone from both. With Options.PreciseLater only the fast
// variant is built now (precise is nil; fastNow).
func (sh *shader) variants() (precise []uint32, fast *PreciseSwitch) {
	if sh.opt.PreciseLater {
		return nil, sh.fastNow()
	}
	// prune and removeDeadAdded replace instructions, never edit them:
	// the variants may share them.
	fm := sh.m.Fork()
	pure := pureFunctions(sh.m, sh.bound)
	prune(sh.m, sh.precise.id, true)
	prune(fm, sh.precise.id, false)
	pruneIdleFlushes(sh.m, sh.bound)
	pruneIdleFlushes(fm, sh.bound)
	sc := &deadScratch{}
	removeDeadAddedWith(sh.m, sh.bound, pure, sc)
	removeDeadAddedWith(fm, sh.bound, pure, sc)
	removeUncalledAdded(sh.m, sh.bound)
	removeUncalledAdded(fm, sh.bound)
	dropDanglingNames(sh.m)
	dropDanglingNames(fm)
	fastWords := fm.Encode()
	return sh.m.Encode(), &PreciseSwitch{FastWords: fastWords, Facts: sh.precise.facts,
		FastReadsLayerSet: ReadsSet(fastWords, sh.opt.DescriptorSet)}
}

// fastNow builds the fast variant from the module itself, after keeping
// its encoding for the precise variant's build on first need
// (Options.PreciseLater, laterPrecise).
func (sh *shader) fastNow() *PreciseSwitch {
	later := &laterPrecise{module: sh.m.Encode(), id: sh.precise.id, bound: sh.bound, set: sh.opt.DescriptorSet}
	pure := pureFunctions(sh.m, sh.bound)
	prune(sh.m, sh.precise.id, false)
	pruneIdleFlushes(sh.m, sh.bound)
	removeDeadAdded(sh.m, sh.bound, pure)
	removeUncalledAdded(sh.m, sh.bound)
	dropDanglingNames(sh.m)
	fast := sh.m.Encode()
	return &PreciseSwitch{FastWords: fast, Facts: sh.precise.facts,
		FastReadsLayerSet: ReadsSet(fast, sh.opt.DescriptorSet), later: later}
}

// prune folds the switch (id) to value and removes what that makes dead:
// a conditional branch on a condition known from it becomes a branch
// (its selection merge goes), and the blocks no longer reachable go, with
// their operands of the phis that remain.
func prune(m *spirv.Module, id uint32, value bool) {
	known := map[uint32]bool{}
	for i, in := range m.Sections[spirv.SectionGlobal] {
		switch {
		case in.ResultID() == id:
			op := spirv.OpConstantFalse
			if value {
				op = spirv.OpConstantTrue
			}
			m.Sections[spirv.SectionGlobal][i] = spirv.NewInstruction(op, in.Words[1], id)
			known[id] = value
		case in.Opcode() == spirv.OpConstantTrue:
			known[in.ResultID()] = true
		case in.Opcode() == spirv.OpConstantFalse:
			known[in.ResultID()] = false
		}
	}
	m.Sections[spirv.SectionAnnotation] = slices.DeleteFunc(m.Sections[spirv.SectionAnnotation], func(in *spirv.Instruction) bool {
		return in.Opcode() == spirv.OpDecorate && len(in.Words) >= 3 && in.Words[1] == id
	})
	pos := make([]int32, m.Header.Bound)
	for _, f := range m.Functions {
		foldBranches(f, known)
		removeUnreachable(m, f, pos)
	}
	m.InvalidateIndex()
}

// foldBranches folds OpLogicalNot and OpSelect of known conditions and
// turns conditional branches on known conditions into branches.
func foldBranches(f *spirv.Function, known map[uint32]bool) {
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			switch in.Opcode() {
			case spirv.OpLogicalNot:
				if v, ok := known[in.Words[3]]; ok {
					known[in.ResultID()] = !v
				}
			case spirv.OpSelect:
				if c, ok := known[in.Words[3]]; ok {
					pick := in.Words[5]
					if c {
						pick = in.Words[4]
					}
					if v, ok := known[pick]; ok {
						known[in.ResultID()] = v
					}
				}
			}
		}
		n := len(b.Insts)
		t := b.Insts[n-1]
		if t.Opcode() != spirv.OpBranchConditional {
			continue
		}
		c, ok := known[t.Words[1]]
		if !ok {
			continue
		}
		target := t.Words[3]
		if c {
			target = t.Words[2]
		}
		b.Insts[n-1] = spirv.NewInstruction(spirv.OpBranch, target)
		if n >= 2 && b.Insts[n-2].Opcode() == spirv.OpSelectionMerge {
			b.Insts = slices.Delete(b.Insts, n-2, n-1)
		}
	}
}

// successors are the blocks a terminator branches to. An OpSwitch's
// literals are as wide as its selector: one word, or two for a 64-bit one.
func successors(m *spirv.Module, t *spirv.Instruction) []uint32 {
	switch t.Opcode() {
	case spirv.OpBranch:
		return t.Words[1:2]
	case spirv.OpBranchConditional:
		return t.Words[2:4]
	case spirv.OpSwitch:
		step := 1 + m.LiteralWidth(t.Words[1])
		out := []uint32{t.Words[2]}
		for i := 2 + step; i < len(t.Words); i += step {
			out = append(out, t.Words[i])
		}
		return out
	}
	return nil
}

// removeUnreachable removes the blocks of f that no branch reaches from
// its entry and no reached block names as a merge or continue target, and
// drops the phi operands of predecessors that no longer branch there. pos
// is scratch space of the module's id bound, all 0, and left so. The
// names and decorations of what the removed blocks defined go before the
// module is encoded (dropDanglingNames).
func removeUnreachable(m *spirv.Module, f *spirv.Function, pos []int32) {
	if len(f.Blocks) == 0 {
		return
	}
	blocks := f.Blocks
	for i, b := range blocks {
		pos[b.ID()] = int32(i + 1) // 1 + the block's index
	}
	defer func() {
		for _, b := range blocks {
			pos[b.ID()] = 0
		}
	}()
	at := func(id uint32) int32 { // the block's index, or -1
		if int(id) < len(pos) {
			return pos[id] - 1
		}
		return -1
	}
	keep := make([]bool, len(blocks))
	work := []int32{0}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		if i < 0 || keep[i] {
			continue
		}
		keep[i] = true
		b := blocks[i]
		for _, s := range successors(m, b.Insts[len(b.Insts)-1]) {
			work = append(work, at(s))
		}
		for _, in := range b.Insts {
			switch in.Opcode() {
			case spirv.OpSelectionMerge:
				work = append(work, at(in.Words[1]))
			case spirv.OpLoopMerge:
				work = append(work, at(in.Words[1]), at(in.Words[2]))
			}
		}
	}
	// A phi operand stays when its predecessor is kept and still branches
	// to the phi's block.
	from := func(pred, to uint32) bool {
		i := at(pred)
		return i >= 0 && keep[i] && slices.Contains(successors(m, blocks[i].Insts[len(blocks[i].Insts)-1]), to)
	}
	kept := make([]*spirv.Block, 0, len(blocks))
	for i, b := range blocks {
		if keep[i] {
			kept = append(kept, b)
			dropPhiOperands(b, from)
		}
	}
	f.Blocks = kept
	f.InvalidateBlocks()
}

// dropPhiOperands drops the operands of b's phis whose predecessor p does
// not branch to b (!from(p, b)).
func dropPhiOperands(b *spirv.Block, from func(pred, to uint32) bool) {
	for i, in := range b.Insts {
		if in.Opcode() != spirv.OpPhi {
			continue
		}
		words := slices.Clone(in.Words[1:3])
		for k := 3; k+1 < len(in.Words); k += 2 {
			if from(in.Words[k+1], b.ID()) {
				words = append(words, in.Words[k], in.Words[k+1])
			}
		}
		if len(words) < len(in.Words)-1 {
			b.Insts[i] = spirv.NewInstruction(spirv.OpPhi, words...)
		}
	}
}
