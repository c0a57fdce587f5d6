package gpuav

import (
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
	m *spirv.Module
	// keys holds each id's value number (0: not computed yet), by id.
	keys []uint32
	// numbers interns the shapes of values: equal shapes, one number.
	numbers map[valueShape]uint32
	// first holds, by value number, the first id seen with it (canon).
	first []uint32
}

// valueShape is one step of a value's description, whose operands are ids,
// literals or value numbers of other shapes: a list (a constant's words,
// an operation's operands, an access chain's indices) is a chain of shapes,
// each naming the one before. Two ids compute the same value when their
// shapes are the same, so each shape gets a number (sameValues.number) and
// ids are compared by number.
type valueShape struct {
	kind    shapeKind
	a, b, c uint32
}

// shapeKind says what a valueShape describes.
type shapeKind uint8

const (
	shapeSelf     shapeKind = iota + 1 // a: the id, equal only to itself
	shapeLocal                         // a: the local variable, b: the walk's epoch (setLocal)
	shapeConst                         // a: the constant's type
	shapeWord                          // a: the list so far, b: a literal word
	shapeLoad                          // a: the result type, b: the pointer's number
	shapePure                          // a: the opcode, b: the result type
	shapeOperand                       // a: the list so far, b: an operand's number
	shapeExtract                       // a: the result type, b: the composite's number
	shapeVariable                      // a: the variable, in memory no invocation changes
	shapeIndex                         // a: the pointer so far, b: an index's number
)

func newSameValues(m *spirv.Module) *sameValues {
	return &sameValues{m: m, keys: make([]uint32, m.Header.Bound), numbers: map[valueShape]uint32{}, first: []uint32{0}}
}

// number returns the value number of a shape, numbering it the first time.
func (v *sameValues) number(s valueShape) uint32 {
	if n, ok := v.numbers[s]; ok {
		return n
	}
	n := uint32(len(v.first))
	v.numbers[s] = n
	v.first = append(v.first, 0)
	return n
}

// setKey memoizes id's value number. The table grows with the ids the
// passes add, never past the module's bound: an id beyond it (in words of
// an instruction the grammar could not read, which Parse cannot check) is
// defined nowhere and is not memoized, rather than growing the table to it.
func (v *sameValues) setKey(id, n uint32) {
	if id >= v.m.Header.Bound {
		return
	}
	if int(id) >= len(v.keys) {
		v.keys = append(v.keys, make([]uint32, int(id)+1-len(v.keys))...)
	}
	v.keys[id] = n
}

// setLocal gives the load id the key of what it read: local variable v as
// its stores left it at point epoch of the walk (numbered by the caller:
// a new epoch at each store to v and each new block). It must come before
// any key that uses id is computed.
func (v *sameValues) setLocal(id, variable uint32, epoch int) {
	v.setKey(id, v.number(valueShape{kind: shapeLocal, a: variable, b: uint32(epoch)}))
}

// canon returns the first id seen that computes the same value as id.
func (v *sameValues) canon(id uint32) uint32 {
	k := v.key(id, 0)
	if f := v.first[k]; f != 0 {
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

// key returns id's value number, computed once (at whatever depth it is
// first asked for).
func (v *sameValues) key(id uint32, depth int) uint32 {
	if int(id) < len(v.keys) && v.keys[id] != 0 {
		return v.keys[id]
	}
	k := v.compute(id, depth)
	v.setKey(id, k)
	return k
}

func (v *sameValues) compute(id uint32, depth int) uint32 {
	d := v.m.Def(id)
	if d == nil || depth > 16 {
		return v.number(valueShape{kind: shapeSelf, a: id})
	}
	op := d.Opcode()
	switch {
	case op == spirv.OpConstant:
		n := v.number(valueShape{kind: shapeConst, a: d.Words[1]})
		for _, w := range d.Words[3:] {
			n = v.number(valueShape{kind: shapeWord, a: n, b: w})
		}
		return n
	case op == spirv.OpLoad && len(d.Words) == 4: // no memory operands (Volatile...)
		if p := v.pointer(d.Words[3], depth+1); p != 0 {
			return v.number(valueShape{kind: shapeLoad, a: d.Words[1], b: p})
		}
	case pureOps[op] && len(d.Words) >= 4:
		n := v.number(valueShape{kind: shapePure, a: uint32(op), b: d.Words[1]})
		for _, o := range d.Words[3:] {
			n = v.number(valueShape{kind: shapeOperand, a: n, b: v.key(o, depth+1)})
		}
		return n
	case op == spirv.OpCompositeExtract && len(d.Words) >= 5:
		n := v.number(valueShape{kind: shapeExtract, a: d.Words[1], b: v.key(d.Words[3], depth+1)})
		for _, w := range d.Words[4:] {
			n = v.number(valueShape{kind: shapeWord, a: n, b: w})
		}
		return n
	}
	return v.number(valueShape{kind: shapeSelf, a: id})
}

// pointer numbers a pointer into memory no invocation can change while it
// runs, or returns 0. An access chain of an access chain has the number of
// the one chain with both chains' indices.
func (v *sameValues) pointer(id uint32, depth int) uint32 {
	d := v.m.Def(id)
	if d == nil || depth > 16 {
		return 0
	}
	switch d.Opcode() {
	case spirv.OpVariable:
		switch spirv.StorageClass(d.Words[3]) {
		case spirv.StorageClassPushConstant, spirv.StorageClassInput:
			return v.number(valueShape{kind: shapeVariable, a: id})
		case spirv.StorageClassUniform:
			if !v.bufferBlock(d.Words[1]) {
				return v.number(valueShape{kind: shapeVariable, a: id})
			}
		}
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
		n := v.pointer(d.Words[3], depth+1)
		if n == 0 {
			return 0
		}
		for _, o := range d.Words[4:] {
			n = v.number(valueShape{kind: shapeIndex, a: n, b: v.key(o, depth+1)})
		}
		return n
	}
	return 0
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
	vars  idBits         // the function's variables numbered
	last  map[uint32]int // variable → epoch of its last store in the block
	epoch int            // grows at each store and each new block
	start int            // the current block's epoch
}

// begin finds the function's variables that only loads and stores use.
// Non-semantic instructions (debug info) do not count as uses.
func (l *localLoads) begin(m *spirv.Module, f *spirv.Function) {
	l.vars = idBits{}
	l.last = map[uint32]int{}
	if len(f.Blocks) == 0 {
		return
	}
	var vars []uint32
	for _, in := range f.Blocks[0].Insts {
		if in.Opcode() == spirv.OpVariable && len(in.Words) > 3 && spirv.StorageClass(in.Words[3]) == spirv.StorageClassFunction {
			vars = append(vars, in.Words[2])
		}
	}
	if l.vars = newIDBits(vars); len(vars) == 0 {
		return // nothing to number: no use to look for
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
				if !l.vars.has(id) {
					return
				}
				plainLoad := op == spirv.OpLoad && k == 3 && len(in.Words) == 4
				plainStore := op == spirv.OpStore && k == 1 && len(in.Words) == 3
				if !plainLoad && !plainStore {
					l.vars.remove(id)
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
		if len(in.Words) > 1 && l.vars.has(in.Words[1]) {
			l.epoch++
			l.last[in.Words[1]] = l.epoch
		}
	case spirv.OpLoad:
		if len(in.Words) == 4 && l.vars.has(in.Words[3]) {
			e, ok := l.last[in.Words[3]]
			if !ok {
				e = l.start
			}
			v.setLocal(in.Words[2], in.Words[3], e)
		}
	}
}
