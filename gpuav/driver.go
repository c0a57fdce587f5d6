package gpuav

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// This file is the pass framework: a pass finds the sites of its checks
// and builds a guard for each; the driver runs the passes of the enabled
// checks in order over every block of every function, splices what they
// build into the module, keeps the analyses they share and the table of
// the sites they guarded, and links the check functions at the end.

// passSpec is what the driver knows of a pass before running it. The check
// registry (checks.go) names each check's pass; checks that share one
// (the descriptor checks) share the spec.
type passSpec struct {
	// name names the pass in the site table and in tests.
	name string
	// after names the passes whose guarded code this one must see: it
	// checks the accesses they let through. The driver runs passes in
	// registry order, except that a pass runs after those it names.
	after []string
	// preserves lists the analyses the pass's edits leave valid.
	preserves analysis
	// last says the pass runs after every other (loop_budget, which
	// splits the loop headers the other passes leave alone).
	last bool
	// run walks the shader with a fresh pass and returns the number of
	// sites it guarded. It is always run(sh) { return walk(sh, newX(sh)) }:
	// walk needs the pass's site type, which a spec cannot hold.
	run func(sh *shader) int
}

// sitePass is a pass over the instructions of a shader, with its own site
// type S (what match found out about an instruction, for guard).
type sitePass[S any] interface {
	// skip reports that the shader cannot contain a site (bda_oob without
	// PhysicalStorageBuffer64): the driver walks nothing.
	skip() bool
	// beginFunction starts a function: hoisted lookups are per function.
	beginFunction(fn *function)
	// beginBlock starts a block; continued says it is a merge block this
	// pass split off, holding the rest of the same original block (a
	// check result can be reused there).
	beginBlock(fn *function, continued bool)
	// match reports whether the instruction at j of b is a site. It may
	// add types and constants (idempotent), never instructions to
	// functions, and may warn that a site is left unchecked.
	match(fn *function, b *spirv.Block, j int) (S, bool)
	// guard builds the check of a site, or warns and returns false to
	// leave it unchecked (b unchanged).
	guard(fn *function, b *spirv.Block, j int, s S) (guarded, bool)
}

// guarded is what a pass built at a site.
type guarded struct {
	// blocks go right after the site's block; the driver goes on with the
	// last one, which holds the rest of the site's block (guard.go's T, F
	// and M). None when the site was changed in place.
	blocks []*spirv.Block
	// checks are the check ids the guard reports; none for a guard that
	// reuses an earlier guard's result and reports nothing.
	checks []string
	// record is the static part of the site's records: what Decode puts
	// back around the dynamic values the report writes.
	record SiteRecord
	// onError is what the guard makes a failed access do ("": skip).
	onError OnError
	// raceTag is the access's number in shared_memory_race's shadow tags
	// (Site.RaceTag).
	raceTag uint16
}

// noHooks gives a pass the hooks it does not need.
type noHooks struct{}

func (noHooks) skip() bool                 { return false }
func (noHooks) beginFunction(*function)    {}
func (noHooks) beginBlock(*function, bool) {}

// function is the driver's state for one function during one pass.
type function struct {
	f *spirv.Function
	// entry collects instructions hoisted to the function's entry block
	// (per-binding lookups); the driver splices them in after the entry
	// block's OpVariables when the pass is done with the function. They
	// dominate every block, and use only module-level ids.
	entry emitter
	// notPrecise is !precise in the entry block, once (precise.go).
	notPrecise uint32
	// cont marks the merge blocks this pass split off in this function.
	cont map[uint32]bool
	// loops says whether the function has an OpLoopMerge (hasLoops):
	// 0 not known yet, 1 none, 2 some.
	loops uint8
}

// hasLoops reports whether the function has a loop header. Guards add no
// loop, so the answer holds for the whole pass: in a function without one,
// no site needs its block searched for a loop merge (inLoopHeader), which
// for a long block of many sites cost a scan of its rest at each.
func (fn *function) hasLoops() bool {
	if fn.loops == 0 {
		fn.loops = 1
		for _, b := range fn.f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode() == spirv.OpLoopMerge {
					fn.loops = 2
				}
			}
		}
	}
	return fn.loops == 2
}

