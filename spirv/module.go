package spirv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Section is one part of a module's logical layout (SPIR-V spec 2.4).
type Section int

// The sections, in layout order.
const (
	SectionCapability Section = iota
	SectionExtension
	SectionExtInstImport
	SectionMemoryModel
	SectionEntryPoint
	SectionExecutionMode
	SectionDebug      // OpString, OpSource*, OpName, OpMemberName, OpModuleProcessed
	SectionAnnotation // decorations
	SectionGlobal     // types, constants, global variables, OpUndef, OpLine...
	SectionFunctions
	numSections
)

// Module is a parsed module. Instructions keep their original index and
// word offset across edits, so a record that names an instruction of the
// original module can still be mapped after instrumentation.
//
// The global sections hold instructions in their original order: an
// instruction found out of layout order stays where it was, so parsing and
// encoding an unmodified module gives back the same words.
type Module struct {
	Header Header
	// Sections before the functions, indexed by Section.
	Sections [SectionFunctions][]*Instruction
	// Functions in module order.
	Functions []*Function
	// Trailing holds instructions after the last function that belong to
	// no function (non-semantic instructions, for instance).
	Trailing []*Instruction

	types *typeIndex     // nil: not built
	defs  []*Instruction // by id; nil: not built
	// defsStale says instructions were added that defs may lack
	// (MarkIndexStale): the next lookup that misses rebuilds it.
	defsStale bool
	// sets remembers the extended instruction sets asked for by id
	// (ExtInstSetName, ExtInstSet: asked at every OpExtInst).
	sets []importedSet
}

// importedSet is an OpExtInstImport's id, name and grammar.
type importedSet struct {
	id   uint32
	name string
	set  *ExtInstSet
}

// Function is an OpFunction ... OpFunctionEnd.
type Function struct {
	// Before holds instructions between the previous function (or the
	// globals) and this OpFunction that the layout does not place in a
	// global section, e.g. OpLine or non-semantic instructions.
	Before []*Instruction
	// Head is OpFunction, its OpFunctionParameters and anything else that
	// precedes the first OpLabel.
	Head   []*Instruction
	Blocks []*Block
	End    *Instruction

	// blocks indexes Blocks by label id (Block), built on first use.
	blocks map[uint32]*Block
}

// Block is a basic block: its OpLabel and the instructions up to and
// including its terminator.
type Block struct {
	Label *Instruction
	Insts []*Instruction
}

// ID returns the function's result id.
func (f *Function) ID() uint32 { return f.Head[0].ResultID() }

// Block returns the block of f labelled id, or nil. It answers from an
// index of Blocks built on first use, and rebuilds it when id is not in it
// (a block added since): blocks may be added to Blocks freely, but one
// removed from it (or relabelled) may still be answered until such a
// rebuild, unless InvalidateBlocks is called.
func (f *Function) Block(id uint32) *Block {
	if b := f.blocks[id]; b != nil && b.ID() == id {
		return b
	}
	f.blocks = make(map[uint32]*Block, len(f.Blocks))
	for _, b := range f.Blocks {
		if _, dup := f.blocks[b.ID()]; !dup {
			f.blocks[b.ID()] = b
		}
	}
	return f.blocks[id]
}

// InvalidateBlocks drops the block index after blocks were removed.
func (f *Function) InvalidateBlocks() { f.blocks = nil }

// ID returns the block's label id.
func (b *Block) ID() uint32 { return b.Label.ResultID() }

