package gpuav

import (
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Texel buffer access flags: word p5 of a CodeTexelBufferOOB record.
const (
	// TexelWrite marks an OpImageWrite or an atomic that writes.
	TexelWrite = 1 << 0
	// TexelAtomic marks an atomic through OpImageTexelPointer.
	TexelAtomic = 1 << 1
	// TexelUniform marks a uniform texel buffer (else a storage texel
	// buffer).
	TexelUniform = 1 << 2
	// TexelRobust says the device enabled robustBufferAccess, which also
	// covers texel buffers: the access is defined, reported as a warning.
	TexelRobust = 1 << 3
	// TexelSigned says the coordinate is a signed integer (p3 holds its
	// bits: a negative coordinate reads as a large unsigned one).
	TexelSigned = 1 << 4
)

// texelAccess is one access to a texel buffer element.
type texelAccess struct {
	set, binding uint32
	// descIndex is the descriptor array index id, 0 for a plain binding.
	descIndex uint32
	coord     uint32 // the coordinate id, a 32-bit integer scalar
	flags     uint32
	// ptr is the OpImageTexelPointer an atomic goes through, else nil.
	ptr *spirv.Instruction
}

// texelBufferPass guards every access to a texel buffer (an image of Dim
// Buffer): OpImageFetch, OpImageRead, OpImageWrite (and their sparse
// forms) and the atomics through OpImageTexelPointer, on a plain binding
// or an element of a sized or runtime array:
//
//	B: ... %r = OpFunctionCall %v3uint gpuav_check_texel set binding index coord
//	       %ok = (%r.x == 0)
//	       OpSelectionMerge %M None
//	       OpBranchConditional %ok %T %F
//	T: the access (for an atomic: the OpImageTexelPointer, moved down to
//	   just before the atomic, and the atomic); OpBranch %M
//	F: stage words; OpFunctionCall gpuav_report_texel_oob ...; OpBranch %M
//	M: %result = OpPhi %type %access %T %null %F ... the rest of B
//
// The texel count of the view is only known at submit (binding
// DescStateBinding), so every access is checked. The pass runs after the
// descriptor pass: an access it guards is checked here inside its guard
// (whose image loads are clones under new ids: the driver rebuilds the
// definition index in between, which the descriptor pass does not
// preserve).
var texelBufferPass = &passSpec{
	name:      "texel_buffer_oob",
	after:     []string{"descriptor_index"},
	preserves: analysisLayoutSizes,
	run:       func(sh *shader) int { return walk(sh, &texelChecker{sh: sh}) },
}

// texelChecker is the texel_buffer_oob pass over one shader.
type texelChecker struct {
	sh *shader
}

// skip: a module that declares no texel buffer type (an OpTypeImage of
// Dim Buffer) has no site, and most have none: the walk is not made.
// Types are declared before the functions (the layout's rule; one out of
// place, in the wrong section or between functions, is still found here).
func (p *texelChecker) skip() bool {
	m := p.sh.m
	for _, s := range m.Sections {
		if slices.ContainsFunc(s, isTexelBufferType) {
			return false
		}
	}
	for _, f := range m.Functions {
		if slices.ContainsFunc(f.Before, isTexelBufferType) {
			return false
		}
	}
	return !slices.ContainsFunc(m.Trailing, isTexelBufferType)
}

// isTexelBufferType reports whether in declares an image type of Dim Buffer.
func isTexelBufferType(in *spirv.Instruction) bool {
	return in.Opcode() == spirv.OpTypeImage && len(in.Words) >= 9 && spirv.Dim(in.Words[3]) == spirv.DimBuffer
}

func (p *texelChecker) beginFunction(*function)    {}
func (p *texelChecker) beginBlock(*function, bool) {}

func (p *texelChecker) match(fn *function, b *spirv.Block, j int) (texelAccess, bool) {
	return texelAccessOf(p.sh, b.Insts[j])
}

// texelAccessOf recognises an access to a texel buffer and returns where
// it lands. Accesses to other images, and texel pointers, are not sites:
// the atomic using a texel pointer is.
func texelAccessOf(sh *shader, in *spirv.Instruction) (texelAccess, bool) {
	m := sh.m
	var acc texelAccess
	var img, ptr uint32 // an image value, or the pointer to an image variable
	switch in.Opcode() {
	case spirv.OpImageFetch, spirv.OpImageRead, spirv.OpImageSparseFetch, spirv.OpImageSparseRead:
		if len(in.Words) < 5 {
			return acc, false
		}
		img, acc.coord = in.Words[3], in.Words[4]
	case spirv.OpImageWrite:
		if len(in.Words) < 4 {
			return acc, false
		}
		img, acc.coord = in.Words[1], in.Words[2]
		acc.flags |= TexelWrite
	default:
		k := pointerOperand(in.Opcode())
		if k == 0 || k >= len(in.Words) {
			return acc, false
		}
		tp := m.Def(in.Words[k])
		if tp == nil || tp.Opcode() != spirv.OpImageTexelPointer || len(tp.Words) < 6 {
			return acc, false
		}
		acc.ptr = tp
		ptr, acc.coord = tp.Words[3], tp.Words[4]
		acc.flags |= bufferFlags(in.Opcode()) // the same Write/Atomic bits
	}
	// An image value: follow OpImage / OpCopyObject back to its OpLoad.
	for depth := 0; img != 0 && depth < 8; depth++ {
		d := m.Def(img)
		if d == nil || len(d.Words) < 4 {
			return acc, false
		}
		switch d.Opcode() {
		case spirv.OpImage, spirv.OpCopyObject:
			img = d.Words[3]
			continue
		case spirv.OpLoad:
			ptr = d.Words[3]
		}
		break
	}
	if ptr == 0 {
		return acc, false
	}
	v := m.Def(ptr)
	if v == nil {
		return acc, false
	}
	if op := v.Opcode(); (op == spirv.OpAccessChain || op == spirv.OpInBoundsAccessChain) && len(v.Words) == 5 {
		acc.descIndex = v.Words[4]
		v = m.Def(v.Words[3])
	}
	if v == nil || v.Opcode() != spirv.OpVariable || spirv.StorageClass(v.Words[3]) != spirv.StorageClassUniformConstant {
		return acc, false
	}
	pt := m.Def(v.Words[1])
	if pt == nil || pt.Opcode() != spirv.OpTypePointer {
		return acc, false
	}
	t := m.Def(pt.Words[3])
	if t != nil && (t.Opcode() == spirv.OpTypeArray || t.Opcode() == spirv.OpTypeRuntimeArray) {
		if acc.descIndex == 0 {
			return acc, false // the whole array: not an element access
		}
		t = m.Def(t.Words[2])
	} else if acc.descIndex != 0 {
		return acc, false
	}
	if t != nil && t.Opcode() == spirv.OpTypeSampledImage {
		t = m.Def(t.Words[2])
	}
	if t == nil || t.Opcode() != spirv.OpTypeImage || len(t.Words) < 9 || spirv.Dim(t.Words[3]) != spirv.DimBuffer {
		return acc, false
	}
	if t.Words[7] == 1 {
		acc.flags |= TexelUniform
	}
	acc.set, acc.binding = setAndBinding(m, v.Words[2])
	if sh.opt.Robust {
		acc.flags |= TexelRobust
	}
	return acc, true
}

// guard splits block b at the access at j.
func (p *texelChecker) guard(fn *function, b *spirv.Block, j int, acc texelAccess) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	if sh.inLoopHeader(fn, b, j, "texel buffer access") {
		return guarded{}, false
	}
	ct := int32Type(m, acc.coord)
	if ct == nil {
		sh.warnf("instruction %d: texel buffer coordinate is not a 32-bit integer: left unchecked", in.OrigIndex)
		return guarded{}, false
	}
	if ct.Words[3] == 1 {
		acc.flags |= TexelSigned
	}
	if acc.descIndex != 0 && int32Type(m, acc.descIndex) == nil {
		sh.warnf("instruction %d: descriptor index is not a 32-bit integer: left unchecked", in.OrigIndex)
		return guarded{}, false
	}
	// An atomic goes with its texel pointer: the pointer must be used by
	// this atomic only, so that it can move into the guarded block.
	at := -1
	if acc.ptr != nil {
		at = indexOf(b.Insts[:j], acc.ptr)
		if at < 0 || useCounts(m, fn.f).of(acc.ptr.ResultID()) != 1 {
			sh.warnf("instruction %d: texel pointer is used by more than this atomic or in another block: left unchecked", in.OrigIndex)
			return guarded{}, false
		}
	}
	fns := sh.lib.functions("gpuav_check_texel", "gpuav_report_texel_oob")
	check, report := fns[0], fns[1]
	u := m.TypeUint32()
	v3 := m.TypeVector(u, 3)

	var pre []*spirv.Instruction
	for k, x := range b.Insts[:j] {
		if k != at {
			pre = append(pre, x)
		}
	}
	var idx, coord, set, binding, r uint32
	moved := false
	g := guardedAccess{
		executed: sh.executed,
		pre:      pre,
		check: func(head *emitter) (uint32, bool) {
			idx = m.ConstantUint32(0)
			if acc.descIndex != 0 {
				idx = head.asUint(acc.descIndex, m.Def(acc.descIndex).ResultType())
			}
			coord = head.asUint(acc.coord, ct.Words[1])
			set, binding = m.ConstantUint32(acc.set), m.ConstantUint32(acc.binding)
			r = head.op(spirv.OpFunctionCall, v3, check, set, binding, idx, coord)
			code := head.op(spirv.OpCompositeExtract, u, r, 0)
			return head.op(spirv.OpIEqual, m.TypeBool(), code, m.ConstantUint32(0)), true
		},
		then: func(then *emitter, base map[uint32]uint32) map[uint32]uint32 {
			switch {
			case acc.ptr == nil:
				return base
			case !moved && base == nil:
				// The first clone of the atomic takes the texel pointer.
				moved = true
				then.insts = append(then.insts, acc.ptr)
				return nil
			}
			return cloneChain(then, []*spirv.Instruction{acc.ptr}, nil, base)
		},
		access: in,
		report: func(fail *emitter) {
			stage := sh.stage.emit(fail)
			fail.op(spirv.OpFunctionCall, m.TypeVoid(), report,
				m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage,
				set, binding, idx, coord, r, m.ConstantUint32(acc.flags))
		},
		null:    func() uint32 { return nullValue(m, in.ResultType()) },
		onError: sh.onError(),
		silent:  sh.opt.RobustOnly,
	}
	g.clamp = texelClamp(m, acc.coord, ct, &r)
	blocks, ok := g.split(m, fn.f, b, j)
	// Records: set, binding and flags static; the index (p2), coordinate
	// (p3), texel count (p4) and length (p6) dynamic.
	record := dynamicRecord([RecordParams]uint32{acc.set, acc.binding, 5: acc.flags}, -1, -1, 0, 1, 2, -1, 3)
	return guarded{blocks: blocks, checks: []string{CheckTexelBufferOOB}, record: record, onError: g.failOnError()}, ok
}

