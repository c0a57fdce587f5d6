package gpuav

import (
	"math"
	"math/bits"
	"slices"

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
func rayQueryPass(c *context) {
	done := map[*spirv.Instruction]bool{} // guarded initializes, now in merge blocks
	for _, f := range c.m.Functions {
		for bi := 0; bi < len(f.Blocks); bi++ {
			b := f.Blocks[bi]
			for j := 0; j < len(b.Insts); j++ {
				in := b.Insts[j]
				if in.Opcode() != spirv.OpRayQueryInitializeKHR || len(in.Words) != rqWords || done[in] {
					continue
				}
				if c.rayOperandsValid(in) {
					continue
				}
				done[in] = true
				newBlocks, ok := c.guardRayQuery(f, b, j)
				if !ok {
					continue
				}
				f.Blocks = append(f.Blocks[:bi+1], append(newBlocks, f.Blocks[bi+1:]...)...)
				bi += len(newBlocks) - 1
				break
			}
		}
	}
}

// rayOperandsValid reports whether Rayflags, origin, direction and the t
// values are constants that obey every rule, so that no check is needed.
func (c *context) rayOperandsValid(in *spirv.Instruction) bool {
	flags, ok0 := c.constUint32(in.Words[rqFlags])
	o, ok1 := c.constFloats(in.Words[rqOrig])
	d, ok2 := c.constFloats(in.Words[rqDir])
	t0, ok3 := c.constFloats(in.Words[rqTmin])
	t1, ok4 := c.constFloats(in.Words[rqTmax])
	if !ok0 || !ok1 || !ok2 || !ok3 || !ok4 || len(t0) != 1 || len(t1) != 1 {
		return false
	}
	return rayQueryCode(flags, o, t0[0], d, t1[0]) == 0
}

// constUint32 returns the value of a 32-bit integer OpConstant (or
// OpConstantNull).
func (c *context) constUint32(id uint32) (uint32, bool) {
	d := c.m.Def(id)
	if d == nil {
		return 0, false
	}
	t := c.m.Def(d.ResultType())
	if t == nil || t.Opcode() != spirv.OpTypeInt || t.Words[2] != 32 {
		return 0, false
	}
	switch {
	case d.Opcode() == spirv.OpConstant && len(d.Words) == 4:
		return d.Words[3], true
	case d.Opcode() == spirv.OpConstantNull:
		return 0, true
	}
	return 0, false
}

// Ray flag bits of the Rayflags rules (SPIR-V Ray Flags).
const (
	rayFlagsSkipBoth = 0x300 // SkipTrianglesKHR | SkipAABBsKHR
	rayFlagsTriangle = 0x130 // SkipTrianglesKHR, CullBackFacing, CullFrontFacing
	rayFlagsOpaque   = 0xc3  // OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR, CullNoOpaqueKHR
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

// constFloats returns the 32-bit float components of a scalar or vector
// constant (OpConstant, OpConstantComposite, OpConstantNull).
func (c *context) constFloats(id uint32) ([]float32, bool) {
	d := c.m.Def(id)
	if d == nil {
		return nil, false
	}
	t := c.m.Def(d.ResultType())
	if t == nil {
		return nil, false
	}
	switch d.Opcode() {
	case spirv.OpConstant:
		if t.Opcode() != spirv.OpTypeFloat || t.Words[2] != 32 || len(d.Words) != 4 {
			return nil, false
		}
		return []float32{math.Float32frombits(d.Words[3])}, true
	case spirv.OpConstantNull:
		switch t.Opcode() {
		case spirv.OpTypeFloat:
			return []float32{0}, true
		case spirv.OpTypeVector:
			return make([]float32, t.Words[3]), true
		}
	case spirv.OpConstantComposite:
		var out []float32
		for _, e := range d.Words[3:] {
			v, ok := c.constFloats(e)
			if !ok || len(v) != 1 {
				return nil, false
			}
			out = append(out, v[0])
		}
		return out, true
	}
	return nil, false
}

// guardRayQuery splits block b at the initialize at j; it returns the new
// blocks (F, M), or false when the initialize is left unchecked.
func (c *context) guardRayQuery(f *spirv.Function, b *spirv.Block, j int) ([]*spirv.Block, bool) {
	m := c.m
	in := b.Insts[j]
	for _, x := range b.Insts[j+1:] {
		if x.Opcode() == spirv.OpLoopMerge {
			c.warnf("instruction %d: ray query initialize in a loop header block: left unchecked", in.OrigIndex)
			return nil, false
		}
	}
	f32 := m.TypeFloat(32)
	v3 := m.TypeVector(f32, 3)
	typeOf := func(id uint32) uint32 {
		if d := m.Def(id); d != nil {
			return d.ResultType()
		}
		return 0
	}
	ft := m.Def(typeOf(in.Words[rqFlags]))
	if typeOf(in.Words[rqOrig]) != v3 || typeOf(in.Words[rqDir]) != v3 ||
		typeOf(in.Words[rqTmin]) != f32 || typeOf(in.Words[rqTmax]) != f32 ||
		ft == nil || ft.Opcode() != spirv.OpTypeInt || ft.Words[2] != 32 {
		c.warnf("instruction %d: ray query operands are not int/vec3/float of 32 bits: left unchecked", in.OrigIndex)
		return nil, false
	}
	codeFn, err := c.function("gpuav_ray_query_code")
	if err != nil {
		c.warnf("instruction %d: %v: left unchecked", in.OrigIndex, err)
		return nil, false
	}
	report, err := c.function("gpuav_report_ray_query")
	if err != nil {
		c.warnf("instruction %d: %v: left unchecked", in.OrigIndex, err)
		return nil, false
	}
	u := m.TypeUint32()
	fID, mID := m.NewID(), m.NewID()
	post := append([]*spirv.Instruction(nil), b.Insts[j+1:]...)

	head := &emitter{m: m, insts: append([]*spirv.Instruction(nil), b.Insts[:j]...)}
	flags := c.asUint(head, in.Words[rqFlags], typeOf(in.Words[rqFlags]))
	code := head.op(spirv.OpFunctionCall, u, codeFn, flags, in.Words[rqOrig], in.Words[rqTmin], in.Words[rqDir], in.Words[rqTmax])
	bad := head.op(spirv.OpINotEqual, m.TypeBool(), code, m.ConstantUint32(0))
	head.void(spirv.OpSelectionMerge, mID, uint32(spirv.SelectionControlNone))
	head.void(spirv.OpBranchConditional, bad, fID, mID)
	b.Insts = head.insts

	fail := &emitter{m: m}
	stage := c.stageInfo(fail)
	cull := c.asUint(fail, in.Words[rqCull], typeOf(in.Words[rqCull]))
	fail.op(spirv.OpFunctionCall, m.TypeVoid(), report,
		m.ConstantUint32(c.opt.ShaderID), m.ConstantUint32(uint32(in.OrigIndex)), stage, code, flags, cull,
		in.Words[rqOrig], in.Words[rqTmin], in.Words[rqDir], in.Words[rqTmax])
	fail.void(spirv.OpBranch, mID)

	// The harmless ray: no flags, cull mask 0, origin 0, direction +z, [0, 0].
	zeroF := m.ConstantNull(f32)
	zeroV := m.ConstantNull(v3)
	oneID := m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpConstant, f32, oneID, math.Float32bits(1)))
	dirID := m.NewID()
	m.AddGlobal(spirv.NewInstruction(spirv.OpConstantComposite, v3, dirID, zeroF, zeroF, oneID))
	safe := map[int]uint32{rqFlags: m.ConstantNull(typeOf(in.Words[rqFlags])), rqCull: m.ConstantNull(typeOf(in.Words[rqCull])), rqOrig: zeroV, rqTmin: zeroF, rqDir: dirID, rqTmax: zeroF}

	merge := &emitter{m: m}
	for _, k := range []int{rqFlags, rqCull, rqOrig, rqTmin, rqDir, rqTmax} {
		in.Words[k] = merge.op(spirv.OpPhi, typeOf(in.Words[k]), in.Words[k], b.ID(), safe[k], fID)
	}
	merge.insts = append(merge.insts, in)
	merge.insts = append(merge.insts, post...)
	c.retargetPhis(f, post, b.ID(), mID)
	c.added++
	return []*spirv.Block{
		{Label: spirv.NewInstruction(spirv.OpLabel, fID), Insts: fail.insts},
		{Label: spirv.NewInstruction(spirv.OpLabel, mID), Insts: merge.insts},
	}, true
}

