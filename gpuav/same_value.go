package gpuav

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// sameValues numbers index expressions by what they compute, so that two
// ids that provably hold the same value during one invocation share a key:
// bindless code reads its index again for every access
// (bufs[pc.material] in ten statements is ten OpLoads of pc.material), and
// the descriptor pass reuses the first guard of a (variable, index value) in
// a block instead of checking and reporting each
// (docs/decisions/same-index-value-one-guard.md, provably-safe-indices.md).
//
// Values that are the same everywhere in an invocation: constants, loads
// from push constants, uniform buffers (read-only to shaders) and Input
// variables through access chains with such indices, and pure integer
// arithmetic, conversions and extracts of those. Anything else is only
// equal to itself, but for loads of a function's local variables that the
// descriptor pass numbers as it walks a block (setLocal): two loads of one
// variable with no store to it between them in one block of the original
// code hold the same value (unoptimized code reads `k` again for every
// `bufs[k]`).
type sameValues struct {
	m     *spirv.Module
	keys  map[uint32]string // id → key, memoized
	first map[string]uint32 // key → the first id seen with it
}

func newSameValues(m *spirv.Module) *sameValues {
	return &sameValues{m: m, keys: map[uint32]string{}, first: map[string]uint32{}}
}

// setLocal gives the load id the key of what it read: local variable v as
// its stores left it at point epoch of the walk (numbered by the caller:
// a new epoch at each store to v and each new block). It must come before
// any key that uses id is computed.
func (v *sameValues) setLocal(id, variable uint32, epoch int) {
	v.keys[id] = fmt.Sprintf("F%d@%d", variable, epoch)
}

// canon returns the first id seen that computes the same value as id.
func (v *sameValues) canon(id uint32) uint32 {
	k := v.key(id, 0)
	if f, ok := v.first[k]; ok {
		return f
	}
	v.first[k] = id
	return id
}

// pureOps are the instructions whose result depends only on their operands.
var pureOps = map[spirv.Opcode]bool{
	spirv.OpIAdd: true, spirv.OpISub: true, spirv.OpIMul: true, spirv.OpUDiv: true, spirv.OpSDiv: true,
	spirv.OpUMod: true, spirv.OpSMod: true, spirv.OpSRem: true, spirv.OpSNegate: true,
	spirv.OpBitwiseAnd: true, spirv.OpBitwiseOr: true, spirv.OpBitwiseXor: true, spirv.OpNot: true,
	spirv.OpShiftLeftLogical: true, spirv.OpShiftRightLogical: true, spirv.OpShiftRightArithmetic: true,
	spirv.OpBitcast: true, spirv.OpUConvert: true, spirv.OpSConvert: true, spirv.OpCopyObject: true,
}

func (v *sameValues) key(id uint32, depth int) string {
	if k, ok := v.keys[id]; ok {
		return k
	}
	k := v.compute(id, depth)
	v.keys[id] = k
	return k
}

func (v *sameValues) compute(id uint32, depth int) string {
	self := fmt.Sprintf("#%d", id)
	d := v.m.Def(id)
	if d == nil || depth > 16 {
		return self
	}
	op := d.Opcode()
	switch {
	case op == spirv.OpConstant:
		return fmt.Sprintf("k%v", d.Words[1:2:2]) + fmt.Sprint(d.Words[3:])
	case op == spirv.OpLoad && len(d.Words) == 4: // no memory operands (Volatile...)
		if p := v.pointer(d.Words[3], depth+1); p != "" {
			return fmt.Sprintf("L%d(%s)", d.Words[1], p)
		}
	case pureOps[op] && len(d.Words) >= 4:
		var b strings.Builder
		fmt.Fprintf(&b, "%d:%d(", op, d.Words[1])
		for _, o := range d.Words[3:] {
			b.WriteString(v.key(o, depth+1))
			b.WriteByte(',')
		}
		return b.String() + ")"
	case op == spirv.OpCompositeExtract && len(d.Words) >= 5:
		return fmt.Sprintf("x%d(%s)%v", d.Words[1], v.key(d.Words[3], depth+1), d.Words[4:])
	}
	return self
}

