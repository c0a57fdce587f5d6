package spirv

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file is a disassembler that prints modules the way spirv-dis (SPIRV-Tools
// 2023.1) does with its default options: a header comment, friendly names for
// ids, result ids right-aligned so that opcodes start in column 16.
//
// Friendly names follow SPIRV-Tools' FriendlyNameMapper: an OpName gives an id
// its name; a BuiltIn decoration names the variable after the GLSL built-in
// (gl_FragCoord); types are named by their shape (uint, v4float,
// _ptr_Function_uint, _runtimearr_uint, _arr_float_uint_4, _struct_12) and
// scalar constants by type and value (uint_4, int_n1, float_0_5, true). Names are
// sanitized (every byte but [A-Za-z0-9_] becomes '_') and made unique with _0, _1...
// suffixes, in the order the module defines them. Other ids print as their
// number.
//
// Where spirv-dis refuses a module (an unknown opcode, enumerant or extended
// instruction), this printer still prints it: unknown opcodes as
// OpUnknown(N) followed by the words in decimal, unknown enumerants as
// numbers.

// Printer prints the instructions of one module with the module's names.
// Build one with NewPrinter and keep it: building it walks the whole module.
// It also serves as the OperandContext of its module. A Printer reuses an
// internal buffer: it is not safe for concurrent use.
type Printer struct {
	header Header
	insts  []*Instruction
	names  map[uint32]string
	used   map[string]bool
	// typeOf maps a result id to its result type.
	typeOf map[uint32]uint32
	// numTypes describes the OpTypeInt and OpTypeFloat types.
	numTypes map[uint32]numType
	sets     map[uint32]*ExtInstSet
	ops      []Operand
}

type numType struct {
	float  bool
	signed bool
	width  uint32
}

// NewPrinter parses a module and works out the names of its ids. It fails
// only when the module's header or instruction boundaries are broken; an
// instruction it cannot interpret is printed as best it can.
func NewPrinter(module []uint32) (*Printer, error) {
	h, insts, err := ParseInstructions(module)
	if err != nil {
		return nil, err
	}
	p := &Printer{
		header:   h,
		insts:    insts,
		names:    make(map[uint32]string),
		used:     make(map[string]bool),
		typeOf:   make(map[uint32]uint32),
		numTypes: make(map[uint32]numType),
		sets:     make(map[uint32]*ExtInstSet),
	}
	for _, in := range insts {
		p.learn(in.Words)
	}
	return p, nil
}

// LiteralWidth implements OperandContext from the module's types.
func (p *Printer) LiteralWidth(id uint32) int {
	if t, ok := p.numTypes[p.typeOf[id]]; ok && t.width > 32 {
		return int(t.width+31) / 32
	}
	return 1
}

// ExtInstSet implements OperandContext from the module's OpExtInstImports.
func (p *Printer) ExtInstSet(id uint32) *ExtInstSet { return p.sets[id] }

// Header returns the module's header.
func (p *Printer) Header() Header { return p.header }

// Len returns the number of instructions in the module.
func (p *Printer) Len() int { return len(p.insts) }

// Name returns the friendly name of an id, without the '%' (its number when
// it has no name).
func (p *Printer) Name(id uint32) string {
	if n, ok := p.names[id]; ok {
		return n
	}
	return strconv.FormatUint(uint64(id), 10)
}

func (p *Printer) saveName(id uint32, suggested string) {
	if _, ok := p.names[id]; ok {
		return
	}
	base := sanitizeName(suggested)
	name := base
	for i := 0; p.used[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	p.used[name] = true
	p.names[id] = name
}

// sanitizeName replaces every byte that is not a letter, digit or '_' by '_'.
func sanitizeName(s string) string {
	if s == "" {
		return "_"
	}
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b[i] = '_'
		}
	}
	return string(b)
}

