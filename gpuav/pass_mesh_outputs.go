package gpuav

import (
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// meshOutputsPass checks OpSetMeshOutputsEXT's counts against the mesh
// shader's declared maxima, its OutputVertices and OutputPrimitivesEXT
// execution modes (VUID-RuntimeSpirv-MeshEXT-07332, -07333):
//
//	B: ... %vbad = OpUGreaterThan %bool %vc %maxv
//	       %pbad = OpUGreaterThan %bool %pc %maxp
//	       %bad = OpLogicalOr %bool %vbad %pbad
//	       OpSelectionMerge %M None; OpBranchConditional %bad %F %M
//	F: stage words; OpFunctionCall gpuav_report_mesh_outputs %vc %pc ...; OpBranch %M
//	M: %vc' = OpSelect %uint %vbad %maxv %vc; the same for %pc
//	   OpSetMeshOutputsEXT %vc' %pc'; the rest of B
//
// The instruction stays where it was, after the selection merges, so it
// keeps the uniform control flow the specification asks of it. Under skip
// and clamp alike the counts are clamped to the maxima (emitting more is
// undefined; emitting the maxima keeps what the shader wrote inside
// them); execute leaves them as written. Counts the value bounds prove
// within the maxima (constants, masked values) get no check.
var meshOutputsPass = &passSpec{
	name:      "mesh_outputs",
	preserves: analysisLayoutSizes,
	run: func(sh *shader) int {
		return walk(sh, &meshOutputsChecker{sh: sh, done: map[*spirv.Instruction]bool{}})
	},
}

// meshOutputsChecker is the mesh_outputs pass over one shader.
type meshOutputsChecker struct {
	noHooks
	sh         *shader
	done       map[*spirv.Instruction]bool
	maxV, maxP uint32
	found      bool
}

func (p *meshOutputsChecker) skip() bool {
	if p.sh.stage.model != spirv.ExecutionModelMeshEXT {
		return true
	}
	var v, prim bool
	for _, in := range p.sh.m.Sections[spirv.SectionExecutionMode] {
		if in.Opcode() != spirv.OpExecutionMode || len(in.Words) < 4 {
			continue
		}
		switch spirv.ExecutionMode(in.Words[2]) {
		case spirv.ExecutionModeOutputVertices:
			p.maxV, v = in.Words[3], true
		case spirv.ExecutionModeOutputPrimitivesEXT:
			p.maxP, prim = in.Words[3], true
		}
	}
	if !v || !prim {
		p.sh.warnf("mesh shader without OutputVertices and OutputPrimitivesEXT: SetMeshOutputsEXT left unchecked")
		return true
	}
	return false
}

func (p *meshOutputsChecker) match(fn *function, b *spirv.Block, j int) (struct{}, bool) {
	in := b.Insts[j]
	if in.Opcode() != spirv.OpSetMeshOutputsEXT || len(in.Words) != 3 || p.done[in] {
		return struct{}{}, false
	}
	safe := p.sh.an.safeIndex()
	within := func(id, limit uint32) bool {
		hi, ok := safe.upperBound(fn.f, b, id)
		return ok && hi <= uint64(limit)
	}
	return struct{}{}, !within(in.Words[1], p.maxV) || !within(in.Words[2], p.maxP)
}

func (p *meshOutputsChecker) guard(fn *function, b *spirv.Block, j int, _ struct{}) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	if sh.inLoopHeader(fn, b, j, "SetMeshOutputsEXT") {
		return guarded{}, false
	}
	vc, pc := in.Words[1], in.Words[2]
	vt, pt := typeOf(m, vc), typeOf(m, pc)
	if int32Type(m, vc) == nil || int32Type(m, pc) == nil {
		sh.warnf("instruction %d: SetMeshOutputsEXT counts are not 32-bit integers: left unchecked", in.OrigIndex)
		return guarded{}, false
	}
	p.done[in] = true
	boolT := m.TypeBool()
	maxV, maxP := m.ConstantOf(vt, p.maxV), m.ConstantOf(pt, p.maxP)
	fID, mID := m.NewID(), m.NewID()
	post := b.Insts[j:]
	head := emitterAfter(m, b.Insts[:j], 6)
	vbad := head.op(spirv.OpUGreaterThan, boolT, vc, maxV)
	pbad := head.op(spirv.OpUGreaterThan, boolT, pc, maxP)
	bad := head.op(spirv.OpLogicalOr, boolT, vbad, pbad)
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, bad, fID, mID)
	b.Insts = head.insts

	fail := newEmitter(m, 8)
	if !sh.opt.RobustOnly {
		stage := sh.stage.emit(fail)
		fail.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_report_mesh_outputs"),
			m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage,
			fail.asUint(vc, vt), fail.asUint(pc, pt), m.ConstantUint32(p.maxV), m.ConstantUint32(p.maxP))
	}
	fail.void(spirv.OpBranch, mID)

	onError := OnErrorExecute
	if sh.onError() != OnErrorExecute {
		onError = OnErrorClamp
		merge := newEmitter(m, 2+len(post))
		in.Words[1] = merge.op(spirv.OpSelect, vt, vbad, maxV, vc)
		in.Words[2] = merge.op(spirv.OpSelect, pt, pbad, maxP, pc)
		post = append(merge.insts, post...)
	}
	retargetPhis(fn.f, post, b.ID(), mID)
	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }
	record := dynamicRecord([RecordParams]uint32{2: p.maxV, 3: p.maxP}, 0, 1, -1, -1)
	return guarded{blocks: []*spirv.Block{{Label: label(fID), Insts: fail.insts}, {Label: label(mID), Insts: post}},
		checks: []string{CheckMeshOutputs}, record: record, onError: onError}, true
}
