package gpuav

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// sharedRacePass finds hazards between the invocations of a workgroup on
// its Workgroup (shared) variables (docs/decisions/shared-memory-race.md).
// Every scalar of the module's Workgroup variables is a slot, numbered in
// declaration order (struct members, array elements, vector components,
// matrix columns); each slot has three shadow words in a Workgroup array
// of the layer's (shaders/shared_race.glsl). Before every load, store or
// atomic through a Workgroup pointer the pass calls
//
//	gpuav_race_access(shader, site, stage, info, slot, n, base, end, wgxy)
//
// with the slot the access chain reaches and the n slots its type covers;
// the entry point starts with gpuav_race_begin (the shadow cleared, a
// barrier) and every OpControlBarrier of Workgroup execution scope is
// followed by gpuav_race_barrier (the next epoch). The access itself
// always happens: a hazard is two accesses, and skipping one would not
// undo the other.
//
// A module whose shared memory can be synchronized by something other
// than a workgroup barrier (a subgroup barrier covering WorkgroupMemory, a
// memory barrier covering it away from a workgroup barrier in a module
// with atomics, an atomic with acquire or release semantics on it), whose
// Workgroup variables alias (WorkgroupMemoryExplicitLayoutKHR) or have
// sizes only specialization knows, or whose shadow does not fit the
// device's shared memory, is left unchecked with a warning: the check
// reports only what is a hazard under the memory model.
var sharedRacePass = &passSpec{
	name:      "shared_memory_race",
	preserves: analysisLayoutSizes,
	run:       runSharedRace,
}

// Memory semantics bits the pass reads.
const (
	semOrdering        = 0x2 | 0x4 | 0x8 | 0x10 // Acquire, Release, AcquireRelease, SequentiallyConsistent
	semWorkgroupMemory = 0x100
)

// raceTagSites is how many accesses a tag can name; the rest share
// raceTagUnknown.
const (
	raceTagSites   = 510
	raceTagUnknown = 511
	// raceInfoWrite and raceInfoAtomic are gpuav_race_access's info bits.
	raceInfoWrite  = 1 << 16
	raceInfoAtomic = 1 << 17
	// raceShadowWords is the shadow words per slot (W, R, R2).
	raceShadowWords = 3
)

// DefaultMaxSharedMemory is the shared memory a shader may use on every
// Vulkan device (the minimum of maxComputeSharedMemorySize), assumed when
// Options.MaxSharedMemory is 0.
const DefaultMaxSharedMemory = 16384

// sharedVar is one Workgroup variable: its first slot and slot count.
type sharedVar struct {
	id, base, slots uint32
}

// sharedLayout numbers the slots of a module's Workgroup variables.
type sharedLayout struct {
	m     *spirv.Module
	vars  map[uint32]*sharedVar
	slots uint32
	bytes uint32 // the variables' own bytes (scalar sizes, no padding)
	memo  map[uint32][2]uint32
}

// typeSlots returns the slots and bytes of a type, or false for one the
// check cannot number (a runtime array, a length only specialization
// knows, a pointer).
func (l *sharedLayout) typeSlots(t uint32, depth int) (uint32, uint32, bool) {
	if r, ok := l.memo[t]; ok {
		return r[0], r[1], true
	}
	d := l.m.Def(t)
	if d == nil || depth > 32 {
		return 0, 0, false
	}
	var slots, bytes uint32
	switch d.Opcode() {
	case spirv.OpTypeInt, spirv.OpTypeFloat:
		slots, bytes = 1, max(d.Words[2]/8, 1)
	case spirv.OpTypeBool:
		slots, bytes = 1, 4
	case spirv.OpTypeVector, spirv.OpTypeMatrix:
		s, b, ok := l.typeSlots(d.Words[2], depth+1)
		if !ok {
			return 0, 0, false
		}
		slots, bytes = s*d.Words[3], b*d.Words[3]
	case spirv.OpTypeArray:
		n, ok := constUint32(l.m, d.Words[3])
		if !ok {
			return 0, 0, false
		}
		s, b, ok := l.typeSlots(d.Words[2], depth+1)
		if !ok || n > 1<<24 {
			return 0, 0, false
		}
		slots, bytes = s*n, b*n
	case spirv.OpTypeStruct:
		for _, mt := range d.Words[2:] {
			s, b, ok := l.typeSlots(mt, depth+1)
			if !ok {
				return 0, 0, false
			}
			slots, bytes = slots+s, bytes+b
		}
	default:
		return 0, 0, false
	}
	if slots > 1<<24 {
		return 0, 0, false
	}
	l.memo[t] = [2]uint32{slots, bytes}
	return slots, bytes, true
}