// builtInNames are the names spirv-dis gives variables decorated BuiltIn.
var builtInNames = map[BuiltIn]string{
	BuiltInPosition:                  "gl_Position",
	BuiltInPointSize:                 "gl_PointSize",
	BuiltInClipDistance:              "gl_ClipDistance",
	BuiltInCullDistance:              "gl_CullDistance",
	BuiltInVertexId:                  "gl_VertexID",
	BuiltInInstanceId:                "gl_InstanceID",
	BuiltInPrimitiveId:               "gl_PrimitiveID",
	BuiltInInvocationId:              "gl_InvocationID",
	BuiltInLayer:                     "gl_Layer",
	BuiltInViewportIndex:             "gl_ViewportIndex",
	BuiltInTessLevelOuter:            "gl_TessLevelOuter",
	BuiltInTessLevelInner:            "gl_TessLevelInner",
	BuiltInTessCoord:                 "gl_TessCoord",
	BuiltInPatchVertices:             "gl_PatchVertices",
	BuiltInFragCoord:                 "gl_FragCoord",
	BuiltInPointCoord:                "gl_PointCoord",
	BuiltInFrontFacing:               "gl_FrontFacing",
	BuiltInSampleId:                  "gl_SampleID",
	BuiltInSamplePosition:            "gl_SamplePosition",
	BuiltInSampleMask:                "gl_SampleMask",
	BuiltInFragDepth:                 "gl_FragDepth",
	BuiltInHelperInvocation:          "gl_HelperInvocation",
	BuiltInNumWorkgroups:             "gl_NumWorkGroups",
	BuiltInWorkgroupSize:             "gl_WorkGroupSize",
	BuiltInWorkgroupId:               "gl_WorkGroupID",
	BuiltInLocalInvocationId:         "gl_LocalInvocationID",
	BuiltInGlobalInvocationId:        "gl_GlobalInvocationID",
	BuiltInLocalInvocationIndex:      "gl_LocalInvocationIndex",
	BuiltInWorkDim:                   "WorkDim",
	BuiltInGlobalSize:                "GlobalSize",
	BuiltInEnqueuedWorkgroupSize:     "EnqueuedWorkgroupSize",
	BuiltInGlobalOffset:              "GlobalOffset",
	BuiltInGlobalLinearId:            "GlobalLinearId",
	BuiltInSubgroupSize:              "SubgroupSize",
	BuiltInSubgroupMaxSize:           "SubgroupMaxSize",
	BuiltInNumSubgroups:              "NumSubgroups",
	BuiltInNumEnqueuedSubgroups:      "NumEnqueuedSubgroups",
	BuiltInSubgroupId:                "SubgroupId",
	BuiltInSubgroupLocalInvocationId: "SubgroupLocalInvocationId",
	BuiltInVertexIndex:               "gl_VertexIndex",
	BuiltInInstanceIndex:             "gl_InstanceIndex",
	BuiltInSubgroupEqMaskKHR:         "SubgroupEqMaskKHR",
	BuiltInSubgroupGeMaskKHR:         "SubgroupGeMaskKHR",
	BuiltInSubgroupGtMaskKHR:         "SubgroupGtMaskKHR",
	BuiltInSubgroupLeMaskKHR:         "SubgroupLeMaskKHR",
	BuiltInSubgroupLtMaskKHR:         "SubgroupLtMaskKHR",
}

// learn records what one instruction tells about the module's ids: types,
// extended instruction sets and names.
func (p *Printer) learn(w []uint32) {
	op := Opcode(w[0] & 0xffff)
	info, ok := LookupOp(op)
	if !ok {
		return
	}
	var typeID, resultID uint32
	i := 1
	if info.HasType && len(w) > i {
		typeID = w[i]
		i++
	}
	if info.HasResult && len(w) > i {
		resultID = w[i]
	}
	if resultID != 0 && typeID != 0 {
		p.typeOf[resultID] = typeID
	}
	switch op {
	case OpName:
		if len(w) > 1 {
			p.saveName(w[1], wordString(w, 2))
		}
	case OpDecorate:
		if len(w) > 3 && Decoration(w[2]) == DecorationBuiltIn {
			if n, ok := builtInNames[BuiltIn(w[3])]; ok {
				p.saveName(w[1], n)
			}
		}
	case OpExtInstImport:
		p.sets[resultID] = LookupExtInstSet(wordString(w, 2))
		p.defaultName(resultID)
	case OpConstant:
		if len(w) > 3 {
			if s, ok := p.number(w[3:], typeID); ok {
				p.saveName(resultID, p.Name(typeID)+"_"+strings.ReplaceAll(s, "-", "n"))
				break
			}
		}
		p.defaultName(resultID)
	case OpTypeInt, OpTypeFloat:
		p.saveName(resultID, p.numericTypeName(op, resultID, word(w, 2), word(w, 3)))
	default:
		if name, ok := p.typeName(op, resultID, w); ok {
			p.saveName(resultID, name)
		} else {
			p.defaultName(resultID)
		}
	}
}

