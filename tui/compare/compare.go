// Package compare is the compare view: the error groups of two runs side by
// side, matched by check, shader source location (or shader and
// instruction without debug info) and action, with their counts and what
// changed — new in the later run, fixed (gone), no longer checked (gone
// from a run that could not have found it: the check off, the layer not
// loaded, the app crashed), changed count, or the same.
package compare

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/status"
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
	// StatusUnchecked: gone from run B, which could not have found it
	// (Row.Reason says why): not fixed.
	StatusUnchecked Status = "unchecked"
)

// statusWidth is the status column's width.
const statusWidth = len(StatusUnchecked)

// Row is one matched group.
type Row struct {
	// Check, Location and Action describe the group.
	Check, Location, Action string
	// A and B are the record counts in the two runs (0 when absent).
	A, B int
	// Status is how it changed; Reason, for StatusUnchecked, why run B
	// could not have found it.
	Status Status
	Reason string
	// GroupA and GroupB are the first matching group's index in each
	// run's groups, -1 when the run has none.
	GroupA, GroupB int
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
	add := func(g *session.ErrorGroup, i int, inA bool) {
		k := Key(g)
		r := idx[k]
		if r == nil {
			r = &Row{Check: g.Check, Location: tree.Location(g), Action: tree.ActionText(g), GroupA: -1, GroupB: -1}
			idx[k] = r
			rows = append(rows, r)
		}
		if inA {
			r.A += g.Count
			if r.GroupA < 0 {
				r.GroupA = i
			}
		} else {
			r.B += g.Count
			if r.GroupB < 0 {
				r.GroupB = i
			}
		}
	}
	if b != nil {
		for i, g := range b.Groups {
			add(g, i, false)
		}
	}
	if a != nil {
		for i, g := range a.Groups {
			add(g, i, true)
		}
	}
	out := make([]Row, len(rows))
	for i, r := range rows {
		switch {
		case r.A == 0:
			r.Status = StatusNew
		case r.B == 0 && b != nil && b.NotCheckedFor(r.Check) != "":
			r.Status, r.Reason = StatusUnchecked, b.NotCheckedFor(r.Check)
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

// Run is one side of the comparison: its name ("run 1") and its session.
type Run struct {
	Name string
	S    *session.Session
}

// RunText is a run's context line: how the app ended and its settings,
// "run 1  exited 0 · checks: descriptor_index_oob · on error: skip".
func RunText(r Run, checks []string) string {
	if r.S == nil {
		return r.Name
	}
	var on []string
	for _, id := range checks {
		if r.S.Settings.Checks[id] {
			on = append(on, id)
		}
	}
	set := "checks: " + strings.Join(on, ", ")
	if len(on) == 0 {
		set = "every check off"
	}
	set += " · " + status.OnErrorText(r.S.Settings)
	if r.S.Settings.ReserveSlot {
		set += " · reserve slot"
	}
	return r.Name + "  " + status.StateText(r.S.App) + " · " + set
}

// header is the view's first rows: the totals, each run's context, the
// column names.
func header(st *common.Styles, rows []Row, a, b Run, checks []string, cw int) []string {
	t := Totals(rows)
	unchecked := ""
	if n := t[StatusUnchecked]; n > 0 {
		unchecked = fmt.Sprintf(", %d no longer checked", n)
	}
	lines := []string{
		st.Bold.Render(fmt.Sprintf("%s → %s: %d new, %d fixed%s, %d changed, %d same",
			a.Name, b.Name, t[StatusNew], t[StatusFixed], unchecked, t[StatusChanged], t[StatusSame])),
		st.Muted.Render(RunText(a, checks)),
		st.Muted.Render(RunText(b, checks)),
		st.Header.Render(fmt.Sprintf("  %*s %*s %-*s %s", cw, a.Name, cw, b.Name, statusWidth, "status", "check · location · action")),
	}
	if len(rows) == 0 {
		lines = append(lines, st.Muted.Render("no errors in either run"))
	}
	return lines
}

// HeaderRows is the number of rows above the first compared row.
const HeaderRows = 4

// Render draws the header and the rows from top on, row selected marked
// with the cursor, exactly width×height cells; checks are the check ids
// the runs' settings name, in order.
func Render(st *common.Styles, rows []Row, a, b Run, checks []string, top, selected, width, height int) string {
	cw := max(len(a.Name), len(b.Name), 6)
	lines := header(st, rows, a, b, checks, cw)
	for i := max(top, 0); i < len(rows) && len(lines) < height; i++ {
		lines = append(lines, renderRow(st, rows[i], cw, i == selected, width))
	}
	for i := range lines {
		lines[i] = ansi.Truncate(lines[i], width, common.Ellipsis)
	}
	return common.Block(lines, width, height)
}

func renderRow(st *common.Styles, r Row, cw int, selected bool, width int) string {
	num := func(n int) string {
		if n == 0 {
			return fmt.Sprintf("%*s", cw, "—")
		}
		return fmt.Sprintf("%*s", cw, "×"+strconv.Itoa(n))
	}
	desc := r.Check + " · " + r.Location + " · " + r.Action
	if r.Reason != "" {
		desc += " (" + common.Clean(r.Reason) + ")"
	}
	if selected {
		return st.Selected.Render(common.Fit(tree.Cursor+" "+num(r.A)+" "+num(r.B)+" "+
			common.Fit(string(r.Status), statusWidth)+" "+desc, width))
	}
	var ss lipgloss.Style
	switch r.Status {
	case StatusNew:
		ss = st.Error
	case StatusFixed:
		ss = st.OK
	case StatusChanged, StatusUnchecked:
		ss = st.Warning
	default:
		ss = st.Muted
	}
	return "  " + st.Count.Render(num(r.A)) + " " + st.Count.Render(num(r.B)) + " " +
		ss.Render(common.Fit(string(r.Status), statusWidth)) + " " + desc
}

// OpenMsg asks the root to show a compared group in the main screen: group
// Group of run Run (the index given to [Model.Set]).
type OpenMsg struct{ Run, Group int }

// Model is the compare view's state.
type Model struct {
	c      *common.Common
	rows   []Row
	a, b   Run
	ia, ib int // the runs' indexes in the history
	checks []string
	top    int
	sel    int
	width  int
	height int
}

// New returns an empty compare view; checks are the check ids its context
// lines name, in order.
func New(c *common.Common, checks []string) *Model { return &Model{c: c, checks: checks} }

// Set compares run a (index ia of the history) with run b (index ib).
func (m *Model) Set(a, b Run, ia, ib int) {
	m.rows, m.a, m.b, m.ia, m.ib = Compare(a.S, b.S), a, b, ia, ib
	m.sel = max(0, min(m.sel, len(m.rows)-1))
	m.follow()
}

// Rows returns the compared rows.
func (m *Model) Rows() []Row { return m.rows }

// Selected returns the row with the cursor.
func (m *Model) Selected() int { return m.sel }

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.follow()
}

func (m *Model) visible() int { return max(m.height-HeaderRows, 1) }

// follow scrolls so that the cursor's row shows.
func (m *Model) follow() { m.top = tree.Follow(m.top, m.sel, len(m.rows), m.visible()) }

// Update moves the cursor on the movement keys and the wheel; enter asks
// the root to show the selected group (in the later run, or the earlier
// for a fixed one).
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if d, ok := m.c.ScrollDelta(msg, m.visible()); ok {
		if _, wheel := msg.(tea.MouseWheelMsg); wheel {
			d = max(min(d, 1), -1)
		}
		m.sel = max(0, min(m.sel+d, len(m.rows)-1))
		m.follow()
		return nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.c.Keys.Open) && m.sel < len(m.rows) {
		r := m.rows[m.sel]
		open := OpenMsg{Run: m.ib, Group: r.GroupB}
		if r.GroupB < 0 {
			open = OpenMsg{Run: m.ia, Group: r.GroupA}
		}
		return func() tea.Msg { return open }
	}
	return nil
}

// More counts the rows above and below the window.
func (m *Model) More() common.More {
	return common.More{Above: m.top, Below: max(len(m.rows)-m.top-m.visible(), 0)}
}

// ShortHelp is the footer's help: move, open.
func (m *Model) ShortHelp() []key.Binding {
	k := m.c.Keys
	return []key.Binding{k.Down, k.Up, common.WithHelp(k.Open, "show the error")}
}

// FullHelp lists every key the view handles.
func (m *Model) FullHelp() [][]key.Binding {
	_, f := m.c.ScrollHelp()
	return append(f, []key.Binding{common.WithHelp(m.c.Keys.Open, "show the error")})
}

// Title is the view's title.
func (m *Model) Title() string { return fmt.Sprintf("Compare %s with %s", m.a.Name, m.b.Name) }

// View draws the pane's inner area.
func (m *Model) View() string {
	return Render(m.c.Styles, m.rows, m.a, m.b, m.checks, m.top, m.sel, m.width, m.height)
}
