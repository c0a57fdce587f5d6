package spirv

import (
	"errors"
	"fmt"
	"math/bits"
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
	w := walker{words: words, ctx: ctx, pos: 1}
	dst = w.walk(dst)
	return dst, w.err
}

// ForEachID calls fn with the index in words of every word of the
// instruction that is an id: result type, result, IdRef, IdScope,
// IdMemorySemantics, the id halves of pairs, ids among enumerant parameters
// and among the operands of an OpExtInst of a known set (all operands after
// the instruction number for a NonSemantic.* set). It returns the error
// Operands would; ids in words it cannot interpret are not reported. It does
// not allocate for instructions of up to 32 operands.
func ForEachID(words []uint32, ctx OperandContext, fn func(wordIndex int)) error {
	if len(words) > 0 && allIDs(words) {
		for i := 1; i < len(words); i++ {
			fn(i)
		}
		return nil
	}
	if l := fixedLayout(words, ctx); l != nil {
		l.each(len(words), fn)
		return nil
	}
	var buf [32]Operand
	ops, err := AppendOperands(buf[:0], words, ctx)
	for i := range ops {
		if ops[i].Kind.IsID() {
			fn(ops[i].Start)
		}
	}
	return err
}

// walker walks the operands of one instruction, without recursion: a
// small stack of frames holds the operand lists being walked (the
// instruction's, an enumerant's parameters, an OpSpecConstantOp opcode's or
// an extended instruction's operands). The operands it finds are threaded
// through its methods (dst in, dst out) rather than kept in the struct, so
// that escape analysis can keep a caller's buffer on its stack.
type walker struct {
	words []uint32
	ctx   OperandContext
	pos   int
	err   error
	stack [maxDepth]frame
	depth int
	// idTail makes the words left after the operand lists IdRefs (for a
	// NonSemantic.* extended instruction).
	idTail bool
}

// maxDepth bounds the nesting of operand lists. The grammar needs 3 (an
// OpSpecConstantOp opcode's operands, an enumerant's parameters within
// them); only nonsense (OpSpecConstantOp of OpSpecConstantOp...) needs more.
const maxDepth = 8

// frame is one operand list being walked; for a bit mask, mask holds the
// bits whose parameters are still to walk after ops.
type frame struct {
	ops  []OperandInfo
	i    int
	mask uint32
	kind OperandKind // the bit enum of mask
}

// push pushes an operand list; the caller checks that there is room.
func (w *walker) push(ops []OperandInfo, mask uint32, kind OperandKind) {
	w.stack[w.depth] = frame{ops: ops, mask: mask, kind: kind}
	w.depth++
}

func (w *walker) walk(dst []Operand) []Operand {
	if len(w.words) == 0 {
		w.err = fmt.Errorf("%w: no words", ErrMalformed)
		return dst
	}
	op := Opcode(w.words[0] & 0xffff)
	info, ok := LookupOp(op)
	if !ok {
		dst = w.unknownRest(dst)
		w.err = fmt.Errorf("%w: %d", ErrUnknownOpcode, op)
		return dst
	}
	if info.HasType {
		dst, _ = w.fixed(dst, KindIdResultType, 1, "")
	}
	if info.HasResult {
		dst, _ = w.fixed(dst, KindIdResult, 1, "")
	}
	w.push(info.Operands, 0, 0)
	dst = w.run(dst)
	if w.idTail {
		for w.err == nil && w.pos < len(w.words) {
			dst = w.emit(dst, KindIdRef, 1, "")
		}
	}
	if w.err == nil && w.pos < len(w.words) {
		dst = w.fail(dst, ErrMalformed, "%s: %d words left over after the last operand", info.Name, len(w.words)-w.pos)
	}
	if n := int(w.words[0] >> 16); w.err == nil && n != len(w.words) {
		w.err = fmt.Errorf("%w: %s: word count %d but %d words", ErrMalformed, info.Name, n, len(w.words))
	}
	return dst
}

// run walks the frames on the stack until it is empty or an error stops it.
func (w *walker) run(dst []Operand) []Operand {
	for w.depth > 0 && w.err == nil {
		f := &w.stack[w.depth-1]
		if f.i >= len(f.ops) {
			if f.mask == 0 {
				w.depth--
				continue
			}
			// The parameters of the mask's next bit, from the lowest.
			bit := f.mask & -f.mask
			f.mask &^= bit
			e, ok := f.kind.Enumerant(bit)
			if !ok {
				dst = w.fail(dst, ErrUnknownEnumerant, "%s: %s bit 0x%x", Opcode(w.words[0]&0xffff), f.kind, bit)
				break
			}
			f.ops, f.i = e.Params, 0
			continue
		}
		o := &f.ops[f.i]
		switch o.Quant {
		case QuantOne:
			f.i++
			dst = w.one(dst, o.Kind, o.Name)
		case QuantOptional:
			f.i++
			if w.pos < len(w.words) {
				dst = w.one(dst, o.Kind, o.Name)
			}
		case QuantVariadic:
			if w.pos >= len(w.words) {
				f.i++
				continue
			}
			dst = w.one(dst, o.Kind, o.Name)
		}
	}
	return dst
}

