package gpuav

import (
	"fmt"
	"math"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Buffer access flags: the low 8 bits of word p6 of a CodeBufferOOB record
// (the descriptor array's length is in the bits above).
const (
	// BufferWrite marks a store or an atomic that writes.
	BufferWrite = 1 << 0
	// BufferAtomic marks an atomic instruction.
	BufferAtomic = 1 << 1
	// BufferUniform marks a uniform buffer (else a storage buffer).
	BufferUniform = 1 << 2
	// BufferRobust says the device enabled robustBufferAccess: the access
	// is defined behaviour, reported as a warning.
	BufferRobust = 1 << 3
	// BufferCoopMatrix marks a cooperative-matrix load or store: its size
	// (p4) is the span of bytes the matrix's rows or columns cover, known
	// at run time (coopmat.go).
	BufferCoopMatrix = 1 << 4
	// BufferFlagBits is the number of low bits of p6 the flags take.
	BufferFlagBits = 8
)

// bufferOOBPass guards every OpLoad, OpStore and atomic through an access
// chain into a uniform or storage buffer block (a plain binding, or an
// element of a sized or runtime array of blocks):
//
//	B: ... %off = the access's byte offset from the start of the block, as
//	       (offset, overflow): constant parts folded, dynamic indices
//	       added by gpuav_buffer_offset_add (index * ArrayStride or
//	       MatrixStride or component size)
//	       %cr = OpFunctionCall gpuav_buffer_check %bind %index %off size checks
//	       %ok = code (%cr.x) is 0
//	       OpSelectionMerge %M None
//	       OpBranchConditional %ok %T %F
//	T: the access; OpBranch %M
//	F: stage words; OpFunctionCall gpuav_report_buffer_check ...; OpBranch %M
//	M: %result = OpPhi %type %access %T %null %F ... the rest of B
//
// %bind (gpuav_buffer_binding) is looked up once per function and
// binding, in its entry block. For a sized array or a plain binding the
// check also covers the element's state (descriptor_uninitialized,
// descriptor_destroyed) and an index past a variable-count binding's
// elements, which the descriptor pass leaves to it.
//
// A bounded access (docs/decisions/cheap-checks.md), one into a sized
// array or plain binding whose offset has a static upper bound, is decided
// once per binding: the entry block compares the largest end of the
// function's bounded accesses to the binding with the binding's floor
// (gpuav_binding_fact), and the access runs unchecked when that holds
// (guardedAccess.fact); the check above runs only when it does not.
//
// The range is known only at submit (a range may be as small as 1 byte),
// so no offset is provably inside it on its own. The pass runs after the
// descriptor index pass, so an access it guards there is checked here only
// once its index is known to be in bounds.
var bufferOOBPass = &passSpec{
	name:      "buffer_oob",
	after:     []string{"descriptor_index"},
	preserves: analysisLayoutSizes,
	run:       func(sh *shader) int { return walk(sh, &bufferChecker{sh: sh}) },
}

// bufferChecker is the buffer_oob pass over one shader. It shares the
// per-binding lookups between the accesses of one function.
type bufferChecker struct {
	sh       *shader
	bindings map[[2]uint32]uint32 // (set, binding) → gpuav_buffer_binding result
	facts    map[[2]uint32]*bindingFact
}

// bindingFact is the entry block's gpuav_binding_fact of one binding: the
// call, whose bound operand grows with each bounded access the pass finds,
// and its result.
type bindingFact struct {
	call  *spirv.Instruction
	bound uint64
	gated uint32 // precise ? call : true
}

// factBoundOperand is the word of gpuav_binding_fact's call holding its
// bound argument (result type, result, function, set, binding, length, bound).
const factBoundOperand = 7

func (p *bufferChecker) skip() bool { return false }

func (p *bufferChecker) beginFunction(*function) {
	p.bindings = map[[2]uint32]uint32{}
	p.facts = map[[2]uint32]*bindingFact{}
}

func (p *bufferChecker) beginBlock(*function, bool) {}

func (p *bufferChecker) match(fn *function, b *spirv.Block, j int) (bufferAccess, bool) {
	sh := p.sh
	in := b.Insts[j]
	if sh.decided[in] {
		return bufferAccess{}, false
	}
	ptr := uint32(0)
	cm, isCoop, cmErr := coopMatOf(sh.m, in)
	cm.oob, cm.align = sh.opt.enabled(CheckBufferOOB), sh.opt.enabled(CheckCoopMatAlignment)
	if isCoop {
		if !cm.oob && !cm.align {
			return bufferAccess{}, false
		}
		ptr = cm.ptr
	} else if !sh.opt.enabled(CheckBufferOOB) {
		return bufferAccess{}, false // the pass runs for cooperative_matrix_alignment only
	} else if k := pointerOperand(in.Opcode()); k != 0 && k < len(in.Words) && in.Opcode() != spirv.OpArrayLength {
		ptr = in.Words[k]
	} else {
		return bufferAccess{}, false
	}
	ptrType := pointerType(sh.m, ptr)
	if ptrType == nil {
		return bufferAccess{}, false
	}
	sc := spirv.StorageClass(ptrType.Words[2])
	if sc != spirv.StorageClassUniform && sc != spirv.StorageClassStorageBuffer {
		if isCoop && (sc != spirv.StorageClassPhysicalStorageBuffer || !sh.opt.enabled(CheckBDAOOB)) {
			// Through shared memory, or a device address with bda_oob
			// off (the bda pass checks it otherwise): not checked
			// (docs/UNCHECKED.md).
			sh.warnf("instruction %d: cooperative matrix %s through a %s pointer: its range and alignment are not checked: left unchecked",
				in.OrigIndex, map[bool]string{false: "load", true: "store"}[cm.store], storageClassName(sc))
		}
		return bufferAccess{}, false
	}
	if cmErr != nil {
		sh.warnf("instruction %d: cooperative matrix %s: %v: left unchecked", in.OrigIndex, map[bool]string{false: "load", true: "store"}[cm.store], cmErr)
		return bufferAccess{}, false
	}
	acc, err := bufferAccessOf(sh.m, sh.an.layoutSizes(), ptr)
	if err != nil {
		sh.warnf("instruction %d: %v: buffer access left unchecked", in.OrigIndex, err)
		return bufferAccess{}, false
	}
	if isCoop {
		acc.coop = &cm
		acc.flags |= BufferCoopMatrix
		if cm.store {
			acc.flags |= BufferWrite
		}
	} else {
		acc.flags |= bufferFlags(in.Opcode())
	}
	if sh.opt.Robust {
		acc.flags |= BufferRobust
	}
	return acc, true
}

// storageClassName names a storage class as SPIR-V does ("Workgroup").
func storageClassName(sc spirv.StorageClass) string {
	switch sc {
	case spirv.StorageClassWorkgroup:
		return "Workgroup"
	case spirv.StorageClassPhysicalStorageBuffer:
		return "PhysicalStorageBuffer"
	case spirv.StorageClassFunction:
		return "Function"
	case spirv.StorageClassPrivate:
		return "Private"
	}
	return fmt.Sprintf("storage class %d", sc)
}

// bufferFlags says what kind of access an instruction is (Buffer* bits).
func bufferFlags(op spirv.Opcode) uint32 {
	switch op {
	case spirv.OpLoad:
		return 0
	case spirv.OpStore:
		return BufferWrite
	case spirv.OpAtomicLoad:
		return BufferAtomic
	}
	return BufferWrite | BufferAtomic
}

// offsetTerm is a dynamic part of an access's byte offset: the value of
// index (a 32-bit integer id) times stride. pos is the index's position
// among the access chains' indices (bufferAccess.chain, outermost first);
// count the number of elements of the composite it indexes (0: a runtime
// array, or an array whose length is not a plain constant).
type offsetTerm struct {
	index, stride uint32
	pos           int
	count         uint32
}

// bufferAccess is where an access through a buffer block lands.
type bufferAccess struct {
	set, binding uint32
	// descIndex is the descriptor array index id, 0 for a plain binding.
	descIndex uint32
	// length is the sized array's length (1 for a plain binding); runtime
	// says the variable is a runtime array (length 0).
	length  uint32
	runtime bool
	// offset is the constant part of the byte offset; terms the dynamic.
	offset uint64
	terms  []offsetTerm
	size   uint32
	flags  uint32
	// chain are the access chains from the variable to the pointer,
	// outermost first.
	chain []*spirv.Instruction
	// coop is the cooperative-matrix load or store the access is, or nil:
	// size is then the pointee's bytes, and the bytes touched are
	// coopMatSpan's.
	coop *coopMatAccess
}

// bufferAccessOf follows the access chains from ptr back to its buffer
// variable and computes the access's offset and size from the block's
// explicit layout.
func bufferAccessOf(m *spirv.Module, s *layoutSizes, ptr uint32) (bufferAccess, error) {
	var acc bufferAccess
	var indices []uint32
	v := m.Def(ptr)
	for depth := 0; ; depth++ {
		if v == nil || depth > 64 {
			return acc, fmt.Errorf("pointer has no definition")
		}
		op := v.Opcode()
		if op == spirv.OpVariable {
			break
		}
		if (op != spirv.OpAccessChain && op != spirv.OpInBoundsAccessChain) || len(v.Words) < 4 {
			return acc, fmt.Errorf("pointer comes from %v, not an access chain of a buffer variable", op)
		}
		indices = append(append([]uint32(nil), v.Words[4:]...), indices...)
		acc.chain = append([]*spirv.Instruction{v}, acc.chain...)
		v = m.Def(v.Words[3])
	}
	acc.set, acc.binding = setAndBinding(m, v.Words[2])
	vt := m.Def(v.Words[1])
	if vt == nil || vt.Opcode() != spirv.OpTypePointer {
		return acc, fmt.Errorf("buffer variable has no pointer type")
	}
	sc := spirv.StorageClass(vt.Words[2])
	t := vt.Words[3]
	acc.length = 1
	if td := m.Def(t); td != nil && (td.Opcode() == spirv.OpTypeArray || td.Opcode() == spirv.OpTypeRuntimeArray) {
		if len(indices) == 0 {
			return acc, fmt.Errorf("access to a whole descriptor array")
		}
		acc.descIndex = indices[0]
		indices = indices[1:]
		t = td.Words[2]
		acc.length, acc.runtime = 0, true
		if td.Opcode() == spirv.OpTypeArray {
			if n, ok := m.ConstantValue(td.Words[3]); ok {
				acc.length, acc.runtime = n, false
			}
		}
	}
	block, bufferBlock := s.blockDecorations(t)
	switch {
	case sc == spirv.StorageClassUniform && block:
		acc.flags |= BufferUniform
	case bufferBlock || sc == spirv.StorageClassStorageBuffer && block:
	default:
		return acc, fmt.Errorf("buffer variable's type is not a Block or BufferBlock struct")
	}
	off, terms, last, ml, err := s.walk(t, indices)
	if err != nil {
		return acc, err
	}
	acc.offset, acc.terms = off, terms
	if acc.descIndex != 0 {
		for i := range acc.terms {
			acc.terms[i].pos++ // after the descriptor index
		}
	}
	var size uint64
	lt := m.Def(last)
	if ml.column && lt != nil && lt.Opcode() == spirv.OpTypeVector && ml.rowMajor {
		// A column of a row-major matrix: one component per row, MatrixStride apart.
		comp, ok := s.size(lt.Words[2], matrixLayout{}, 0)
		if !ok {
			return acc, fmt.Errorf("unknown component size")
		}
		size = uint64(lt.Words[3]-1)*uint64(ml.stride) + comp
	} else {
		n, ok := s.size(last, ml.matrixLayout, 0)
		if !ok {
			return acc, fmt.Errorf("the size of the accessed type is unknown")
		}
		size = n
	}
	if size == 0 || size > 1<<30 {
		return acc, fmt.Errorf("access size %d out of range", size)
	}
	acc.size = uint32(size)
	return acc, nil
}

// guard splits block b at the access at j.
func (p *bufferChecker) guard(fn *function, b *spirv.Block, j int, acc bufferAccess) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	if sh.inLoopHeader(fn, b, j, "buffer access") {
		return guarded{}, false
	}
	if rt := m.Def(in.ResultType()); in.ResultID() != 0 && rt != nil && rt.Opcode() == spirv.OpTypePointer {
		sh.warnf("instruction %d: access yields a pointer: left unchecked", in.OrigIndex)
		return guarded{}, false
	}
	report := "gpuav_report_buffer_check"
	if acc.coop != nil {
		report = "gpuav_report_buffer_span"
	}
	fns := sh.lib.functions("gpuav_buffer_binding", "gpuav_buffer_check", "gpuav_buffer_offset_add", report)
	u := m.TypeUint32()
	v2 := m.TypeVector(u, 2)
	checks := p.elementChecks(acc)
	var ids bufferGuardIDs
	end, bounded := p.bounded(fn, b, acc)
	var sizeID uint32
	cm := acc.coop
	var crReport, strideBytes, misaligned uint32 // a cooperative matrix's
	if cm != nil && !cm.oob {
		checks = 0
	}
	g := guardedAccess{
		executed: sh.executed,
		pre:      b.Insts[:j],
		check: func(head *emitter) (uint32, bool) {
			var ok bool
			ids.idx, ids.off, ok = p.offset(head, in, acc, v2, fns[2], bounded)
			if !ok {
				return 0, false
			}
			ids.bind = p.binding(fn, acc, fns[0])
			if cm != nil {
				sizeID = coopMatSpan(sh, head, *cm, acc.size)
			} else {
				sizeID = m.ConstantUint32(acc.size)
			}
			ids.cr = head.op(spirv.OpFunctionCall, v2, fns[1], ids.bind, ids.idx, ids.off, sizeID, m.ConstantUint32(checks))
			if cm == nil {
				code := head.op(spirv.OpCompositeExtract, u, ids.cr, 0)
				return head.op(spirv.OpIEqual, m.TypeBool(), code, m.ConstantUint32(0)), true
			}
			return p.coopMatCheck(head, cm, acc, ids, &crReport, &strideBytes, &misaligned), true
		},
		access:  in,
		null:    func() uint32 { return nullValue(m, in.ResultType()) },
		onError: sh.onError(),
		silent:  sh.opt.RobustOnly,
	}
	var bc *bufferClamp
	if g.onError == OnErrorClamp && acc.coop == nil { // only a clamping guard reads it (failOnError)
		g.clamp, bc = bufferClampSpec(m, acc, checks, fns[1], &ids)
	}
	clamps := g.failOnError() == OnErrorClamp
	g.report = func(fail *emitter) {
		stage := sh.stage.emit(fail)
		length := fail.op(spirv.OpCompositeExtract, u, ids.bind, 1)
		to := m.ConstantUint32(0)
		if clamps {
			to = bc.to // can ran first (guardedAccess.fail)
		}
		if cm != nil {
			fail.op(spirv.OpFunctionCall, m.TypeVoid(), fns[3],
				m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage, crReport,
				m.ConstantUint32(acc.set), m.ConstantUint32(acc.binding), ids.idx, ids.off, sizeID,
				length, m.ConstantUint32(acc.flags), strideBytes, m.ConstantUint32(cm.alignment()), misaligned)
			return
		}
		fail.op(spirv.OpFunctionCall, m.TypeVoid(), fns[3],
			m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage, ids.cr,
			m.ConstantUint32(acc.set), m.ConstantUint32(acc.binding), ids.idx, ids.off, sizeID,
			length, m.ConstantUint32(acc.flags), to)
	}
	switch {
	case acc.coop != nil:
		// The span is known at run time only: the plain check in both
		// variants.
	case bounded && sh.an.safeIndex().inLoop(fn.f, b):
		g.fact = p.fact(fn, acc, end)
	case bounded:
		// Outside loops the precise variant keeps the plain check (a
		// fact costs the driver more than the check it saves there).
		sh.noteFact(acc.set, acc.binding, acc.length, uint32(end), FactBuffer)
		g.fact = sh.notPrecise(fn)
	default:
		// Bounded only at each action (the dispatch's grid): no check
		// in the fast variant, the plain one in the precise variant.
		// A bound with no parameter left (gl_LocalInvocationID) is a
		// plain fact.
		if aend, ok := actionEnd(sh, fn, b, acc); ok && len(aend.terms) == 0 {
			sh.noteFact(acc.set, acc.binding, acc.length, uint32(aend.b), FactBuffer)
			g.fact = sh.notPrecise(fn)
		} else if ok {
			sh.noteActionFact(acc.set, acc.binding, acc.length, aend, FactBufferAction)
			g.fact = sh.notPrecise(fn)
		}
	}
	blocks, ok := g.split(m, fn.f, b, j)
	record := bufferRecord(acc, clamps)
	if acc.coop != nil {
		record = coopMatBufferRecord(acc)
	}
	ids2 := bufferCheckIDs(checks)
	if cm != nil {
		ids2 = coopMatCheckIDs(*cm, checks)
	}
	return guarded{blocks: blocks, checks: ids2, record: record, onError: g.failOnError()}, ok
}

