// Package sourcemap maps an instruction of a SPIR-V module back to the
// source the user wrote: file, line, column and the text of that line, from
// OpLine/OpString/OpSource (with or without #line directives) and from
// NonSemantic.Shader.DebugInfo.100.
package sourcemap

// Location is where an instruction comes from.
type Location struct {
	File   string
	Line   int
	Column int
	// Text is the source line, without its newline; "" when unknown.
	Text string
	// Language is the source language for highlighting: glsl, hlsl, ...
	Language string
	// Note explains a degraded answer (no debug info, no source text).
	Note string
}

// Map answers location queries for one module after a one-time index.
type Map struct {
	impl *index
}

// New indexes a module's debug information. It never panics; a module it
// cannot read gives a Map whose lookups say so in Location.Note.
func New(words []uint32) *Map {
	return &Map{impl: buildIndex(words)}
}

// Lookup returns the location of the instruction with the given index in
// the module (0 = the first instruction after the header).
func (m *Map) Lookup(instruction int) Location {
	return m.impl.lookup(instruction)
}

// FileLines returns the lines of a source file the module carries (line N
// is element N-1), or nil when the module has no text for it.
func (m *Map) FileLines(file string) []string {
	return m.impl.fileLines(file)
}