// newSharedLayout numbers the Workgroup variables of m, or says why it
// cannot.
func newSharedLayout(m *spirv.Module) (*sharedLayout, string) {
	l := &sharedLayout{m: m, vars: map[uint32]*sharedVar{}, memo: map[uint32][2]uint32{}}
	if m.HasCapability(spirv.CapabilityWorkgroupMemoryExplicitLayoutKHR) {
		return nil, "its Workgroup variables have an explicit layout and may alias (WorkgroupMemoryExplicitLayoutKHR)"
	}
	for _, in := range m.Sections[spirv.SectionGlobal] {
		if in.Opcode() != spirv.OpVariable || spirv.StorageClass(in.Words[3]) != spirv.StorageClassWorkgroup {
			continue
		}
		pt := m.Def(in.Words[1])
		if pt == nil || pt.Opcode() != spirv.OpTypePointer {
			return nil, "a Workgroup variable has no pointer type"
		}
		s, b, ok := l.typeSlots(pt.Words[3], 0)
		if !ok {
			return nil, fmt.Sprintf("Workgroup variable %s has a type the check cannot number (a length set by specialization?)",
				varName(m, in.Words[2]))
		}
		l.vars[in.Words[2]] = &sharedVar{id: in.Words[2], base: l.slots, slots: s}
		l.slots += s
		l.bytes += (b + 3) &^ 3
		if l.slots > 1<<20 {
			return nil, "its Workgroup variables have more than 2^20 scalars"
		}
	}
	return l, ""
}

// varName is a variable's OpName, or %id.
func varName(m *spirv.Module, id uint32) string {
	if n := m.Name(id); n != "" {
		return n
	}
	return fmt.Sprintf("%%%d", id)
}

// unmodelledSync returns why the module's shared memory can be
// synchronized by something other than a workgroup OpControlBarrier, or
// "".
func unmodelledSync(m *spirv.Module) string {
	semantics := func(id uint32) uint32 {
		v, _ := constUint32(m, id)
		return v
	}
	scope := func(id uint32) uint32 {
		v, ok := constUint32(m, id)
		if !ok {
			return ^uint32(0)
		}
		return v
	}
	atomics := false
	var fences []string
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for i, in := range b.Insts {
				op := in.Opcode()
				if info, ok := spirv.LookupOp(op); ok && info.Class == "Atomic" {
					atomics = true
					sem := atomicSemantics(in)
					for _, s := range sem {
						if v := semantics(s); v&semOrdering != 0 && v&semWorkgroupMemory != 0 {
							return fmt.Sprintf("instruction %d: an atomic with acquire or release semantics on Workgroup memory synchronizes invocations", in.OrigIndex)
						}
					}
				}
				switch op {
				case spirv.OpControlBarrier:
					if len(in.Words) > 3 && scope(in.Words[1]) != uint32(spirv.ScopeWorkgroup) &&
						semantics(in.Words[3])&semWorkgroupMemory != 0 {
						return fmt.Sprintf("instruction %d: a barrier of execution scope %d (a subgroup barrier) synchronizes Workgroup memory", in.OrigIndex, scope(in.Words[1]))
					}
				case spirv.OpMemoryBarrier:
					if len(in.Words) > 2 && semantics(in.Words[2])&semWorkgroupMemory != 0 && semantics(in.Words[2])&semOrdering != 0 &&
						!nextToWorkgroupBarrier(m, b.Insts, i) {
						fences = append(fences, fmt.Sprintf("instruction %d", in.OrigIndex))
					}
				}
			}
		}
	}
	if atomics && len(fences) > 0 {
		return fmt.Sprintf("%s: a memory barrier on Workgroup memory away from any workgroup barrier, in a module with atomics, may synchronize invocations through an atomic", fences[0])
	}
	return ""
}