// coopMatCheckIDs names the checks a cooperative-matrix guard reports.
func coopMatCheckIDs(cm coopMatAccess, checks uint32) []string {
	var ids []string
	if cm.oob {
		ids = bufferCheckIDs(checks)
	}
	if cm.align {
		ids = append(ids, CheckCoopMatAlignment)
	}
	return ids
}

// coopMatCheck emits the rest of a cooperative-matrix access's check
// after gpuav_buffer_check (ids.cr): the range's code where buffer_oob is
// on (else none: *crReport is ids.cr with code 0), and where
// cooperative_matrix_alignment is on, gpuav_coopmat_misaligned of the
// pointer's offset and the stride (*misaligned, else 0); *strideBytes is
// the stride in bytes. It returns the access's ok.
func (p *bufferChecker) coopMatCheck(head *emitter, cm *coopMatAccess, acc bufferAccess, ids bufferGuardIDs,
	crReport, strideBytes, misaligned *uint32) uint32 {
	sh, m := p.sh, p.sh.m
	u, b := m.TypeUint32(), m.TypeBool()
	zero := m.ConstantUint32(0)
	*crReport = ids.cr
	if !cm.oob {
		*crReport = head.op(spirv.OpCompositeInsert, m.TypeVector(u, 2), zero, ids.cr, 0)
	}
	stride := cm.strideUint(m, head)
	*strideBytes = head.op(spirv.OpIMul, u, stride, m.ConstantUint32(acc.size))
	*misaligned = zero
	var ok uint32
	if cm.oob {
		code := head.op(spirv.OpCompositeExtract, u, ids.cr, 0)
		ok = head.op(spirv.OpIEqual, b, code, zero)
	}
	if cm.align {
		off := head.op(spirv.OpCompositeExtract, u, ids.off, 0)
		*misaligned = head.op(spirv.OpFunctionCall, u, sh.lib.function("gpuav_coopmat_misaligned"),
			off, stride, m.ConstantUint32(acc.size), m.ConstantUint32(cm.alignment()))
		aligned := head.op(spirv.OpIEqual, b, *misaligned, zero)
		if ok == 0 {
			ok = aligned
		} else {
			ok = head.op(spirv.OpLogicalAnd, b, ok, aligned)
		}
	}
	return ok
}

