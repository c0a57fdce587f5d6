// Package sourcemap maps an instruction of a SPIR-V module back to the
// source the user wrote: file, line, column, the text of that line and a few
// lines around it, the function and, for inlined code, the chain of call
// sites. It reads OpLine/OpString/OpSource (with or without #line
// directives) and NonSemantic.Shader.DebugInfo.100 (DebugLine, DebugSource,
// DebugScope, DebugInlinedAt). When the module names a file but carries no
// text, a Disk finds the file in a search path; when there is no line
// information at all, the answer is the disassembled instruction.
package sourcemap

// ContextLines is how many lines before and after the source line a
// Location carries in Context.
const ContextLines = 3

// LanguageSPIRV is Location.Language when Text is a disassembled SPIR-V
// instruction rather than a source line.
const LanguageSPIRV = "spirv"

// Location is where an instruction comes from.
type Location struct {
	File   string
	Line   int
	Column int
	// Text is the source line, without its newline; the disassembled
	// instruction when Language is LanguageSPIRV; "" when unknown.
	Text string
	// Language is the language of Text for highlighting: glsl, hlsl,
	// slang, opencl, cpp, or spirv.
	Language string
	// Note explains a degraded answer (no debug info, no source text, text
	// read from disk).
	Note string
	// Function is the name of the function the instruction belongs to in
	// the source (the inlined callee for inlined code); "" when unknown.
	Function string
	// InlinedAt is the chain of call sites when the instruction comes from
	// an inlined function: the call that was inlined first, then the call
	// of the function holding it, and so on out to the entry point.
	InlinedAt []Frame
	// Context is the source text from line ContextLine on, up to
	// ContextLines lines before and after Line (Line included); nil when
	// the text is unknown.
	Context     []string
	ContextLine int
}

// Frame is one call site of an inlined function.
type Frame struct {
	// Function is the caller: the function holding the call.
	Function string
	File     string
	Line     int
	// Text is the call site's source line; "" when unknown.
	Text string
}

// Map answers location queries for one module after a one-time index. It
// is safe for concurrent use.
type Map struct {
	impl *index
}

// New indexes a module's debug information. It never panics; a module it
// cannot read gives a Map whose lookups say so in Location.Note.
func New(words []uint32) *Map {
	return &Map{impl: buildIndex(words)}
}

// Lookup returns the location of the instruction with the given index in
// the module (0 = the first instruction after the header), from the module
// alone.
func (m *Map) Lookup(instruction int) Location {
	return m.impl.lookup(instruction, nil)
}

// LookupIn is Lookup that reads a source file from disk, through d, when
// the module names the file but carries no text for the line. A nil d
// reads nothing.
func (m *Map) LookupIn(instruction int, d *Disk) Location {
	return m.impl.lookup(instruction, d)
}

// FileLines returns the lines of a source file the module carries (line N
// is element N-1), or nil when the module has no text for it.
func (m *Map) FileLines(file string) []string {
	return m.impl.fileLines(file)
}

// FileLinesIn is FileLines that falls back to the file on disk, through d.
func (m *Map) FileLinesIn(file string, d *Disk) []string {
	if lines := m.impl.fileLines(file); lines != nil {
		return lines
	}
	if d == nil {
		return nil
	}
	_, lines, _ := d.Find(file)
	return lines
}

// Instruction returns the disassembly of the module's instruction number i,
// as spirv-dis prints it (with the module's names), or "" when there is no
// such instruction.
func (m *Map) Instruction(i int) string {
	return m.impl.instruction(i)
}
