package gpuav

import (
	"math"
	"math/bits"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// OpTraceRayKHR's operand words: Accel, Rayflags, CullMask, SBT Offset,
// SBT Stride, Miss Index, RayOrigin, RayTmin, RayDirection, RayTmax,
// Payload.
const (
	trFlags  = 2
	trCull   = 3
	trOffset = 4
	trStride = 5
	trMiss   = 6
	trOrig   = 7
	trTmin   = 8
	trDir    = 9
	trTmax   = 10
	trWords  = 12
)

// OpReportIntersectionKHR's operand words: Hit, Hit Kind.
const (
	riHit   = 3
	riKind  = 4
	riWords = 5
)

// What a trace_ray record's p7 (an OpTraceRayKHR's) and a hit kind
// record's p2 say beyond the values.
const (
	// TraceRaySBTOffsetPast, TraceRaySBTStridePast and
	// TraceRayMissIndexPast: the operand as written had bits past those
	// the instruction uses (4, 4 and 16); p7's low 24 bits hold the bits it
	// uses (offset | stride << 4 | miss index << 8).
	TraceRaySBTOffsetPast = 1 << 24
	TraceRaySBTStridePast = 1 << 25
	TraceRayMissIndexPast = 1 << 26
	// TraceRayMasksSBT (static): the site ran under on_error clamp, so a
	// trace that failed only an SBT rule was made with its SBT operands
	// masked to their bits (one that failed another rule was not made).
	TraceRayMasksSBT = 1 << 28
	// TraceRayMade (static): the site ran under on_error execute, so the
	// failed call was made as written.
	TraceRayMade = 1 << 29
)

// hitKindMax is the highest Hit Kind OpReportIntersectionKHR may report
// (VUID-RuntimeSpirv-OpReportIntersectionKHR-06998: 128-255 are reserved).
const hitKindMax = 127

// traceRayPass checks the operands of every OpTraceRayKHR (ray generation,
// closest hit and miss shaders) whose operands are not all constants that
// obey the rules, and the Hit Kind of every OpReportIntersectionKHR
// (intersection shaders) the value bounds do not keep within 127:
//
//	B: ... %code = OpFunctionCall %uint gpuav_trace_ray_code %flags %offset %stride %miss %o %tmin %d %tmax %pipeline
//	       %bad = OpINotEqual %bool %code %uint_0
//	       OpSelectionMerge %M None
//	       OpBranchConditional %bad %F %T
//	T: OpTraceRayKHR (as written); OpBranch %M
//	F: stage words; OpFunctionCall gpuav_report_trace_ray ...; OpBranch %M
//	M: the rest of B
//
// A failed trace is not made (on_error skip): no hit, miss or intersection
// shader runs for it and its payload keeps what the shader stored in it
// before the call. Under clamp, F goes on to make the trace with the SBT
// operands masked to the bits the instruction uses when the code is one
// of the SBT rules' (the other rules have nothing to clamp: that trace is
// not made); under execute, F makes it as written.
//
// %pipeline is the pipeline word (pipeline_word.go): the ray-tracing
// pipeline's skip flags, which a trace's SkipTrianglesKHR and SkipAABBsKHR
// must not contradict.
//
// An OpReportIntersectionKHR whose Hit Kind is above 127 is guarded the
// way an access is (guard.go): skipped, it returns false (no intersection
// is reported); clamp has no meaning for a hit kind (it is skipped);
// executed, it is made as written.
var traceRayPass = &passSpec{
	name:      "trace_ray",
	preserves: analysisLayoutSizes,
	run:       func(sh *shader) int { return walk(sh, &traceRayChecker{sh: sh}) },
}

// traceRayChecker is the trace_ray pass over one shader.
type traceRayChecker struct {
	noHooks
	sh *shader
}

// skip leaves out the stages that can neither trace nor report an
// intersection.
func (p *traceRayChecker) skip() bool {
	switch p.sh.stage.model {
	case spirv.ExecutionModelRayGenerationKHR, spirv.ExecutionModelClosestHitKHR, spirv.ExecutionModelMissKHR,
		spirv.ExecutionModelIntersectionKHR:
		return false
	}
	return true
}

func (p *traceRayChecker) match(fn *function, b *spirv.Block, j int) (struct{}, bool) {
	in := b.Insts[j]
	switch in.Opcode() {
	case spirv.OpTraceRayKHR:
		return struct{}{}, len(in.Words) == trWords && !traceRayOperandsValid(p.sh.m, in)
	case spirv.OpReportIntersectionKHR:
		if len(in.Words) != riWords {
			return struct{}{}, false
		}
		hi, ok := p.sh.an.safeIndex().upperBound(fn.f, b, in.Words[riKind])
		return struct{}{}, !ok || hi > hitKindMax
	}
	return struct{}{}, false
}

// traceRayOperandsValid reports whether Rayflags, the SBT operands, the
// origin, direction and t values are constants that obey every rule, so
// that no check is needed.
func traceRayOperandsValid(m *spirv.Module, in *spirv.Instruction) bool {
	var u [4]uint32
	for i, k := range []int{trFlags, trOffset, trStride, trMiss} {
		v, ok := constUint32(m, in.Words[k])
		if !ok {
			return false
		}
		u[i] = v
	}
	o, ok1 := constFloats(m, in.Words[trOrig])
	d, ok2 := constFloats(m, in.Words[trDir])
	t0, ok3 := constFloats(m, in.Words[trTmin])
	t1, ok4 := constFloats(m, in.Words[trTmax])
	if !ok1 || !ok2 || !ok3 || !ok4 || len(t0) != 1 || len(t1) != 1 {
		return false
	}
	// A skip flag is valid or not by the pipeline's flags: checked.
	return u[0]&rayFlagsSkipBoth == 0 && traceRayCode(u[0], u[1], u[2], u[3], o, t0[0], d, t1[0], 0) == 0
}

// traceRayCode is gpuav_trace_ray_code on the host, for constant operands
// and a pipeline word.
func traceRayCode(flags, offset, stride, miss uint32, o []float32, tmin float32, d []float32, tmax float32, pipe uint32) CheckCode {
	finite := func(v []float32) bool {
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return false
			}
		}
		return true
	}
	nan := func(x float32) bool { return x != x }
	switch {
	case bits.OnesCount32(flags&rayFlagsTriangle) > 1:
		return CodeTraceRayTriangleFlags
	case bits.OnesCount32(flags&rayFlagsOpaque) > 1:
		return CodeTraceRayOpaqueFlags
	case flags&rayFlagsSkipBoth == rayFlagsSkipBoth:
		return CodeTraceRaySkipBoth
	case !finite(o):
		return CodeTraceRayOrigin
	case !finite(d):
		return CodeTraceRayDirection
	case nan(tmin) || nan(tmax):
		return CodeTraceRayTNaN
	case tmin < 0 || tmax < 0:
		return CodeTraceRayTNegative
	case tmin > tmax:
		return CodeTraceRayTminGreaterThanTmax
	case flags&rayFlagSkipTriangles != 0 && pipe&PipelineSkipAABBs != 0:
		return CodeTraceRaySkipTrianglesPipeline
	case flags&rayFlagSkipAABBs != 0 && pipe&PipelineSkipTriangles != 0:
		return CodeTraceRaySkipAABBsPipeline
	case offset > 0xf:
		return CodeTraceRaySBTOffset
	case stride > 0xf:
		return CodeTraceRaySBTStride
	case miss > 0xffff:
		return CodeTraceRayMissIndex
	}
	return 0
}

