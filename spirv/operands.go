package spirv

import (
	"errors"
	"fmt"
)

// Operand is one operand of an instruction: its kind and the words it
// occupies.
//
// Composite kinds (PairIdRefIdRef in OpPhi, PairLiteralIntegerIdRef in
// OpSwitch, PairIdRefLiteralInteger in OpGroupMemberDecorate) are given as
// two operands, one per half, each of its base kind, so that every operand
// is either an id or not. The literal half of an OpSwitch target has kind
// KindLiteralContextDependentNumber and the selector's width.
//
// An enumerant's parameters follow it as operands of their own kinds (for a
// bit mask: the parameters of each set bit, from the lowest bit).
type Operand struct {
	Kind OperandKind
	// Start is the index in the instruction's words of the operand's first
	// word (1 for the first operand), Len the number of words.
	Start, Len int
	// Name is the grammar's name for the operand, or "".
	Name string
}

// OperandContext tells the operand walker what it cannot see in the
// instruction itself. A nil OperandContext is allowed.
type OperandContext interface {
	// LiteralWidth returns the width in words of the literals whose type is
	// the type of id (the selector of an OpSwitch): 1 for 32 bits or less,
	// 2 for 64 bits, 0 when unknown (taken as 1).
	LiteralWidth(id uint32) int
	// ExtInstSet returns the extended instruction set imported as id by an
	// OpExtInstImport, or nil when unknown.
	ExtInstSet(id uint32) *ExtInstSet
}

// Errors of the operand walker. The errors it returns wrap one of them.
var (
	// ErrUnknownOpcode: the opcode is not in the tables; all its words are
	// KindUnknownWord operands.
	ErrUnknownOpcode = errors.New("unknown opcode")
	// ErrUnknownExtInst: an OpExtInst whose set is unknown (and not
	// NonSemantic.*) or whose instruction number the set lacks; the words
	// after the instruction number are KindUnknownWord operands.
	ErrUnknownExtInst = errors.New("unknown extended instruction")
	// ErrUnknownEnumerant: an enumerant (or mask bit) missing from the
	// grammar, of a kind where enumerants may have parameters; the words
	// after it are KindUnknownWord operands.
	ErrUnknownEnumerant = errors.New("unknown enumerant")
	// ErrMalformed: the instruction has too few or too many words for its
	// operands, or its word count disagrees with its length.
	ErrMalformed = errors.New("malformed instruction")
)

// Operands returns the operands of one whole instruction (words[0] holds
// the word count and opcode). The operands cover every word after the first
// in order, the result type (KindIdResultType) and result id (KindIdResult)
// included. On error the operands still cover every word: those the walker
// could not interpret are KindUnknownWord.
func Operands(words []uint32, ctx OperandContext) ([]Operand, error) {
	return AppendOperands(make([]Operand, 0, len(words)), words, ctx)
}

// AppendOperands is Operands appending to dst, so that a caller can reuse
// one slice for every instruction of a module.
func AppendOperands(dst []Operand, words []uint32, ctx OperandContext) ([]Operand, error) {
	w := walker{words: words, ctx: ctx, dst: dst, pos: 1}
	w.walk()
	return w.dst, w.err
}

// ForEachID calls fn with the index in words of every word of the
// instruction that is an id: result type, result, IdRef, IdScope,
// IdMemorySemantics, the id halves of pairs, ids among enumerant parameters
// and among the operands of an OpExtInst of a known set (all operands after
// the instruction number for a NonSemantic.* set). It returns the error
// Operands would; ids in words it cannot interpret are not reported.
func ForEachID(words []uint32, ctx OperandContext, fn func(wordIndex int)) error {
	var buf [48]Operand
	ops, err := AppendOperands(buf[:0], words, ctx)
	for i := range ops {
		if ops[i].Kind.IsID() {
			fn(ops[i].Start)
		}
	}
	return err
}

type walker struct {
	words []uint32
	ctx   OperandContext
	dst   []Operand
	pos   int
	err   error
	// done stops the instruction's remaining operands (after the operands
	// of an extended instruction, which replace OpExtInst's own).
	done bool
}

func (w *walker) walk() {
	if len(w.words) == 0 {
		w.err = fmt.Errorf("%w: no words", ErrMalformed)
		return
	}
	op := Opcode(w.words[0] & 0xffff)
	info, ok := LookupOp(op)
	if !ok {
		w.unknownRest()
		w.err = fmt.Errorf("%w: %d", ErrUnknownOpcode, op)
		return
	}
	if info.HasType {
		w.fixed(KindIdResultType, 1, "")
	}
	if info.HasResult {
		w.fixed(KindIdResult, 1, "")
	}
	w.operands(info.Operands, "")
	if w.err == nil && w.pos < len(w.words) {
		w.fail(ErrMalformed, "%s: %d words left over after the last operand", info.Name, len(w.words)-w.pos)
	}
	if n := int(w.words[0] >> 16); w.err == nil && n != len(w.words) {
		w.err = fmt.Errorf("%w: %s: word count %d but %d words", ErrMalformed, info.Name, n, len(w.words))
	}
}

func (w *walker) emit(k OperandKind, n int, name string) {
	w.dst = append(w.dst, Operand{Kind: k, Start: w.pos, Len: n, Name: name})
	w.pos += n
}

// fixed emits an operand of n words, failing when they are missing.
func (w *walker) fixed(k OperandKind, n int, name string) bool {
	if w.err != nil {
		return false
	}
	if w.pos+n > len(w.words) {
		w.missing(k, name)
		return false
	}
	w.emit(k, n, name)
	return true
}