// sectionOf returns the layout section an opcode belongs to before the
// functions.
func sectionOf(in *Instruction) Section {
	switch in.Opcode() {
	case OpCapability:
		return SectionCapability
	case OpExtension:
		return SectionExtension
	case OpExtInstImport:
		return SectionExtInstImport
	case OpMemoryModel:
		return SectionMemoryModel
	case OpEntryPoint:
		return SectionEntryPoint
	case OpExecutionMode, OpExecutionModeId:
		return SectionExecutionMode
	case OpString, OpSourceExtension, OpSource, OpSourceContinued, OpName, OpMemberName, OpModuleProcessed:
		return SectionDebug
	case OpDecorate, OpMemberDecorate, OpGroupDecorate, OpGroupMemberDecorate, OpDecorationGroup,
		OpDecorateId, OpDecorateString, OpMemberDecorateString:
		return SectionAnnotation
	}
	return SectionGlobal
}

// Parse reads a module. It fails on input that is not a well-formed stream
// of instructions (bad header, word counts past the end, a function with no
// end) but keeps opcodes it does not know verbatim.
func Parse(words []uint32) (*Module, error) {
	h, insts, err := ParseInstructions(words)
	if err != nil {
		return nil, err
	}
	m := &Module{Header: h}
	cur := SectionCapability
	var fn *Function
	var blk *Block
	var pending []*Instruction // instructions between functions
	// A block's instructions are a run of insts: its list is that run
	// (clipped, so that appending to it copies), not a list grown one
	// instruction at a time.
	start := 0
	// The blocks are made from one array (one allocation, not one per block).
	labels := 0
	for _, in := range insts {
		if in.Opcode() == OpLabel {
			labels++
		}
	}
	pool := make([]Block, labels)
	endBlock := func(i int) {
		if blk != nil && i > start {
			blk.Insts = insts[start:i:i]
		}
	}
	for i, in := range insts {
		op := in.Opcode()
		if fn != nil {
			switch op {
			case OpFunctionEnd:
				endBlock(i)
				fn.End = in
				m.Functions = append(m.Functions, fn)
				fn, blk = nil, nil
			case OpLabel:
				endBlock(i)
				blk, pool = &pool[0], pool[1:]
				blk.Label = in
				start = i + 1
				fn.Blocks = append(fn.Blocks, blk)
			case OpFunction:
				return nil, fmt.Errorf("parse: instruction %d: OpFunction inside a function that has no OpFunctionEnd", in.OrigIndex)
			default:
				if blk == nil {
					fn.Head = append(fn.Head, in)
				}
			}
			continue
		}
		if op == OpFunction {
			fn = &Function{Before: pending, Head: []*Instruction{in}}
			pending = nil
			cur = SectionFunctions
			continue
		}
		if op == OpFunctionEnd || op == OpLabel {
			return nil, fmt.Errorf("parse: instruction %d: %v outside a function", in.OrigIndex, op)
		}
		if cur == SectionFunctions {
			pending = append(pending, in)
			continue
		}
		if s := sectionOf(in); s > cur {
			cur = s
		}
		m.Sections[cur] = append(m.Sections[cur], in)
	}
	if fn != nil {
		return nil, fmt.Errorf("parse: function %%%d has no OpFunctionEnd", fn.ID())
	}
	m.Trailing = pending
	if err := checkIDs(h, insts); err != nil {
		return nil, err
	}
	if err := m.checkOperandIDs(insts); err != nil {
		return nil, err
	}
	return m, nil
}

// MaxIDBound is SPIR-V's universal limit on a module's id bound (the
// specification's "Universal Limits"): every id is below it.
const MaxIDBound = 4194303

// ErrIDBound: a module's id bound is past MaxIDBound, or an id is at or
// past the module's bound, or allocating ids ran past MaxIDBound.
var ErrIDBound = errors.New("id bound")

// checkIDs refuses a module whose bound is past the universal limit or
// does not bound its result ids: new ids allocated past such a bound
// would collide with ids in use (or wrap around).
func checkIDs(h Header, insts []*Instruction) error {
	if h.Bound > MaxIDBound {
		return fmt.Errorf("parse: %w %d is past SPIR-V's limit of %d", ErrIDBound, h.Bound, MaxIDBound)
	}
	for _, in := range insts {
		if r := in.ResultID(); r != 0 && r >= h.Bound {
			return fmt.Errorf("parse: instruction %d defines %%%d, at or past the module's %w %d", in.OrigIndex, r,
				ErrIDBound, h.Bound)
		}
	}
	return nil
}

