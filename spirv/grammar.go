package spirv

import (
	"sort"
	"strconv"
	"strings"
)

// Opcode is a SPIR-V instruction opcode. Its constants (OpNop, OpLoad, ...)
// are generated from the grammar and named as the grammar names them.
type Opcode uint16

// Quantifier says how many times an operand occurs.
type Quantifier uint8

// Quantifiers of an operand, as the grammar writes them.
const (
	// QuantOne is an operand that occurs exactly once.
	QuantOne Quantifier = iota
	// QuantOptional is an operand that occurs zero or one time ('?').
	QuantOptional
	// QuantVariadic is an operand that occurs zero or more times ('*').
	QuantVariadic
)

// String returns "", "?" or "*", as in the grammar.
func (q Quantifier) String() string {
	switch q {
	case QuantOptional:
		return "?"
	case QuantVariadic:
		return "*"
	}
	return ""
}

// OperandInfo describes one operand of an instruction or of an enumerant's
// parameters.
type OperandInfo struct {
	Kind  OperandKind
	Quant Quantifier
	// Name is the grammar's name for the operand without its quotes
	// ("Pointer"), or "" where the grammar gives none.
	Name string
}

// OpInfo describes an opcode.
type OpInfo struct {
	// Name is the opcode's name ("OpLoad").
	Name   string
	Opcode Opcode
	// Class is the grammar's instruction class ("Memory", "Annotation"...).
	Class string
	// HasType and HasResult say whether the instruction has a result type
	// (word 1) and a result id (word 2, or word 1 without a result type).
	HasType, HasResult bool
	// Operands are the operands after the result type and result id.
	Operands []OperandInfo
}

// opIndex maps an opcode to 1 + its index in opInfos (0: unknown).
var opIndex [maxOpcode + 1]uint16

// resultWord maps an opcode to the index of its result id in an
// instruction's words (1 or 2; 0: none or unknown), and typeWord to that
// of its result type (1; 0: none): ResultID and ResultType are on every
// hot path, and a table is quicker than LookupOp.
var resultWord, typeWord [maxOpcode + 1]uint8

func init() {
	for i := range opInfos {
		info := &opInfos[i]
		opIndex[info.Opcode] = uint16(i + 1)
		if info.HasType {
			typeWord[info.Opcode] = 1
		}
		switch {
		case info.HasResult && info.HasType:
			resultWord[info.Opcode] = 2
		case info.HasResult:
			resultWord[info.Opcode] = 1
		}
	}
}

// LookupOp returns the grammar's description of an opcode.
func LookupOp(op Opcode) (*OpInfo, bool) {
	if int(op) < len(opIndex) {
		if i := opIndex[op]; i != 0 {
			return &opInfos[i-1], true
		}
	}
	return nil, false
}

// Opcodes returns every opcode the tables know, in grammar order. The slice
// is shared: do not modify it.
func Opcodes() []OpInfo { return opInfos[:] }

// String returns the opcode's name ("OpLoad"), or "OpUnknown(N)".
func (op Opcode) String() string {
	if info, ok := LookupOp(op); ok {
		return info.Name
	}
	return "OpUnknown(" + strconv.Itoa(int(op)) + ")"
}

// OperandKind is an operand kind of the grammar (IdRef, LiteralString,
// Decoration, ImageOperands...). Its constants are named Kind<kind name>,
// from 1 up; 0 is no kind, and KindUnknownWord marks words whose meaning is
// unknown.
type OperandKind uint8

// KindUnknownWord is the kind of an operand word the tables cannot
// interpret: the operands of an unknown opcode, of an OpExtInst whose set
// or instruction is unknown, and what follows an enumerant that is not in
// the grammar. It is outside the generated range.
const KindUnknownWord OperandKind = 255

// KindCategory is the grammar's category of an operand kind.
type KindCategory uint8

// Operand kind categories.
const (
	// CategoryBitEnum is a mask of enumerants (ImageOperands, MemoryAccess).
	CategoryBitEnum KindCategory = iota + 1
	// CategoryValueEnum is one enumerant (StorageClass, Decoration).
	CategoryValueEnum
	// CategoryID is an <id> (IdRef, IdResult, IdScope...).
	CategoryID
	// CategoryLiteral is a literal (LiteralInteger, LiteralString...).
	CategoryLiteral
	// CategoryComposite is a pair of other kinds (PairIdRefIdRef...).
	CategoryComposite
)

// KindInfo describes an operand kind.
type KindInfo struct {
	// Name is the grammar's name for the kind ("ImageOperands").
	Name     string
	Category KindCategory
	// Set is the import name of the extended instruction set that defines
	// the kind, or "" for the core grammar's kinds.
	Set string
	// Enumerants are the enumerants of an enum kind sorted by value; of
	// aliases sharing a value, only the first in the grammar is kept.
	Enumerants []EnumerantInfo
	// HasParams says whether some enumerant has parameters.
	HasParams bool
	// Bases are the kinds a Composite kind is made of, in order.
	Bases []OperandKind
}