func (w *walker) emit(dst []Operand, k OperandKind, n int, name string) []Operand {
	dst = append(dst, Operand{Kind: k, Start: w.pos, Len: n, Name: name})
	w.pos += n
	return dst
}

// fixed emits an operand of n words, failing when they are missing.
func (w *walker) fixed(dst []Operand, k OperandKind, n int, name string) ([]Operand, bool) {
	if w.err != nil {
		return dst, false
	}
	if w.pos+n > len(w.words) {
		return w.missing(dst, k, name), false
	}
	return w.emit(dst, k, n, name), true
}

func (w *walker) missing(dst []Operand, k OperandKind, name string) []Operand {
	if name != "" {
		name = " '" + name + "'"
	}
	return w.fail(dst, ErrMalformed, "%s: missing operand%s of kind %s", Opcode(w.words[0]&0xffff), name, k)
}

// fail records an error and marks the remaining words unknown.
func (w *walker) fail(dst []Operand, sentinel error, format string, args ...any) []Operand {
	if w.err != nil {
		return dst
	}
	dst = w.unknownRest(dst)
	w.err = fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
	return dst
}

func (w *walker) unknownRest(dst []Operand) []Operand {
	for w.pos < len(w.words) {
		dst = w.emit(dst, KindUnknownWord, 1, "")
	}
	return dst
}

// pushOrFail pushes an operand list, failing when the stack is full.
func (w *walker) pushOrFail(dst []Operand, ops []OperandInfo, mask uint32, kind OperandKind) []Operand {
	if w.depth == maxDepth {
		return w.fail(dst, ErrMalformed, "%s: operands nested too deeply", Opcode(w.words[0]&0xffff))
	}
	w.push(ops, mask, kind)
	return dst
}

// one walks one operand of kind k at w.pos, pushing the operand lists that
// follow it (enumerant parameters...).
func (w *walker) one(dst []Operand, k OperandKind, name string) []Operand {
	if w.pos >= len(w.words) {
		return w.missing(dst, k, name)
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
			return w.fail(dst, ErrMalformed, "%s: literal string '%s' has no terminating nul", Opcode(w.words[0]&0xffff), name)
		}
		return w.emit(dst, k, n, name)
	case KindLiteralContextDependentNumber:
		// OpConstant and OpSpecConstant: the value is the rest of the words.
		return w.emit(dst, k, len(w.words)-w.pos, name)
	case KindLiteralSpecConstantOpInteger:
		op := Opcode(w.words[w.pos])
		dst = w.emit(dst, k, 1, name)
		info, ok := LookupOp(op)
		if !ok {
			return w.fail(dst, ErrUnknownOpcode, "OpSpecConstantOp: opcode %d", op)
		}
		return w.pushOrFail(dst, info.Operands, 0, 0)
	case KindLiteralExtInstInteger:
		return w.extInst(dst, name)
	case KindPairLiteralIntegerIdRef:
		width := 1
		if w.ctx != nil && w.pos >= 3 {
			// OpSwitch: the literal has the selector's width.
			if n := w.ctx.LiteralWidth(w.words[1]); n > 0 {
				width = n
			}
		}
		dst, ok := w.fixed(dst, KindLiteralContextDependentNumber, width, name)
		if ok {
			dst, _ = w.fixed(dst, KindIdRef, 1, name)
		}
		return dst
	case KindPairIdRefLiteralInteger:
		dst, ok := w.fixed(dst, KindIdRef, 1, name)
		if ok {
			dst, _ = w.fixed(dst, KindLiteralInteger, 1, name)
		}
		return dst
	case KindPairIdRefIdRef:
		dst, ok := w.fixed(dst, KindIdRef, 1, name)
		if ok {
			dst, _ = w.fixed(dst, KindIdRef, 1, name)
		}
		return dst
	}
	info := LookupKind(k)
	switch info.Category {
	case CategoryValueEnum:
		v := w.words[w.pos]
		dst = w.emit(dst, k, 1, name)
		if !info.HasParams {
			return dst
		}
		e, ok := k.Enumerant(v)
		if !ok {
			return w.fail(dst, ErrUnknownEnumerant, "%s: %s %d", Opcode(w.words[0]&0xffff), info.Name, v)
		}
		if len(e.Params) > 0 {
			dst = w.pushOrFail(dst, e.Params, 0, 0)
		}
		return dst
	case CategoryBitEnum:
		v := w.words[w.pos]
		dst = w.emit(dst, k, 1, name)
		if !info.HasParams || v == 0 {
			return dst
		}
		return w.pushOrFail(dst, nil, v, k)
	}
	// Ids, LiteralInteger and the rest: one word.
	return w.emit(dst, k, 1, name)
}