// texelClamp clamps a failed access's coordinate into the view: a
// negative signed one to texel 0, any other to the last texel. A view of
// no texel has nothing to clamp to. r is the check's result (code, texel
// count, array length).
func texelClamp(m *spirv.Module, coordID uint32, ct *spirv.Instruction, r *uint32) *clampSpec {
	var clamped uint32
	return &clampSpec{
		can: func(fail *emitter) uint32 {
			u, bl := m.TypeUint32(), m.TypeBool()
			count := fail.op(spirv.OpCompositeExtract, u, *r, 1)
			c := uMin(fail, fail.asUint(coordID, ct.Words[1]), fail.op(spirv.OpISub, u, count, m.ConstantUint32(1)))
			if ct.Words[3] == 1 {
				neg := fail.op(spirv.OpSLessThan, bl, coordID, m.ConstantNull(ct.Words[1]))
				c = fail.op(spirv.OpSelect, u, neg, m.ConstantUint32(0), c)
				c = fail.op(spirv.OpBitcast, ct.Words[1], c)
			}
			clamped = c
			return fail.op(spirv.OpINotEqual, bl, count, m.ConstantUint32(0))
		},
		operands: func(*emitter) map[uint32]uint32 { return map[uint32]uint32{coordID: clamped} },
	}
}