// atomicSemantics returns the memory-semantics operands of an atomic.
func atomicSemantics(in *spirv.Instruction) []uint32 {
	w := in.Words
	switch in.Opcode() {
	case spirv.OpAtomicStore:
		if len(w) > 3 {
			return w[3:4]
		}
	case spirv.OpAtomicCompareExchange, spirv.OpAtomicCompareExchangeWeak:
		if len(w) > 6 {
			return w[5:7]
		}
	default:
		if len(w) > 5 {
			return w[5:6]
		}
	}
	return nil
}

// nextToWorkgroupBarrier reports whether the instruction at i has an
// OpControlBarrier of Workgroup execution scope right before or after it
// (debug lines aside): a fence there orders nothing the barrier does not.
func nextToWorkgroupBarrier(m *spirv.Module, insts []*spirv.Instruction, i int) bool {
	isBarrier := func(j int) bool {
		if j < 0 || j >= len(insts) || insts[j].Opcode() != spirv.OpControlBarrier {
			return false
		}
		s, ok := constUint32(m, insts[j].Words[1])
		return ok && s == uint32(spirv.ScopeWorkgroup)
	}
	skip := func(j, step int) int {
		for j >= 0 && j < len(insts) && (insts[j].Opcode() == spirv.OpLine || insts[j].Opcode() == spirv.OpNoLine ||
			insts[j].Opcode() == spirv.OpExtInst && isDebugExtInst(m, insts[j])) {
			j += step
		}
		return j
	}
	return isBarrier(skip(i-1, -1)) || isBarrier(skip(i+1, 1))
}

// isDebugExtInst reports whether an OpExtInst is of a non-semantic set
// (NonSemantic.Shader.DebugInfo.100 lines).
func isDebugExtInst(m *spirv.Module, in *spirv.Instruction) bool {
	if len(in.Words) < 4 {
		return false
	}
	d := m.Def(in.Words[3])
	if d == nil || d.Opcode() != spirv.OpExtInstImport {
		return false
	}
	s, _ := spirv.DecodeString(d.Words[2:])
	return len(s) >= 12 && s[:12] == "NonSemantic."
}

// workgroupSize returns the ids of the workgroup size's x, y and z (uint
// constants, or extracts of the WorkgroupSize constant emitted into e),
// and whether the module says (with e nil: only whether it says).
func workgroupSize(m *spirv.Module, e *emitter) ([3]uint32, bool) {
	u := m.TypeUint32()
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		if in.Opcode() == spirv.OpDecorate && len(in.Words) > 3 && spirv.Decoration(in.Words[2]) == spirv.DecorationBuiltIn &&
			spirv.BuiltIn(in.Words[3]) == spirv.BuiltInWorkgroupSize {
			c := in.Words[1]
			if d := m.Def(c); d == nil || d.Opcode() == spirv.OpVariable {
				continue
			}
			var xyz [3]uint32
			for i := range xyz {
				if e != nil {
					xyz[i] = e.op(spirv.OpCompositeExtract, u, c, uint32(i))
				}
			}
			return xyz, true
		}
	}
	for _, in := range m.Sections[spirv.SectionExecutionMode] {
		if len(in.Words) < 6 {
			continue
		}
		switch {
		case in.Opcode() == spirv.OpExecutionMode && spirv.ExecutionMode(in.Words[2]) == spirv.ExecutionModeLocalSize:
			return [3]uint32{m.ConstantUint32(in.Words[3]), m.ConstantUint32(in.Words[4]), m.ConstantUint32(in.Words[5])}, true
		case in.Opcode() == spirv.OpExecutionModeId && spirv.ExecutionMode(in.Words[2]) == spirv.ExecutionModeLocalSizeId:
			var xyz [3]uint32
			for i := range xyz {
				if e != nil {
					xyz[i] = e.asUint(in.Words[3+i], typeOf(m, in.Words[3+i]))
				}
			}
			return xyz, true
		}
	}
	return [3]uint32{}, false
}

// raceState is what the pass knows of a module while it walks it.
type raceState struct {
	noHooks
	sh     *shader
	layout *sharedLayout
	done   map[*spirv.Instruction]bool
	tags   int // the accesses numbered so far
}

// sharedAccess is a site: the pointer, whether it writes and is atomic.
type sharedAccess struct {
	ptr           uint32
	write, atomic bool
}