// extInst walks the instruction number of an OpExtInst and pushes the
// operands of the extended instruction, which replace OpExtInst's own.
func (w *walker) extInst(dst []Operand, name string) []Operand {
	var set *ExtInstSet
	if w.ctx != nil && w.pos >= 1 {
		set = w.ctx.ExtInstSet(w.words[w.pos-1])
	}
	n := w.words[w.pos]
	dst = w.emit(dst, KindLiteralExtInstInteger, 1, name)
	// Drop OpExtInst's own remaining operands.
	f := &w.stack[w.depth-1]
	f.i = len(f.ops)
	if set == nil {
		return w.fail(dst, ErrUnknownExtInst, "OpExtInst: unknown instruction set (id %d)", w.words[w.pos-2])
	}
	// Non-semantic instructions have only id operands, including any a
	// newer version of the set adds.
	w.idTail = set.NonSemantic
	if inst, ok := set.Lookup(n); ok {
		return w.pushOrFail(dst, inst.Operands, 0, 0)
	}
	if !set.NonSemantic {
		return w.fail(dst, ErrUnknownExtInst, "OpExtInst: %s has no instruction %d", set.Name, n)
	}
	return dst
}

// idShape is the shape of an opcode whose leading operands are ids: min
// words of them (the opcode's word included), then what may follow.
type idShape struct {
	// ok: every operand is an id, and tail says how many may follow min.
	ok  bool
	min uint16
	// tail is QuantOne when nothing follows, QuantOptional for one id,
	// QuantVariadic for any number of ids (pairs of them when pairs).
	tail  Quantifier
	pairs bool
	// bare: not ok, but every operand after the first min words is
	// optional, so an instruction of exactly min words holds only ids
	// (OpLoad and OpStore without memory operands...).
	bare bool
}

// idShapes holds each opcode's idShape (neither ok nor bare: ForEachID
// walks the grammar).
var idShapes [maxOpcode + 1]idShape

func init() {
	for i := range opInfos {
		info := &opInfos[i]
		s := idShape{ok: true, min: 1}
		if info.HasType {
			s.min++
		}
		if info.HasResult {
			s.min++
		}
		k := 0
		for ; k < len(info.Operands) && info.Operands[k].Quant == QuantOne && info.Operands[k].Kind.IsID(); k++ {
			s.min++
		}
		rest := info.Operands[k:]
		switch {
		case len(rest) == 0:
		case len(rest) == 1 && rest[0].Kind.IsID():
			s.tail = rest[0].Quant
		case len(rest) == 1 && rest[0].Quant == QuantVariadic && rest[0].Kind == KindPairIdRefIdRef:
			s.tail, s.pairs = QuantVariadic, true
		default:
			s.ok = false
			s.bare = true
			for _, o := range rest {
				if o.Quant == QuantOne {
					s.bare = false
				}
			}
		}
		idShapes[info.Opcode] = s
	}
}

// allIDs reports whether every word of the instruction after the first is
// an id, as the grammar walk would find without an error: the opcode's
// operands are all ids and the word count fits them.
func allIDs(words []uint32) bool {
	op := words[0] & 0xffff
	n := len(words)
	if op > maxOpcode || int(words[0]>>16) != n {
		return false
	}
	s := &idShapes[op]
	if s.bare {
		return n == int(s.min)
	}
	if !s.ok || n < int(s.min) {
		return false
	}
	switch {
	case s.tail == QuantOne:
		return n == int(s.min)
	case s.tail == QuantOptional:
		return n <= int(s.min)+1
	case s.pairs:
		return (n-int(s.min))%2 == 0
	}
	return true
}

// idLayout says where the ids are in an instruction whose operands are
// each one word at a fixed place (ids, literal integers, enumerants that
// take no parameters), but for the last, which may repeat or be left out:
// what ForEachID reports without walking the grammar (OpLine,
// OpCompositeExtract, OpVectorShuffle, OpSelectionMerge, OpVariable,
// OpConstant, and the extended instructions of the known sets).
type idLayout struct {
	ok bool
	// ids marks the words before min that are ids (bit i: word i).
	ids uint64
	// min is the number of words up to the tail (the opcode's included).
	min int
	// tail is what may follow min: QuantOne nothing, QuantOptional one
	// word, QuantVariadic any number; tailID says they are ids.
	tail   Quantifier
	tailID bool
}