// coopMatBufferRecord is bufferRecord for a cooperative-matrix access
// (gpuav_report_buffer_span), shared by CodeBufferOOB and
// CodeCoopMatAlignment: the size (p4) and p7 are dynamic too (no clamp:
// BufferNoClamp; the alignment's p7).
func coopMatBufferRecord(acc bufferAccess) SiteRecord {
	r := dynamicRecord([RecordParams]uint32{acc.set, acc.binding, 0, 0, 0, 0, acc.flags, 0}, -1, -1, 0, 1, 5, 2, 3, 4)
	r.Shift[6] = BufferFlagBits
	return r
}

// bufferRecord is the static part of a buffer check's records
// (gpuav_report_buffer_check): set, binding, size and flags; the dynamic
// values are the index (p2), the offset or, for the descriptor codes, the
// length (p3), the range (p5), the length (p6, above the flags) and, where
// the site clamps, what the clamp found (p7, bufferClamp.to; else
// BufferNoClamp).
func bufferRecord(acc bufferAccess, clamps bool) SiteRecord {
	order := []int{-1, -1, 0, 1, -1, 2, 3}
	if clamps {
		order = append(order, 4)
	}
	r := dynamicRecord([RecordParams]uint32{acc.set, acc.binding, 0, 0, acc.size, 0, acc.flags, BufferNoClamp}, order...)
	if clamps {
		r.Params[7] = 0
	}
	r.Shift[6] = BufferFlagBits
	return r
}