func (w *walker) missing(k OperandKind, name string) {
	if name != "" {
		name = " '" + name + "'"
	}
	w.fail(ErrMalformed, "%s: missing operand%s of kind %s", Opcode(w.words[0]&0xffff), name, k)
}

// fail records an error and marks the remaining words unknown.
func (w *walker) fail(sentinel error, format string, args ...any) {
	if w.err != nil {
		return
	}
	w.unknownRest()
	w.err = fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
}

func (w *walker) unknownRest() {
	for w.pos < len(w.words) {
		w.emit(KindUnknownWord, 1, "")
	}
}

func (w *walker) operands(ops []OperandInfo, set string) {
	for i := range ops {
		if w.err != nil || w.done {
			return
		}
		o := &ops[i]
		switch o.Quant {
		case QuantOne:
			w.one(o.Kind, o.Name)
		case QuantOptional:
			if w.pos < len(w.words) {
				w.one(o.Kind, o.Name)
			}
		case QuantVariadic:
			for w.pos < len(w.words) && w.err == nil && !w.done {
				w.one(o.Kind, o.Name)
			}
		}
	}
}

func (w *walker) one(k OperandKind, name string) {
	if w.err != nil {
		return
	}
	if w.pos >= len(w.words) {
		w.missing(k, name)
		return
	}
	switch k {
	case KindLiteralString:
		n := 0
		for i := w.pos; i < len(w.words); i++ {
			x := w.words[i]
			if x&0xff == 0 || x&0xff00 == 0 || x&0xff0000 == 0 || x&0xff000000 == 0 {
				n = i - w.pos + 1
				break
			}
		}
		if n == 0 {
			w.fail(ErrMalformed, "%s: literal string '%s' has no terminating nul", Opcode(w.words[0]&0xffff), name)
			return
		}
		w.emit(k, n, name)
	case KindLiteralContextDependentNumber:
		// OpConstant and OpSpecConstant: the value is the rest of the words.
		w.emit(k, len(w.words)-w.pos, name)
	case KindLiteralSpecConstantOpInteger:
		op := Opcode(w.words[w.pos])
		w.emit(k, 1, name)
		info, ok := LookupOp(op)
		if !ok {
			w.fail(ErrUnknownOpcode, "OpSpecConstantOp: opcode %d", op)
			return
		}
		w.operands(info.Operands, "")
	case KindLiteralExtInstInteger:
		w.extInst(name)
	case KindPairLiteralIntegerIdRef:
		width := 1
		if w.ctx != nil && w.pos >= 3 {
			// OpSwitch: the literal has the selector's width.
			if n := w.ctx.LiteralWidth(w.words[1]); n > 0 {
				width = n
			}
		}
		if w.fixed(KindLiteralContextDependentNumber, width, name) {
			w.fixed(KindIdRef, 1, name)
		}
	case KindPairIdRefLiteralInteger:
		if w.fixed(KindIdRef, 1, name) {
			w.fixed(KindLiteralInteger, 1, name)
		}
	case KindPairIdRefIdRef:
		if w.fixed(KindIdRef, 1, name) {
			w.fixed(KindIdRef, 1, name)
		}
	default:
		info := LookupKind(k)
		switch info.Category {
		case CategoryValueEnum:
			v := w.words[w.pos]
			w.emit(k, 1, name)
			if !info.HasParams {
				return
			}
			e, ok := k.Enumerant(v)
			if !ok {
				w.fail(ErrUnknownEnumerant, "%s: %s %d", Opcode(w.words[0]&0xffff), info.Name, v)
				return
			}
			w.operands(e.Params, info.Set)
		case CategoryBitEnum:
			v := w.words[w.pos]
			w.emit(k, 1, name)
			if !info.HasParams {
				return
			}
			for bit := uint32(1); bit != 0 && v != 0; bit <<= 1 {
				if v&bit == 0 {
					continue
				}
				v &^= bit
				e, ok := k.Enumerant(bit)
				if !ok {
					w.fail(ErrUnknownEnumerant, "%s: %s bit 0x%x", Opcode(w.words[0]&0xffff), info.Name, bit)
					return
				}
				w.operands(e.Params, info.Set)
				if w.err != nil {
					return
				}
			}
		default:
			// Ids, LiteralInteger and the rest: one word.
			w.emit(k, 1, name)
		}
	}
}

// extInst walks the instruction number of an OpExtInst and the operands of
// the extended instruction, which replace OpExtInst's own variadic operands.
func (w *walker) extInst(name string) {
	var set *ExtInstSet
	if w.ctx != nil && w.pos >= 1 {
		set = w.ctx.ExtInstSet(w.words[w.pos-1])
	}
	n := w.words[w.pos]
	w.emit(KindLiteralExtInstInteger, 1, name)
	w.done = true
	if set == nil {
		w.fail(ErrUnknownExtInst, "OpExtInst: unknown instruction set (id %d)", w.words[w.pos-2])
		return
	}
	inst, ok := set.Lookup(n)
	if ok {
		w.done = false
		w.operands(inst.Operands, set.Name)
		w.done = true
	} else if !set.NonSemantic {
		w.fail(ErrUnknownExtInst, "OpExtInst: %s has no instruction %d", set.Name, n)
		return
	}
	if set.NonSemantic {
		// Non-semantic instructions have only id operands, including any a
		// newer version of the set adds.
		for w.err == nil && w.pos < len(w.words) {
			w.emit(KindIdRef, 1, "")
		}
	}
}