// fits reports whether an instruction of n words has the layout's shape,
// so that the grammar walk would find its operands at the layout's places
// and no error.
func (l *idLayout) fits(n int) bool {
	switch {
	case !l.ok || n < l.min:
		return false
	case l.tail == QuantOne:
		return n == l.min
	case l.tail == QuantOptional:
		return n <= l.min+1
	}
	return true
}

// each calls fn with the index of every id word of an n-word instruction
// that fits the layout, in order.
func (l *idLayout) each(n int, fn func(int)) {
	for m := l.ids; m != 0; m &= m - 1 {
		fn(bits.TrailingZeros64(m))
	}
	if l.tailID {
		for i := l.min; i < n; i++ {
			fn(i)
		}
	}
}

// oneWord reports whether every operand of kind k is one word that is
// never followed by parameters.
func oneWord(k OperandKind) bool {
	switch k {
	case KindLiteralString, KindLiteralContextDependentNumber, KindLiteralSpecConstantOpInteger, KindLiteralExtInstInteger:
		return false
	}
	info := LookupKind(k)
	switch info.Category {
	case CategoryID, CategoryLiteral:
		return true
	case CategoryValueEnum, CategoryBitEnum:
		return !info.HasParams
	}
	return false
}

// layoutOf is the idLayout of an operand list that starts at word pos,
// the words before it being ids where ids says; not ok when the list has
// operands of several words, with parameters, or repeated or left out
// before its last.
func layoutOf(ops []OperandInfo, pos int, ids uint64) idLayout {
	for k, o := range ops {
		last := k == len(ops)-1
		switch {
		case pos >= 64:
			return idLayout{}
		case o.Quant == QuantOne && oneWord(o.Kind):
			if o.Kind.IsID() {
				ids |= 1 << pos
			}
			pos++
		case last && o.Quant == QuantOne && o.Kind == KindLiteralContextDependentNumber:
			// OpConstant's value: one word or more, the rest.
			return idLayout{ok: true, ids: ids, min: pos + 1, tail: QuantVariadic}
		case last && o.Quant != QuantOne && oneWord(o.Kind):
			return idLayout{ok: true, ids: ids, min: pos, tail: o.Quant, tailID: o.Kind.IsID()}
		default:
			return idLayout{}
		}
	}
	return idLayout{ok: true, ids: ids, min: pos, tail: QuantOne}
}

// opLayouts holds each opcode's idLayout; extLayouts those of the
// extended instructions of each known set, by instruction number, after
// OpExtInst's own words (result type, result, set: ids; the number).
var (
	opLayouts  [maxOpcode + 1]idLayout
	extLayouts = map[*ExtInstSet][]idLayout{}
)

func init() {
	for i := range opInfos {
		info := &opInfos[i]
		if info.Opcode == OpExtInst {
			continue // the set's instruction says (extLayouts)
		}
		pos, ids := 1, uint64(0)
		if info.HasType {
			ids |= 1 << pos
			pos++
		}
		if info.HasResult {
			ids |= 1 << pos
			pos++
		}
		opLayouts[info.Opcode] = layoutOf(info.Operands, pos, ids)
	}
	const extIDs = 1<<1 | 1<<2 | 1<<3
	for _, set := range ExtInstSets {
		ls := make([]idLayout, len(set.Insts))
		for n := range set.Insts {
			if set.Insts[n].Name == "" || set.NonSemantic {
				// A non-semantic instruction's words after its operands
				// are ids too (the walker's idTail): left to the walk.
				continue
			}
			ls[n] = layoutOf(set.Insts[n].Operands, 5, extIDs)
		}
		extLayouts[set] = ls
	}
}

// fixedLayout returns the layout of an instruction that fits one, or nil:
// ForEachID then needs no grammar walk.
func fixedLayout(words []uint32, ctx OperandContext) *idLayout {
	if len(words) == 0 {
		return nil
	}
	op := words[0] & 0xffff
	n := len(words)
	if op > maxOpcode || int(words[0]>>16) != n {
		return nil
	}
	l := &opLayouts[op]
	if Opcode(op) == OpExtInst {
		if ctx == nil || n < 5 {
			return nil
		}
		ls := extLayouts[ctx.ExtInstSet(words[3])]
		if uint64(words[4]) >= uint64(len(ls)) {
			return nil
		}
		l = &ls[words[4]]
	}
	if !l.fits(n) {
		return nil
	}
	return l
}