// elementChecks returns the gpuav_check_descriptor bits (stateCheck*) the
// access's check covers besides its range: for a sized array or a plain
// binding, with the element checks of sized arrays on
// (Options.SizedElementChecks), those that are on (the descriptor pass
// leaves them to this pass, descriptorChecker.bufferCovers) and the index
// against a variable-count binding's elements; none for a runtime array,
// whose descriptor checks the descriptor pass makes.
func (p *bufferChecker) elementChecks(acc bufferAccess) uint32 {
	opt := p.sh.opt
	if acc.runtime || !opt.SizedElementChecks {
		return 0
	}
	var bits uint32
	if opt.enabled(CheckDescriptorIndexOOB) {
		bits |= stateCheckIndex
	}
	if opt.enabled(CheckDescriptorUninit) {
		bits |= stateCheckUninit
	}
	if opt.enabled(CheckDescriptorDestroyed) {
		bits |= stateCheckDestroyed
	}
	return bits
}

// bufferCheckIDs names the checks a buffer guard reports.
func bufferCheckIDs(bits uint32) []string {
	ids := []string{CheckBufferOOB}
	for _, c := range []struct {
		bit uint32
		id  string
	}{{stateCheckIndex, CheckDescriptorIndexOOB}, {stateCheckUninit, CheckDescriptorUninit}, {stateCheckDestroyed, CheckDescriptorDestroyed}} {
		if bits&c.bit != 0 {
			ids = append(ids, c.id)
		}
	}
	return ids
}