// spliceEntry inserts the hoisted instructions into the entry block after
// its OpVariables (and the debug lines among them).
func (fn *function) spliceEntry() {
	f := fn.f
	if len(fn.entry.insts) == 0 || len(f.Blocks) == 0 {
		return
	}
	b := f.Blocks[0]
	at := 0
	for i, in := range b.Insts {
		if in.Opcode() == spirv.OpVariable {
			at = i + 1
		}
	}
	b.Insts = append(b.Insts[:at], append(fn.entry.insts, b.Insts[at:]...)...)
	fn.entry.insts = nil
}

// walk runs one pass over every block of every function: at each site it
// builds the guard, puts the new blocks after the site's block and goes on
// with the last of them (the rest of the block). It records the sites in
// the shader's table and returns how many it guarded.
//
// While a function is walked its new blocks are appended to its list, and
// put in place after the walk (each after the block it was split from,
// in the order made): inserting them at once shifted every block after
// them, at each site, which made a function of many sites quadratic.
// Whatever reads the list meanwhile (the value bounds' control flow,
// Function.Block) sees every block, the entry block first.
func walk[S any](sh *shader, p sitePass[S]) int {
	if p.skip() {
		return 0
	}
	n := 0
	for _, f := range sh.m.Functions {
		fn := &function{f: f, entry: emitter{m: sh.m}, cont: map[uint32]bool{}}
		p.beginFunction(fn)
		orig := len(f.Blocks)
		var added [][]*spirv.Block // by original block: the blocks split off it, in order
		for bi := 0; bi < orig; bi++ {
			for b := f.Blocks[bi]; b != nil; {
				k, split := walkBlock(sh, p, fn, b)
				n += k
				b = nil
				if len(split) > 0 {
					if added == nil {
						added = make([][]*spirv.Block, orig)
					}
					added[bi] = append(added[bi], split...)
					f.Blocks = append(f.Blocks, split...)
					b = split[len(split)-1] // the rest of the block
				}
			}
		}
		if added != nil {
			blocks := make([]*spirv.Block, 0, len(f.Blocks))
			for bi, b := range f.Blocks[:orig] {
				blocks = append(append(blocks, b), added[bi]...)
			}
			f.Blocks = blocks
		}
		fn.spliceEntry()
	}
	return n
}

// walkBlock walks block b up to its first site whose guard split it, and
// returns the number of sites guarded and the split's new blocks (none
// when it reached the block's end).
func walkBlock[S any](sh *shader, p sitePass[S], fn *function, b *spirv.Block) (int, []*spirv.Block) {
	n := 0
	p.beginBlock(fn, fn.cont[b.ID()])
	for j := 0; j < len(b.Insts); j++ {
		if sh.executed[b.Insts[j]] {
			continue
		}
		s, ok := p.match(fn, b, j)
		if !ok {
			continue
		}
		in := b.Insts[j]
		if sh.nextSite() >= 1<<RecordSiteBits {
			sh.warnf("instruction %d: more than %d checked sites in one module: left unchecked", in.OrigIndex, 1<<RecordSiteBits)
			continue
		}
		g, ok := p.guard(fn, b, j, s)
		if !ok {
			continue
		}
		sh.addSite(in, g)
		n++
		if len(g.blocks) == 0 {
			continue
		}
		fn.cont[g.blocks[len(g.blocks)-1].ID()] = true
		return n, g.blocks
	}
	return n, nil
}

// shader is the state the passes share while instrumenting one module:
// the module and options, the stage's builtins, the check functions to
// link, the analyses, the site table and the warnings.
type shader struct {
	m        *spirv.Module
	opt      Options
	stage    *stageInfo
	lib      *linker
	an       *analyses
	sites    []Site
	printf   []PrintfSite
	warnings []string
	notes    []string
	precise  preciseState
	// decided are the accesses a pass made whose checks a fact of the
	// fast variant already decides (the select form of a read,
	// select_read.go): the buffer_oob pass leaves them alone.
	decided map[*spirv.Instruction]bool
	// executed are the clones of accesses that go ahead as written on the
	// failed side of an execute guard (guardedAccess.fail): their failure
	// is reported, and no later pass checks them again (a bad descriptor
	// index would otherwise be reported a second time by the buffer check
	// of the element it does not have).
	executed map[*spirv.Instruction]bool
	// bound is the module's id bound before instrumentation: ids at or
	// above it are the instrumentation's (removeDeadAdded).
	bound uint32
	// raceShadowWords is the length of shared_memory_race's shadow array,
	// set after linking (patchRaceShadow); 0 without one.
	raceShadowWords uint32
}

