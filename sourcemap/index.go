package sourcemap

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// index is the one-time per-module index: the line state before each
// instruction, the text of each source file with its #line mapping, the
// debug scopes and the functions.
type index struct {
	err   error
	words []uint32
	// at[i] is the position in locs of the line state that applies to
	// instruction i, or -1 when no line applies.
	at    []int32
	locs  []rawLoc
	files map[string]*file
	// order lists file names in declaration order; the first is the
	// main file.
	order    []string
	language string

	strs   map[uint32]string // OpString
	consts map[uint32]uint32 // 32-bit OpConstant values
	// scopes are the DebugFunction and DebugLexicalBlock instructions;
	// inlined the DebugInlinedAt ones.
	scopes  map[uint32]scope
	inlined map[uint32]inlinedAt
	// funcs lists the functions in module order: the instruction range
	// and the OpName of each.
	funcs []funcSpan

	mu      sync.Mutex // guards printer
	printer *spirv.Printer
	perr    error
	pdone   bool
}

// rawLoc is a line state: a file and a line/column in it, and the debug
// scope in effect.
type rawLoc struct {
	file      string
	line      int
	column    int
	scope     uint32 // DebugScope's Scope, 0 when none
	inlinedAt uint32 // DebugScope's Inlined At, 0 when none
}

// scope is a DebugFunction (name set) or a DebugLexicalBlock.
type scope struct {
	name   uint32 // OpString id; 0 for a lexical block
	source uint32 // DebugSource id
	parent uint32
	isFunc bool
}

// inlinedAt is a DebugInlinedAt: the call site's line and scope, and the
// next call site out.
type inlinedAt struct {
	line  uint32 // constant id
	scope uint32
	next  uint32
}

type funcSpan struct {
	start, end int // instruction indexes, end inclusive
	name       string
}

// file is one source file's text, and where each of its lines is in the
// text of the OpSource (or DebugSource) that carries it.
type file struct {
	name  string
	text  strings.Builder
	lines []string // text split into lines
	// mapped[line] is the index in lines of the file's line "line", as the
	// #line directives in the text say; nil when the text has none.
	mapped map[fileLine]int
	// hasDirectives is true when the text contains #line directives.
	hasDirectives bool
}

type fileLine struct {
	file string
	line int
}

// buildIndex reads a module's debug info into an index. It never panics:
// a module it cannot read gives an index whose err says why.
func buildIndex(words []uint32) (ix *index) {
	ix = newIndex()
	defer func() {
		if r := recover(); r != nil {
			ix = newIndex()
			ix.err = fmt.Errorf("index debug info: %v", r)
		}
	}()
	_, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		ix.err = err
		return ix
	}
	ix.words = words
	ix.at = make([]int32, len(insts))
	b := &indexer{ix: ix, n: len(insts), names: map[uint32]string{}, debugSets: map[uint32]bool{},
		debugSource: map[uint32]uint32{}, cur: -1, locIndex: map[rawLoc]int32{}}
	for i, in := range insts {
		b.inst(i, in.Opcode(), in.Words)
		ix.at[i] = b.cur
	}
	// Scopes name their source by DebugSource id: turn those into OpString
	// ids once, so that lookups need no second table.
	for id, s := range ix.scopes {
		s.source = b.debugSource[s.source]
		ix.scopes[id] = s
	}
	for _, f := range ix.files {
		f.finish()
	}
	return ix
}

// indexer is buildIndex's state while it reads the instructions in order:
// the line, scope and inlined-at in effect (the location cur of the
// instructions that follow) and the tables that later instructions use.
type indexer struct {
	ix          *index
	n           int               // instructions in the module
	names       map[uint32]string // OpName of functions
	debugSets   map[uint32]bool   // NonSemantic.Shader.DebugInfo.100 imports
	debugSource map[uint32]uint32 // DebugSource result -> OpString id
	lastText    *file             // for OpSourceContinued / DebugSourceContinued
	cur         int32             // index in ix.locs of the location in effect, -1 none
	line        rawLoc            // the line part of the state
	hasLine     bool              // a line is in effect
	scopeID     uint32            // DebugScope in effect
	inlID       uint32            // its DebugInlinedAt
	locIndex    map[rawLoc]int32  // location -> index in ix.locs
}