// bounded returns the largest end (byte offset + size) an access into a
// sized array or a plain binding can reach, when every dynamic term of its
// offset has an upper bound (safe_index.go: constants, masks, clamps, loop
// counters) and the end fits in 32 bits.
func (p *bufferChecker) bounded(fn *function, b *spirv.Block, acc bufferAccess) (uint64, bool) {
	return boundedEnd(p.sh, fn, b, acc)
}

// boundedEnd is bufferChecker.bounded for any pass.
func boundedEnd(sh *shader, fn *function, b *spirv.Block, acc bufferAccess) (uint64, bool) {
	if acc.runtime {
		return 0, false
	}
	end := acc.offset + uint64(acc.size)
	for _, t := range acc.terms {
		hi, ok := sh.an.safeIndex().upperBound(fn.f, b, t.index)
		if !ok || hi > math.MaxUint32 {
			return 0, false
		}
		end += hi * uint64(t.stride)
	}
	return end, end <= math.MaxUint32
}

// actionEnd is the largest end of an access into a sized array or a plain
// binding as a form in the action's parameters, when every dynamic term of
// its offset has one (action_bound.go); the caller tries it where no number
// bounds the end.
func actionEnd(sh *shader, fn *function, b *spirv.Block, acc bufferAccess) (affine, bool) {
	if acc.runtime {
		return affine{}, false
	}
	end := affine{b: acc.offset + uint64(acc.size)}
	for _, t := range acc.terms {
		x, ok := sh.an.safeIndex().actionBound(fn.f, b, t.index)
		if !ok {
			return affine{}, false
		}
		end = end.plus(x.scale(uint64(t.stride)))
	}
	return end, end.fits()
}