// checkOperandIDs refuses a module that uses an id at or past its bound
// (every id the grammar finds in an instruction: result types, operands,
// the ids among enumerant parameters and extended instructions' operands):
// the analyses index tables by id, made as large as the bound, so an id
// past it would be an index past them, or a table grown to it (4 bytes per
// id unit: gigabytes for an id near 2^32).
func (m *Module) checkOperandIDs(insts []*Instruction) error {
	bound := m.Header.Bound
	var cur *Instruction
	bad := -1
	check := func(i int) {
		if bad < 0 && cur.Words[i] >= bound {
			bad = i
		}
	}
	ctx := parseContext{m: m}
	for _, in := range insts {
		cur = in
		switch in.Opcode() {
		case OpName, OpMemberName, OpDecorate, OpMemberDecorate, OpDecorateString, OpMemberDecorateString:
			// The debug and annotation sections' bulk: one id, then
			// literals (a decoration that takes ids is an OpDecorateId).
			if len(in.Words) > 1 {
				check(1)
			}
		case OpExtInst:
			// Debug info's bulk: every operand of a non-semantic
			// instruction is an id (as ForEachID finds).
			if len(in.Words) >= 5 {
				if set := ctx.ExtInstSet(in.Words[3]); set != nil && set.NonSemantic {
					for i := 1; i < len(in.Words); i++ {
						if i != 4 {
							check(i)
						}
					}
					break
				}
			}
			_ = ForEachID(in.Words, &ctx, check)
		case OpString, OpSourceContinued, OpSourceExtension, OpModuleProcessed, OpLine, OpNoLine:
			// No id but a result (checkIDs); OpLine's file is checked
			// below as any id (ForEachID's fixed layout).
			if in.Opcode() == OpLine {
				_ = ForEachID(in.Words, nil, check)
			}
		default:
			_ = ForEachID(in.Words, &ctx, check)
		}
		if bad >= 0 {
			return fmt.Errorf("parse: instruction %d (%v) uses %%%d, at or past the module's %w %d", in.OrigIndex, in.Opcode(),
				in.Words[bad], ErrIDBound, bound)
		}
	}
	return nil
}

// parseContext is the OperandContext of Parse's id check: the extended
// instruction sets from the imports' section, without the index of every
// definition (built only for an OpSwitch's selector, or an import out of
// its section).
type parseContext struct {
	m    *Module
	sets []importedSet // the imports' section, read on first need
	read bool
}

func (c *parseContext) LiteralWidth(id uint32) int { return c.m.LiteralWidth(id) }

func (c *parseContext) ExtInstSet(id uint32) *ExtInstSet {
	if !c.read {
		c.read = true
		for _, in := range c.m.Sections[SectionExtInstImport] {
			if in.Opcode() == OpExtInstImport && len(in.Words) > 2 {
				name, _ := DecodeString(in.Words[2:])
				c.sets = append(c.sets, importedSet{id: in.Words[1], name: name, set: LookupExtInstSet(name)})
			}
		}
	}
	for i := range c.sets {
		if c.sets[i].id == id {
			return c.sets[i].set
		}
	}
	return c.m.ExtInstSet(id)
}

// Instructions returns every instruction in module order.
func (m *Module) Instructions() []*Instruction {
	var out []*Instruction
	m.Walk(func(in *Instruction) { out = append(out, in) })
	return out
}

