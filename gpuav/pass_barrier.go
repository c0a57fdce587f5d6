package gpuav

import (
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// barrierPass checks that every invocation of a workgroup reaches each
// workgroup barrier (docs/decisions/barrier-divergence.md). In compute,
// task and mesh modules with an OpControlBarrier of Workgroup execution
// scope:
//
//	entry:   %e = OpGroupNonUniformBallot %v4uint %Subgroup %true
//	         gpuav_bar_begin(lid, %e, lid - lane if every lane's is equal, else ~0)
//	returns: gpuav_bar_exit() before each OpReturn of the entry point
//	B:       ... %ok = gpuav_bar_arrive(shader, site, stage, ballot(true), lane, skip, wgxy)
//	         OpSelectionMerge %M; OpBranchConditional %ok %T %M
//	T:       OpControlBarrier ...; OpBranch %M
//	M:       gpuav_bar_depart(shader, site, stage, wgsize or 0, wgxy); the rest of B
//
// Under on_error execute (and where B is a loop header, which a split
// would break) the barrier stays where it is, between the two calls, and
// always runs. A module before SPIR-V 1.3 has no subgroup ballot: only
// the workgroup count after the barrier (depart) is made.
var barrierPass = &passSpec{
	name:      "barrier_divergence",
	after:     []string{"shared_memory_race"},
	preserves: analysisLayoutSizes,
	run:       runBarrierPass,
}

// barrierState is the pass over one module.
type barrierState struct {
	noHooks
	sh     *shader
	ballot bool // the module may use subgroup ballots (SPIR-V 1.3+)
	done   map[*spirv.Instruction]bool
}

// isWorkgroupBarrier reports whether in is an OpControlBarrier of
// Workgroup execution scope.
func isWorkgroupBarrier(m *spirv.Module, in *spirv.Instruction) bool {
	if in.Opcode() != spirv.OpControlBarrier || len(in.Words) < 4 {
		return false
	}
	s, ok := constUint32(m, in.Words[1])
	return ok && s == uint32(spirv.ScopeWorkgroup)
}

func runBarrierPass(sh *shader) int {
	switch sh.stage.model {
	case spirv.ExecutionModelGLCompute, spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT,
		spirv.ExecutionModelTaskNV, spirv.ExecutionModelMeshNV:
	default:
		return 0
	}
	if sh.opt.RobustOnly {
		return 0
	}
	m := sh.m
	any := false
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				any = any || isWorkgroupBarrier(m, in)
			}
		}
	}
	if !any {
		return 0
	}
	if _, ok := workgroupSize(m, nil); !ok {
		sh.warnf("%s: barriers left unchecked: the module gives no workgroup size", CheckBarrierDivergence)
		return 0
	}
	p := &barrierState{sh: sh, ballot: m.VersionAtLeast(1, 3), done: map[*spirv.Instruction]bool{}}
	if !p.ballot {
		sh.notes = append(sh.notes, CheckBarrierDivergence+": SPIR-V before 1.3 has no subgroup ballot: barriers are checked after they complete only")
	}
	n := walk(sh, p)
	if n > 0 {
		p.instrumentEntry()
	}
	return n
}

func (p *barrierState) match(fn *function, b *spirv.Block, j int) (struct{}, bool) {
	in := b.Insts[j]
	return struct{}{}, !p.done[in] && isWorkgroupBarrier(p.sh.m, in)
}

// subgroupValues emits the ballot of the invocations here and the lane, or
// zeros without ballots.
func (p *barrierState) subgroupValues(e *emitter) (ballot, lane uint32) {
	m := p.sh.m
	u := m.TypeUint32()
	v4 := m.TypeVector(u, 4)
	if !p.ballot {
		return m.ConstantNull(v4), m.ConstantUint32(0)
	}
	m.AddCapability(spirv.CapabilityGroupNonUniform)
	m.AddCapability(spirv.CapabilityGroupNonUniformBallot)
	ballot = e.op(spirv.OpGroupNonUniformBallot, v4, m.ConstantUint32(uint32(spirv.ScopeSubgroup)), m.ConstantTrue())
	lane = p.sh.stage.load(e, spirv.BuiltInSubgroupLocalInvocationId, func() uint32 { return u }, 1)[0]
	return ballot, lane
}

// orders reports whether a barrier's semantics order Workgroup memory
// (acquire-release on it), so that the arrivals counted before it are
// visible after it.
func orders(m *spirv.Module, in *spirv.Instruction) bool {
	v, ok := constUint32(m, in.Words[3])
	return ok && v&semWorkgroupMemory != 0 && v&(0x8|0x10) != 0
}