// fact returns the binding's fact (gpuav_binding_fact in the entry block,
// once per function and binding, behind the precise switch), its bound
// raised to end.
func (p *bufferChecker) fact(fn *function, acc bufferAccess, end uint64) uint32 {
	m := p.sh.m
	p.sh.noteFact(acc.set, acc.binding, acc.length, uint32(end), FactBuffer)
	bk := [2]uint32{acc.set, acc.binding}
	f, found := p.facts[bk]
	if !found {
		fnID := p.sh.lib.function("gpuav_binding_fact")
		fn.entry.op(spirv.OpFunctionCall, m.TypeBool(), fnID, m.ConstantUint32(acc.set), m.ConstantUint32(acc.binding),
			m.ConstantUint32(acc.length), m.ConstantUint32(uint32(end)))
		f = &bindingFact{call: fn.entry.insts[len(fn.entry.insts)-1], bound: end}
		f.gated = p.sh.gateFact(fn, f.call.ResultID())
		p.facts[bk] = f
	}
	if end > f.bound {
		f.bound = end
		f.call.Words[factBoundOperand] = m.ConstantUint32(uint32(end))
	}
	return f.gated
}

// binding returns the binding's gpuav_buffer_binding lookup, emitted into
// the function's entry block the first time.
func (p *bufferChecker) binding(fn *function, acc bufferAccess, bindingFn uint32) uint32 {
	m := p.sh.m
	bk := [2]uint32{acc.set, acc.binding}
	bind, found := p.bindings[bk]
	if !found {
		bind = fn.entry.op(spirv.OpFunctionCall, m.TypeVector(m.TypeUint32(), 2), bindingFn,
			m.ConstantUint32(acc.set), m.ConstantUint32(acc.binding))
		p.bindings[bk] = bind
	}
	return bind
}

