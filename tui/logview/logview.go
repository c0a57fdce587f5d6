// Package logview is the log pane: what the app printed on stdout and
// stderr, line by line as it arrives, then the layer's and the launcher's
// notices. It follows the tail while it is scrolled to the bottom, like
// `tail -f`; scrolling up stops following until the bottom is reached again.
// Long lines are cut at the pane's edge and scroll sideways (← →), or wrap
// under their text (w).
//
// The app's output is append-only during a run: a new snapshot adds only
// its new lines, so a long log costs nothing per update.
package logview

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/source"
)

// TagWidth is the column of every line's stream or level tag.
const TagWidth = 5

// SideStep is how many cells ← and → scroll sideways.
const SideStep = 8

// kind is what a log line is, which picks its tag's style.
type kind int

const (
	kindOut kind = iota
	kindErr
	kindInfo
	kindWarning
	kindError
	kindHeader // "Notices (3)"
	kindNote   // "(the app printed nothing yet)"
	kindBlank
)

// Line is one line of the log: its kind, tag and text (cleaned, tabs
// expanded).
type Line struct {
	kind kind
	Tag  string
	Text string
}

func outputLine(o session.OutputLine) Line {
	l := Line{kind: kindOut, Tag: "out", Text: common.Clean(source.ExpandTabs(o.Text))}
	if o.Stream == "stderr" {
		l.kind, l.Tag = kindErr, "err"
	}
	return l
}

func noticeLine(n session.Notice) Line {
	l := Line{kind: kindInfo, Tag: n.Level, Text: common.Clean(n.Text)}
	switch n.Level {
	case "warning":
		l.kind = kindWarning
	case "error":
		l.kind = kindError
	}
	if len(l.Tag) > TagWidth-1 {
		l.Tag = l.Tag[:TagWidth-1]
	}
	return l
}

// Lines lists s's output and notices as log lines.
func Lines(s *session.Session) []Line {
	if s == nil {
		return nil
	}
	out := make([]Line, 0, len(s.Output)+len(s.Notices)+2)
	for _, o := range s.Output {
		out = append(out, outputLine(o))
	}
	return append(out, tail(s, len(s.Notices))...)
}

// tail is what follows the output: a note when there is none, and the
// notices under their header.
func tail(s *session.Session, notices int) []Line {
	var out []Line
	if len(s.Output) == 0 {
		out = append(out, Line{kind: kindNote, Text: "(the app printed nothing yet)"})
	}
	if notices > 0 {
		out = append(out, Line{kind: kindBlank}, Line{kind: kindHeader, Text: fmt.Sprintf("Notices (%d)", notices)})
		for _, n := range s.Notices[:notices] {
			out = append(out, noticeLine(n))
		}
	}
	return out
}

// Rows lays the lines out at width cells: one row per line, or, wrapping,
// as many as each line's text needs, continued under the text.
func Rows(lines []Line, wrap bool, width int) []Line {
	if !wrap {
		return lines
	}
	tw := max(width-TagWidth, 1)
	out := make([]Line, 0, len(lines))
	for _, l := range lines {
		if ansi.StringWidth(l.Text) <= tw {
			out = append(out, l)
			continue
		}
		for i, part := range common.Lines(ansi.Wrap(l.Text, tw, "")) {
			r := l
			r.Text = part
			if i > 0 {
				r.Tag = ""
			}
			out = append(out, r)
		}
	}
	return out
}

// Render draws rows from row top and text column left on, exactly
// width×height cells; text cut at either edge shows an ellipsis there.
func Render(st *common.Styles, rows []Line, top, left, width, height int) string {
	lines := make([]string, 0, height)
	for i := max(top, 0); i < len(rows) && len(lines) < height; i++ {
		lines = append(lines, renderRow(st, rows[i], left, width))
	}
	return common.Block(lines, width, height)
}

func renderRow(st *common.Styles, l Line, left, width int) string {
	ts := st.Muted
	switch l.kind {
	case kindErr, kindWarning:
		ts = st.Warning
	case kindError:
		ts = st.Error
	case kindHeader:
		return st.Bold.Render(l.Text)
	case kindNote:
		return st.Muted.Render(l.Text)
	case kindBlank:
		return ""
	}
	text := l.Text
	tw := width - TagWidth
	if left > 0 && ansi.StringWidth(text) > left {
		text = common.Ellipsis + ansi.TruncateLeft(text, left+1, "")
	} else if left > 0 {
		text = ""
	}
	if ansi.StringWidth(text) > tw {
		text = ansi.Truncate(text, tw, common.Ellipsis)
	}
	return ts.Render(common.Fit(l.Tag, TagWidth)) + st.Text.Render(text)
}

// Model is the log pane's state.
type Model struct {
	c *common.Common
	// lines are the output's lines; outs and notices count what they
	// were made from, so that a new snapshot of the run adds the rest.
	lines         []Line
	outs, notices int
	s             *session.Session
	rows          []Line
	top, left     int
	follow, wrap  bool
	width, height int
	widest        int // the widest text
	// dirty says rows must be laid out again before they are read: a
	// snapshot arrived or the size changed (done when the pane draws, so
	// that a hidden log costs nothing per update).
	dirty bool
}

