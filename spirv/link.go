package spirv

import (
	"fmt"
	"strings"
)

// LiteralWidth implements OperandContext: the width in words of a literal
// whose type is that of id (an OpSwitch selector).
func (m *Module) LiteralWidth(id uint32) int {
	in := m.Def(id)
	if in == nil {
		return 1
	}
	t := m.Def(in.ResultType())
	if t == nil || (t.Opcode() != OpTypeInt && t.Opcode() != OpTypeFloat) || len(t.Words) < 3 {
		return 1
	}
	return int(t.Words[2]+31) / 32
}

// ExtInstSet implements OperandContext: the grammar of the extended
// instruction set imported as id.
func (m *Module) ExtInstSet(id uint32) *ExtInstSet {
	if s := m.importedSet(id); s != nil {
		return s.set
	}
	return nil
}

// Imported is what ImportFunctions brought into a module.
type Imported struct {
	// Functions maps each requested name to the new function's id.
	Functions map[string]uint32
	// Variables lists the global variables added (not shared), which
	// SPIR-V 1.4+ entry points must list in their interfaces when their
	// call tree uses them.
	Variables []uint32
}

// FunctionName returns the name of a function as OpName gives it, up to
// the first '(' (glslang appends a mangled signature).
func (m *Module) FunctionName(f *Function) string {
	n := m.Name(f.ID())
	if i := strings.IndexByte(n, '('); i >= 0 {
		n = n[:i]
	}
	return n
}

// Library is a module read once for importing its functions into others
// (ImportFrom): its functions by name and id, the ids in each of their
// instructions, and the names and decorations of each id. A Library only
// reads its module, which must not change after NewLibrary; several
// goroutines may import from one.
type Library struct {
	m      *Module
	byName map[string]*Function
	byID   map[uint32]*Function
	plans  map[*Function]*funcPlan
	global []bool // by id: defined by an OpExtInstImport or a global
	// names holds each id's OpName and OpMemberName, decorations the
	// decorations an imported global takes, decorated the ids Decorations
	// names, each in section order.
	names       map[uint32][]*Instruction
	decorations map[uint32][]*Instruction
	decorated   map[uint32]bool
}

// funcPlan is a library function's instructions with the word indices of
// their ids (ForEachID's, in its order), OpLine and OpNoLine left out.
type funcPlan struct {
	head   []plannedInst
	blocks []plannedBlock
	end    plannedInst
}

type plannedBlock struct {
	label plannedInst
	insts []plannedInst
}

type plannedInst struct {
	in  *Instruction
	ids []uint16
	err error // ForEachID's
}

// NewLibrary reads lib for importing from it.
func NewLibrary(lib *Module) *Library {
	l := &Library{m: lib, byName: map[string]*Function{}, byID: map[uint32]*Function{}, plans: map[*Function]*funcPlan{},
		global: make([]bool, lib.Header.Bound), names: map[uint32][]*Instruction{},
		decorations: map[uint32][]*Instruction{}, decorated: map[uint32]bool{}}
	for _, s := range []Section{SectionExtInstImport, SectionGlobal} {
		for _, in := range lib.Sections[s] {
			if r := in.ResultID(); r != 0 && int(r) < len(l.global) {
				l.global[r] = true
			}
		}
	}
	for _, in := range lib.Sections[SectionDebug] {
		if (in.Opcode() == OpName || in.Opcode() == OpMemberName) && len(in.Words) > 1 {
			l.names[in.Words[1]] = append(l.names[in.Words[1]], in)
		}
	}
	for _, in := range lib.Sections[SectionAnnotation] {
		switch in.Opcode() {
		case OpDecorate, OpDecorateId, OpDecorateString, OpMemberDecorate, OpMemberDecorateString:
			if in.Opcode() != OpMemberDecorate && in.Opcode() != OpMemberDecorateString && len(in.Words) > 2 {
				l.decorated[in.Words[1]] = true
			}
			if !(in.Opcode() == OpDecorate && Decoration(in.Words[2]) == DecorationLinkageAttributes) {
				l.decorations[in.Words[1]] = append(l.decorations[in.Words[1]], in)
			}
		}
	}
	plan := func(in *Instruction) plannedInst {
		p := plannedInst{in: in}
		p.err = ForEachID(in.Words, lib, func(i int) { p.ids = append(p.ids, uint16(i)) })
		return p
	}
	for _, f := range lib.Functions {
		l.byName[lib.FunctionName(f)] = f
		if _, dup := l.byID[f.ID()]; !dup {
			l.byID[f.ID()] = f
		}
		fp := &funcPlan{end: plan(f.End)}
		for _, in := range f.Head {
			fp.head = append(fp.head, plan(in))
		}
		for _, b := range f.Blocks {
			pb := plannedBlock{label: plan(b.Label)}
			for _, in := range b.Insts {
				if in.Opcode() == OpLine || in.Opcode() == OpNoLine {
					continue // lines of the library's source mean nothing here
				}
				pb.insts = append(pb.insts, plan(in))
			}
			fp.blocks = append(fp.blocks, pb)
		}
		l.plans[f] = fp
	}
	return l
}