// update makes cur the location of the current state, adding it to the
// index's locations when it is new.
func (b *indexer) update() {
	if !b.hasLine {
		b.cur = -1
		return
	}
	l := b.line
	l.scope, l.inlinedAt = b.scopeID, b.inlID
	if p, ok := b.locIndex[l]; ok {
		b.cur = p
		return
	}
	b.cur = int32(len(b.ix.locs))
	b.locIndex[l] = b.cur
	b.ix.locs = append(b.ix.locs, l)
}

// inst reads instruction i (opcode op, words w).
func (b *indexer) inst(i int, op spirv.Opcode, w []uint32) {
	ix := b.ix
	switch op {
	case spirv.OpString:
		if len(w) > 2 {
			ix.strs[w[1]], _ = spirv.DecodeString(w[2:])
		}
	case spirv.OpName:
		if len(w) > 2 {
			b.names[w[1]], _ = spirv.DecodeString(w[2:])
		}
	case spirv.OpConstant:
		if len(w) == 4 {
			ix.consts[w[2]] = w[3]
		}
	case spirv.OpExtInstImport:
		if len(w) > 2 {
			if s, _ := spirv.DecodeString(w[2:]); s == "NonSemantic.Shader.DebugInfo.100" {
				b.debugSets[w[1]] = true
			}
		}
	case spirv.OpSource, spirv.OpSourceContinued:
		b.source(op, w)
	case spirv.OpLine:
		if len(w) >= 4 {
			b.line, b.hasLine = rawLoc{file: ix.strs[w[1]], line: int(w[2]), column: int(w[3])}, true
			b.update()
		}
	case spirv.OpNoLine:
		b.hasLine = false
		b.update()
	case spirv.OpFunction:
		b.hasLine, b.scopeID, b.inlID = false, 0, 0
		b.update()
		if len(w) > 2 {
			ix.funcs = append(ix.funcs, funcSpan{start: i, end: b.n - 1, name: functionName(b.names[w[2]])})
		}
	case spirv.OpFunctionEnd:
		b.hasLine, b.scopeID, b.inlID = false, 0, 0
		b.update()
		if n := len(ix.funcs); n > 0 {
			ix.funcs[n-1].end = i
		}
	case spirv.OpExtInst:
		if len(w) >= 5 && b.debugSets[w[3]] {
			b.debugInst(w)
		}
	}
}

// source reads OpSource (a file and the start of its text) and
// OpSourceContinued (more of the last text).
func (b *indexer) source(op spirv.Opcode, w []uint32) {
	ix := b.ix
	if op == spirv.OpSourceContinued {
		if b.lastText != nil && len(w) > 1 {
			s, _ := spirv.DecodeString(w[1:])
			b.lastText.text.WriteString(s)
		}
		return
	}
	if len(w) > 1 && ix.language == "" {
		ix.language = languageName(w[1])
	}
	name := ""
	if len(w) > 3 {
		name = ix.strs[w[3]]
	}
	f := ix.file(name)
	if len(w) > 4 {
		s, _ := spirv.DecodeString(w[4:])
		f.text.WriteString(s)
	}
	b.lastText = f
}

// debugInst reads a NonSemantic.Shader.DebugInfo.100 instruction: sources,
// scopes and inlined-at chains into the tables, scope and line changes
// into the state.
func (b *indexer) debugInst(w []uint32) {
	ix := b.ix
	id := w[2]
	switch w[4] {
	case spirv.ShaderDebugInfoDebugSource, spirv.ShaderDebugInfoDebugSourceContinued, spirv.ShaderDebugInfoDebugCompilationUnit:
		b.debugSourceInst(w)
	case spirv.ShaderDebugInfoDebugFunction:
		// Name, Type, Source, Line, Column, Parent, ...
		if len(w) > 10 {
			ix.scopes[id] = scope{name: w[5], source: w[7], parent: w[10], isFunc: true}
		}
	case spirv.ShaderDebugInfoDebugLexicalBlock:
		// Source, Line, Column, Parent, Name?
		if len(w) > 8 {
			ix.scopes[id] = scope{source: w[5], parent: w[8]}
		}
	case spirv.ShaderDebugInfoDebugLexicalBlockDiscriminator:
		// Source, Discriminator, Parent.
		if len(w) > 7 {
			ix.scopes[id] = scope{source: w[5], parent: w[7]}
		}
	case spirv.ShaderDebugInfoDebugInlinedAt:
		// Line, Scope, Inlined?
		if len(w) > 6 {
			a := inlinedAt{line: w[5], scope: w[6]}
			if len(w) > 7 {
				a.next = w[7]
			}
			ix.inlined[id] = a
		}
	case spirv.ShaderDebugInfoDebugScope:
		if len(w) > 5 {
			b.scopeID, b.inlID = w[5], 0
			if len(w) > 6 {
				b.inlID = w[6]
			}
			b.update()
		}
	case spirv.ShaderDebugInfoDebugNoScope:
		b.scopeID, b.inlID = 0, 0
		b.update()
	case spirv.ShaderDebugInfoDebugLine:
		// Source, LineStart, LineEnd, ColumnStart, ColumnEnd.
		if len(w) >= 10 {
			b.line = rawLoc{file: ix.strs[b.debugSource[w[5]]], line: int(ix.consts[w[6]]), column: int(ix.consts[w[8]])}
			b.hasLine = true
			b.update()
		}
	case spirv.ShaderDebugInfoDebugNoLine:
		b.hasLine = false
		b.update()
	}
}