// Walk calls fn for every instruction in module order.
func (m *Module) Walk(fn func(*Instruction)) {
	for _, s := range m.Sections {
		for _, in := range s {
			fn(in)
		}
	}
	for _, f := range m.Functions {
		for _, in := range f.Before {
			fn(in)
		}
		for _, in := range f.Head {
			fn(in)
		}
		for _, b := range f.Blocks {
			fn(b.Label)
			for _, in := range b.Insts {
				fn(in)
			}
		}
		fn(f.End)
	}
	for _, in := range m.Trailing {
		fn(in)
	}
}

// Encode writes the module back to words.
func (m *Module) Encode() []uint32 {
	n := HeaderWords
	m.Walk(func(in *Instruction) { n += len(in.Words) })
	w := make([]uint32, n)
	h := m.Header
	copy(w, []uint32{h.Magic, h.Version, h.Generator, h.Bound, h.Schema})
	at := HeaderWords
	m.Walk(func(in *Instruction) { at += copy(w[at:], in.Words) })
	return w
}

// Version returns the module's SPIR-V version as major, minor.
func (m *Module) Version() (int, int) { return m.Header.VersionMajorMinor() }

// VersionAtLeast reports whether the module's version is at least
// major.minor.
func (m *Module) VersionAtLeast(major, minor int) bool {
	a, b := m.Version()
	return a > major || (a == major && b >= minor)
}

// NewID allocates a fresh id past the bound. It panics (with an error
// wrapping ErrIDBound) past MaxIDBound rather than wrap around onto ids in
// use: instrumentation turns the panic into an error.
func (m *Module) NewID() uint32 {
	if m.Header.Bound >= MaxIDBound {
		panic(fmt.Errorf("spirv: %w exhausted: the module would need more than %d ids", ErrIDBound, MaxIDBound))
	}
	id := m.Header.Bound
	m.Header.Bound++
	return id
}

// Def returns the instruction that defines id (globals, function-local
// results, labels, functions), or nil.
func (m *Module) Def(id uint32) *Instruction {
	if m.defs == nil {
		m.buildDefs()
	}
	var d *Instruction
	if int(id) < len(m.defs) {
		d = m.defs[id]
	}
	if d == nil && m.defsStale {
		m.buildDefs()
		if int(id) < len(m.defs) {
			d = m.defs[id]
		}
	}
	return d
}

// buildDefs indexes every definition of the module, by id: ids are dense
// below the bound, so a slice, not a map.
func (m *Module) buildDefs() {
	if n := int(m.Header.Bound); cap(m.defs) >= n {
		// A rebuild (MarkIndexStale) reuses the index's array.
		m.defs = m.defs[:n]
		clear(m.defs)
	} else {
		// Room for the ids instrumentation adds.
		m.defs = make([]*Instruction, n, n+n/2+16)
	}
	m.defsStale = false
	m.Walk(m.setDef)
}

// setDef indexes in's result, growing the index past the bound when an id
// lies there (a module that breaks its bound is refused by Parse, but the
// index must not be what panics on one).
func (m *Module) setDef(in *Instruction) {
	r := in.ResultID()
	if r == 0 {
		return
	}
	if int(r) >= len(m.defs) {
		if int(r) >= cap(m.defs) {
			// Doubled: instrumentation adds ids one at a time.
			grown := make([]*Instruction, len(m.defs), 2*int(r)+16)
			copy(grown, m.defs)
			m.defs = grown
		}
		// The index only ever grows: past its length it holds nils.
		m.defs = m.defs[:r+1]
	}
	m.defs[r] = in
}

// noteDef records a definition added after the index was built.
func (m *Module) noteDef(in *Instruction) {
	if m.defs != nil {
		m.setDef(in)
	}
}

// InvalidateIndex drops cached indexes after edits this package did not
// make (a pass that rewrites instructions in place).
func (m *Module) InvalidateIndex() {
	m.defs = nil
	m.sets = nil
	m.defsStale = false
	m.types = nil
}