// retargetPhis makes phis that named from as a predecessor name to: the
// code after a split (moved, ending in the old block's terminator) now
// reaches them from the merge block. Only the terminator's targets can
// have such phis, so only their leading phis are visited (a scan of the
// whole function per split made a large block's instrumentation
// quadratic); an OpSwitch, whose literal widths vary, visits every block.
func (c *context) retargetPhis(f *spirv.Function, moved []*spirv.Instruction, from, to uint32) {
	if len(moved) == 0 {
		return
	}
	term := moved[len(moved)-1]
	var targets []uint32
	all := false
	switch term.Opcode() {
	case spirv.OpBranch:
		targets = term.Words[1:2]
	case spirv.OpBranchConditional:
		targets = term.Words[2:4]
	case spirv.OpSwitch:
		all = true
	default:
		return // no successor in this function
	}
	for _, blk := range f.Blocks {
		if !all && !slices.Contains(targets, blk.ID()) {
			continue
		}
	leading:
		for _, in := range blk.Insts {
			switch in.Opcode() {
			case spirv.OpPhi:
				for k := 4; k < len(in.Words); k += 2 {
					if in.Words[k] == from {
						in.Words[k] = to
					}
				}
			case spirv.OpLine, spirv.OpNoLine:
			default:
				break leading
			}
		}
	}
}