// ImportFunctions links functions of lib into m: the named functions, the
// functions they call, and the types, constants, global variables,
// decorations, names, capabilities and extensions they use. Unique types
// and constants (scalars, vectors, pointers, function types...) are shared
// with m's own; aggregates and variables are copied. Every id is renamed
// past m's bound. The Linkage capability is not carried over.
func (m *Module) ImportFunctions(lib *Module, names ...string) (*Imported, error) {
	return m.ImportFrom(NewLibrary(lib), names...)
}

// ImportFrom is ImportFunctions from a library read once.
func (m *Module) ImportFrom(l *Library, names ...string) (*Imported, error) {
	lib := l.m
	res := &Imported{Functions: map[string]uint32{}}
	im := &importer{m: m, lib: l, remap: make(idMap, lib.Header.Bound), res: res}
	// The call tree, breadth first.
	var queue []*Function
	seen := map[uint32]bool{}
	for _, n := range names {
		f := l.byName[n]
		if f == nil {
			return nil, fmt.Errorf("import: library has no function %q", n)
		}
		if !seen[f.ID()] {
			seen[f.ID()] = true
			queue = append(queue, f)
		}
	}
	for i := 0; i < len(queue); i++ {
		for _, b := range queue[i].Blocks {
			for _, in := range b.Insts {
				if in.Opcode() == OpFunctionCall && len(in.Words) > 3 {
					callee := l.byID[in.Words[3]]
					if callee == nil {
						return nil, fmt.Errorf("import: call to undefined function %%%d", in.Words[3])
					}
					if !seen[callee.ID()] {
						seen[callee.ID()] = true
						queue = append(queue, callee)
					}
				}
			}
		}
	}
	for _, f := range queue {
		im.remap.set(f.ID(), m.NewID())
	}
	for _, in := range lib.Sections[SectionCapability] {
		if in.Opcode() == OpCapability && Capability(in.Words[1]) != CapabilityLinkage {
			m.AddCapability(Capability(in.Words[1]))
		}
	}
	for _, in := range lib.Sections[SectionExtension] {
		if in.Opcode() == OpExtension {
			s, _ := DecodeString(in.Words[1:])
			m.AddExtension(s)
		}
	}
	for _, f := range queue {
		nf, err := im.function(f)
		if err != nil {
			return nil, err
		}
		m.Functions = append(m.Functions, nf)
	}
	if im.err != nil {
		return nil, im.err
	}
	for _, n := range names {
		res.Functions[n], _ = im.remap.get(l.byName[n].ID())
	}
	return res, nil
}

type importer struct {
	m     *Module
	lib   *Library
	remap idMap
	res   *Imported
	err   error
}

// id maps a library id to m, importing globals on first use.
func (im *importer) id(old uint32) uint32 {
	if n, ok := im.remap.get(old); ok {
		return n
	}
	if int(old) < len(im.lib.global) && im.lib.global[old] {
		return im.importGlobal(old)
	}
	n := im.m.NewID()
	im.remap.set(old, n)
	return n
}

// rewrite clones an instruction of lib with every id mapped.
func (im *importer) rewrite(in *Instruction) *Instruction {
	c := in.cloneAdded()
	if err := ForEachID(in.Words, im.lib.m, func(i int) { c.Words[i] = im.id(in.Words[i]) }); err != nil && im.err == nil {
		im.err = fmt.Errorf("import: instruction %v: %w", in.Opcode(), err)
	}
	return c
}