// runSharedRace instruments a compute, task or mesh module.
func runSharedRace(sh *shader) int {
	switch sh.stage.model {
	case spirv.ExecutionModelGLCompute, spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT,
		spirv.ExecutionModelTaskNV, spirv.ExecutionModelMeshNV:
	default:
		return 0
	}
	if sh.opt.RobustOnly {
		return 0 // it reports nothing, and has nothing to clamp
	}
	m := sh.m
	layout, why := newSharedLayout(m)
	if layout != nil && layout.slots == 0 {
		return 0
	}
	if why == "" {
		why = unmodelledSync(m)
	}
	if why == "" {
		limit := sh.opt.MaxSharedMemory
		if limit == 0 {
			limit = DefaultMaxSharedMemory
		}
		need := layout.bytes + layout.slots*raceShadowWords*4
		if need > limit {
			why = fmt.Sprintf("its %d bytes of shared memory and the %d-byte shadow exceed the device's %d bytes", layout.bytes,
				layout.slots*raceShadowWords*4, limit)
		}
	}
	if why == "" {
		if _, ok := workgroupSize(m, nil); !ok {
			why = "the module gives no workgroup size"
		}
	}
	if why != "" {
		sh.warnf("%s: shared memory left unchecked: %s", CheckSharedMemoryRace, why)
		return 0
	}
	r := &raceState{sh: sh, layout: layout, done: map[*spirv.Instruction]bool{}}
	n := walk(sh, r)
	if n == 0 {
		return 0
	}
	words := layout.slots * raceShadowWords
	r.instrumentBarriers(words)
	sh.raceShadowWords = words
	sh.notes = append(sh.notes, fmt.Sprintf("%s: %d accesses checked with a shadow of %d bytes in shared memory (the shader's own: %d bytes)",
		CheckSharedMemoryRace, n, words*4, layout.bytes))
	return n
}

// match finds loads, stores and atomics through Workgroup pointers.
func (r *raceState) match(fn *function, b *spirv.Block, j int) (sharedAccess, bool) {
	in := b.Insts[j]
	if r.done[in] {
		return sharedAccess{}, false
	}
	var a sharedAccess
	switch op := in.Opcode(); op {
	case spirv.OpLoad:
		a = sharedAccess{ptr: in.Words[3]}
	case spirv.OpStore:
		a = sharedAccess{ptr: in.Words[1], write: true}
	case spirv.OpAtomicLoad:
		a = sharedAccess{ptr: in.Words[3], atomic: true}
	case spirv.OpAtomicStore:
		a = sharedAccess{ptr: in.Words[1], write: true, atomic: true}
	case spirv.OpAtomicCompareExchange, spirv.OpAtomicCompareExchangeWeak:
		// A failed exchange writes nothing: counted as a read, it is never
		// reported against another read.
		a = sharedAccess{ptr: in.Words[3], atomic: true}
	case spirv.OpCopyMemory, spirv.OpCopyMemorySized:
		if r.isShared(in.Words[1]) || r.isShared(in.Words[2]) {
			r.sh.warnf("instruction %d: %s: a memory copy of shared memory: left unchecked", in.OrigIndex, CheckSharedMemoryRace)
		}
		return a, false
	default:
		info, ok := spirv.LookupOp(op)
		if !ok || info.Class != "Atomic" || !info.HasResult || len(in.Words) < 4 {
			return a, false
		}
		a = sharedAccess{ptr: in.Words[3], write: true, atomic: true}
	}
	return a, r.isShared(a.ptr)
}

// isShared reports whether a pointer points into Workgroup memory.
func (r *raceState) isShared(ptr uint32) bool {
	pt := pointerType(r.sh.m, ptr)
	return pt != nil && spirv.StorageClass(pt.Words[2]) == spirv.StorageClassWorkgroup
}

// slotTerm is a dynamic part of a slot: index × mul.
type slotTerm struct{ index, mul uint32 }