// newShader checks that the module is something the passes understand and
// returns a reason to leave it alone otherwise.
func newShader(m *spirv.Module, opt Options) (*shader, string) {
	// Shader may be only implied (RayTracingKHR, MeshShadingEXT... declare
	// it implicitly); a module that declares Kernel is an OpenCL kernel.
	if m.HasCapability(spirv.CapabilityKernel) {
		return nil, "module has no Shader capability (a kernel?): left uninstrumented"
	}
	eps := m.EntryPoints()
	if len(eps) == 0 {
		return nil, "module has no entry point: left uninstrumented"
	}
	for _, ep := range eps[1:] {
		if ep.Model != eps[0].Model {
			return nil, fmt.Sprintf("module has entry points of several stages (%s and %s): left uninstrumented",
				StageName(uint32(eps[0].Model)), StageName(uint32(ep.Model)))
		}
	}
	for _, in := range m.Sections[spirv.SectionMemoryModel] {
		if in.Opcode() == spirv.OpMemoryModel {
			am := spirv.AddressingModel(in.Words[1])
			if am != spirv.AddressingModelLogical && am != spirv.AddressingModelPhysicalStorageBuffer64 {
				return nil, fmt.Sprintf("addressing model %d is not Logical or PhysicalStorageBuffer64: left uninstrumented", am)
			}
		}
	}
	return &shader{m: m, opt: opt, executed: map[*spirv.Instruction]bool{}, stage: newStageInfo(m, eps[0].Model), lib: newLinker(m, opt.DescriptorSet),
		an: &analyses{m: m}}, ""
}

func (sh *shader) warnf(format string, args ...any) {
	sh.warnings = append(sh.warnings, fmt.Sprintf(format, args...))
}

// nextSite is the id the site being guarded will have: the guard's report
// writes it into the records.
func (sh *shader) nextSite() uint32 { return uint32(len(sh.sites)) }

// addSite appends a guarded site to the table; its id is its position.
func (sh *shader) addSite(in *spirv.Instruction, g guarded) {
	onError := g.onError
	if onError == "" {
		onError = OnErrorSkip
	}
	sh.sites = append(sh.sites, Site{ID: len(sh.sites), Instruction: int(in.OrigIndex), Checks: g.checks, Record: g.record,
		OnError: onError, RaceTag: g.raceTag})
}

// onError is what the guards make a failed access do: the robust-only
// mode clamps.
func (sh *shader) onError() OnError {
	if sh.opt.RobustOnly {
		return OnErrorClamp
	}
	return OnErrorOrDefault(sh.opt.OnError)
}

// inLoopHeader reports whether block b is a loop header (its merge
// instruction comes after the site at j): a split would move the
// OpLoopMerge away from the header, so the site is left unchecked, with a
// warning naming what (e.g. "buffer access").
func (sh *shader) inLoopHeader(fn *function, b *spirv.Block, j int, what string) bool {
	if !fn.hasLoops() {
		return false
	}
	for _, x := range b.Insts[j+1:] {
		if x.Opcode() == spirv.OpLoopMerge {
			sh.warnf("instruction %d: %s in a loop header block: left unchecked", b.Insts[j].OrigIndex, what)
			return true
		}
	}
	return false
}

// run runs the passes in order. After a pass that guarded anything, the
// analyses it does not preserve are dropped.
func (sh *shader) run(passes []*passSpec) {
	for _, p := range passes {
		first := len(sh.sites)
		if p.run(sh) == 0 {
			continue
		}
		for i := first; i < len(sh.sites); i++ {
			sh.sites[i].Pass = p.name
		}
		sh.an.invalidate(p.preserves)
	}
}

