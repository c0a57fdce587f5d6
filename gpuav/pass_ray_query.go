package gpuav

import (
	"math"
	"math/bits"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// OpRayQueryInitializeKHR's operand words: RayQuery, Accel, RayFlags,
// CullMask, RayOrigin, RayTmin, RayDirection, RayTmax.
const (
	rqFlags = 3
	rqCull  = 4
	rqOrig  = 5
	rqTmin  = 6
	rqDir   = 7
	rqTmax  = 8
	rqWords = 9
)

// rayQueryPass checks the operands of every OpRayQueryInitializeKHR whose
// operands are not all constants that obey the rules:
//
//	B: ... %code = OpFunctionCall %uint gpuav_ray_query_code %flags %o %tmin %d %tmax
//	       %bad = OpINotEqual %bool %code %uint_0
//	       OpSelectionMerge %M None
//	       OpBranchConditional %bad %F %M
//	F: stage words; OpFunctionCall gpuav_report_ray_query ...; OpBranch %M
//	M: %cull' = OpPhi %cull B %0 F; the same for Rayflags 0, origin
//	   (0,0,0), RayTmin 0, direction (0,0,1) and RayTmax 0
//	   OpRayQueryInitializeKHR %q %as %flags' %cull' %o' %tmin' %d' %tmax'
//	   ... the rest of B
//
// A failed check still initializes the query, so that the app's later
// OpRayQueryProceedKHR and queries are defined, but with no ray flags, a
// cull mask of 0 and an empty interval: no instance can be hit, Proceed returns false and
// the committed intersection is None, as for a ray that misses everything.
var rayQueryPass = &passSpec{
	name:      "ray_query",
	preserves: analysisLayoutSizes,
	run:       func(sh *shader) int { return walk(sh, &rayQueryChecker{sh: sh, done: map[*spirv.Instruction]bool{}}) },
}

// rayQueryChecker is the ray_query pass over one shader.
type rayQueryChecker struct {
	noHooks
	sh   *shader
	done map[*spirv.Instruction]bool // guarded initializes, now in merge blocks
}

func (p *rayQueryChecker) match(fn *function, b *spirv.Block, j int) (struct{}, bool) {
	in := b.Insts[j]
	if in.Opcode() != spirv.OpRayQueryInitializeKHR || len(in.Words) != rqWords || p.done[in] {
		return struct{}{}, false
	}
	return struct{}{}, !rayOperandsValid(p.sh.m, in)
}

// rayOperandsValid reports whether Rayflags, origin, direction and the t
// values are constants that obey every rule, so that no check is needed.
func rayOperandsValid(m *spirv.Module, in *spirv.Instruction) bool {
	flags, ok0 := constUint32(m, in.Words[rqFlags])
	o, ok1 := constFloats(m, in.Words[rqOrig])
	d, ok2 := constFloats(m, in.Words[rqDir])
	t0, ok3 := constFloats(m, in.Words[rqTmin])
	t1, ok4 := constFloats(m, in.Words[rqTmax])
	if !ok0 || !ok1 || !ok2 || !ok3 || !ok4 || len(t0) != 1 || len(t1) != 1 {
		return false
	}
	return rayQueryCode(flags, o, t0[0], d, t1[0]) == 0
}

// Ray flag bits of the Rayflags rules (SPIR-V Ray Flags).
const (
	rayFlagsSkipBoth     = 0x300 // SkipTrianglesKHR | SkipAABBsKHR
	rayFlagSkipTriangles = 0x100
	rayFlagSkipAABBs     = 0x200
	rayFlagsTriangle     = 0x130 // SkipTrianglesKHR, CullBackFacing, CullFrontFacing
	rayFlagsOpaque       = 0xc3  // OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR, CullNoOpaqueKHR
)

// rayQueryCode is gpuav_ray_query_code on the host, for constant operands.
func rayQueryCode(flags uint32, o []float32, tmin float32, d []float32, tmax float32) CheckCode {
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
	case !finite(o):
		return CodeRayQueryOriginNonFinite
	case !finite(d):
		return CodeRayQueryDirectionNonFinite
	case nan(tmin) || nan(tmax):
		return CodeRayQueryTNaN
	case tmin < 0:
		return CodeRayQueryNegativeTmin
	case tmax < 0:
		return CodeRayQueryNegativeTmax
	case tmin > tmax:
		return CodeRayQueryTminGreaterThanTmax
	case flags&rayFlagsSkipBoth == rayFlagsSkipBoth:
		return CodeRayQuerySkipTrianglesAndAABBs
	case bits.OnesCount32(flags&rayFlagsTriangle) > 1:
		return CodeRayQueryTriangleFlags
	case bits.OnesCount32(flags&rayFlagsOpaque) > 1:
		return CodeRayQueryOpaqueFlags
	}
	return 0
}

