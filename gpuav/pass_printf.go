package gpuav

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav/printf"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// The printf pass replaces every debugPrintfEXT call (an OpExtInst
// DebugPrintf of the NonSemantic.DebugPrintf set) with a line written into
// the printf buffer (printf.go), in place:
//
//	%stage = the stage words (as records carry them)
//	%words = the line's size, or 0 where the coordinate filter
//	         (Options.PrintfAt) does not keep the invocation
//	%pos = OpFunctionCall %uint gpuav_printf_begin %shader %site %words %stage
//	        OpFunctionCall %void gpuav_printf_word4 %pos %uint_0 %arg0 (a vec4's bits)
//	        OpFunctionCall %void gpuav_printf_word %pos %uint_4 %arg1 (a uint)
//	        ... one call per argument (per component of a vector of
//	        16-bit, bool or more than two 64-bit numbers)
//
// The format string stays on the CPU (Result.Printf, and the module's
// OpString the session reads). With printf off (Options.Printf false) the
// calls are only removed. Either way the driver never sees the instruction,
// and the import goes when nothing else uses it.

// PrintfSite is one debugPrintfEXT call the printf pass replaced.
type PrintfSite struct {
	// ID is its position in Result.Printf; lines carry it.
	ID int
	// Instruction is the call's index in the original module, as
	// printf.Sites and the session know it.
	Instruction int
	// Words is the number of argument words each of its lines carries.
	Words int
}

// printfPass is the printf pass over one shader.
type printfPass struct {
	sh    *shader
	set   uint32 // the DebugPrintf import's id
	sites []PrintfSite
	// removed counts the calls removed, instrumented or not.
	removed int
}

// runPrintf runs the printf pass over the shader: instruments or (printf
// off) removes every call. It reports whether it changed the module.
func (sh *shader) runPrintf() bool {
	p := &printfPass{sh: sh}
	for _, in := range sh.m.Sections[spirv.SectionExtInstImport] {
		if sh.m.ExtInstSetName(in.Words[1]) == printf.ImportName {
			p.set = in.Words[1]
		}
	}
	if p.set == 0 {
		return false
	}
	for _, f := range sh.m.Functions {
		for _, b := range f.Blocks {
			for j := 0; j < len(b.Insts); j++ {
				if in := b.Insts[j]; p.isCall(in) {
					repl := p.replace(in)
					b.Insts = append(b.Insts[:j], append(repl, b.Insts[j+1:]...)...)
					j += len(repl) - 1
				}
			}
		}
	}
	p.dropImport()
	sh.printf = p.sites
	if !sh.opt.Printf && p.removed > 0 {
		sh.notes = append(sh.notes, fmt.Sprintf("printf is off: %d debugPrintfEXT call(s) removed, nothing printed", p.removed))
	}
	return p.removed > 0
}

// isCall reports whether in is a DebugPrintf of the module's import.
func (p *printfPass) isCall(in *spirv.Instruction) bool {
	return in.Opcode() == spirv.OpExtInst && len(in.Words) >= 6 && in.Words[3] == p.set &&
		in.Words[4] == printf.OpDebugPrintf
}

// replace returns what stands for one call: the line's write, or nothing
// with printf off or arguments the pass cannot write (warned).
func (p *printfPass) replace(in *spirv.Instruction) []*spirv.Instruction {
	sh, m := p.sh, p.sh.m
	p.removed++
	if !sh.opt.Printf {
		return nil
	}
	e := &emitter{m: m}
	var pieces []printfPiece
	words := 0
	for _, arg := range in.Words[6:] {
		ps, ok := p.argPieces(e, arg)
		if !ok {
			sh.warnf("instruction %d: a debugPrintfEXT argument of a type printf cannot write: the call is removed, nothing printed",
				in.OrigIndex)
			return nil
		}
		for _, piece := range ps {
			pieces = append(pieces, piece)
			words += piece.n
		}
	}
	site := PrintfSite{ID: len(p.sites), Instruction: int(in.OrigIndex), Words: words}
	p.sites = append(p.sites, site)
	begin := sh.lib.function("gpuav_printf_begin")
	u := m.TypeUint32()
	stage := sh.stage.emitModel(e)
	// A line the filter does not keep has 0 words: gpuav_printf_begin
	// writes nothing for it.
	size := m.ConstantUint32(uint32(PrintfLineHeaderWords + words))
	switch keep, possible := sh.opt.PrintfAt.emitKeep(e, uint32(sh.stage.model), stage); {
	case !possible:
		size = m.ConstantUint32(0)
	case keep != 0:
		size = e.op(spirv.OpSelect, u, keep, size, m.ConstantUint32(0))
	}
	pos := e.op(spirv.OpFunctionCall, u, begin, m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(uint32(site.ID)),
		size, stage)
	at := 0
	for _, piece := range pieces {
		e.op(spirv.OpFunctionCall, m.TypeVoid(), sh.lib.function(printfWordFunctions[piece.n]), pos,
			m.ConstantUint32(uint32(at)), piece.id)
		at += piece.n
	}
	return e.insts
}