// pointer keys a pointer into memory no invocation can change while it
// runs, or returns "".
func (v *sameValues) pointer(id uint32, depth int) string {
	d := v.m.Def(id)
	if d == nil || depth > 16 {
		return ""
	}
	switch d.Opcode() {
	case spirv.OpVariable:
		switch spirv.StorageClass(d.Words[3]) {
		case spirv.StorageClassPushConstant, spirv.StorageClassInput:
			return fmt.Sprintf("v%d", id)
		case spirv.StorageClassUniform:
			if !v.bufferBlock(d.Words[1]) {
				return fmt.Sprintf("v%d", id)
			}
		}
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
		base := v.pointer(d.Words[3], depth+1)
		if base == "" {
			return ""
		}
		var b strings.Builder
		b.WriteString(base)
		for _, o := range d.Words[4:] {
			b.WriteByte('[')
			b.WriteString(v.key(o, depth+1))
			b.WriteByte(']')
		}
		return b.String()
	}
	return ""
}

// bufferBlock reports whether the Uniform pointer type ptr points (through
// arrays) at a struct decorated BufferBlock: a storage buffer, writable.
func (v *sameValues) bufferBlock(ptr uint32) bool {
	t := v.m.Def(ptr)
	if t == nil || t.Opcode() != spirv.OpTypePointer {
		return true
	}
	id := t.Words[3]
	for {
		d := v.m.Def(id)
		if d == nil {
			return true
		}
		if d.Opcode() == spirv.OpTypeArray || d.Opcode() == spirv.OpTypeRuntimeArray {
			id = d.Words[2]
			continue
		}
		break
	}
	for _, dec := range v.m.Decorations(id) {
		if dec.Opcode() == spirv.OpDecorate && spirv.Decoration(dec.Words[2]) == spirv.DecorationBufferBlock {
			return true
		}
	}
	return false
}

// localLoads numbers, as the descriptor pass walks a function's blocks in
// order, the loads of its local variables that only OpLoad and OpStore use
// (never passed to a call, indexed, copied or used by an atomic, so that
// only a store changes them): each load's key is the variable and the
// point of the walk its last store in the block (or the block's start)
// was seen at. Two loads with one key read the same value: same block of
// the original code, no store between. The guards a pass inserts store to
// no variable of the shader's.
type localLoads struct {
	vars  map[uint32]bool // the function's variables numbered
	last  map[uint32]int  // variable → epoch of its last store in the block
	epoch int             // grows at each store and each new block
	start int             // the current block's epoch
}

// begin finds the function's variables that only loads and stores use.
// Non-semantic instructions (debug info) do not count as uses.
func (l *localLoads) begin(m *spirv.Module, f *spirv.Function) {
	l.vars = map[uint32]bool{}
	l.last = map[uint32]int{}
	if len(f.Blocks) == 0 {
		return
	}
	for _, in := range f.Blocks[0].Insts {
		if in.Opcode() == spirv.OpVariable && len(in.Words) > 3 && spirv.StorageClass(in.Words[3]) == spirv.StorageClassFunction {
			l.vars[in.Words[2]] = true
		}
	}
	// The NonSemantic.* imports, named once rather than per instruction.
	var nonSemantic []uint32
	for _, sec := range m.Sections {
		for _, in := range sec {
			if in.Opcode() == spirv.OpExtInstImport && len(in.Words) > 2 {
				if name, _ := spirv.DecodeString(in.Words[2:]); strings.HasPrefix(name, "NonSemantic.") {
					nonSemantic = append(nonSemantic, in.Words[1])
				}
			}
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			op := in.Opcode()
			if op == spirv.OpVariable {
				continue
			}
			if op == spirv.OpExtInst && len(in.Words) > 3 && slices.Contains(nonSemantic, in.Words[3]) {
				continue
			}
			_ = spirv.ForEachID(in.Words, m, func(k int) {
				id := in.Words[k]
				if !l.vars[id] {
					return
				}
				plainLoad := op == spirv.OpLoad && k == 3 && len(in.Words) == 4
				plainStore := op == spirv.OpStore && k == 1 && len(in.Words) == 3
				if !plainLoad && !plainStore {
					delete(l.vars, id)
				}
			})
		}
	}
}

// newBlock starts a new block of the original code.
func (l *localLoads) newBlock() {
	l.epoch++
	l.start = l.epoch
	clear(l.last)
}

// see numbers in v a load of a variable, or notes a store to it.
func (l *localLoads) see(v *sameValues, in *spirv.Instruction) {
	switch in.Opcode() {
	case spirv.OpStore:
		if len(in.Words) > 1 && l.vars[in.Words[1]] {
			l.epoch++
			l.last[in.Words[1]] = l.epoch
		}
	case spirv.OpLoad:
		if len(in.Words) == 4 && l.vars[in.Words[3]] {
			e, ok := l.last[in.Words[3]]
			if !ok {
				e = l.start
			}
			v.setLocal(in.Words[2], in.Words[3], e)
		}
	}
}