func (p *barrierState) guard(fn *function, b *spirv.Block, j int, _ struct{}) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	p.done[in] = true
	u := m.TypeUint32()
	site := m.ConstantUint32(sh.nextSite())
	id := m.ConstantUint32(sh.opt.ShaderID)
	skip := sh.onError() != OnErrorExecute
	for _, x := range b.Insts[j+1:] {
		if x.Opcode() == spirv.OpLoopMerge {
			skip = false // a split would move the loop's merge out of its header
		}
	}
	head := newEmitter(m, 16)
	here, lane := p.subgroupValues(head)
	xyz, _ := workgroupSize(m, head)
	wgxy := head.op(spirv.OpBitwiseOr, u, xyz[0], head.op(spirv.OpShiftLeftLogical, u, xyz[1], m.ConstantUint32(16)))
	total := m.ConstantUint32(0)
	if orders(m, in) {
		total = head.op(spirv.OpIMul, u, head.op(spirv.OpIMul, u, xyz[0], xyz[1]), xyz[2])
	}
	stage := sh.stage.emit(head)
	flag := uint32(0)
	if skip {
		flag = 1
	}
	ok := head.op(spirv.OpFunctionCall, m.TypeBool(), sh.lib.function("gpuav_bar_arrive"), id, site, stage, here, lane,
		m.ConstantUint32(flag), wgxy)
	depart := spirv.NewInstruction(spirv.OpFunctionCall, m.TypeVoid(), m.NewID(), sh.lib.function("gpuav_bar_depart"),
		id, site, stage, total, wgxy)
	rec := dynamicRecord([RecordParams]uint32{}, 0, 1, 2, 3, 4, 5)
	if !skip {
		post := append([]*spirv.Instruction{in, depart}, b.Insts[j+1:]...)
		b.Insts = append(append(b.Insts[:j:j], head.insts...), post...)
		return guarded{checks: []string{CheckBarrierDivergence}, record: rec, onError: OnErrorExecute}, true
	}
	tID, mID := m.NewID(), m.NewID()
	post := append([]*spirv.Instruction(nil), b.Insts[j+1:]...)
	head.insts = append(append([]*spirv.Instruction(nil), b.Insts[:j]...), head.insts...)
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, ok, tID, mID)
	b.Insts = head.insts
	t := &emitter{m: m, insts: []*spirv.Instruction{in}}
	t.void(spirv.OpBranch, mID)
	retargetPhis(fn.f, post, b.ID(), mID)
	return guarded{blocks: []*spirv.Block{
		{Label: spirv.NewInstruction(spirv.OpLabel, tID), Insts: t.insts},
		{Label: spirv.NewInstruction(spirv.OpLabel, mID), Insts: append([]*spirv.Instruction{depart}, post...)},
	}, checks: []string{CheckBarrierDivergence}, record: rec}, true
}

// instrumentEntry starts the state at each entry point and records its
// returns.
func (p *barrierState) instrumentEntry() {
	sh, m := p.sh, p.sh.m
	u := m.TypeUint32()
	exit := sh.lib.function("gpuav_bar_exit")
	for _, ep := range m.EntryPoints() {
		f := m.Function(ep.Function)
		if f == nil || len(f.Blocks) == 0 {
			continue
		}
		for _, b := range f.Blocks {
			n := len(b.Insts)
			if n > 0 && b.Insts[n-1].Opcode() == spirv.OpReturn {
				call := spirv.NewInstruction(spirv.OpFunctionCall, m.TypeVoid(), m.NewID(), exit)
				b.Insts = append(b.Insts[:n-1:n-1], call, b.Insts[n-1])
			}
		}
		e := newEmitter(m, 12)
		lid := sh.stage.load(e, spirv.BuiltInLocalInvocationIndex, func() uint32 { return u }, 1)[0]
		entry, lane := p.subgroupValues(e)
		base := m.ConstantUint32(^uint32(0))
		if p.ballot {
			m.AddCapability(spirv.CapabilityGroupNonUniformVote)
			d := e.op(spirv.OpISub, u, lid, lane)
			eq := e.op(spirv.OpGroupNonUniformAllEqual, m.TypeBool(), m.ConstantUint32(uint32(spirv.ScopeSubgroup)), d)
			base = e.op(spirv.OpSelect, u, eq, d, base)
		}
		e.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_bar_begin"), lid, entry, base)
		entryBlock := f.Blocks[0]
		at := 0
		for i, in := range entryBlock.Insts {
			if in.Opcode() == spirv.OpVariable {
				at = i + 1
			}
		}
		entryBlock.Insts = append(entryBlock.Insts[:at:at], append(e.insts, entryBlock.Insts[at:]...)...)
	}
}