// word returns w[k], or 0 when w is shorter.
func word(w []uint32, k int) uint32 {
	if k < len(w) {
		return w[k]
	}
	return 0
}

// wordString decodes the literal string starting at w[k], or "".
func wordString(w []uint32, k int) string {
	if k < len(w) {
		s, _ := DecodeString(w[k:])
		return s
	}
	return ""
}

// numericTypeName records an OpTypeInt or OpTypeFloat of the given width
// (and signedness) and returns the name spirv-dis gives it: uint, int,
// float, half, ulong...
func (p *Printer) numericTypeName(op Opcode, id, width, signed uint32) string {
	if op == OpTypeFloat {
		p.numTypes[id] = numType{float: true, width: width}
		switch width {
		case 16:
			return "half"
		case 32:
			return "float"
		case 64:
			return "double"
		}
		return "fp" + strconv.FormatUint(uint64(width), 10)
	}
	p.numTypes[id] = numType{signed: signed != 0, width: width}
	var root, sign string
	switch width {
	case 8:
		root = "char"
	case 16:
		root = "short"
	case 32:
		root = "int"
	case 64:
		root = "long"
	default:
		root = strconv.FormatUint(uint64(width), 10)
		sign = "i"
	}
	if signed == 0 {
		sign = "u"
	}
	return sign + root
}

// typeName returns the name spirv-dis gives the result of a type
// declaration or boolean constant (w), or false for other instructions.
func (p *Printer) typeName(op Opcode, id uint32, w []uint32) (string, bool) {
	arg := func(k int) uint32 { return word(w, k) }
	switch op {
	case OpTypeVector:
		return "v" + strconv.FormatUint(uint64(arg(3)), 10) + p.Name(arg(2)), true
	case OpTypeMatrix:
		return "mat" + strconv.FormatUint(uint64(arg(3)), 10) + p.Name(arg(2)), true
	case OpTypeArray:
		return "_arr_" + p.Name(arg(2)) + "_" + p.Name(arg(3)), true
	case OpTypeRuntimeArray:
		return "_runtimearr_" + p.Name(arg(2)), true
	case OpTypePointer:
		sc, ok := KindStorageClass.EnumerantName(arg(2))
		if !ok {
			sc = "StorageClass" + strconv.FormatUint(uint64(arg(2)), 10)
		}
		return "_ptr_" + sc + "_" + p.Name(arg(3)), true
	case OpTypePipe:
		aq, ok := KindAccessQualifier.EnumerantName(arg(2))
		if !ok {
			aq = "StorageClass" + strconv.FormatUint(uint64(arg(2)), 10)
		}
		return "Pipe" + aq, true
	case OpTypeOpaque:
		return "Opaque_" + sanitizeName(wordString(w, 2)), true
	case OpTypeStruct:
		return "_struct_" + strconv.FormatUint(uint64(id), 10), true
	}
	name, ok := fixedNames[op]
	return name, ok
}

// fixedNames are the names of results whose name does not depend on
// their operands.
var fixedNames = map[Opcode]string{
	OpTypeVoid: "void", OpTypeBool: "bool", OpTypeEvent: "Event", OpTypeDeviceEvent: "DeviceEvent",
	OpTypeReserveId: "ReserveId", OpTypeQueue: "Queue", OpTypePipeStorage: "PipeStorage",
	OpTypeNamedBarrier: "NamedBarrier", OpConstantTrue: "true", OpConstantFalse: "false",
}