// printfPiece is a part of an argument written by one call: a uint (n 1)
// or the n words of a uvecN.
type printfPiece struct {
	id uint32
	n  int
}

// printfWordFunctions are the library functions that write a piece of n
// words.
var printfWordFunctions = [5]string{1: "gpuav_printf_word", 2: "gpuav_printf_word2", 3: "gpuav_printf_word3",
	4: "gpuav_printf_word4"}

// argPieces emits the words one argument is written as (printf's package
// doc): a 32-bit scalar is one word, a 64-bit one two (low first), a
// narrower one widened to 32 bits, a bool 0 or 1, a vector its components.
// A vector of 32-bit numbers, a 64-bit scalar and a vector of two 64-bit
// numbers are one piece each, their bits as a uint vector (a bit cast puts
// a 64-bit number's low word first, as the words are read); other vectors
// are written per component.
func (p *printfPass) argPieces(e *emitter, id uint32) ([]printfPiece, bool) {
	m := p.sh.m
	def := m.Def(id)
	if def == nil || def.ResultType() == 0 {
		return nil, false
	}
	typ := m.Def(def.ResultType())
	if typ.Opcode() != spirv.OpTypeVector {
		return p.scalarPieces(e, id, typ)
	}
	comp, n := m.Def(typ.Words[2]), typ.Words[3]
	if numeric := comp.Opcode() == spirv.OpTypeInt || comp.Opcode() == spirv.OpTypeFloat; numeric && n <= 4 &&
		(comp.Words[2] == 32 || comp.Words[2] == 64 && n == 2) {
		words := n * comp.Words[2] / 32
		uvec := m.TypeVector(m.TypeUint32(), words)
		if uvec == typ.Words[1] {
			return []printfPiece{{id, int(words)}}, true
		}
		return []printfPiece{{e.op(spirv.OpBitcast, uvec, id), int(words)}}, true
	}
	var out []printfPiece
	for i := uint32(0); i < n; i++ {
		c := e.op(spirv.OpCompositeExtract, typ.Words[2], id, i)
		ps, ok := p.scalarPieces(e, c, comp)
		if !ok {
			return nil, false
		}
		out = append(out, ps...)
	}
	return out, true
}

// scalarPieces is argPieces for a scalar of type typ.
func (p *printfPass) scalarPieces(e *emitter, id uint32, typ *spirv.Instruction) ([]printfPiece, bool) {
	m := p.sh.m
	u := m.TypeUint32()
	one := func(id uint32) ([]printfPiece, bool) { return []printfPiece{{id, 1}}, true }
	switch typ.Opcode() {
	case spirv.OpTypeBool:
		return one(e.op(spirv.OpSelect, u, id, m.ConstantUint32(1), m.ConstantUint32(0)))
	case spirv.OpTypeInt:
		switch width, signed := typ.Words[2], typ.Words[3] == 1; {
		case width == 32:
			return one(e.asUint(id, typ.Words[1]))
		case width == 64:
			return []printfPiece{{e.op(spirv.OpBitcast, m.TypeVector(u, 2), id), 2}}, true
		case signed:
			return one(e.asUint(e.op(spirv.OpSConvert, m.TypeInt(32, true), id), m.TypeInt(32, true)))
		default:
			return one(e.op(spirv.OpUConvert, u, id))
		}
	case spirv.OpTypeFloat:
		switch typ.Words[2] {
		case 32:
			return one(e.asUint(id, typ.Words[1]))
		case 64:
			return []printfPiece{{e.op(spirv.OpBitcast, m.TypeVector(u, 2), id), 2}}, true
		case 16:
			return one(e.asUint(e.op(spirv.OpFConvert, m.TypeFloat(32), id), m.TypeFloat(32)))
		}
	}
	return nil, false
}

// dropImport removes the DebugPrintf import when no instruction uses it
// any more, and then the SPV_KHR_non_semantic_info extension when no
// NonSemantic set is left.
func (p *printfPass) dropImport() {
	m := p.sh.m
	used := false
	m.Walk(func(in *spirv.Instruction) {
		if in.Opcode() == spirv.OpExtInst && len(in.Words) > 3 && in.Words[3] == p.set {
			used = true
		}
	})
	if used {
		return
	}
	imports := m.Sections[spirv.SectionExtInstImport]
	nonSemantic := false
	for i := 0; i < len(imports); i++ {
		switch name := m.ExtInstSetName(imports[i].Words[1]); {
		case imports[i].Words[1] == p.set:
			imports = append(imports[:i], imports[i+1:]...)
			i--
		case len(name) > len("NonSemantic.") && name[:len("NonSemantic.")] == "NonSemantic.":
			nonSemantic = true
		}
	}
	m.Sections[spirv.SectionExtInstImport] = imports
	if nonSemantic {
		return
	}
	exts := m.Sections[spirv.SectionExtension]
	for i, in := range exts {
		if name, _ := spirv.DecodeString(in.Words[1:]); name == "SPV_KHR_non_semantic_info" {
			m.Sections[spirv.SectionExtension] = append(exts[:i], exts[i+1:]...)
			break
		}
	}
	m.InvalidateIndex()
}
