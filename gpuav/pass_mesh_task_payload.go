package gpuav

import (
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// meshTaskPayloadPass guards every read of a TaskPayloadWorkgroupEXT
// variable in a mesh shader with the pipeline word's PipelineNoTask bit
// (pipeline_word.go): set by the layer for a mesh stage of a pipeline
// with no task shader (or a mesh shader object created with
// VK_SHADER_CREATE_NO_TASK_SHADER_BIT_EXT), where no task shader wrote the
// payload and the read is undefined (VUID-RuntimeSpirv-MeshEXT-12380):
//
//	B: ... %ok = OpIEqual %bool (OpBitwiseAnd %pipeline NoTask) 0
//	       OpSelectionMerge %M None; OpBranchConditional %ok %T %F
//	T: %v1 = OpLoad ...; OpBranch %M
//	F: stage words; OpFunctionCall gpuav_report_task_payload ...; OpBranch %M
//	M: %v = OpPhi %v1 %T %null %F; the rest of B
//
// The word is a specialization constant: the driver folds the test, so a
// pipeline with a task shader runs the read as written and pays nothing.
// Under skip (and clamp: a payload has no range to clamp into) the read
// yields zero; under execute it reads what the memory holds.
var meshTaskPayloadPass = &passSpec{
	name:      "mesh_task_payload",
	preserves: analysisLayoutSizes,
	run: func(sh *shader) int {
		return walk(sh, &meshTaskPayloadChecker{sh: sh})
	},
}

// meshTaskPayloadChecker is the mesh_task_payload pass over one shader.
type meshTaskPayloadChecker struct {
	noHooks
	sh *shader
}

// skip leaves out every stage but the mesh shader's, and mesh shaders
// without a task payload.
func (p *meshTaskPayloadChecker) skip() bool {
	if p.sh.stage.model != spirv.ExecutionModelMeshEXT {
		return true
	}
	for _, in := range p.sh.m.Sections[spirv.SectionGlobal] {
		if in.Opcode() == spirv.OpVariable && len(in.Words) > 3 &&
			spirv.StorageClass(in.Words[3]) == spirv.StorageClassTaskPayloadWorkgroupEXT {
			return false
		}
	}
	return true
}

func (p *meshTaskPayloadChecker) match(fn *function, b *spirv.Block, j int) (struct{}, bool) {
	in := b.Insts[j]
	if in.Opcode() != spirv.OpLoad || len(in.Words) < 4 || p.sh.executed[in] {
		return struct{}{}, false
	}
	pt := p.sh.m.Def(typeOf(p.sh.m, in.Words[3]))
	return struct{}{}, pt != nil && pt.Opcode() == spirv.OpTypePointer && len(pt.Words) > 2 &&
		spirv.StorageClass(pt.Words[2]) == spirv.StorageClassTaskPayloadWorkgroupEXT
}

func (p *meshTaskPayloadChecker) guard(fn *function, b *spirv.Block, j int, _ struct{}) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	pipe, ok := sh.pipelineWord("the mesh shader's task payload reads")
	if !ok {
		return guarded{}, false
	}
	g := guardedAccess{
		executed: sh.executed,
		pre:      append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			u := m.TypeUint32()
			bit := head.op(spirv.OpBitwiseAnd, u, pipe, m.ConstantUint32(PipelineNoTask))
			return head.op(spirv.OpIEqual, m.TypeBool(), bit, m.ConstantUint32(0)), true
		},
		access: in,
		report: func(fail *emitter) {
			stage := sh.stage.emit(fail)
			fail.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_report_task_payload"),
				m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage)
		},
		null:    func() uint32 { return m.ConstantNull(in.ResultType()) },
		onError: sh.onError(),
		silent:  sh.opt.RobustOnly,
	}
	blocks, ok := g.split(m, fn.f, b, j)
	var made uint32
	if g.failOnError() == OnErrorExecute {
		made = TaskPayloadRead
	}
	return guarded{blocks: blocks, checks: []string{CheckMeshTaskPayload}, record: dynamicRecord([RecordParams]uint32{0: made}),
		onError: g.failOnError()}, ok
}

// TaskPayloadRead (static, a mesh_task_payload record's p0): the site ran
// under on_error execute, so the read was made as written.
const TaskPayloadRead = 1
