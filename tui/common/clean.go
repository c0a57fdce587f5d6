package common

import (
	"strings"
	"unicode/utf8"
)

// Clean makes text from the app (debug names, labels, file names, source
// lines, output, notices) safe to draw: a control character — an escape
// that could move the cursor, retitle the window or write the clipboard, a
// C1 control, DEL — becomes its visible Control Pictures symbol (ESC shows
// as ␛), a tab a space, a bidirectional override (which can make code read
// differently from what runs) or an invalid byte U+FFFD. Text with none of
// these is returned as it is, without copying.
func Clean(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('␡')
		case unsafeRune(r, 2):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeRune reports whether a decoded rune (n bytes long) must not reach
// the terminal: an invalid byte, a C1 control or a bidirectional control.
func unsafeRune(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n <= 1:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
