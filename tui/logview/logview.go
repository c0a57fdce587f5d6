// Package logview is the log pane: what the app printed on stdout and
// stderr, line by line as it arrives, then the layer's and the launcher's
// notices. It follows the tail while it is scrolled to the bottom, like
// `tail -f`; scrolling up stops following until the bottom is reached again.
package logview

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/source"
)

// Tag widths: every line starts with its stream or level in a 5-cell column.
const tagWidth = 5

// Lines renders s's output and notices as lines (not cut to a width).
func Lines(st *common.Styles, s *session.Session) []string {
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.Output)+len(s.Notices)+2)
	for _, o := range s.Output {
		tag, ts := "out", st.Muted
		if o.Stream == "stderr" {
			tag, ts = "err", st.Warning
		}
		out = append(out, ts.Render(common.Fit(tag, tagWidth))+st.Text.Render(source.ExpandTabs(o.Text)))
	}
	if len(s.Output) == 0 {
		out = append(out, st.Muted.Render("(the app printed nothing yet)"))
	}
	if len(s.Notices) > 0 {
		out = append(out, "", st.Bold.Render(fmt.Sprintf("Notices (%d)", len(s.Notices))))
		for _, n := range s.Notices {
			ts := st.Muted
			switch n.Level {
			case "warning":
				ts = st.Warning
			case "error":
				ts = st.Error
			}
			tag := n.Level
			if len(tag) > tagWidth-1 {
				tag = tag[:tagWidth-1]
			}
			out = append(out, ts.Render(common.Fit(tag, tagWidth))+st.Text.Render(n.Text))
		}
	}
	return out
}

// Render draws lines from top on, exactly width×height cells.
func Render(lines []string, top, width, height int) string {
	if top > 0 && top < len(lines) {
		lines = lines[top:]
	} else if top >= len(lines) {
		lines = nil
	}
	return common.Block(lines, width, height)
}

// Model is the log pane's state.
type Model struct {
	c             *common.Common
	s             *session.Session
	lines         []string
	top           int
	follow        bool
	width, height int
}

// New returns a log pane that follows the tail.
func New(c *common.Common) *Model { return &Model{c: c, follow: true} }

// SetSession shows s's output; while following, it scrolls to the end.
func (m *Model) SetSession(s *session.Session) {
	m.s = s
	m.lines = Lines(m.c.Styles, s)
	m.clamp()
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.clamp()
}

func (m *Model) maxTop() int { return max(len(m.lines)-m.height, 0) }

func (m *Model) clamp() {
	if m.follow {
		m.top = m.maxTop()
	}
	m.top = max(0, min(m.top, m.maxTop()))
}

// Scroll scrolls by d lines; reaching the bottom follows the tail again.
func (m *Model) Scroll(d int) {
	m.top = max(0, min(m.top+d, m.maxTop()))
	m.follow = m.top == m.maxTop()
}

// Top returns the first line drawn; Following whether the pane follows the
// tail.
func (m *Model) Top() int { return m.top }

// Following reports whether the pane follows the tail.
func (m *Model) Following() bool { return m.follow }

// Update scrolls on the movement keys.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if d, ok := m.c.ScrollDelta(msg, m.height); ok {
		m.Scroll(d)
	}
	return nil
}

// ShortHelp is the footer's help while the pane has focus.
func (m *Model) ShortHelp() []key.Binding { s, _ := m.c.ScrollHelp(); return s }

// FullHelp lists every key the pane handles.
func (m *Model) FullHelp() [][]key.Binding { _, f := m.c.ScrollHelp(); return f }

// Title is "App output (12 lines, 1 notice)".
func (m *Model) Title() string {
	if m.s == nil {
		return "App output"
	}
	n := "notices"
	if len(m.s.Notices) == 1 {
		n = "notice"
	}
	l := "lines"
	if len(m.s.Output) == 1 {
		l = "line"
	}
	t := fmt.Sprintf("App output (%d %s, %d %s)", len(m.s.Output), l, len(m.s.Notices), n)
	if !m.follow {
		t += " — scrolled"
	}
	return t
}

// View draws the pane's inner area.
func (m *Model) View() string { return Render(m.lines, m.top, m.width, m.height) }
