package gpuav

import (
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// bdaPass guards every OpLoad, OpStore and atomic through a pointer in the
// PhysicalStorageBuffer storage class, in modules whose addressing model is
// PhysicalStorageBuffer64 (others have no such pointers), for bda_oob and,
// where a load or store has an Aligned operand above 1, bda_alignment (its
// address a multiple of it: %ok is then also (%a.x & (align - 1)) == 0,
// and the report is gpuav_report_bda_access, which writes the
// out-of-bounds record when the address is out of bounds, else the
// alignment one):
//
//	B: ... %a = the pointer as uvec2 (OpConvertPtrToU + OpBitcast, or
//	       OpBitcast of the pointer on SPIR-V 1.5+)
//	       %code = OpFunctionCall %uint gpuav_bda_check %a %size
//	       %ok = OpIEqual %bool %code %uint_0
//	       OpSelectionMerge %M None
//	       OpBranchConditional %ok %T %F
//	T: the access; OpBranch %M
//	F: stage words; OpFunctionCall gpuav_report_bda ...; OpBranch %M
//	M: %result = OpPhi %type %access %T %null %F ... the rest of B
//
// A failed check skips the access: a load yields zero, a store or an
// atomic does nothing.
var bdaPass = &passSpec{
	name:      "bda",
	preserves: analysisLayoutSizes,
	run:       func(sh *shader) int { return walk(sh, &bdaChecker{sh: sh}) },
}

// bdaChecker is the bda pass over one shader.
type bdaChecker struct {
	noHooks
	sh *shader
}

// bdaAccess is an access through a PhysicalStorageBuffer pointer: its size
// and BDA* flags; oob says bda_oob checks it, align (a power of two > 1,
// or 0) is the Aligned operand bda_alignment checks its address against.
type bdaAccess struct {
	size, flags uint32
	oob         bool
	align       uint32
	// coop is the cooperative-matrix load or store the access is, or nil:
	// size is then its pointee's bytes, and the bytes it touches
	// coopMatSpan's (checked by bda_oob, its alignment by
	// cooperative_matrix_alignment).
	coop *coopMatAccess
}

func (p *bdaChecker) skip() bool { return !physicalAddressing(p.sh.m) }

func (p *bdaChecker) match(fn *function, b *spirv.Block, j int) (bdaAccess, bool) {
	m := p.sh.m
	in := b.Insts[j]
	if isCoopMatAccess(in.Opcode()) {
		return p.matchCoopMat(in)
	}
	k := pointerOperand(in.Opcode())
	if k == 0 || k >= len(in.Words) || in.Opcode() == spirv.OpArrayLength {
		return bdaAccess{}, false
	}
	ptrType := pointerType(m, in.Words[k])
	if ptrType == nil || spirv.StorageClass(ptrType.Words[2]) != spirv.StorageClassPhysicalStorageBuffer {
		return bdaAccess{}, false
	}
	acc := bdaAccess{oob: p.sh.opt.enabled(CheckBDAOOB)}
	if p.sh.opt.enabled(CheckBDAAlignment) {
		acc.align = alignedOperand(in)
	}
	if !acc.oob && acc.align == 0 {
		return bdaAccess{}, false
	}
	size, ok := p.sh.an.layoutSizes().accessSize(in.Words[k], ptrType.Words[3])
	if !ok {
		p.sh.warnf("instruction %d: the size of the type behind a PhysicalStorageBuffer pointer is unknown: left unchecked", in.OrigIndex)
		return bdaAccess{}, false
	}
	acc.size, acc.flags = size, bdaFlags(in.Opcode(), m.Def(ptrType.Words[3]))
	return acc, true
}

// matchCoopMat matches a cooperative-matrix load or store through a
// PhysicalStorageBuffer pointer, with bda_oob on (else the buffer pass
// warns it is left unchecked).
func (p *bdaChecker) matchCoopMat(in *spirv.Instruction) (bdaAccess, bool) {
	sh, m := p.sh, p.sh.m
	cm, _, err := coopMatOf(m, in)
	ptrType := pointerType(m, cm.ptr)
	if ptrType == nil || spirv.StorageClass(ptrType.Words[2]) != spirv.StorageClassPhysicalStorageBuffer || !sh.opt.enabled(CheckBDAOOB) {
		return bdaAccess{}, false
	}
	if err != nil {
		sh.warnf("instruction %d: cooperative matrix access: %v: left unchecked", in.OrigIndex, err)
		return bdaAccess{}, false
	}
	size, ok := sh.an.layoutSizes().accessSize(cm.ptr, ptrType.Words[3])
	if !ok {
		sh.warnf("instruction %d: the size of the type behind a PhysicalStorageBuffer pointer is unknown: left unchecked", in.OrigIndex)
		return bdaAccess{}, false
	}
	cm.oob, cm.align = true, sh.opt.enabled(CheckCoopMatAlignment)
	acc := bdaAccess{size: size, flags: BDACoopMatrix, oob: true, coop: &cm}
	if cm.store {
		acc.flags |= BDAWrite
	}
	return acc, true
}

// alignedOperand returns the Aligned memory operand of an OpLoad or
// OpStore when it is a power of two above 1 (an alignment of 1 holds for
// every address; others spirv-val rejects), else 0. Atomics have none:
// their natural alignment is the device's to enforce.
func alignedOperand(in *spirv.Instruction) uint32 {
	k := 0
	switch in.Opcode() {
	case spirv.OpLoad:
		k = 4
	case spirv.OpStore:
		k = 3
	default:
		return 0
	}
	if len(in.Words) <= k+1 || in.Words[k]&uint32(spirv.MemoryAccessAligned) == 0 {
		return 0
	}
	// Aligned's literal comes first: Volatile, the only lower bit, has none.
	a := in.Words[k+1]
	if a <= 1 || a&(a-1) != 0 {
		return 0
	}
	return a
}

// bdaFlags says what kind of access an instruction is (BDA* bits).
func bdaFlags(op spirv.Opcode, pointee *spirv.Instruction) uint32 {
	var f uint32
	switch op {
	case spirv.OpLoad:
	case spirv.OpStore:
		f = BDAWrite
	case spirv.OpAtomicLoad:
		f = BDAAtomic
	default:
		f = BDAWrite | BDAAtomic
	}
	if pointee != nil && pointee.Opcode() == spirv.OpTypeStruct {
		f |= BDAStruct
	}
	return f
}

// address returns what emits the pointer of in as a uvec2, or nil when the
// module cannot read a pointer's bits (warned).
func (p *bdaChecker) address(in *spirv.Instruction) func(e *emitter) uint32 {
	sh, m := p.sh, p.sh.m
	var ptr uint32
	if cm, ok, _ := coopMatOf(m, in); ok {
		ptr = cm.ptr
	} else {
		ptr = in.Words[pointerOperand(in.Opcode())]
	}
	v2 := m.TypeVector(m.TypeUint32(), 2)
	switch {
	case m.HasCapability(spirv.CapabilityInt64) || (sh.opt.Int64 && !m.VersionAtLeast(1, 5)):
		return func(e *emitter) uint32 {
			if !m.HasCapability(spirv.CapabilityInt64) {
				m.AddCapability(spirv.CapabilityInt64)
			}
			a := e.op(spirv.OpConvertPtrToU, m.TypeInt(64, false), ptr)
			return e.op(spirv.OpBitcast, v2, a)
		}
	case m.VersionAtLeast(1, 5):
		return func(e *emitter) uint32 { return e.op(spirv.OpBitcast, v2, ptr) }
	}
	sh.warnf("instruction %d: reading a pointer needs Int64 or SPIR-V 1.5, and the device has no shaderInt64: left unchecked", in.OrigIndex)
	return nil
}

func (p *bdaChecker) guard(fn *function, b *spirv.Block, j int, s bdaAccess) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	if sh.inLoopHeader(fn, b, j, "buffer device address access") {
		return guarded{}, false
	}
	addr := p.address(in)
	if addr == nil {
		return guarded{}, false
	}
	if s.coop != nil {
		return p.guardCoopMat(fn, b, j, s, addr)
	}
	// The functions first, in this order: a bda_oob-only module's
	// instrumentation is what it was before bda_alignment.
	var check, report uint32
	switch {
	case s.align == 0:
		fns := sh.lib.functions("gpuav_bda_check", "gpuav_report_bda")
		check, report = fns[0], fns[1]
	case sh.opt.RobustOnly: // no report: nothing calls it
		if s.oob {
			check = sh.lib.function("gpuav_bda_check")
		}
	case s.oob:
		fns := sh.lib.functions("gpuav_bda_check", "gpuav_report_bda_access")
		check, report = fns[0], fns[1]
	default:
		report = sh.lib.function("gpuav_report_bda_access")
	}
	var null uint32
	if in.ResultID() != 0 {
		null = nullValue(m, in.ResultType())
	}
	u := m.TypeUint32()
	var a, sizeID, code uint32
	checks := []string{CheckBDAOOB}
	switch {
	case s.align != 0 && s.oob:
		checks = []string{CheckBDAOOB, CheckBDAAlignment}
	case s.align != 0:
		checks = []string{CheckBDAAlignment}
	}
	g := guardedAccess{
		executed: sh.executed,
		pre:      append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			a = addr(head)
			sizeID = m.ConstantUint32(s.size)
			var ok uint32
			if s.oob {
				code = head.op(spirv.OpFunctionCall, u, check, a, sizeID)
				ok = head.op(spirv.OpIEqual, m.TypeBool(), code, m.ConstantUint32(0))
			}
			if s.align != 0 {
				lo := head.op(spirv.OpCompositeExtract, u, a, 0)
				low := head.op(spirv.OpBitwiseAnd, u, lo, m.ConstantUint32(s.align-1))
				aligned := head.op(spirv.OpIEqual, m.TypeBool(), low, m.ConstantUint32(0))
				if ok == 0 {
					ok = aligned
				} else {
					ok = head.op(spirv.OpLogicalAnd, m.TypeBool(), ok, aligned)
				}
			}
			return ok, true
		},
		access: in,
		report: func(fail *emitter) {
			stage := sh.stage.emit(fail)
			if s.align == 0 {
				fail.op(spirv.OpFunctionCall, m.TypeVoid(), report,
					m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage,
					a, sizeID, m.ConstantUint32(s.flags))
				return
			}
			oobCode := m.ConstantUint32(0)
			if s.oob {
				oobCode = code
			}
			fail.op(spirv.OpFunctionCall, m.TypeVoid(), report,
				m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage,
				a, sizeID, m.ConstantUint32(s.flags), m.ConstantUint32(s.align), oobCode)
		},
		null:    func() uint32 { return null },
		onError: sh.onError(), // an address outside every buffer has nothing to clamp to
		silent:  sh.opt.RobustOnly,
	}
	blocks, ok := g.split(m, fn.f, b, j)
	// Records: the size (p2) static, the rest dynamic (the flags gain the
	// nearest-buffer bit in the shader).
	record := dynamicRecord([RecordParams]uint32{2: s.size}, 0, 1, -1, 2, 3, 4, 5)
	return guarded{blocks: blocks, checks: checks, record: record, onError: g.failOnError()}, ok
}

