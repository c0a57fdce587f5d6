package gpuav

import "github.com/gpuav-dbg/gpuav-dbg/spirv"

// The pipeline word: what a check needs to know of the pipeline (or shader
// object) a shader runs in, which the module alone does not say. An
// instrumented module that needs it declares a uint specialization
// constant with the SpecId PipelineWordSpecID (default 0: nothing known);
// the layer's C half adds that constant's value to the specialization info
// of the stages of every pipeline whose word is not 0 (pipeline.c,
// shaderobj.c). The driver folds the constant, so a pipeline whose word
// lets a check pass pays nothing for it
// (docs/decisions/pipeline-word.md).
const (
	// PipelineWordSpecID is the constant's SpecId: far from the small ids
	// apps number their constants with. A module that already uses it
	// gets no pipeline-dependent check (with a warning).
	PipelineWordSpecID = 0x67617601
	// PipelineSkipAABBs: a ray-tracing pipeline created with
	// VK_PIPELINE_CREATE_RAY_TRACING_SKIP_AABBS_BIT_KHR.
	PipelineSkipAABBs = 1
	// PipelineSkipTriangles: created with
	// VK_PIPELINE_CREATE_RAY_TRACING_SKIP_TRIANGLES_BIT_KHR.
	PipelineSkipTriangles = 2
	// PipelineNoTask: a mesh shader stage of a graphics pipeline with no
	// task shader, or a mesh shader object created with
	// VK_SHADER_CREATE_NO_TASK_SHADER_BIT_EXT.
	PipelineNoTask = 4
)

// PipelineConstants lists the pipeline word by the names the generated C
// header gives it.
var PipelineConstants = []Constant{
	{"PIPELINE_WORD_SPEC_ID", PipelineWordSpecID}, {"PIPELINE_SKIP_AABBS", PipelineSkipAABBs},
	{"PIPELINE_SKIP_TRIANGLES", PipelineSkipTriangles}, {"PIPELINE_NO_TASK", PipelineNoTask},
}

// pipelineWord returns the id of the module's pipeline-word constant,
// declaring it on first use; ok is false (with a warning) when the app's
// own module already has a constant of that SpecId.
func (sh *shader) pipelineWord(what string) (uint32, bool) {
	m := sh.m
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		if in.Opcode() != spirv.OpDecorate || len(in.Words) != 4 || spirv.Decoration(in.Words[2]) != spirv.DecorationSpecId ||
			in.Words[3] != PipelineWordSpecID {
			continue
		}
		if id := in.Words[1]; id >= sh.bound {
			return id, true // declared by an earlier check
		}
		sh.warnf("the module has a specialization constant of SpecId 0x%x, the one the layer gives the pipeline's flags: %s left unchecked",
			uint32(PipelineWordSpecID), what)
		return 0, false
	}
	id := m.NewID()
	m.AddGlobal(spirv.NewResultInstruction(spirv.OpSpecConstant, m.TypeUint32(), id, 0))
	m.AddAnnotation(spirv.NewInstruction(spirv.OpDecorate, id, uint32(spirv.DecorationSpecId), PipelineWordSpecID))
	return id, true
}