// EnumerantInfo is one enumerant of an enum kind.
type EnumerantInfo struct {
	Name  string
	Value uint32
	// Params are the operands that follow the enumerant when it is used
	// (for a bit enum: when its bit is set).
	Params []OperandInfo
}

var unknownKindInfo = KindInfo{Name: "UnknownWord", Category: CategoryLiteral}

// LookupKind returns the description of an operand kind; for KindUnknownWord
// and kinds out of range it returns a description named "UnknownWord". The
// result is shared: do not modify it.
func LookupKind(k OperandKind) *KindInfo {
	if int(k) < len(kindInfos) && kindInfos[k].Name != "" {
		return &kindInfos[k]
	}
	return &unknownKindInfo
}

// String returns the kind's grammar name ("IdRef").
func (k OperandKind) String() string { return LookupKind(k).Name }

// IsID says whether operands of the kind are single <id> words: IdRef,
// IdResultType, IdResult, IdScope and IdMemorySemantics.
func (k OperandKind) IsID() bool {
	switch k {
	case KindIdRef, KindIdResultType, KindIdResult, KindIdScope, KindIdMemorySemantics:
		return true
	}
	return false
}

// Enumerant returns the enumerant with value v of an enum kind.
func (k OperandKind) Enumerant(v uint32) (*EnumerantInfo, bool) {
	es := LookupKind(k).Enumerants
	i := sort.Search(len(es), func(i int) bool { return es[i].Value >= v })
	if i < len(es) && es[i].Value == v {
		return &es[i], true
	}
	return nil, false
}

// EnumerantName returns the name of value v of an enum kind.
func (k OperandKind) EnumerantName(v uint32) (string, bool) {
	if e, ok := k.Enumerant(v); ok {
		return e.Name, true
	}
	return "", false
}

// ValueName returns the name of value v of a value enum, or v in decimal
// when the kind has no such enumerant.
func (k OperandKind) ValueName(v uint32) string {
	if n, ok := k.EnumerantName(v); ok {
		return n
	}
	return strconv.FormatUint(uint64(v), 10)
}

// MaskName names a mask of a bit enum the way spirv-dis does: the names of
// its bits from the lowest, joined by '|' ("Bias|ConstOffset"); for 0, the
// name of the kind's 0 enumerant: "None" for all but MemorySemantics
// ("Relaxed") and RayFlags ("NoneKHR"). Bits the grammar does not know are
// written as one hexadecimal number at the end ("Bias|0x80000000").
func (k OperandKind) MaskName(v uint32) string {
	if v == 0 {
		if n, ok := k.EnumerantName(0); ok {
			return n
		}
		return "None"
	}
	var sb strings.Builder
	var unknown uint32
	for bit := uint32(1); bit != 0; bit <<= 1 {
		if v&bit == 0 {
			continue
		}
		n, ok := k.EnumerantName(bit)
		if !ok {
			unknown |= bit
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('|')
		}
		sb.WriteString(n)
	}
	if unknown != 0 {
		if sb.Len() > 0 {
			sb.WriteByte('|')
		}
		sb.WriteString("0x")
		sb.WriteString(strconv.FormatUint(uint64(unknown), 16))
	}
	return sb.String()
}

// ExtInstSet is an extended instruction set (OpExtInstImport).
type ExtInstSet struct {
	// Name is the import name ("GLSL.std.450"); with NamePrefix, the
	// prefix of the import name, which ends in a version.
	Name       string
	NamePrefix bool
	// Version and Revision are the grammar file's (0 where it has none).
	Version, Revision int
	// NonSemantic marks sets whose import name starts with "NonSemantic.":
	// all their operands are <id>s, so that tools that do not know a set can
	// still remap ids.
	NonSemantic bool
	// Insts is indexed by instruction number; holes have an empty Name.
	Insts []ExtInstInfo
}

// ExtInstInfo describes one instruction of an extended instruction set.
type ExtInstInfo struct {
	Name   string
	Number uint32
	// Operands are the operands after the set id and instruction number.
	Operands []OperandInfo
}

// Lookup returns the set's instruction number n.
func (s *ExtInstSet) Lookup(n uint32) (*ExtInstInfo, bool) {
	if s == nil || uint64(n) >= uint64(len(s.Insts)) || s.Insts[n].Name == "" {
		return nil, false
	}
	return &s.Insts[n], true
}

// ExtInstSetNonSemanticUnknown stands for a NonSemantic.* set the tables do
// not know: it has no instructions, and all its operands are ids.
var ExtInstSetNonSemanticUnknown = &ExtInstSet{Name: "NonSemantic.", NamePrefix: true, NonSemantic: true}

// LookupExtInstSet returns the set that OpExtInstImport imports under
// importName, or nil when it is unknown. An unknown "NonSemantic.*" set gives
// ExtInstSetNonSemanticUnknown.
func LookupExtInstSet(importName string) *ExtInstSet {
	for _, s := range ExtInstSets {
		if s.Name == importName || s.NamePrefix && strings.HasPrefix(importName, s.Name) {
			return s
		}
	}
	if strings.HasPrefix(importName, "NonSemantic.") {
		return ExtInstSetNonSemanticUnknown
	}
	return nil
}