// defaultName reserves an unnamed result id's number as its name, so that an
// OpName "12" later gets a suffix.
func (p *Printer) defaultName(id uint32) {
	if id == 0 {
		return
	}
	if _, ok := p.names[id]; !ok {
		p.saveName(id, strconv.FormatUint(uint64(id), 10))
	}
}

// number formats a literal number of the given type as spirv-dis does; ok is
// false when the type is not a number type the words fit.
func (p *Printer) number(words []uint32, typeID uint32) (string, bool) {
	t, ok := p.numTypes[typeID]
	if !ok {
		return "", false
	}
	switch {
	case len(words) == 1 && t.float && t.width == 16:
		return formatFloatBits(uint64(words[0]&0xffff), 5, 10), true
	case len(words) == 1 && t.float:
		f := math.Float32frombits(words[0])
		if f == 0 || isNormal(float64(f), false) {
			return strconv.FormatFloat(float64(f), 'g', 9, 64), true
		}
		return formatFloatBits(uint64(words[0]), 8, 23), true
	case len(words) == 1 && t.signed:
		return strconv.FormatInt(int64(int32(words[0])), 10), true
	case len(words) == 1:
		return strconv.FormatUint(uint64(words[0]), 10), true
	case len(words) == 2:
		bits := uint64(words[0]) | uint64(words[1])<<32
		switch {
		case t.float:
			f := math.Float64frombits(bits)
			if f == 0 || isNormal(f, true) {
				return strconv.FormatFloat(f, 'g', 17, 64), true
			}
			return formatFloatBits(bits, 11, 52), true
		case t.signed:
			return strconv.FormatInt(int64(bits), 10), true
		default:
			return strconv.FormatUint(bits, 10), true
		}
	}
	return "", false
}

func isNormal(f float64, double bool) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	a := math.Abs(f)
	if double {
		return a >= 0x1p-1022
	}
	return a >= 0x1p-126
}

// formatFloatBits writes a binary float as SPIRV-Tools' HexFloat does
// (0x1.8p+128, -0x1p-149): the sign, the leading digit, the fraction in hex
// without trailing zeros, and the unbiased exponent, with denormals
// normalized.
func formatFloatBits(bits uint64, expBits, fracBits uint) string {
	sign := ""
	if bits>>(expBits+fracBits)&1 != 0 {
		sign = "-"
	}
	exponent := bits >> fracBits & (1<<expBits - 1)
	nibbles := (fracBits + 3) / 4
	overflow := nibbles*4 - fracBits
	fraction := (bits & (1<<fracBits - 1)) << overflow
	isZero := exponent == 0 && fraction == 0
	isDenorm := exponent == 0 && !isZero
	bias := int64(1)<<(expBits-1) - 1
	e := int64(exponent) - bias
	if isZero {
		e = 0
	}
	if isDenorm {
		top := uint64(1) << (nibbles*4 - 1)
		for fraction&top == 0 {
			fraction <<= 1
			e--
		}
		fraction <<= 1
		fraction &= 1<<(nibbles*4) - 1
	}
	for nibbles > 0 && fraction&0xf == 0 {
		fraction >>= 4
		nibbles--
	}
	var sb strings.Builder
	sb.WriteString(sign)
	sb.WriteString("0x")
	if isZero {
		sb.WriteByte('0')
	} else {
		sb.WriteByte('1')
	}
	if nibbles > 0 {
		h := strconv.FormatUint(fraction, 16)
		sb.WriteByte('.')
		sb.WriteString(strings.Repeat("0", int(nibbles)-len(h)))
		sb.WriteString(h)
	}
	sb.WriteByte('p')
	if e >= 0 {
		sb.WriteByte('+')
	}
	sb.WriteString(strconv.FormatInt(e, 10))
	return sb.String()
}