// MarkIndexStale says instructions were added to functions without
// AddGlobal (which keeps the index whole): Def answers from the index it
// has while the id is in it, and rebuilds the index once, the first time
// an id is not. Cheaper than InvalidateIndex when later lookups are mostly
// of ids that were already there; an id given a new definition keeps its
// old one until such a rebuild.
func (m *Module) MarkIndexStale() {
	m.defsStale = true
}

// AddGlobal appends an instruction to the global section (types, constants,
// variables) and returns it.
func (m *Module) AddGlobal(in *Instruction) *Instruction {
	m.Sections[SectionGlobal] = append(m.Sections[SectionGlobal], in)
	m.noteDef(in)
	if k, ok := typeKey(in); ok && m.types != nil {
		m.types.add(k, in.ResultID())
	}
	return in
}

// AddAnnotation appends a decoration instruction.
func (m *Module) AddAnnotation(in *Instruction) {
	m.Sections[SectionAnnotation] = append(m.Sections[SectionAnnotation], in)
}

// AddDebug adds an OpName or OpMemberName to the debug section, before any
// OpModuleProcessed (the layout puts names first).
func (m *Module) AddDebug(in *Instruction) {
	d := m.Sections[SectionDebug]
	i := len(d)
	for i > 0 && d[i-1].Opcode() == OpModuleProcessed {
		i--
	}
	m.Sections[SectionDebug] = append(d[:i], append([]*Instruction{in}, d[i:]...)...)
}

// HasCapability reports whether the module declares a capability.
func (m *Module) HasCapability(c Capability) bool {
	for _, in := range m.Sections[SectionCapability] {
		if in.Opcode() == OpCapability && len(in.Words) > 1 && in.Words[1] == uint32(c) {
			return true
		}
	}
	return false
}

// AddCapability declares a capability unless already declared.
func (m *Module) AddCapability(c Capability) {
	if !m.HasCapability(c) {
		m.Sections[SectionCapability] = append(m.Sections[SectionCapability], NewInstruction(OpCapability, uint32(c)))
	}
}

// HasExtension reports whether the module declares an extension.
func (m *Module) HasExtension(name string) bool {
	for _, in := range m.Sections[SectionExtension] {
		if in.Opcode() == OpExtension {
			if s, _ := DecodeString(in.Words[1:]); s == name {
				return true
			}
		}
	}
	return false
}

// AddExtension declares an extension unless already declared.
func (m *Module) AddExtension(name string) {
	if !m.HasExtension(name) {
		m.Sections[SectionExtension] = append(m.Sections[SectionExtension], NewInstruction(OpExtension, EncodeString(name)...))
	}
}

// FindExtInstImport returns the id of the extended instruction set
// imported as name, and whether the module imports it.
func (m *Module) FindExtInstImport(name string) (uint32, bool) {
	for _, in := range m.Sections[SectionExtInstImport] {
		if in.Opcode() == OpExtInstImport {
			if s, _ := DecodeString(in.Words[2:]); s == name {
				return in.Words[1], true
			}
		}
	}
	return 0, false
}

// ExtInstImport returns the id of an imported extended instruction set,
// importing it when absent.
func (m *Module) ExtInstImport(name string) uint32 {
	if id, ok := m.FindExtInstImport(name); ok {
		return id
	}
	id := m.NewID()
	in := NewInstruction(OpExtInstImport, append([]uint32{id}, EncodeString(name)...)...)
	m.Sections[SectionExtInstImport] = append(m.Sections[SectionExtInstImport], in)
	m.noteDef(in)
	return id
}

// ExtInstSetName returns the name of the extended instruction set imported
// as id, or "".
func (m *Module) ExtInstSetName(id uint32) string {
	if s := m.importedSet(id); s != nil {
		return s.name
	}
	return ""
}