func (p *traceRayChecker) guard(fn *function, b *spirv.Block, j int, _ struct{}) (guarded, bool) {
	if b.Insts[j].Opcode() == spirv.OpReportIntersectionKHR {
		return p.guardHitKind(fn, b, j)
	}
	return p.guardTrace(fn, b, j)
}

// guardTrace splits block b at the trace at j into head, T, F and M (see
// traceRayPass).
func (p *traceRayChecker) guardTrace(fn *function, b *spirv.Block, j int) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	if sh.inLoopHeader(fn, b, j, "OpTraceRayKHR") {
		return guarded{}, false
	}
	f32 := m.TypeFloat(32)
	v3 := m.TypeVector(f32, 3)
	for _, k := range []int{trFlags, trCull, trOffset, trStride, trMiss} {
		if int32Type(m, in.Words[k]) == nil {
			sh.warnf("instruction %d: OpTraceRayKHR's integer operands are not of 32 bits: left unchecked", in.OrigIndex)
			return guarded{}, false
		}
	}
	if typeOf(m, in.Words[trOrig]) != v3 || typeOf(m, in.Words[trDir]) != v3 || typeOf(m, in.Words[trTmin]) != f32 ||
		typeOf(m, in.Words[trTmax]) != f32 {
		sh.warnf("instruction %d: OpTraceRayKHR's ray is not vec3/float of 32 bits: left unchecked", in.OrigIndex)
		return guarded{}, false
	}
	pipe, ok := sh.pipelineWord("OpTraceRayKHR's skip flags against the pipeline's")
	if !ok {
		pipe = m.ConstantUint32(0)
	}
	u, boolT := m.TypeUint32(), m.TypeBool()
	tID, fID, mID := m.NewID(), m.NewID(), m.NewID()
	post := b.Insts[j+1:]

	head := emitterAfter(m, b.Insts[:j], 12)
	var ops [trWords]uint32 // the integer operands as uint
	for _, k := range []int{trFlags, trCull, trOffset, trStride, trMiss} {
		ops[k] = head.asUint(in.Words[k], typeOf(m, in.Words[k]))
	}
	code := head.op(spirv.OpFunctionCall, u, sh.lib.function("gpuav_trace_ray_code"), ops[trFlags], ops[trOffset],
		ops[trStride], ops[trMiss], in.Words[trOrig], in.Words[trTmin], in.Words[trDir], in.Words[trTmax], pipe)
	bad := head.op(spirv.OpINotEqual, boolT, code, m.ConstantUint32(0))
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, bad, fID, tID)
	b.Insts = head.insts

	then := newEmitter(m, 2)
	then.insts = append(then.insts, in)
	then.void(spirv.OpBranch, mID)

	label := func(id uint32) *spirv.Instruction { return spirv.NewInstruction(spirv.OpLabel, id) }
	fail := newEmitter(m, 8)
	if !sh.opt.RobustOnly {
		stage := sh.stage.emit(fail)
		fail.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_report_trace_ray"),
			m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage, code, ops[trFlags], ops[trCull],
			ops[trOffset], ops[trStride], ops[trMiss], in.Words[trOrig], in.Words[trTmin], in.Words[trDir], in.Words[trTmax])
	}
	blocks := []*spirv.Block{{Label: label(tID), Insts: then.insts}}
	onError := sh.onError()
	var made uint32
	switch onError {
	case OnErrorExecute:
		made = TraceRayMade
		clone := in.Clone()
		sh.executed[clone] = true
		fail.insts = append(fail.insts, clone)
		fail.void(spirv.OpBranch, mID)
		blocks = append(blocks, &spirv.Block{Label: label(fID), Insts: fail.insts})
	case OnErrorClamp:
		// C: the trace with its SBT operands masked, when the code is an
		// SBT rule's (CodeTraceRaySBTOffset and the codes after it).
		made = TraceRayMasksSBT
		cID, fmID := m.NewID(), m.NewID()
		sbt := fail.op(spirv.OpUGreaterThanEqual, boolT, code, m.ConstantUint32(uint32(CodeTraceRaySBTOffset)))
		fail.void(spirv.OpSelectionMerge, fmID, uint32(spirv.SelectionControlNone))
		fail.void(spirv.OpBranchConditional, sbt, cID, fmID)
		c := newEmitter(m, 5)
		clone := in.Clone()
		for _, k := range []int{trOffset, trStride, trMiss} {
			mask := uint32(0xf)
			if k == trMiss {
				mask = 0xffff
			}
			clone.Words[k] = c.op(spirv.OpBitwiseAnd, u, ops[k], m.ConstantUint32(mask))
		}
		sh.executed[clone] = true
		c.insts = append(c.insts, clone)
		c.void(spirv.OpBranch, fmID)
		fm := newEmitter(m, 1)
		fm.void(spirv.OpBranch, mID)
		blocks = append(blocks, &spirv.Block{Label: label(fID), Insts: fail.insts}, &spirv.Block{Label: label(cID), Insts: c.insts},
			&spirv.Block{Label: label(fmID), Insts: fm.insts})
	default:
		fail.void(spirv.OpBranch, mID)
		blocks = append(blocks, &spirv.Block{Label: label(fID), Insts: fail.insts})
	}
	retargetPhis(fn.f, post, b.ID(), mID)
	blocks = append(blocks, &spirv.Block{Label: label(mID), Insts: post})
	record := dynamicRecord([RecordParams]uint32{7: made}, 0, 1, 2, 3, 4, 5, 6, 7)
	return guarded{blocks: blocks, checks: []string{CheckTraceRay}, record: record, onError: onError}, true
}

