package common

import (
	"image/color"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Seg is a run of text in a bar: its foreground (nil: the bar's) and
// whether it is bold.
type Seg struct {
	Text string
	Fg   color.Color
	Bold bool
}

// Bar draws segs as one line of exactly width cells on the background bg
// with the default foreground fg (either may be nil: the terminal's). The
// background is set once at the start and reset once at the end; between
// segments only the foreground and boldness change, so that no cell of the
// bar falls back to the terminal's background (lipgloss styles, one per
// segment, reset everything after each). Text past width is cut with an
// ellipsis; the rest of the line is padded with the background.
func Bar(segs []Seg, fg, bg color.Color, width int) string {
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	open := ansi.Style{}
	if bg != nil {
		open = open.BackgroundColor(bg)
	}
	if fg != nil {
		open = open.ForegroundColor(fg)
	}
	styled := len(open) > 0
	if styled {
		b.WriteString(open.String())
	}
	curFg, bold, used := fg, false, 0
	for _, s := range segs {
		text := s.Text
		w := ansi.StringWidth(text)
		if used+w > width {
			text, w = ansi.Truncate(text, width-used, Ellipsis), width-used
		}
		if w <= 0 {
			break
		}
		want := s.Fg
		if want == nil {
			want = fg
		}
		var sgr ansi.Style
		if want != nil && !sameColor(want, curFg) {
			sgr = sgr.ForegroundColor(want)
			curFg = want
		}
		if s.Bold != bold {
			if s.Bold {
				sgr = sgr.Bold()
			} else {
				sgr = sgr.Normal()
			}
			bold = s.Bold
		}
		if len(sgr) > 0 {
			b.WriteString(sgr.String())
			styled = true
		}
		b.WriteString(text)
		used += w
	}
	if used < width {
		if bold {
			b.WriteString(ansi.Style{}.Normal().String())
		}
		b.WriteString(strings.Repeat(" ", width-used))
	}
	if styled {
		b.WriteString(ansi.ResetStyle)
	}
	return b.String()
}

// sameColor reports whether a and b are the same colour.
func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// SegsWidth is the width in cells of segs' text.
func SegsWidth(segs []Seg) int {
	n := 0
	for _, s := range segs {
		n += ansi.StringWidth(s.Text)
	}
	return n
}