// importedSet returns the extended instruction set imported as id, or
// nil. An import is read once: its id never names anything else.
func (m *Module) importedSet(id uint32) *importedSet {
	for i := range m.sets {
		if m.sets[i].id == id {
			return &m.sets[i]
		}
	}
	in := m.Def(id)
	if in == nil || in.Opcode() != OpExtInstImport {
		return nil
	}
	name, _ := DecodeString(in.Words[2:])
	m.sets = append(m.sets, importedSet{id: id, name: name, set: LookupExtInstSet(name)})
	return &m.sets[len(m.sets)-1]
}

// Name returns the OpName of id, or "".
func (m *Module) Name(id uint32) string {
	for _, in := range m.Sections[SectionDebug] {
		if in.Opcode() == OpName && len(in.Words) > 2 && in.Words[1] == id {
			s, _ := DecodeString(in.Words[2:])
			return s
		}
	}
	return ""
}

// Decorations returns the OpDecorate/OpDecorateId/OpDecorateString
// instructions that target id.
func (m *Module) Decorations(id uint32) []*Instruction {
	var out []*Instruction
	for _, in := range m.Sections[SectionAnnotation] {
		switch in.Opcode() {
		case OpDecorate, OpDecorateId, OpDecorateString:
			if len(in.Words) > 2 && in.Words[1] == id {
				out = append(out, in)
			}
		}
	}
	return out
}

// Decoration returns the literal operands of the first decoration d on id.
func (m *Module) Decoration(id uint32, d Decoration) ([]uint32, bool) {
	for _, in := range m.Sections[SectionAnnotation] {
		switch in.Opcode() {
		case OpDecorate, OpDecorateId, OpDecorateString:
			if len(in.Words) > 2 && in.Words[1] == id && in.Words[2] == uint32(d) {
				return in.Words[3:], true
			}
		}
	}
	return nil, false
}

// EntryPoint is a parsed OpEntryPoint.
type EntryPoint struct {
	Inst      *Instruction
	Model     ExecutionModel
	Function  uint32
	Name      string
	Interface []uint32
}

// EntryPoints returns the module's entry points.
func (m *Module) EntryPoints() []EntryPoint {
	var out []EntryPoint
	for _, in := range m.Sections[SectionEntryPoint] {
		if in.Opcode() != OpEntryPoint || len(in.Words) < 4 {
			continue
		}
		name, n := DecodeString(in.Words[3:])
		out = append(out, EntryPoint{
			Inst: in, Model: ExecutionModel(in.Words[1]), Function: in.Words[2],
			Name: name, Interface: append([]uint32(nil), in.Words[3+n:]...),
		})
	}
	return out
}

// AddToInterface adds a global variable to an entry point's interface list
// unless it is already there.
func (m *Module) AddToInterface(ep *Instruction, varID uint32) {
	_, n := DecodeString(ep.Words[3:])
	for _, id := range ep.Words[3+n:] {
		if id == varID {
			return
		}
	}
	ep.Words = append(ep.Words, varID)
	ep.Words[0] = uint32(len(ep.Words))<<16 | uint32(OpEntryPoint)
}

// Function returns the function with the given id, or nil.
func (m *Module) Function(id uint32) *Function {
	for _, f := range m.Functions {
		if f.ID() == id {
			return f
		}
	}
	return nil
}

// typeKey returns the de-duplication key of a type or constant instruction
// that must be unique in a module (non-aggregate types, function types,
// pointers and scalar constants), or false for anything else.
func typeKey(in *Instruction) (typeKeyT, bool) {
	switch in.Opcode() {
	case OpTypeVoid, OpTypeBool, OpTypeInt, OpTypeFloat, OpTypeVector, OpTypeMatrix,
		OpTypePointer, OpTypeFunction, OpTypeSampler:
		// operands after the result id
		return keyWords(in.Opcode(), 0, in.Words[2:]), true
	case OpConstant, OpConstantTrue, OpConstantFalse, OpConstantNull, OpConstantComposite:
		// result type, then the values
		return keyWords(in.Opcode(), in.Words[1], in.Words[3:]), true
	}
	return typeKeyT{}, false
}

