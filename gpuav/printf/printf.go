// Package printf formats the lines of GL_EXT_debug_printf (debugPrintfEXT,
// NonSemantic.DebugPrintf in SPIR-V) from a format string and the argument
// words a shader wrote, with the text the Khronos validation layer's Debug
// Printf writes for the same words.
//
// The words are the arguments as the instrumentation writes them, as the
// Khronos layer's do: a 32-bit value (int, uint, float's bits, a bool as 0
// or 1, an 8-bit or 16-bit float widened) is one word; a 64-bit value (an
// int64, a uint64, a double's bits) is two, the low word first; a vector is
// its components in order.
//
// The Khronos layer splits a format string into pieces of at most one
// value each and hands each piece to C's snprintf with one argument: a
// uint64 for a piece containing %ul, %lu or %lx (%ul prints in hex), else a
// 32-bit int or a float by the piece's last letter. %[flags][precision]v
// [2,3,4]<letter> is a vector: the piece repeated once per component after
// ", ". This package follows that split exactly and formats each piece as
// glibc's snprintf does in the C locale. Where snprintf would read an
// argument the layer did not pass (%s, %c, %*d, a float conversion of an
// integer, two conversions in a piece), the piece is written as it is in
// the format string and the line reports ProblemSpec; where the words run
// out, ProblemMissing.
package printf

import (
	"strings"
)

// Problem says what in a line is not the Khronos layer's text. Zero: none.
type Problem uint8

const (
	// ProblemSpec: a piece of the format string is not a conversion the
	// layer can print the same way every time; it is written as it is.
	ProblemSpec Problem = 1 << iota
	// ProblemMissing: the format reads more argument words than the
	// shader wrote; the pieces with no words are written as they are.
	ProblemMissing
)

// String names the problems.
func (p Problem) String() string {
	var parts []string
	if p&ProblemSpec != 0 {
		parts = append(parts, "a conversion printf cannot print is shown as written")
	}
	if p&ProblemMissing != 0 {
		parts = append(parts, "the format reads more values than the call passed")
	}
	return strings.Join(parts, "; ")
}

// Format is a parsed format string; parse it once per call site and format
// every line with it.
type Format struct {
	text   string
	pieces []piece
	words  int
	bad    bool
}

// piece is one of the Khronos layer's substrings, compiled.
type piece struct {
	raw    string   // the substring as the layer splits it off
	c      string   // what the layer hands snprintf: raw after the 64-bit rule
	class  argClass // the argument the layer passes with it
	prefix string   // the text before the conversion ("%%" is "%")
	suffix string   // the text after it
	conv   bool     // has a conversion that reads the argument
	sp     spec
	bad    bool // not printable as glibc would: write raw
}

// Parse parses a format string.
func Parse(format string) *Format {
	f := &Format{text: format}
	for _, r := range split(format) {
		p := compile(r)
		f.words += p.class.words()
		f.bad = f.bad || p.bad
		f.pieces = append(f.pieces, p)
	}
	return f
}

// Text is the format string.
func (f *Format) Text() string { return f.text }

// Words is how many argument words a line of this format reads.
func (f *Format) Words() int { return f.words }

// Problem is ProblemSpec when a piece of the format is written as it is,
// whatever the words.
func (f *Format) Problem() Problem {
	if f.bad {
		return ProblemSpec
	}
	return 0
}

// Append appends the line that the words make.
func (f *Format) Append(dst []byte, words []uint32) ([]byte, Problem) {
	var prob Problem
	for i := range f.pieces {
		p := &f.pieces[i]
		bits, rest, ok := p.class.take(words)
		if !ok {
			prob |= ProblemMissing
			dst = append(dst, p.raw...)
			words = words[:0]
			continue
		}
		words = rest
		if p.bad {
			prob |= ProblemSpec
			dst = append(dst, p.raw...)
			continue
		}
		dst = append(dst, p.prefix...)
		if p.conv {
			dst = p.sp.appendArg(dst, p.class, bits)
		}
		dst = append(dst, p.suffix...)
	}
	return dst, prob
}

// Sprint is the line that the words make.
func (f *Format) Sprint(words []uint32) (string, Problem) {
	b, p := f.Append(nil, words)
	return string(b), p
}

// Sprint parses format and formats one line of it.
func Sprint(format string, words []uint32) (string, Problem) {
	return Parse(format).Sprint(words)
}

// words is how many argument words the layer reads for a piece.
func (c argClass) words() int {
	switch c {
	case argNone:
		return 0
	case argInt64:
		return 2
	}
	return 1
}

