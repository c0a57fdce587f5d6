// Package helpview is the ? overlay: every key of the key map, in its
// titled groups — the same list as the README's key table. The groups sit
// side by side when the screen is wide enough, else one under another in a
// single column; the overlay scrolls when they do not fit its height.
package helpview

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
)

// Title is the overlay's frame title.
const Title = "Keys (? or esc to close)"

// gap is the space between two columns.
const gap = 3

// column renders one group: its title, then "key  what it does" rows.
func column(st *common.Styles, g keys.Group) []string {
	kw := 0
	for _, b := range g.Bindings {
		kw = max(kw, ansi.StringWidth(b.Help().Key))
	}
	out := []string{st.Bold.Render(g.Title)}
	for _, b := range g.Bindings {
		h := b.Help()
		out = append(out, st.Help.FullKey.Render(common.Fit(h.Key, kw))+"  "+st.Help.FullDesc.Render(h.Desc))
	}
	return out
}

func width(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

// Lines lays the groups out for at most maxW cells: side by side when they
// fit, else in one column with a blank row between groups.
func Lines(st *common.Styles, groups []keys.Group, maxW int) []string {
	cols := make([][]string, len(groups))
	total := 0
	for i, g := range groups {
		cols[i] = column(st, g)
		total += width(cols[i])
	}
	if total+gap*(len(cols)-1) <= maxW {
		return sideBySide(cols)
	}
	var out []string
	for i, c := range cols {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, c...)
	}
	return out
}

func sideBySide(cols [][]string) []string {
	h := 0
	for _, c := range cols {
		h = max(h, len(c))
	}
	out := make([]string, h)
	for i, c := range cols {
		w := width(c)
		for r := range out {
			cell := ""
			if r < len(c) {
				cell = c[r]
			}
			if i < len(cols)-1 {
				cell = common.Fit(cell, w) + strings.Repeat(" ", gap)
			}
			out[r] += cell
		}
	}
	return out
}

// Render draws lines from row top on, exactly width×height cells.
func Render(lines []string, top, width, height int) string {
	if top > 0 && top < len(lines) {
		lines = lines[top:]
	}
	return common.Block(lines, width, height)
}

// Model is the overlay's state: its lines at the screen's width, its
// scroll, and the size it takes.
type Model struct {
	c             *common.Common
	lines         []string
	top           int
	width, height int
}

// New returns the overlay of c's key map.
func New(c *common.Common) *Model { return &Model{c: c} }

// SetSize gives the overlay the most room it may take inside its frame;
// [Model.Size] says how much of it the keys need.
func (m *Model) SetSize(w, h int) {
	m.lines = Lines(m.c.Styles, m.c.Keys.Groups(), w)
	m.width, m.height = min(width(m.lines), w), min(len(m.lines), h)
	m.scroll(0)
}

// Size is the inner size the overlay takes.
func (m *Model) Size() (int, int) { return m.width, m.height }

func (m *Model) scroll(d int) { m.top = max(0, min(m.top+d, len(m.lines)-m.height)) }

// Update scrolls on the movement keys and the wheel.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if d, ok := m.c.ScrollDelta(msg, m.height); ok {
		m.scroll(d)
	}
	return nil
}

// More counts the rows above and below the window.
func (m *Model) More() common.More {
	return common.More{Above: m.top, Below: max(len(m.lines)-m.top-m.height, 0)}
}

// Title is the frame's title.
func (m *Model) Title() string { return Title }

// ShortHelp is the overlay's keys: scroll, close.
func (m *Model) ShortHelp() []key.Binding {
	k := m.c.Keys
	return []key.Binding{k.Down, k.Up, common.WithHelp(k.Back, "close"), common.WithHelp(k.Help, "close")}
}

// FullHelp lists every key the overlay handles.
func (m *Model) FullHelp() [][]key.Binding {
	_, f := m.c.ScrollHelp()
	return append(f, m.ShortHelp()[2:])
}

// View draws the keys in the overlay's window.
func (m *Model) View() string { return Render(m.lines, m.top, m.width, m.height) }
