// Package compare is the compare view: the error groups of two runs side by
// side, matched by check, shader source location (or shader and
// instruction without debug info) and action, with their counts and what
// changed — new in the later run, fixed (gone), changed count, or the same.
package compare

import (
	"fmt"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/tree"
)

// Status says how a group changed from run A to run B.
type Status string

// The statuses.
const (
	StatusNew     Status = "new"
	StatusFixed   Status = "fixed"
	StatusChanged Status = "changed"
	StatusSame    Status = "same"
)

// Row is one matched group.
type Row struct {
	// Check, Location and Action describe the group.
	Check, Location, Action string
	// A and B are the record counts in the two runs (0 when absent).
	A, B int
	// Status is how it changed.
	Status Status
}

// Key is what matches groups across runs: check, location, action.
func Key(g *session.ErrorGroup) string {
	return g.Check + "\x00" + tree.Location(g) + "\x00" + tree.ActionText(g)
}

// Compare matches the groups of a and b. Rows come in b's order, then the
// groups of a that b lacks (fixed), in a's order.
func Compare(a, b *session.Session) []Row {
	idx := map[string]*Row{}
	var rows []*Row
	add := func(g *session.ErrorGroup, inA bool) {
		k := Key(g)
		r := idx[k]
		if r == nil {
			r = &Row{Check: g.Check, Location: tree.Location(g), Action: tree.ActionText(g)}
			idx[k] = r
			rows = append(rows, r)
		}
		if inA {
			r.A += g.Count
		} else {
			r.B += g.Count
		}
	}
	if b != nil {
		for _, g := range b.Groups {
			add(g, false)
		}
	}
	if a != nil {
		for _, g := range a.Groups {
			add(g, true)
		}
	}
	out := make([]Row, len(rows))
	for i, r := range rows {
		switch {
		case r.A == 0:
			r.Status = StatusNew
		case r.B == 0:
			r.Status = StatusFixed
		case r.A != r.B:
			r.Status = StatusChanged
		default:
			r.Status = StatusSame
		}
		out[i] = *r
	}
	return out
}

// Totals sums the counts of each status.
func Totals(rows []Row) map[Status]int {
	t := map[Status]int{}
	for _, r := range rows {
		t[r.Status]++
	}
	return t
}

// Render draws the rows from top on under a header naming the two runs,
// exactly width×height cells.
func Render(st *common.Styles, rows []Row, nameA, nameB string, top, width, height int) string {
	cw := max(len(nameA), len(nameB), 6)
	statusW := len("changed")
	var lines []string
	t := Totals(rows)
	lines = append(lines, st.Bold.Render(fmt.Sprintf("%s → %s: %d new, %d fixed, %d changed, %d same",
		nameA, nameB, t[StatusNew], t[StatusFixed], t[StatusChanged], t[StatusSame])))
	hdr := fmt.Sprintf("%*s %*s %-*s %s", cw, nameA, cw, nameB, statusW, "status", "check · location · action")
	lines = append(lines, st.Header.Render(hdr))
	if len(rows) == 0 {
		lines = append(lines, st.Muted.Render("no errors in either run"))
	}
	for i := max(top, 0); i < len(rows) && len(lines) < height; i++ {
		r := rows[i]
		var ss lipgloss.Style
		switch r.Status {
		case StatusNew:
			ss = st.Error
		case StatusFixed:
			ss = st.OK
		case StatusChanged:
			ss = st.Warning
		default:
			ss = st.Muted
		}
		num := func(n int) string {
			if n == 0 {
				return fmt.Sprintf("%*s", cw, "—")
			}
			return fmt.Sprintf("%*s", cw, "×"+strconv.Itoa(n))
		}
		desc := r.Check + " · " + r.Location + " · " + r.Action
		line := st.Count.Render(num(r.A)) + " " + st.Count.Render(num(r.B)) + " " +
			ss.Render(common.Fit(string(r.Status), statusW)) + " " + desc
		lines = append(lines, ansi.Truncate(line, width, common.Ellipsis))
	}
	return common.Block(lines, width, height)
}

// Model is the compare view's state.
type Model struct {
	c            *common.Common
	rows         []Row
	nameA, nameB string
	top          int
	width        int
	height       int
}

// New returns an empty compare view.
func New(c *common.Common) *Model { return &Model{c: c} }

// Set compares run a (named nameA) with run b.
func (m *Model) Set(a, b *session.Session, nameA, nameB string) {
	m.rows, m.nameA, m.nameB = Compare(a, b), nameA, nameB
	m.scroll(0)
}

// Rows returns the compared rows.
func (m *Model) Rows() []Row { return m.rows }

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.scroll(0)
}

func (m *Model) scroll(d int) {
	m.top = max(0, min(m.top+d, len(m.rows)-(m.height-2)))
}

// Scroll scrolls by d rows.
func (m *Model) Scroll(d int) { m.scroll(d) }

// Update scrolls on the movement keys.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if d, ok := m.c.ScrollDelta(msg, m.height); ok {
		m.scroll(d)
	}
	return nil
}

// ShortHelp is the footer's help while the pane has focus.
func (m *Model) ShortHelp() []key.Binding { s, _ := m.c.ScrollHelp(); return s }

// FullHelp lists every key the pane handles.
func (m *Model) FullHelp() [][]key.Binding { _, f := m.c.ScrollHelp(); return f }

// Title is the view's title.
func (m *Model) Title() string { return fmt.Sprintf("Compare %s with %s", m.nameA, m.nameB) }

// View draws the pane's inner area.
func (m *Model) View() string {
	return Render(m.c.Styles, m.rows, m.nameA, m.nameB, m.top, m.width, m.height)
}