// take reads a piece's argument from the front of words: its bits (a
// 64-bit value's low word first) and the words after it; ok is false when
// too few are left.
func (c argClass) take(words []uint32) (bits uint64, rest []uint32, ok bool) {
	n := c.words()
	if n > len(words) {
		return 0, words, false
	}
	switch n {
	case 1:
		bits = uint64(words[0])
	case 2:
		bits = uint64(words[0]) | uint64(words[1])<<32
	}
	return bits, words[n:], true
}

// rawPiece is a substring and the argument class its letter gives.
type rawPiece struct {
	text  string
	class argClass
	bad   bool // the split could not go on (an incomplete vector)
}

// types are the letters that end a conversion in the Khronos layer's split
// (C's conversions of numbers, and v for a vector).
const types = "diouxXaAeEfFgGv"

// maxComponents caps a vector's count: the layer reads a count as atoi
// does, and a shader's format string must not make the layer build huge
// lines.
const maxComponents = 64

// split is the Khronos layer's split of a format string into substrings of
// at most one value: text up to a '%' (skipping "%%"), then everything up
// to the next of types, and an 'l' right after it.
func split(f string) []rawPiece {
	var out []rawPiece
	pos, begin := 0, 0
	for begin < len(f) {
		i := strings.IndexByte(f[pos:], '%')
		if i < 0 {
			out = append(out, rawPiece{text: f[begin:]})
			break
		}
		percent := pos + i
		pos = percent + 1
		if pos < len(f) && f[pos] == '%' {
			pos++
			continue
		}
		t := strings.IndexAny(f[pos:], types)
		if t < 0 {
			pos = len(f)
			continue
		}
		pos += t
		if f[pos] != 'v' {
			if pos+1 < len(f) && f[pos+1] == 'l' {
				pos++
			}
			out = append(out, rawPiece{text: f[begin : pos+1], class: classOf(f[pos])})
			begin = pos + 1
			continue
		}
		// %[...]v<count><letter>[l]
		count := atoi(f[pos+1:])
		if pos+2 >= len(f) || count > maxComponents {
			out = append(out, rawPiece{text: f[begin:], bad: true})
			break
		}
		conv := f[percent:pos] + f[pos+2:pos+3]
		pos += 2
		if pos+1 < len(f) && f[pos+1] == 'l' {
			conv += "l"
			pos++
		}
		class := classOf(conv[len(conv)-1])
		out = append(out, rawPiece{text: substr(f, begin, percent) + conv, class: class})
		for k := 1; k < count; k++ {
			out = append(out, rawPiece{text: ", " + conv, class: class})
		}
		begin = pos + 1
	}
	return out
}

// substr is f[begin:end], or f[begin:] when end < begin (the layer's
// substr with a length that wrapped: a vector whose letter was a '%').
func substr(f string, begin, end int) string {
	if end < begin {
		return f[begin:]
	}
	return f[begin:end]
}

// classOf is the argument the layer passes for a piece ending in letter c:
// a float for a float conversion, else a 32-bit integer.
func classOf(c byte) argClass {
	if isFloatVerb(c) {
		return argFloat
	}
	return argInt32
}

// atoi is C's atoi, capped above maxComponents.
func atoi(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	n := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n <= maxComponents {
			n = n*10 + int(s[i]-'0')
		}
	}
	if neg {
		return -n
	}
	return n
}

// wide64 are the texts that make the layer pass a uint64, in the order it
// looks for them, and what it puts in their place.
var wide64 = [...]struct{ find, with string }{
	{"%ul", "%lx"}, {"%lu", "%lu"}, {"%lx", "%lx"},
}

// compile applies the layer's 64-bit rule to a substring and parses it as
// snprintf would with the one argument.
func compile(r rawPiece) piece {
	p := piece{raw: r.text, class: r.class}
	if r.bad {
		p.class, p.bad = argNone, true
		return p
	}
	text := r.text
	for _, w := range wide64 {
		if i := strings.Index(text, w.find); i >= 0 {
			text = text[:i] + w.with + text[i+len(w.find):]
			p.class = argInt64
			break
		}
	}
	p.c = text
	p.bad = !p.parse(text)
	return p
}

// parse splits text into prefix, one conversion and suffix; it is false
// when snprintf would not print text with the piece's argument the same
// way every time.
func (p *piece) parse(text string) bool {
	var lit strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		if c != '%' {
			lit.WriteByte(c)
			i++
			continue
		}
		sp, n, ok := parseSpec(text[i:])
		if !ok {
			return false
		}
		i += n
		if sp.verb == '%' { // glibc ignores the fields of %%
			lit.WriteByte('%')
			continue
		}
		if p.conv || p.class == argNone || !sp.accepts(p.class) {
			return false
		}
		p.conv, p.sp = true, sp
		p.prefix = lit.String()
		lit.Reset()
	}
	if p.conv {
		p.suffix = lit.String()
	} else {
		p.prefix = lit.String()
	}
	return true
}
