// Package common is what the TUI's panes share: the screen size, the styles
// of the current theme, the key map, and small layout helpers that keep every
// pane's output an exact rectangle of cells (Fit, Block, Frame, Overlay).
package common

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
)

// Common is the context every pane holds a pointer to. The root model owns
// it and changes it in place (a resize, a new theme once the terminal
// reported its background), so panes always draw with the current values.
type Common struct {
	// Width and Height are the terminal's size in cells.
	Width, Height int
	// Styles are the current theme's styles.
	Styles *Styles
	// Keys is the key map.
	Keys *keys.KeyMap
}

// Ellipsis marks text cut to fit.
const Ellipsis = "…"

// Fit makes s exactly w cells wide: cut with an ellipsis when longer, padded
// with spaces when shorter. s may hold ANSI sequences; it must be one line.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, Ellipsis)
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// Block lays lines out as an exact w×h rectangle: each line passed through
// [Fit], missing lines blank, extra lines dropped.
func Block(lines []string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	out := make([]string, h)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = Fit(l, w)
	}
	return strings.Join(out, "\n")
}

// Lines splits a rendered block into its lines.
func Lines(s string) []string { return strings.Split(s, "\n") }

// Center places the lines of text in the middle of a w×h rectangle.
func Center(text string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := Lines(text)
	if len(lines) > h {
		lines = lines[:h]
	}
	out := make([]string, 0, h)
	top := (h - len(lines)) / 2
	for range top {
		out = append(out, "")
	}
	for _, l := range lines {
		l = ansi.Truncate(l, w, Ellipsis)
		pad := (w - ansi.StringWidth(l)) / 2
		out = append(out, strings.Repeat(" ", pad)+l)
	}
	return Block(out, w, h)
}

// Frame draws a w×h box around body with title set into its top border.
// The focused pane gets a heavy border and the accent colour, so focus shows
// without colour too. body is laid out with [Block] to (w-2)×(h-2).
func Frame(st *Styles, title, body string, w, h int, focused bool) string {
	return FrameMore(st, title, body, w, h, focused, More{})
}

// More counts the rows of a pane's content hidden above and below its
// window.
type More struct{ Above, Below int }

// Scroller is a component whose content can be longer than its pane; the
// root shows what More reports in the frame.
type Scroller interface{ More() More }

// MoreOf is c's [More], or none when c does not scroll.
func MoreOf(c any) More {
	if s, ok := c.(Scroller); ok {
		return s.More()
	}
	return More{}
}

// FrameMore is [Frame] with markers in the border for hidden rows: "3 more
// ↑" at the right of the top border, "12 more ↓" at the right of the
// bottom border.
func FrameMore(st *Styles, title, body string, w, h int, focused bool, more More) string {
	if w < 2 || h < 2 {
		return Block(nil, w, h)
	}
	b := lipgloss.RoundedBorder()
	bs, ts := st.Border, st.Title
	if focused {
		b = lipgloss.ThickBorder()
		bs, ts = st.BorderFocused, st.TitleFocused
	}
	inner := w - 2
	marker := func(n int, arrow string) string {
		if n <= 0 {
			return ""
		}
		return fmt.Sprintf(" %d more %s ", n, arrow)
	}
	up, down := marker(more.Above, "↑"), marker(more.Below, "↓")
	// Top: ╭─ Title ───── 3 more ↑ ─╮ (the marker only when the title
	// keeps ten cells).
	upW := ansi.StringWidth(up)
	if up != "" && inner-upW-5 < 10 {
		up, upW = "", 0
	}
	right := 0 // the marker and the rule after it
	if up != "" {
		right = upW + 1
	}
	var top strings.Builder
	top.WriteString(bs.Render(b.TopLeft + b.Top))
	used := 1
	if title != "" && inner > 4 {
		t := ansi.Truncate(title, inner-3-right, Ellipsis)
		top.WriteString(ts.Render(" " + t + " "))
		used += ansi.StringWidth(t) + 2
	}
	if fill := inner - used - right; fill > 0 {
		top.WriteString(bs.Render(strings.Repeat(b.Top, fill)))
	}
	if up != "" {
		top.WriteString(st.Muted.Render(up) + bs.Render(b.Top))
	}
	top.WriteString(bs.Render(b.TopRight))

	out := make([]string, 0, h)
	out = append(out, top.String())
	lb, rb := bs.Render(b.Left), bs.Render(b.Right)
	for _, l := range Lines(Block(Lines(body), inner, h-2)) {
		out = append(out, lb+l+rb)
	}
	bottom := bs.Render(b.BottomLeft + strings.Repeat(b.Bottom, inner) + b.BottomRight)
	if dw := ansi.StringWidth(down); down != "" && dw+2 <= inner {
		bottom = bs.Render(b.BottomLeft+strings.Repeat(b.Bottom, inner-dw-1)) + st.Muted.Render(down) +
			bs.Render(b.Bottom+b.BottomRight)
	}
	out = append(out, bottom)
	return strings.Join(out, "\n")
}

// Overlay draws fg over bg with fg's top-left cell at column x, row y. Both
// are blocks of lines; cells of bg outside fg stay as they were.
func Overlay(bg, fg string, x, y int) string {
	bl := Lines(bg)
	for i, l := range Lines(fg) {
		row := y + i
		if row < 0 || row >= len(bl) {
			continue
		}
		under := bl[row]
		w := ansi.StringWidth(l)
		left := ansi.Truncate(under, x, "")
		if pad := x - ansi.StringWidth(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		right := ansi.TruncateLeft(under, x+w, "")
		bl[row] = left + "\x1b[m" + l + "\x1b[m" + right
	}
	return strings.Join(bl, "\n")
}