// resolve follows a pointer back to its Workgroup variable through access
// chains: the variable, the constant part of the slot, the dynamic terms
// and the pointee type.
func (r *raceState) resolve(ptr uint32, depth int) (*sharedVar, uint32, []slotTerm, uint32, bool) {
	m := r.sh.m
	d := m.Def(ptr)
	if d == nil || depth > 64 {
		return nil, 0, nil, 0, false
	}
	switch d.Opcode() {
	case spirv.OpVariable:
		v := r.layout.vars[d.Words[2]]
		pt := m.Def(d.Words[1])
		if v == nil || pt == nil {
			return nil, 0, nil, 0, false
		}
		return v, v.base, nil, pt.Words[3], true
	case spirv.OpCopyObject:
		return r.resolve(d.Words[3], depth+1)
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
		v, c, terms, t, ok := r.resolve(d.Words[3], depth+1)
		if !ok {
			return nil, 0, nil, 0, false
		}
		for _, idx := range d.Words[4:] {
			td := m.Def(t)
			if td == nil {
				return nil, 0, nil, 0, false
			}
			k, isConst := constIndex(m, idx)
			switch td.Opcode() {
			case spirv.OpTypeStruct:
				if !isConst || int(k) >= len(td.Words)-2 {
					return nil, 0, nil, 0, false
				}
				for _, mt := range td.Words[2 : 2+k] {
					s, _, _ := r.layout.typeSlots(mt, 0)
					c += s
				}
				t = td.Words[2+k]
			case spirv.OpTypeArray, spirv.OpTypeVector, spirv.OpTypeMatrix:
				e := td.Words[2]
				s, _, ok := r.layout.typeSlots(e, 0)
				if !ok {
					return nil, 0, nil, 0, false
				}
				if isConst {
					c += k * s
				} else {
					terms = append(terms, slotTerm{index: idx, mul: s})
				}
				t = e
			default:
				return nil, 0, nil, 0, false
			}
		}
		return v, c, terms, t, true
	}
	return nil, 0, nil, 0, false
}

// constIndex returns the value of a constant index of any integer width
// (false for a negative or wide one).
func constIndex(m *spirv.Module, id uint32) (uint32, bool) {
	if v, ok := constUint32(m, id); ok {
		return v, true
	}
	d := m.Def(id)
	if d == nil || d.Opcode() != spirv.OpConstant || len(d.Words) != 5 || d.Words[4] != 0 {
		return 0, false
	}
	return d.Words[3], true
}

// guard calls gpuav_race_access before the access, in place.
func (r *raceState) guard(fn *function, b *spirv.Block, j int, a sharedAccess) (guarded, bool) {
	sh, m := r.sh, r.sh.m
	in := b.Insts[j]
	v, c, terms, t, ok := r.resolve(a.ptr, 0)
	if !ok {
		sh.warnf("instruction %d: %s: a shared memory access through a pointer the check cannot follow (a function parameter, a variable pointer): left unchecked",
			in.OrigIndex, CheckSharedMemoryRace)
		r.done[in] = true
		return guarded{}, false
	}
	n, _, ok := r.layout.typeSlots(t, 0)
	if !ok {
		r.done[in] = true
		return guarded{}, false
	}
	u := m.TypeUint32()
	e := newEmitter(m, 16)
	slot := m.ConstantUint32(c)
	for _, term := range terms {
		idx := r.indexUint(e, term.index)
		if term.mul != 1 {
			idx = e.op(spirv.OpIMul, u, idx, m.ConstantUint32(term.mul))
		}
		slot = e.op(spirv.OpIAdd, u, slot, idx)
	}
	r.tags++
	tag := uint32(min(r.tags, raceTagUnknown))
	info := tag
	if a.write {
		info |= raceInfoWrite
	}
	if a.atomic {
		info |= raceInfoAtomic
	}
	xyz, _ := workgroupSize(m, e)
	wgxy := e.op(spirv.OpBitwiseOr, u, xyz[0], e.op(spirv.OpShiftLeftLogical, u, xyz[1], m.ConstantUint32(16)))
	stage := sh.stage.emit(e)
	e.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_race_access"),
		m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage, m.ConstantUint32(info), slot,
		m.ConstantUint32(n), m.ConstantUint32(v.base), m.ConstantUint32(v.base+v.slots), wgxy)
	b.Insts = append(b.Insts[:j:j], append(e.insts, b.Insts[j:]...)...)
	r.done[in] = true
	rec := dynamicRecord([RecordParams]uint32{0: v.id}, -1, 0, 1, 2, 3, 4)
	if tag == raceTagUnknown {
		tag = 0
	}
	return guarded{checks: []string{CheckSharedMemoryRace}, record: rec, onError: OnErrorExecute, raceTag: uint16(tag)}, true
}