// guardCoopMat guards a cooperative-matrix load or store through a device
// address: gpuav_bda_check of its span, and where
// cooperative_matrix_alignment is on, gpuav_coopmat_misaligned of the
// address and the stride; gpuav_report_bda_span writes the out-of-bounds
// record first, else the alignment one.
func (p *bdaChecker) guardCoopMat(fn *function, b *spirv.Block, j int, s bdaAccess, addr func(e *emitter) uint32) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	cm := s.coop
	fns := sh.lib.functions("gpuav_bda_check", "gpuav_report_bda_span")
	u, bl := m.TypeUint32(), m.TypeBool()
	zero := m.ConstantUint32(0)
	var a, span, code, strideBytes uint32
	misaligned := zero
	var null uint32
	if in.ResultID() != 0 {
		null = nullValue(m, in.ResultType())
	}
	checks := []string{CheckBDAOOB}
	if cm.align {
		checks = append(checks, CheckCoopMatAlignment)
	}
	g := guardedAccess{
		executed: sh.executed,
		pre:      append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			a = addr(head)
			span = coopMatSpan(sh, head, *cm, s.size)
			stride := cm.strideUint(m, head)
			strideBytes = head.op(spirv.OpIMul, u, stride, m.ConstantUint32(s.size))
			code = head.op(spirv.OpFunctionCall, u, fns[0], a, span)
			ok := head.op(spirv.OpIEqual, bl, code, zero)
			if cm.align {
				lo := head.op(spirv.OpCompositeExtract, u, a, 0)
				misaligned = head.op(spirv.OpFunctionCall, u, sh.lib.function("gpuav_coopmat_misaligned"),
					lo, stride, m.ConstantUint32(s.size), m.ConstantUint32(cm.alignment()))
				aligned := head.op(spirv.OpIEqual, bl, misaligned, zero)
				ok = head.op(spirv.OpLogicalAnd, bl, ok, aligned)
			}
			return ok, true
		},
		access: in,
		report: func(fail *emitter) {
			stage := sh.stage.emit(fail)
			fail.op(spirv.OpFunctionCall, m.TypeVoid(), fns[1],
				m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage,
				a, span, m.ConstantUint32(s.flags), code, strideBytes, m.ConstantUint32(cm.alignment()), misaligned)
		},
		null:    func() uint32 { return null },
		onError: sh.onError(),
		silent:  sh.opt.RobustOnly,
	}
	blocks, ok := g.split(m, fn.f, b, j)
	// Records: every parameter dynamic; the size (p2) is the seventh value.
	record := dynamicRecord([RecordParams]uint32{}, 0, 1, 6, 2, 3, 4, 5)
	return guarded{blocks: blocks, checks: checks, record: record, onError: g.failOnError()}, ok
}
