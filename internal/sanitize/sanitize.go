// Package sanitize makes text that comes from the app or its shader
// modules (debug names, labels, file names, source lines, output lines)
// safe to show: a terminal must never receive a control sequence the app
// chose. What could move the cursor, clear the screen, set the clipboard
// (OSC 52), retitle the window or reorder the text on screen is shown
// visibly escaped instead:
//
//   - C0 controls and DEL: \x1b, \x07, \x7f (Text also escapes \t, \n,
//     \r; Block keeps \t and \n, the layout of multi-line text);
//   - C1 controls, which some terminals take as ESC [ and ESC ]
//     (U+009B, U+009D): \u009b;
//   - bidirectional overrides, isolates and marks (U+202A-U+202E,
//     U+2066-U+2069, U+200E, U+200F, U+061C), which make a line read as
//     something else: \u202e;
//   - bytes that are not UTF-8: \xff.
//
// Everything else, other languages and symbols included, is kept.
package sanitize

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text returns s for one line of a terminal: every control escaped,
// tabs and line ends too.
func Text(s string) string { return escape(s, false) }

// Block returns s for several lines of a terminal: tabs and line feeds
// are kept, every other control escaped.
func Block(s string) string { return escape(s, true) }

// Lines applies Block to each line, returning lines itself when none
// changes.
func Lines(lines []string) []string {
	var out []string
	for i, l := range lines {
		if !Needed(l, true) {
			if out != nil {
				out[i] = l
			}
			continue
		}
		if out == nil {
			out = make([]string, len(lines))
			copy(out, lines[:i])
		}
		out[i] = Block(l)
	}
	if out == nil {
		return lines
	}
	return out
}

// dangerous reports whether r must be escaped (block: tab and line feed
// may stay).
func dangerous(r rune, block bool) bool {
	switch {
	case r == '\t' || r == '\n':
		return !block
	case r < 0x20, r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case bidi(r):
		return true
	}
	return false
}

// bidi reports whether r is a bidirectional override, isolate or mark.
func bidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// Pictures returns s for a cell of a terminal UI, where the text must keep
// its width: a control shows as its Control Pictures symbol (ESC as ␛,
// DEL as ␡), a tab as a space, and a C1 control, a bidirectional control
// or a byte that is not UTF-8 as U+FFFD. Text with none of these is
// returned as it is.
func Pictures(s string) string {
	return rewrite(s, false, func(b *strings.Builder, r rune, bad byte) {
		switch {
		case r == utf8.RuneError && bad != 0, r >= 0x80:
			b.WriteRune(utf8.RuneError)
		case r == '\t':
			b.WriteByte(' ')
		case r == 0x7f:
			b.WriteRune('␡')
		default:
			b.WriteRune(0x2400 + r)
		}
	})
}

// rewrite returns s with every rune that Text (block false) or Block
// (block true) must not pass written by put instead (bad is the byte of
// an invalid one, else 0); s itself when there is none.
func rewrite(s string, block bool, put func(b *strings.Builder, r rune, bad byte)) string {
	if !Needed(s, block) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			put(&b, r, s[i])
		case dangerous(r, block):
			put(&b, r, 0)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Needed reports whether s has anything Text (block false) or Block
// (block true) would escape.
func Needed(s string, block bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || dangerous(r, block) {
			return true
		}
		i += n
	}
	return false
}

func escape(s string, block bool) string {
	return rewrite(s, block, func(b *strings.Builder, r rune, bad byte) {
		switch {
		case bad != 0:
			fmt.Fprintf(b, `\x%02x`, bad)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(b, `\x%02x`, r)
		default:
			fmt.Fprintf(b, `\u%04x`, r)
		}
	})
}

// JSON escapes, in JSON text, the characters a JSON encoder writes raw but
// a terminal would act on (C1 controls, bidirectional overrides) as \u
// escapes: the same JSON value, safe to print. Outside strings JSON is
// ASCII, so every such character is inside a string.
func JSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		if b[i] < 0x80 {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if (r >= 0x80 && r <= 0x9f) || bidi(r) {
			out = append(out, b[last:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			last = i + n
		}
		i += n
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