// guardHitKind guards the OpReportIntersectionKHR at j of b: its Hit Kind
// at most 127, else the report and, under skip and clamp, false instead
// of the call.
func (p *traceRayChecker) guardHitKind(fn *function, b *spirv.Block, j int) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	if sh.inLoopHeader(fn, b, j, "OpReportIntersectionKHR") {
		return guarded{}, false
	}
	hit, kind := in.Words[riHit], in.Words[riKind]
	if int32Type(m, kind) == nil || typeOf(m, hit) != m.TypeFloat(32) {
		sh.warnf("instruction %d: OpReportIntersectionKHR's operands are not a 32-bit float and integer: left unchecked", in.OrigIndex)
		return guarded{}, false
	}
	var k uint32
	g := guardedAccess{
		executed: sh.executed,
		pre:      append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			k = head.asUint(kind, typeOf(m, kind))
			return head.op(spirv.OpULessThanEqual, m.TypeBool(), k, m.ConstantUint32(hitKindMax)), true
		},
		access: in,
		report: func(fail *emitter) {
			stage := sh.stage.emit(fail)
			fail.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_report_hit_kind"),
				m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage, k, hit)
		},
		null:    func() uint32 { return m.ConstantNull(in.ResultType()) }, // false: no intersection reported
		onError: sh.onError(),                                             // a hit kind has nothing to clamp to
		silent:  sh.opt.RobustOnly,
	}
	blocks, ok := g.split(m, fn.f, b, j)
	var made uint32
	if g.failOnError() == OnErrorExecute {
		made = TraceRayMade
	}
	record := dynamicRecord([RecordParams]uint32{2: made}, 0, 1)
	return guarded{blocks: blocks, checks: []string{CheckTraceRay}, record: record, onError: g.failOnError()}, ok
}