// debugSourceInst reads DebugSource (a file and its text),
// DebugSourceContinued (more of the last text) and DebugCompilationUnit
// (the source language).
func (b *indexer) debugSourceInst(w []uint32) {
	ix := b.ix
	switch w[4] {
	case spirv.ShaderDebugInfoDebugSource:
		if len(w) > 5 {
			b.debugSource[w[2]] = w[5]
			f := ix.file(ix.strs[w[5]])
			if len(w) > 6 && f.text.Len() == 0 {
				f.text.WriteString(ix.strs[w[6]])
				b.lastText = f
			} else {
				b.lastText = nil
			}
		}
	case spirv.ShaderDebugInfoDebugSourceContinued:
		if b.lastText != nil && len(w) > 5 {
			b.lastText.text.WriteString(ix.strs[w[5]])
		}
	case spirv.ShaderDebugInfoDebugCompilationUnit:
		// Version, DWARF Version, Source, Language (constants).
		if len(w) > 8 && ix.language == "" {
			if v, ok := ix.consts[w[8]]; ok {
				ix.language = languageName(v)
			}
		}
	}
}

func newIndex() *index {
	return &index{
		files:   map[string]*file{},
		strs:    map[uint32]string{},
		consts:  map[uint32]uint32{},
		scopes:  map[uint32]scope{},
		inlined: map[uint32]inlinedAt{},
	}
}

// functionName drops the mangled signature glslang appends to OpName
// ("store(u1;u1;" is store).
func functionName(n string) string {
	if i := strings.IndexByte(n, '('); i >= 0 {
		n = n[:i]
	}
	return n
}

func (ix *index) file(name string) *file {
	f := ix.files[name]
	if f == nil {
		f = &file{name: name}
		ix.files[name] = f
		ix.order = append(ix.order, name)
	}
	return f
}

// finish splits the text and reads its #line directives: after
// `#line N "name"` (or `#line N`), the next line of the text is line N of
// that file (or of the file in effect).
func (f *file) finish() {
	text := f.text.String()
	if text == "" {
		return
	}
	f.lines = splitLines(text)
	curFile, next := f.name, 1
	for i, l := range f.lines {
		if n, name, ok := lineDirective(l); ok {
			if !f.hasDirectives {
				f.hasDirectives = true
				f.mapped = map[fileLine]int{}
			}
			if name != "" {
				curFile = name
			}
			next = n
			continue
		}
		if f.hasDirectives {
			k := fileLine{curFile, next}
			if _, dup := f.mapped[k]; !dup {
				f.mapped[k] = i
			}
		}
		next++
	}
}