// disasmOpName returns the name spirv-dis gives an opcode: of aliases, the
// alphabetically first (OpReportIntersectionKHR, not the grammar's first
// OpReportIntersectionNV).
func disasmOpName(info *OpInfo) string {
	if n, ok := disasmOpNames[info.Opcode]; ok {
		return n
	}
	return info.Name
}

// generatorName names a generator word's tool as spirv-dis does.
func generatorName(generator uint32) string {
	if n, ok := generatorNames[generator>>16]; ok {
		return n
	}
	return "Unknown(" + strconv.FormatUint(uint64(generator>>16), 10) + ")"
}

// AppendHeader appends the header comment spirv-dis prints.
func (p *Printer) AppendHeader(dst []byte) []byte {
	h := p.header
	major, minor := h.VersionMajorMinor()
	dst = append(dst, "; SPIR-V\n; Version: "...)
	dst = strconv.AppendInt(dst, int64(major), 10)
	dst = append(dst, '.')
	dst = strconv.AppendInt(dst, int64(minor), 10)
	dst = append(dst, "\n; Generator: "...)
	dst = append(dst, generatorName(h.Generator)...)
	dst = append(dst, "; "...)
	dst = strconv.AppendUint(dst, uint64(h.Generator&0xffff), 10)
	dst = append(dst, "\n; Bound: "...)
	dst = strconv.AppendUint(dst, uint64(h.Bound), 10)
	dst = append(dst, "\n; Schema: "...)
	dst = strconv.AppendUint(dst, uint64(h.Schema), 10)
	dst = append(dst, '\n')
	return dst
}

// indent is the column (0-based) where spirv-dis starts opcodes.
const indent = 15

// AppendInstruction appends one instruction, printed with the module's
// names, without a trailing newline. With align, the result id is
// right-aligned (or the line indented) as spirv-dis does so that opcodes
// line up in column 16; without, the line starts with the result id or the
// opcode. It returns the walker's error for an instruction it cannot fully
// interpret, having printed it anyway.
func (p *Printer) AppendInstruction(dst []byte, words []uint32, align bool) ([]byte, error) {
	if len(words) == 0 {
		return dst, fmt.Errorf("%w: no words", ErrMalformed)
	}
	ops, err := AppendOperands(p.ops[:0], words, p)
	p.ops = ops[:0]
	op := Opcode(words[0] & 0xffff)
	info, known := LookupOp(op)
	result := -1
	for i := range ops {
		if ops[i].Kind == KindIdResult {
			result = i
			break
		}
	}
	if result >= 0 {
		name := p.Name(words[ops[result].Start])
		if align {
			for n := indent - 3 - len(name) - 1; n > 0; n-- {
				dst = append(dst, ' ')
			}
		}
		dst = append(dst, '%')
		dst = append(dst, name...)
		dst = append(dst, " = "...)
	} else if align {
		dst = append(dst, "               "...)
	}
	if known {
		dst = append(dst, disasmOpName(info)...)
	} else {
		dst = append(dst, "OpUnknown("...)
		dst = strconv.AppendUint(dst, uint64(op), 10)
		dst = append(dst, ')')
	}
	for i := range ops {
		if i == result {
			continue
		}
		dst = append(dst, ' ')
		dst = p.appendOperand(dst, words, &ops[i])
	}
	return dst, err
}