// guard splits block b at the initialize at j into head, F and M (see
// rayQueryPass).
func (p *rayQueryChecker) guard(fn *function, b *spirv.Block, j int, _ struct{}) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	if sh.inLoopHeader(fn, b, j, "ray query initialize") {
		return guarded{}, false
	}
	f32 := m.TypeFloat(32)
	v3 := m.TypeVector(f32, 3)
	if !rayOperandTypes(m, in, f32, v3) {
		sh.warnf("instruction %d: ray query operands are not int/vec3/float of 32 bits: left unchecked", in.OrigIndex)
		return guarded{}, false
	}
	codeFn := sh.lib.function("gpuav_ray_query_code")
	report := sh.lib.function("gpuav_report_ray_query")
	u := m.TypeUint32()
	fID, mID := m.NewID(), m.NewID()
	post := append([]*spirv.Instruction(nil), b.Insts[j+1:]...)

	head := &emitter{m: m, insts: append([]*spirv.Instruction(nil), b.Insts[:j]...)}
	flags := head.asUint(in.Words[rqFlags], typeOf(m, in.Words[rqFlags]))
	code := head.op(spirv.OpFunctionCall, u, codeFn, flags, in.Words[rqOrig], in.Words[rqTmin], in.Words[rqDir], in.Words[rqTmax])
	bad := head.op(spirv.OpINotEqual, m.TypeBool(), code, m.ConstantUint32(0))
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, bad, fID, mID)
	b.Insts = head.insts

	fail := &emitter{m: m}
	if !sh.opt.RobustOnly {
		stage := sh.stage.emit(fail)
		cull := fail.asUint(in.Words[rqCull], typeOf(m, in.Words[rqCull]))
		fail.op(spirv.OpFunctionCall, m.TypeVoid(), report,
			m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage, code, flags, cull,
			in.Words[rqOrig], in.Words[rqTmin], in.Words[rqDir], in.Words[rqTmax])
	}
	fail.void(spirv.OpBranch, mID)

	// Skipped (clamp has no meaning for a ray's values), the query traces
	// a harmless ray; executed, the ray as written.
	merge := &emitter{m: m}
	onError := OnErrorSkip
	if sh.onError() == OnErrorExecute {
		onError = OnErrorExecute
	} else {
		safe := harmlessRay(m, in, f32, v3)
		for _, k := range []int{rqFlags, rqCull, rqOrig, rqTmin, rqDir, rqTmax} {
			in.Words[k] = merge.op(spirv.OpPhi, typeOf(m, in.Words[k]), in.Words[k], b.ID(), safe[k], fID)
		}
	}
	merge.insts = append(merge.insts, in)
	merge.insts = append(merge.insts, post...)
	retargetPhis(fn.f, post, b.ID(), mID)
	p.done[in] = true
	return guarded{blocks: []*spirv.Block{
		{Label: spirv.NewInstruction(spirv.OpLabel, fID), Insts: fail.insts},
		{Label: spirv.NewInstruction(spirv.OpLabel, mID), Insts: merge.insts},
	}, checks: []string{CheckRayQuery}, record: dynamicRecord([RecordParams]uint32{}, 0, 1, 2, 3, 4, 5, 6), onError: onError}, true
}

// typeOf returns the result type of id's definition, or 0.
func typeOf(m *spirv.Module, id uint32) uint32 {
	if d := m.Def(id); d != nil {
		return d.ResultType()
	}
	return 0
}

// rayOperandTypes reports whether an initialize's operands have the types
// the check functions take: 32-bit integer Rayflags, vec3 origin and
// direction, float t values.
func rayOperandTypes(m *spirv.Module, in *spirv.Instruction, f32, v3 uint32) bool {
	ft := m.Def(typeOf(m, in.Words[rqFlags]))
	return typeOf(m, in.Words[rqOrig]) == v3 && typeOf(m, in.Words[rqDir]) == v3 &&
		typeOf(m, in.Words[rqTmin]) == f32 && typeOf(m, in.Words[rqTmax]) == f32 &&
		ft != nil && ft.Opcode() == spirv.OpTypeInt && ft.Words[2] == 32
}

// harmlessRay returns, by operand word, the values a failed initialize
// takes instead: no flags, cull mask 0, origin 0, direction +z, [0, 0].
func harmlessRay(m *spirv.Module, in *spirv.Instruction, f32, v3 uint32) map[int]uint32 {
	zeroF := m.ConstantNull(f32)
	zeroV := m.ConstantNull(v3)
	oneID := m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpConstant, f32, oneID, math.Float32bits(1)))
	dirID := m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpConstantComposite, v3, dirID, zeroF, zeroF, oneID))
	return map[int]uint32{rqFlags: m.ConstantNull(typeOf(m, in.Words[rqFlags])), rqCull: m.ConstantNull(typeOf(m, in.Words[rqCull])),
		rqOrig: zeroV, rqTmin: zeroF, rqDir: dirID, rqTmax: zeroF}
}