// offset emits the descriptor index as a uint (idx, a constant for a plain
// binding or a constant index) and the access's byte offset as a uvec2
// (v2) (offset, overflow): the constant part folded, each dynamic term
// added by gpuav_buffer_offset_add (add), or, for a bounded access, whose
// offset cannot overflow, by a plain multiply and add. False when the
// index is not a 32-bit integer (warned).
func (p *bufferChecker) offset(head *emitter, in *spirv.Instruction, acc bufferAccess, v2, add uint32, bounded bool) (idx, off uint32, ok bool) {
	m := p.sh.m
	idx = m.ConstantUint32(0)
	if v, isConst := m.ConstantValue(acc.descIndex); acc.descIndex != 0 && isConst {
		idx = m.ConstantUint32(v)
	} else if acc.descIndex != 0 {
		it := int32Type(m, acc.descIndex)
		if it == nil {
			p.sh.warnf("instruction %d: descriptor index is not a 32-bit integer: left unchecked", in.OrigIndex)
			return 0, 0, false
		}
		idx = head.asUint(acc.descIndex, it.Words[1])
	}
	lo, ovf := uint32(acc.offset), uint32(0)
	if acc.offset > 0xFFFFFFFF {
		lo, ovf = 0xFFFFFFFF, 1
	}
	if bounded {
		u := m.TypeUint32()
		sum := m.ConstantUint32(lo)
		for _, t := range acc.terms {
			x := head.op(spirv.OpIMul, u, head.asUint(t.index, m.Def(t.index).ResultType()), m.ConstantUint32(t.stride))
			sum = head.op(spirv.OpIAdd, u, sum, x)
		}
		return idx, head.op(spirv.OpCompositeConstruct, v2, sum, m.ConstantUint32(0)), true
	}
	off = head.op(spirv.OpCompositeConstruct, v2, m.ConstantUint32(lo), m.ConstantUint32(ovf))
	for _, t := range acc.terms {
		off = head.op(spirv.OpFunctionCall, v2, add, off, head.asUint(t.index, m.Def(t.index).ResultType()), m.ConstantUint32(t.stride))
	}
	return idx, off, true
}