// New returns a log pane that follows the tail.
func New(c *common.Common) *Model { return &Model{c: c, follow: true} }

// Clear forgets the lines: the next session is another run's.
func (m *Model) Clear() { m.lines, m.outs, m.notices, m.s, m.rows = nil, 0, 0, nil, nil }

// SetSession shows s's output: a later snapshot of the same run adds its
// new lines (call [Model.Clear] before another run's). While following,
// it scrolls to the end.
func (m *Model) SetSession(s *session.Session) {
	if s == nil {
		m.Clear()
		return
	}
	if len(s.Output) < m.outs || len(s.Notices) < m.notices {
		m.Clear()
	}
	for _, o := range s.Output[m.outs:] {
		l := outputLine(o)
		m.widest = max(m.widest, ansi.StringWidth(l.Text))
		m.lines = append(m.lines, l)
	}
	m.s, m.outs, m.notices = s, len(s.Output), len(s.Notices)
	m.dirty = true
}

// all is the output's lines followed by the notices.
func (m *Model) all() []Line {
	if m.s == nil {
		return nil
	}
	return append(m.lines[:len(m.lines):len(m.lines)], tail(m.s, m.notices)...)
}

// ensure lays the lines out again (wrapping at the pane's width) when
// they changed, and keeps the scroll in range.
func (m *Model) ensure() {
	if !m.dirty {
		return
	}
	m.rows, m.dirty = Rows(m.all(), m.wrap, m.width), false
	m.clamp()
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height, m.dirty = w, h, true
}

func (m *Model) maxTop() int { return max(len(m.rows)-m.height, 0) }

func (m *Model) clamp() {
	if m.follow {
		m.top = m.maxTop()
	}
	m.top = max(0, min(m.top, m.maxTop()))
	m.left = max(0, min(m.left, m.widest-(m.width-TagWidth)+1))
}

// Scroll scrolls by d rows; reaching the bottom follows the tail again.
func (m *Model) Scroll(d int) {
	m.ensure()
	m.top = max(0, min(m.top+d, m.maxTop()))
	m.follow = m.top == m.maxTop()
}

// Top returns the first row drawn.
func (m *Model) Top() int {
	m.ensure()
	return m.top
}

// Left returns the first text column drawn.
func (m *Model) Left() int { return m.left }

// Following reports whether the pane follows the tail.
func (m *Model) Following() bool { return m.follow }

// Wrapping reports whether long lines wrap.
func (m *Model) Wrapping() bool { return m.wrap }

// Update scrolls on the movement keys and the wheel, sideways on ← and →,
// and switches wrapping on w.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if d, ok := m.c.ScrollDelta(msg, m.height); ok {
		m.Scroll(d)
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(k, m.c.Keys.Wrap):
		m.wrap, m.left, m.dirty = !m.wrap, 0, true
	case m.wrap:
	case key.Matches(k, m.c.Keys.ScrollLeft):
		m.left -= SideStep
		m.dirty = true
	case key.Matches(k, m.c.Keys.ScrollRight):
		m.left += SideStep
		m.dirty = true
	}
	return nil
}

// More counts the rows above and below the pane's window.
func (m *Model) More() common.More {
	m.ensure()
	return common.More{Above: m.top, Below: max(len(m.rows)-m.top-m.height, 0)}
}

// ShortHelp is the footer's help: scroll, wrap, and sideways when lines
// are cut.
func (m *Model) ShortHelp() []key.Binding {
	s, _ := m.c.ScrollHelp()
	s = append(s, m.wrapKey())
	if m.sideways() != nil {
		s = append(s, common.Sideways(m.c.Keys))
	}
	return s
}

// FullHelp lists every key the pane handles now.
func (m *Model) FullHelp() [][]key.Binding {
	_, f := m.c.ScrollHelp()
	return append(f, append([]key.Binding{m.wrapKey()}, m.sideways()...))
}

func (m *Model) wrapKey() key.Binding {
	if m.wrap {
		return common.WithHelp(m.c.Keys.Wrap, "cut long lines")
	}
	return common.WithHelp(m.c.Keys.Wrap, "wrap long lines")
}

func (m *Model) sideways() []key.Binding {
	if m.wrap || m.widest <= m.width-TagWidth {
		return nil
	}
	return []key.Binding{m.c.Keys.ScrollLeft, m.c.Keys.ScrollRight}
}

// Title is "App output (12 lines, 1 notice)".
func (m *Model) Title() string {
	if m.s == nil {
		return "App output"
	}
	n := "notices"
	if m.notices == 1 {
		n = "notice"
	}
	l := "lines"
	if m.outs == 1 {
		l = "line"
	}
	t := fmt.Sprintf("App output (%d %s, %d %s)", m.outs, l, m.notices, n)
	var state []string
	if !m.follow {
		state = append(state, "scrolled")
	}
	if m.wrap {
		state = append(state, "wrapped")
	}
	if len(state) > 0 {
		t += " — " + strings.Join(state, ", ")
	}
	return t
}

// View draws the pane's inner area.
func (m *Model) View() string {
	m.ensure()
	return Render(m.c.Styles, m.rows, m.top, m.left, m.width, m.height)
}