// indexUint converts an index of any integer type to a 32-bit uint.
func (r *raceState) indexUint(e *emitter, id uint32) uint32 {
	m := r.sh.m
	u := m.TypeUint32()
	t := m.Def(typeOf(m, id))
	if t != nil && t.Opcode() == spirv.OpTypeInt && t.Words[2] != 32 {
		if t.Words[3] == 1 {
			return e.op(spirv.OpBitcast, u, e.op(spirv.OpSConvert, m.TypeInt(32, true), id))
		}
		return e.op(spirv.OpUConvert, u, id)
	}
	return e.asUint(id, typeOf(m, id))
}

// instrumentBarriers starts the shadow at each entry point and a new epoch
// after each workgroup barrier.
func (r *raceState) instrumentBarriers(words uint32) {
	sh, m := r.sh, r.sh.m
	u := m.TypeUint32()
	entries := map[uint32]bool{}
	for _, ep := range m.EntryPoints() {
		entries[ep.Function] = true
	}
	barrierFn := sh.lib.function("gpuav_race_barrier")
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for j := 0; j < len(b.Insts); j++ {
				in := b.Insts[j]
				if in.Opcode() != spirv.OpControlBarrier {
					continue
				}
				if s, ok := constUint32(m, in.Words[1]); !ok || s != uint32(spirv.ScopeWorkgroup) {
					continue
				}
				e := newEmitter(m, 8)
				total := r.wgTotal(e)
				e.op(spirv.OpFunctionCall, m.TypeVoid(), barrierFn, m.ConstantUint32(words), total)
				b.Insts = append(b.Insts[:j+1:j+1], append(e.insts, b.Insts[j+1:]...)...)
				j += len(e.insts)
			}
		}
		if !entries[f.ID()] || len(f.Blocks) == 0 {
			continue
		}
		e := newEmitter(m, 8)
		total := r.wgTotal(e)
		lid := sh.stage.load(e, spirv.BuiltInLocalInvocationIndex, func() uint32 { return u }, 1)[0]
		e.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function("gpuav_race_begin"), m.ConstantUint32(words), lid, total)
		entry := f.Blocks[0]
		at := 0
		for i, in := range entry.Insts {
			if in.Opcode() == spirv.OpVariable {
				at = i + 1
			}
		}
		entry.Insts = append(entry.Insts[:at:at], append(e.insts, entry.Insts[at:]...)...)
	}
}

// wgTotal emits the workgroup's invocation count.
func (r *raceState) wgTotal(e *emitter) uint32 {
	m := r.sh.m
	u := m.TypeUint32()
	xyz, _ := workgroupSize(m, e)
	return e.op(spirv.OpIMul, u, e.op(spirv.OpIMul, u, xyz[0], xyz[1]), xyz[2])
}

// patchRaceShadow gives the linked shadow array its length: the module's
// slots times raceShadowWords (the library declares a placeholder).
func (sh *shader) patchRaceShadow() error {
	if sh.raceShadowWords == 0 {
		return nil
	}
	m := sh.m
	for _, in := range m.Sections[spirv.SectionGlobal] {
		if in.Opcode() != spirv.OpVariable || spirv.StorageClass(in.Words[3]) != spirv.StorageClassWorkgroup ||
			m.Name(in.Words[2]) != "gpuav_race_shadow" {
			continue
		}
		pt := m.Def(in.Words[1])
		arr := m.Def(pt.Words[3])
		if arr == nil || arr.Opcode() != spirv.OpTypeArray {
			return fmt.Errorf("the race shadow is not an array")
		}
		arr.Words[3] = m.ConstantUint32(sh.raceShadowWords)
		// The length is defined after the array: the array, its pointer
		// and the variable go to the end of the globals, in that order.
		moved := map[*spirv.Instruction]bool{arr: true, pt: true, in: true}
		g := m.Sections[spirv.SectionGlobal][:0:0]
		for _, x := range m.Sections[spirv.SectionGlobal] {
			if !moved[x] {
				g = append(g, x)
			}
		}
		m.Sections[spirv.SectionGlobal] = append(g, arr, pt, in)
		return nil
	}
	return fmt.Errorf("the race shadow was not linked")
}