// rewritePlanned is rewrite with the ids found by NewLibrary.
func (im *importer) rewritePlanned(p plannedInst) *Instruction {
	c := p.in.cloneAdded()
	for _, i := range p.ids {
		c.Words[i] = im.id(p.in.Words[i])
	}
	if p.err != nil && im.err == nil {
		im.err = fmt.Errorf("import: instruction %v: %w", p.in.Opcode(), p.err)
	}
	return c
}

func (im *importer) importGlobal(old uint32) uint32 {
	lib := im.lib.m
	def := lib.Def(old)
	if def.Opcode() == OpExtInstImport {
		s, _ := DecodeString(def.Words[2:])
		n := im.m.ExtInstImport(s)
		im.remap.set(old, n)
		return n
	}
	// Map the operands first (result excluded), so the clone's key can be
	// compared with m's own types and constants.
	c := &Instruction{Words: append([]uint32(nil), def.Words...), OrigIndex: -1, OrigOffset: -1}
	resultAt := -1
	if err := ForEachID(def.Words, lib, func(i int) {
		if def.Words[i] == old && resultAt < 0 && i <= 2 && def.ResultID() == old {
			resultAt = i
			return
		}
		c.Words[i] = im.id(def.Words[i])
	}); err != nil && im.err == nil {
		im.err = fmt.Errorf("import: global %%%d: %w", old, err)
	}
	if _, ok := typeKey(c); ok && !im.lib.decorated[old] {
		info, _ := LookupOp(c.Opcode())
		var ops []uint32
		if info.HasType {
			ops = append([]uint32{c.Words[1]}, c.Words[3:]...)
		} else {
			ops = c.Words[2:]
		}
		n := im.m.findOrAdd(c.Opcode(), info.HasType, ops...)
		im.remap.set(old, n)
		return n
	}
	n := im.m.NewID()
	im.remap.set(old, n)
	c.SetResultID(n)
	if (c.Opcode() == OpTypePointer && StorageClass(c.Words[2]) == StorageClassStorageBuffer) ||
		(c.Opcode() == OpVariable && StorageClass(c.Words[3]) == StorageClassStorageBuffer) {
		if !im.m.VersionAtLeast(1, 3) {
			im.m.AddExtension("SPV_KHR_storage_buffer_storage_class")
		}
	}
	im.m.AddGlobal(c)
	if c.Opcode() == OpVariable {
		im.res.Variables = append(im.res.Variables, n)
	}
	for _, in := range im.lib.decorations[old] {
		im.m.AddAnnotation(im.rewrite(in))
	}
	for _, in := range im.lib.names[old] {
		im.m.AddDebug(im.rewrite(in))
	}
	return n
}

func (im *importer) function(f *Function) (*Function, error) {
	p := im.lib.plans[f]
	nf := &Function{Head: make([]*Instruction, 0, len(p.head)), Blocks: make([]*Block, 0, len(p.blocks))}
	for _, in := range p.head {
		nf.Head = append(nf.Head, im.rewritePlanned(in))
	}
	for _, pb := range p.blocks {
		nb := &Block{Label: im.rewritePlanned(pb.label), Insts: make([]*Instruction, 0, len(pb.insts))}
		for _, in := range pb.insts {
			nb.Insts = append(nb.Insts, im.rewritePlanned(in))
		}
		nf.Blocks = append(nf.Blocks, nb)
	}
	nf.End = im.rewritePlanned(p.end)
	for _, in := range im.lib.names[f.ID()] {
		if in.Opcode() == OpName {
			im.m.AddDebug(im.rewrite(in))
		}
	}
	for _, b := range nf.Blocks {
		im.m.noteDef(b.Label)
		for _, in := range b.Insts {
			im.m.noteDef(in)
		}
	}
	for _, in := range nf.Head {
		im.m.noteDef(in)
	}
	return nf, im.err
}

// idMap maps a library's ids to a module's: a slice by id (the library's
// bound), 0 where none is mapped yet (no id is 0).
type idMap []uint32

// get returns the id old maps to.
func (x idMap) get(old uint32) (uint32, bool) {
	if int(old) < len(x) && x[old] != 0 {
		return x[old], true
	}
	return 0, false
}

// set maps old to n, growing the map for an id past the library's bound.
func (x *idMap) set(old, n uint32) {
	if int(old) >= len(*x) {
		*x = append(*x, make(idMap, int(old)+1-len(*x))...)
	}
	(*x)[old] = n
}
