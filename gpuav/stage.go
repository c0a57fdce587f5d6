package gpuav

import "github.com/gpuav-dbg/gpuav-dbg/spirv"

// stageInfo builds the record's stage words (record.go's table) from the
// builtins of the module's stage, adding the builtin variables a stage
// lacks. One per shader: the variables it found or added are reused.
type stageInfo struct {
	m        *spirv.Module
	model    spirv.ExecutionModel
	builtins map[spirv.BuiltIn]uint32
}

func newStageInfo(m *spirv.Module, model spirv.ExecutionModel) *stageInfo {
	return &stageInfo{m: m, model: model, builtins: map[spirv.BuiltIn]uint32{}}
}

// builtin returns the Input variable decorated with a builtin, adding one of
// the given type (and listing it in every entry point's interface) when the
// module has none.
func (s *stageInfo) builtin(b spirv.BuiltIn, typ func() uint32) uint32 {
	if id, ok := s.builtins[b]; ok {
		return id
	}
	m := s.m
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		if in.Opcode() == spirv.OpDecorate && len(in.Words) > 3 &&
			spirv.Decoration(in.Words[2]) == spirv.DecorationBuiltIn && spirv.BuiltIn(in.Words[3]) == b {
			v := m.Def(in.Words[1])
			if v != nil && v.Opcode() == spirv.OpVariable && spirv.StorageClass(v.Words[3]) == spirv.StorageClassInput {
				s.builtins[b] = v.Words[2]
				for _, ep := range m.EntryPoints() {
					m.AddToInterface(ep.Inst, v.Words[2])
				}
				return v.Words[2]
			}
		}
	}
	id := m.NewID()
	ptr := m.TypePointer(spirv.StorageClassInput, typ())
	m.AddGlobal(spirv.NewInstruction(spirv.OpVariable, ptr, id, uint32(spirv.StorageClassInput)))
	m.AddAnnotation(spirv.NewInstruction(spirv.OpDecorate, id, uint32(spirv.DecorationBuiltIn), uint32(b)))
	if s.model == spirv.ExecutionModelFragment && (b == spirv.BuiltInPrimitiveId) {
		m.AddAnnotation(spirv.NewInstruction(spirv.OpDecorate, id, uint32(spirv.DecorationFlat)))
	}
	for _, ep := range m.EntryPoints() {
		m.AddToInterface(ep.Inst, id)
	}
	s.builtins[b] = id
	return id
}

// load loads a builtin and returns up to n of its components as uints.
func (s *stageInfo) load(e *emitter, b spirv.BuiltIn, typ func() uint32, n int) []uint32 {
	m := s.m
	v := s.builtin(b, typ)
	ptrType := m.Def(m.Def(v).Words[1])
	t := ptrType.Words[3]
	val := e.op(spirv.OpLoad, t, v)
	td := m.Def(t)
	if td.Opcode() != spirv.OpTypeVector {
		return []uint32{e.asUint(val, t)}
	}
	comp := td.Words[2]
	var out []uint32
	for i := 0; i < n && i < int(td.Words[3]); i++ {
		x := e.op(spirv.OpCompositeExtract, comp, val, uint32(i))
		out = append(out, e.asUint(x, comp))
	}
	return out
}

// emit emits the code that builds a record's stage argument as a uvec4
// and returns its id: 0 (the slot of a folded record's count, which
// gpuav_write_record writes to word 15; docs/decisions/loop-failures-folded.md),
// then the three stage-specific words.
func (s *stageInfo) emit(e *emitter) uint32 {
	return s.emitWith(e, s.m.ConstantUint32(0))
}

// emitModel is emit with the execution model first, as a printf line's
// header carries it.
func (s *stageInfo) emitModel(e *emitter) uint32 {
	return s.emitWith(e, s.m.ConstantUint32(uint32(s.model)))
}

// emitWith is emit with first as the uvec4's first component.
func (s *stageInfo) emitWith(e *emitter, first uint32) uint32 {
	m := s.m
	u := m.TypeUint32()
	i32 := func() uint32 { return m.TypeInt(32, true) }
	v3u := func() uint32 { return m.TypeVector(u, 3) }
	v3f := func() uint32 { return m.TypeVector(m.TypeFloat(32), 3) }
	v4f := func() uint32 { return m.TypeVector(m.TypeFloat(32), 4) }
	var w []uint32
	switch s.model {
	case spirv.ExecutionModelVertex:
		w = append(s.load(e, spirv.BuiltInVertexIndex, i32, 1), s.load(e, spirv.BuiltInInstanceIndex, i32, 1)...)
	case spirv.ExecutionModelTessellationControl:
		w = append(s.load(e, spirv.BuiltInInvocationId, i32, 1), s.load(e, spirv.BuiltInPrimitiveId, i32, 1)...)
	case spirv.ExecutionModelTessellationEvaluation:
		w = append(s.load(e, spirv.BuiltInPrimitiveId, i32, 1), s.load(e, spirv.BuiltInTessCoord, v3f, 2)...)
	case spirv.ExecutionModelGeometry:
		w = append(s.load(e, spirv.BuiltInPrimitiveId, i32, 1), s.load(e, spirv.BuiltInInvocationId, i32, 1)...)
	case spirv.ExecutionModelFragment:
		w = s.load(e, spirv.BuiltInFragCoord, v4f, 2)
	case spirv.ExecutionModelGLCompute, spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT,
		spirv.ExecutionModelTaskNV, spirv.ExecutionModelMeshNV:
		w = s.load(e, spirv.BuiltInGlobalInvocationId, v3u, 3)
	case spirv.ExecutionModelRayGenerationKHR, spirv.ExecutionModelIntersectionKHR, spirv.ExecutionModelAnyHitKHR,
		spirv.ExecutionModelClosestHitKHR, spirv.ExecutionModelMissKHR, spirv.ExecutionModelCallableKHR:
		w = s.load(e, spirv.BuiltInLaunchIdKHR, v3u, 3)
	}
	for len(w) < 3 {
		w = append(w, m.ConstantUint32(0))
	}
	return e.op(spirv.OpCompositeConstruct, m.TypeVector(u, 4), first, w[0], w[1], w[2])
}