// lineDirective parses `#line N` and `#line N "file"` (spaces allowed
// after '#').
func lineDirective(l string) (int, string, bool) {
	s := strings.TrimSpace(l)
	if !strings.HasPrefix(s, "#") {
		return 0, "", false
	}
	s = strings.TrimSpace(s[1:])
	if !strings.HasPrefix(s, "line") {
		return 0, "", false
	}
	fields := strings.Fields(s[4:])
	if len(fields) == 0 {
		return 0, "", false
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil {
		return 0, "", false
	}
	name := ""
	if len(fields) > 1 {
		name = strings.Trim(strings.Join(fields[1:], " "), "\"")
	}
	return n, name, true
}

// textLine returns the text of line n of the named file, looking in every
// text the module carries (a #line directive in the main file's text can
// name an included file).
func (ix *index) textLine(name string, n int) (string, bool) {
	if f := ix.files[name]; f != nil && !f.hasDirectives && n >= 1 && n <= len(f.lines) {
		return f.lines[n-1], true
	}
	for _, fn := range ix.order {
		f := ix.files[fn]
		if f.hasDirectives {
			if i, ok := f.mapped[fileLine{name, n}]; ok {
				return f.lines[i], true
			}
		}
	}
	return "", false
}

// context returns up to ContextLines lines either side of line n (which
// must exist in lines) and the number of the first.
func context(lines []string, n int) ([]string, int) {
	if n < 1 || n > len(lines) {
		return nil, 0
	}
	lo := max(1, n-ContextLines)
	hi := min(len(lines), n+ContextLines)
	return lines[lo-1 : hi : hi], lo
}

// context returns the lines around line n of a file the module carries
// text for, as the function context does, stopping at the first line the
// module has no text for on either side.
func (ix *index) context(name string, n int) ([]string, int) {
	lo := n
	for lo > 1 && lo > n-ContextLines {
		if _, ok := ix.textLine(name, lo-1); !ok {
			break
		}
		lo--
	}
	out := make([]string, 0, 2*ContextLines+1)
	for k := lo; k <= n+ContextLines; k++ {
		t, ok := ix.textLine(name, k)
		if !ok {
			break
		}
		out = append(out, t)
	}
	return out, lo
}

func (ix *index) lookup(instruction int, d *Disk) Location {
	if ix.err != nil {
		return Location{Note: "cannot read the module: " + ix.err.Error()}
	}
	if instruction < 0 || instruction >= len(ix.at) {
		return Location{Note: fmt.Sprintf("instruction %d is not in the module (%d instructions)", instruction, len(ix.at))}
	}
	p := ix.at[instruction]
	if p < 0 {
		// Case 6: no line information. The instruction itself, and the
		// function it is in.
		return Location{
			Function: ix.enclosingFunction(instruction),
			Text:     ix.instruction(instruction),
			Language: LanguageSPIRV,
			Note:     "no line information for this instruction (compile the shader with -g or -gVS); showing the SPIR-V instruction",
		}
	}
	l := ix.locs[p]
	loc := Location{File: l.file, Line: l.line, Column: l.column, Language: ix.language}
	if loc.Language == "" {
		loc.Language = languageFromName(l.file)
	}
	loc.Function = ix.scopeFunction(l.scope)
	if loc.Function == "" {
		loc.Function = ix.enclosingFunction(instruction)
	}
	loc.InlinedAt = ix.callSites(l.inlinedAt)
	if t, ok := ix.textLine(l.file, l.line); ok {
		loc.Text = t
		loc.Context, loc.ContextLine = ix.context(l.file, l.line)
		return loc
	}
	// Case 5: the module names the file but carries no text for the line.
	what := l.file
	if what == "" {
		what = "this file"
	}
	if d != nil {
		path, lines, how, err := d.FindNote(l.file)
		switch {
		case err == nil && l.line >= 1 && l.line <= len(lines):
			loc.Text = lines[l.line-1]
			loc.Context, loc.ContextLine = context(lines, l.line)
			loc.Note = "source text " + how
			return loc
		case err == nil:
			loc.Note = fmt.Sprintf("the module carries no source text for %s, and %s has %d lines, not %d", what, path, len(lines), l.line)
		default:
			loc.Note = fmt.Sprintf("the module carries no source text for %s, and it was %s", what, notFound(err))
			if d.Hint != "" {
				loc.Note += " (" + d.Hint + ")"
			}
		}
	} else {
		loc.Note = fmt.Sprintf("the module carries no source text for %s", what)
	}
	loc.Note += "; showing the SPIR-V instruction"
	loc.Text = ix.instruction(instruction)
	loc.Language = LanguageSPIRV
	return loc
}

// notFound words a Disk error for a note: "not found in a, b".
func notFound(err error) string {
	s := err.Error()
	if s == "no search path" {
		return "not found (no search path)"
	}
	if strings.HasPrefix(s, "not found") {
		return s
	}
	return "not read: " + s
}

// scopeFunction walks a debug scope up to its DebugFunction and returns
// its name ("" when none).
func (ix *index) scopeFunction(id uint32) string {
	for range 64 { // a bound against cycles in a hostile module
		s, ok := ix.scopes[id]
		if !ok {
			return ""
		}
		if s.isFunc {
			return ix.strs[s.name]
		}
		id = s.parent
	}
	return ""
}

// scopeFile returns the file a debug scope is in.
func (ix *index) scopeFile(id uint32) string {
	if s, ok := ix.scopes[id]; ok {
		return ix.strs[s.source]
	}
	return ""
}

// callSites follows a DebugInlinedAt chain.
func (ix *index) callSites(id uint32) []Frame {
	var out []Frame
	for id != 0 && len(out) < 64 {
		a, ok := ix.inlined[id]
		if !ok {
			break
		}
		f := Frame{Function: ix.scopeFunction(a.scope), File: ix.scopeFile(a.scope), Line: int(ix.consts[a.line])}
		f.Text, _ = ix.textLine(f.File, f.Line)
		out = append(out, f)
		id = a.next
	}
	return out
}

// enclosingFunction returns the OpName of the function holding an
// instruction.
func (ix *index) enclosingFunction(i int) string {
	k := sort.Search(len(ix.funcs), func(k int) bool { return ix.funcs[k].start > i }) - 1
	if k >= 0 && i <= ix.funcs[k].end {
		return ix.funcs[k].name
	}
	return ""
}

// instruction disassembles instruction i, building the module's printer
// on first use.
func (ix *index) instruction(i int) string {
	if ix.words == nil {
		return ""
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if !ix.pdone {
		ix.pdone = true
		ix.printer, ix.perr = spirv.NewPrinter(ix.words)
	}
	if ix.perr != nil {
		return ""
	}
	s, _ := ix.printer.InstructionAt(i)
	return s
}

func (ix *index) fileLines(name string) []string {
	f := ix.files[name]
	if f == nil || len(f.lines) == 0 {
		// An included file whose text sits in another file's #line
		// sections.
		for _, fn := range ix.order {
			g := ix.files[fn]
			if !g.hasDirectives {
				continue
			}
			if out := mappedLines(g, name); len(out) > 0 {
				return out
			}
		}
		return nil
	}
	if !f.hasDirectives {
		return f.lines
	}
	return mappedLines(f, name)
}

// mappedLines returns the lines of file name that f's #line sections
// hold, with "" for lines they skip.
func mappedLines(f *file, name string) []string {
	var nums []int
	for k := range f.mapped {
		if k.file == name {
			nums = append(nums, k.line)
		}
	}
	sort.Ints(nums)
	var out []string
	for _, n := range nums {
		if n < 1 || n > len(f.lines)+1<<16 {
			continue // a hostile #line; do not allocate for it
		}
		for len(out) < n-1 {
			out = append(out, "")
		}
		out = append(out, f.lines[f.mapped[fileLine{name, n}]])
	}
	return out
}

// languageName names a SourceLanguage value for highlighting.
func languageName(v uint32) string {
	switch spirv.SourceLanguage(v) {
	case spirv.SourceLanguageGLSL, spirv.SourceLanguageESSL:
		return "glsl"
	case spirv.SourceLanguageHLSL:
		return "hlsl"
	case spirv.SourceLanguageOpenCL_C:
		return "opencl"
	case spirv.SourceLanguageOpenCL_CPP, spirv.SourceLanguageCPP_for_OpenCL, spirv.SourceLanguageSYCL:
		return "cpp"
	}
	// Newer than the grammar the tables come from (SPIR-V 1.6 rev. 3+).
	switch v {
	case 10:
		return "wgsl"
	case 11:
		return "slang"
	case 12:
		return "zig"
	case 13:
		return "rust"
	}
	return ""
}

// languageFromName guesses the language from a file name when the module
// does not say.
func languageFromName(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".hlsl", ".hlsli", ".fx":
		return "hlsl"
	case ".slang":
		return "slang"
	case ".wgsl":
		return "wgsl"
	case ".cl":
		return "opencl"
	case "":
		return ""
	}
	return "glsl"
}