// typeKeyT is a de-duplication key: an opcode, a result type and the
// operand words, held in the key itself when there are at most four (a
// key of plain words, made without allocating), or else packed into long.
type typeKeyT struct {
	short shortKey
	long  string
}

// shortKey is a key of at most four operand words (n of them).
type shortKey struct {
	op  Opcode
	n   uint16
	typ uint32
	w   [4]uint32
}

// keyWords makes the key of an opcode, a result type and operand words.
func keyWords(op Opcode, typ uint32, w []uint32) typeKeyT {
	if len(w) <= 4 {
		k := shortKey{op: op, n: uint16(len(w)), typ: typ}
		copy(k.w[:], w)
		return typeKeyT{short: k}
	}
	b := make([]byte, 0, 8+4*len(w))
	b = binary.LittleEndian.AppendUint32(b, uint32(op))
	b = binary.LittleEndian.AppendUint32(b, typ)
	for _, x := range w {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return typeKeyT{long: string(b)}
}

// typeIndex is the de-duplication index of types and constants: short
// keys in a map of plain words, long ones by string.
type typeIndex struct {
	short map[shortKey]uint32
	long  map[string]uint32
	// u32 and constU32 remember TypeUint32 and ConstantUint32, asked for
	// at nearly every check: findOrAdd's answers, without its key.
	u32      uint32
	constU32 map[uint32]uint32
}

// get returns the id indexed under k.
func (x *typeIndex) get(k typeKeyT) (uint32, bool) {
	if k.long != "" {
		id, ok := x.long[k.long]
		return id, ok
	}
	id, ok := x.short[k.short]
	return id, ok
}

// add indexes id under k unless k is indexed already.
func (x *typeIndex) add(k typeKeyT, id uint32) {
	if _, dup := x.get(k); dup {
		return
	}
	if k.long != "" {
		x.long[k.long] = id
	} else {
		x.short[k.short] = id
	}
}

// findOrAdd returns the id of an existing type or constant with the same
// opcode and operands, or adds one. operands exclude the result id; for
// constants the first operand is the result type.
func (m *Module) findOrAdd(op Opcode, hasType bool, operands ...uint32) uint32 {
	if m.types == nil {
		n := len(m.Sections[SectionGlobal])
		m.types = &typeIndex{short: make(map[shortKey]uint32, n), long: map[string]uint32{}, constU32: map[uint32]uint32{}}
		for _, in := range m.Sections[SectionGlobal] {
			if k, ok := typeKey(in); ok {
				m.types.add(k, in.ResultID())
			}
		}
	}
	var k typeKeyT
	if hasType {
		k = keyWords(op, operands[0], operands[1:])
	} else {
		k = keyWords(op, 0, operands)
	}
	if id, ok := m.types.get(k); ok {
		return id
	}
	id := m.NewID()
	var in *Instruction
	if hasType {
		in = NewResultInstruction(op, operands[0], id, operands[1:]...)
	} else {
		in = newInstruction(op, 2+len(operands))
		in.Words[1] = id
		copy(in.Words[2:], operands)
	}
	m.AddGlobal(in)
	return id
}

// TypeVoid returns the id of OpTypeVoid, adding it if needed.
func (m *Module) TypeVoid() uint32 { return m.findOrAdd(OpTypeVoid, false) }

// TypeBool returns the id of OpTypeBool.
func (m *Module) TypeBool() uint32 { return m.findOrAdd(OpTypeBool, false) }

// TypeInt returns the id of an integer type.
func (m *Module) TypeInt(width uint32, signed bool) uint32 {
	s := uint32(0)
	if signed {
		s = 1
	}
	return m.findOrAdd(OpTypeInt, false, width, s)
}

// TypeUint32 returns the id of the 32-bit unsigned integer type.
func (m *Module) TypeUint32() uint32 {
	if m.types != nil && m.types.u32 != 0 {
		return m.types.u32
	}
	id := m.TypeInt(32, false)
	m.types.u32 = id // findOrAdd built the index
	return id
}

// TypeFloat returns the id of a float type.
func (m *Module) TypeFloat(width uint32) uint32 { return m.findOrAdd(OpTypeFloat, false, width) }

// TypeVector returns the id of a vector type.
func (m *Module) TypeVector(component, count uint32) uint32 {
	return m.findOrAdd(OpTypeVector, false, component, count)
}

// TypePointer returns the id of a pointer type.
func (m *Module) TypePointer(sc StorageClass, pointee uint32) uint32 {
	return m.findOrAdd(OpTypePointer, false, uint32(sc), pointee)
}

// TypeFunction returns the id of a function type.
func (m *Module) TypeFunction(ret uint32, params ...uint32) uint32 {
	return m.findOrAdd(OpTypeFunction, false, append([]uint32{ret}, params...)...)
}

// ConstantUint32 returns the id of a 32-bit unsigned integer constant.
func (m *Module) ConstantUint32(v uint32) uint32 {
	if m.types != nil {
		if id, ok := m.types.constU32[v]; ok {
			return id
		}
	}
	id := m.findOrAdd(OpConstant, true, m.TypeUint32(), v)
	m.types.constU32[v] = id
	return id
}

// ConstantOf returns the id of a 32-bit (or narrower) scalar constant of
// type typ (any OpTypeInt or OpTypeFloat) with bit pattern v, adding it if
// needed.
func (m *Module) ConstantOf(typ, v uint32) uint32 { return m.findOrAdd(OpConstant, true, typ, v) }

// ConstantTrue returns the id of the boolean constant true.
func (m *Module) ConstantTrue() uint32 { return m.findOrAdd(OpConstantTrue, true, m.TypeBool()) }

// ConstantNull returns the id of OpConstantNull of a type.
func (m *Module) ConstantNull(typ uint32) uint32 { return m.findOrAdd(OpConstantNull, true, typ) }

// ConstantValue returns the value of a 32-bit (or narrower) integer
// OpConstant, and whether id is one.
func (m *Module) ConstantValue(id uint32) (uint32, bool) {
	in := m.Def(id)
	if in == nil || in.Opcode() != OpConstant || len(in.Words) != 4 {
		return 0, false
	}
	return in.Words[3], true
}

// Fork returns a copy of the module's structure that shares its
// instructions: sections, functions, blocks and their lists are the
// copy's own, so that instructions may be removed, added or replaced in
// either without the other seeing it; no index is copied. Neither may
// edit a shared instruction's words in place (replace the instruction
// instead). It is what parsing the module's encoding gives, without the
// parse and without copying every word.
func (m *Module) Fork() *Module {
	out := &Module{Header: m.Header, Trailing: slices.Clone(m.Trailing)}
	for s := range m.Sections {
		out.Sections[s] = slices.Clone(m.Sections[s])
	}
	out.Functions = make([]*Function, len(m.Functions))
	fns := make([]Function, len(m.Functions))
	for i, f := range m.Functions {
		g := &fns[i]
		*g = Function{Before: slices.Clone(f.Before), Head: slices.Clone(f.Head), End: f.End,
			Blocks: make([]*Block, len(f.Blocks))}
		// The blocks' lists share one array, each clipped to its own run:
		// a list that grows gets an array of its own.
		n := 0
		for _, b := range f.Blocks {
			n += len(b.Insts)
		}
		insts := make([]*Instruction, 0, n)
		blocks := make([]Block, len(f.Blocks))
		for j, b := range f.Blocks {
			at := len(insts)
			insts = append(insts, b.Insts...)
			blocks[j] = Block{Label: b.Label, Insts: insts[at:len(insts):len(insts)]}
			g.Blocks[j] = &blocks[j]
		}
		out.Functions[i] = g
	}
	return out
}