func (p *Printer) appendOperand(dst []byte, words []uint32, o *Operand) []byte {
	w := words[o.Start : o.Start+o.Len]
	switch o.Kind {
	case KindIdRef, KindIdResultType, KindIdResult, KindIdScope, KindIdMemorySemantics:
		dst = append(dst, '%')
		return append(dst, p.Name(w[0])...)
	case KindLiteralString:
		s, _ := DecodeString(w)
		dst = append(dst, '"')
		for i := 0; i < len(s); i++ {
			if s[i] == '"' || s[i] == '\\' {
				dst = append(dst, '\\')
			}
			dst = append(dst, s[i])
		}
		return append(dst, '"')
	case KindLiteralExtInstInteger:
		if set := p.sets[words[o.Start-1]]; set != nil {
			if inst, ok := set.Lookup(w[0]); ok {
				return append(dst, inst.Name...)
			}
		}
		return strconv.AppendUint(dst, uint64(w[0]), 10)
	case KindLiteralSpecConstantOpInteger:
		if info, ok := LookupOp(Opcode(w[0])); ok {
			return append(dst, disasmOpName(info)[2:]...)
		}
		return strconv.AppendUint(dst, uint64(w[0]), 10)
	case KindLiteralContextDependentNumber:
		var typeID uint32
		if op := Opcode(words[0] & 0xffff); op == OpSwitch {
			typeID = p.typeOf[words[1]]
		} else {
			typeID = words[1]
		}
		if s, ok := p.number(w, typeID); ok {
			return append(dst, s...)
		}
		return appendWords(dst, w)
	case KindUnknownWord, KindLiteralInteger:
		return appendWords(dst, w)
	}
	info := LookupKind(o.Kind)
	switch info.Category {
	case CategoryValueEnum:
		if n, ok := o.Kind.EnumerantName(w[0]); ok {
			return append(dst, n...)
		}
	case CategoryBitEnum:
		if w[0] == 0 {
			if n, ok := o.Kind.EnumerantName(0); ok {
				return append(dst, n...)
			}
		}
		return append(dst, o.Kind.MaskName(w[0])...)
	}
	return appendWords(dst, w)
}

// appendWords writes words in decimal: one unsigned 32-bit number, or two
// words as one 64-bit number (low word first), or each word of more.
func appendWords(dst []byte, w []uint32) []byte {
	switch len(w) {
	case 1:
		return strconv.AppendUint(dst, uint64(w[0]), 10)
	case 2:
		return strconv.AppendUint(dst, uint64(w[0])|uint64(w[1])<<32, 10)
	}
	for i, x := range w {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendUint(dst, uint64(x), 10)
	}
	return dst
}

// Instruction prints one instruction (whole, words[0] holding the word
// count and opcode) with the module's names, unaligned and without a
// newline: "%12 = OpLoad %uint %x". The instruction need not be one of the
// module's: ids the module does not name print as numbers.
func (p *Printer) Instruction(words []uint32) string {
	b, _ := p.AppendInstruction(nil, words, false)
	return string(b)
}

// InstructionAt prints the module's instruction number i (0 for the first
// after the header), as Instruction does.
func (p *Printer) InstructionAt(i int) (string, error) {
	if i < 0 || i >= len(p.insts) {
		return "", fmt.Errorf("instruction index %d out of range: the module has %d instructions", i, len(p.insts))
	}
	b, err := p.AppendInstruction(nil, p.insts[i].Words, false)
	return string(b), err
}

// Disassemble prints the whole module as spirv-dis does: the header
// comment, then one aligned line per instruction.
func (p *Printer) Disassemble() (string, error) {
	dst := p.AppendHeader(make([]byte, 0, 64+len(p.insts)*40))
	var errs []error
	for _, in := range p.insts {
		var err error
		dst, err = p.AppendInstruction(dst, in.Words, true)
		if err != nil && len(errs) < 10 {
			errs = append(errs, fmt.Errorf("instruction %d: %w", in.OrigIndex, err))
		}
		dst = append(dst, '\n')
	}
	return string(dst), errors.Join(errs...)
}

// Disassemble prints a module as spirv-dis prints it with its default
// options. The error says which instructions it could not fully interpret
// (they are printed anyway), or that w is not a module.
func Disassemble(w []uint32) (string, error) {
	p, err := NewPrinter(w)
	if err != nil {
		return "", err
	}
	return p.Disassemble()
}

// DisassembleInstruction prints the instruction at index i (0 for the first
// after the header) of a module, with the module's names. To print several
// instructions of one module, build a Printer once instead.
func DisassembleInstruction(module []uint32, i int) (string, error) {
	p, err := NewPrinter(module)
	if err != nil {
		return "", err
	}
	return p.InstructionAt(i)
}