// instrument parses the module, runs the passes of the enabled checks over
// it and links the check functions they call. Any panic becomes an error so
// that the layer can pass the module through untouched.
func instrument(words []uint32, opt Options) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = Result{Words: words}, fmt.Errorf("instrument shader %d: internal error: %v", opt.ShaderID, r)
		}
	}()
	res.Words = words
	m, err := spirv.Parse(append([]uint32(nil), words...))
	if err != nil {
		return res, fmt.Errorf("instrument shader %d: %w", opt.ShaderID, err)
	}
	bound := m.Header.Bound
	sh, warn := newShader(m, opt)
	if warn != "" {
		res.Warnings = append(res.Warnings, warn)
		return res, nil
	}
	sh.bound = bound
	// Before any pass: the clamps make float-derived indices bounded for
	// the analyses, and the module keeps them even where no access needed
	// a check because of them (float_index.go).
	clamped := boundFloatIndices(m)
	sh.run(passesFor(opt))
	sh.foldLoops()
	printfChanged := sh.runPrintf()
	res.Warnings = append(res.Warnings, sh.warnings...)
	res.Notes = sh.notes
	if len(sh.sites) == 0 && !printfChanged && clamped == 0 {
		return res, nil
	}
	if err := sh.lib.link(); err != nil {
		return Result{Words: words}, fmt.Errorf("instrument shader %d: %w", opt.ShaderID, err)
	}
	if err := sh.patchRaceShadow(); err != nil {
		return Result{Words: words}, fmt.Errorf("instrument shader %d: %w", opt.ShaderID, err)
	}
	if sh.precise.id == 0 {
		removeDeadAdded(m, sh.bound, pureFunctions(m, sh.bound))
		dropDanglingNames(m)
		res.Words = m.Encode()
	} else {
		res.Words, res.Precise = sh.variants()
	}
	if res.Words != nil {
		res.ReadsLayerSet = ReadsSet(res.Words, opt.DescriptorSet)
	}
	res.Instrumented = len(sh.sites) > 0 || len(sh.printf) > 0
	res.ChecksAdded = len(sh.sites)
	res.Sites = sh.sites
	res.Printf = sh.printf
	res.Stage = uint32(sh.stage.model)
	return res, nil
}

// passesFor returns the passes of the enabled checks, in the order they
// run: registry order, each pass after the passes it names in after.
func passesFor(opt Options) []*passSpec {
	var specs []*passSpec
	seen := map[*passSpec]bool{}
	for i := range Checks {
		c := &Checks[i]
		if c.pass != nil && opt.enabled(c.ID) && !seen[c.pass] {
			seen[c.pass] = true
			specs = append(specs, c.pass)
		}
	}
	return orderPasses(specs)
}

// orderPasses sorts passes so that each runs after those it names in
// after (when they run at all) and those marked last after the others,
// keeping the given order otherwise.
func orderPasses(specs []*passSpec) []*passSpec {
	out := make([]*passSpec, 0, len(specs))
	placed := map[string]bool{}
	present := map[string]bool{}
	for _, p := range specs {
		present[p.name] = true
	}
	for len(out) < len(specs) {
		progress := false
		for _, p := range specs {
			if placed[p.name] || !afterPlaced(p, placed, present) || p.last && len(out) < len(specs)-lastCount(specs) {
				continue
			}
			out = append(out, p)
			placed[p.name] = true
			progress = true
			break
		}
		if !progress {
			panic(fmt.Sprintf("gpuav: passes order themselves in a cycle: %v", specs))
		}
	}
	return out
}

// lastCount counts the passes that run last.
func lastCount(specs []*passSpec) int {
	n := 0
	for _, p := range specs {
		if p.last {
			n++
		}
	}
	return n
}

// afterPlaced reports whether every pass p must follow is placed or absent.
func afterPlaced(p *passSpec, placed, present map[string]bool) bool {
	for _, a := range p.after {
		if present[a] && !placed[a] {
			return false
		}
	}
	return true
}

func (o Options) enabled(check string) bool {
	if o.Checks == nil {
		return true
	}
	return o.Checks[check]
}
