// Package printfview is the printf screen (p): the debugPrintfEXT calls
// that printed, as a tree of command buffer → action and pipeline → call,
// and under it the selected call: its format, counts, source line,
// distinct texts, and each invocation's line, only those at the
// coordinates the filter names (/ edits it: pixel=120,45,
// invocation=3,0,0...).
package printfview

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// Row is one row of the call tree: a command buffer (depth 0), an action
// (1) or a call (2, Group its index in the session's printf groups; -1
// for the others).
type Row struct {
	Depth int
	Text  string
	Group int
}

// Rows lists the groups as a tree: command buffers in the order they first
// printed, their actions in index order, each action's calls in the order
// they first printed.
func Rows(groups []*session.PrintfGroup) []Row {
	type action struct {
		index uint32
		calls []int
	}
	var cbs []string
	byCB := map[string][]*action{}
	for i, g := range groups {
		cb := g.CommandBuffer.Handle
		acts, ok := byCB[cb]
		if !ok {
			cbs = append(cbs, cb)
		}
		var a *action
		for _, x := range acts {
			if x.index == g.ActionIndex {
				a = x
			}
		}
		if a == nil {
			a = &action{index: g.ActionIndex}
			acts = insertAction(acts, a, func(x *action) bool { return x.index > a.index })
		}
		a.calls = append(a.calls, i)
		byCB[cb] = acts
	}
	var rows []Row
	for _, cb := range cbs {
		first := groups[byCB[cb][0].calls[0]]
		rows = append(rows, Row{Depth: 0, Text: "cmd " + handleText(first.CommandBuffer), Group: -1})
		for _, a := range byCB[cb] {
			g := groups[a.calls[0]]
			rows = append(rows, Row{Depth: 1, Text: fmt.Sprintf("#%d %s · pipeline %s", g.ActionIndex, g.Action, handleText(g.Pipeline)), Group: -1})
			for _, i := range a.calls {
				rows = append(rows, Row{Depth: 2, Text: callText(groups[i]), Group: i})
			}
		}
	}
	return rows
}

// insertAction inserts a before the first element after which it sorts.
func insertAction[T any](list []T, a T, after func(T) bool) []T {
	for i, x := range list {
		if after(x) {
			return append(list[:i], append([]T{a}, list[i:]...)...)
		}
	}
	return append(list, a)
}

// handleText is `0x55 "name"`, or the handle alone.
func handleText(h session.Handle) string {
	if h.Name == "" {
		return h.Handle
	}
	return fmt.Sprintf("%s %q", h.Handle, h.Name)
}

// callText is a call's row: `printf.comp:8 "i=%u n=%u" ×6`.
func callText(g *session.PrintfGroup) string {
	loc := g.Source.Location()
	if loc == "" {
		loc = fmt.Sprintf("shader %d instruction %d", g.Shader.ID, g.Instruction)
	}
	return fmt.Sprintf("%s %q ×%d", loc, g.Format, g.Count)
}

// Detail is what the screen shows of one call: head lines, then the lines
// the filter keeps.
type Detail struct {
	Head  []Styled
	Lines []session.PrintfLine
	// Kept is the number of lines the session kept of the call.
	Kept int
}

// Styled is a line of text and how it is drawn.
type Styled struct {
	Text string
	Kind Kind
}

// Kind picks a detail line's style.
type Kind int

// The kinds of detail lines.
const (
	KindText Kind = iota
	KindBold
	KindMuted
	KindWarning
)

// style is the kind's style.
func (k Kind) style(st *common.Styles) lipgloss.Style {
	switch k {
	case KindBold:
		return st.Bold
	case KindMuted:
		return st.Muted
	case KindWarning:
		return st.Warning
	}
	return st.Text
}

// DetailOf builds the detail of g at filter f, with at most values
// distinct texts (the others counted).
func DetailOf(g *session.PrintfGroup, f session.PrintfFilter, values int) Detail {
	d := Detail{Lines: g.LinesAt(f), Kept: len(g.Lines)}
	add := func(k Kind, format string, args ...any) {
		d.Head = append(d.Head, Styled{Text: fmt.Sprintf(format, args...), Kind: k})
	}
	bold, muted, warn, text := KindBold, KindMuted, KindWarning, KindText
	add(bold, "%q  ×%d %s · %s", g.Format, g.Count, plural(g.Count, "line", "lines"), g.Stage)
	if g.Problem != "" {
		add(warn, "not the Khronos layer's text: %s", g.Problem)
	}
	if loc := g.Source.Location(); loc != "" {
		add(muted, "%s  %s", loc, strings.TrimSpace(g.Source.Text))
	} else if g.Source != nil && g.Source.Note != "" {
		add(muted, "source: %s", g.Source.Note)
	}
	add(bold, "Distinct texts (%d)", len(g.Values))
	for _, v := range g.ValueLines(values) {
		add(text, "  %s", v)
	}
	switch {
	case f.IsZero():
		add(bold, "Lines (%d)", len(d.Lines))
	default:
		add(bold, "Lines at %s (%d of %d)", f, len(d.Lines), d.Kept)
	}
	if g.LinesNotKept > 0 {
		add(warn, "  %d later lines were counted, not kept", g.LinesNotKept)
	}
	return d
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// lineRow is one printed line as the screen shows it.
func lineRow(l session.PrintfLine) string {
	return fmt.Sprintf("  submit %d  %s  %s", l.Submit, l.Coords.Values(), strings.ReplaceAll(l.Text, "\n", `\n`))
}

// Layout is where the screen's parts go: the tree's rows, a rule, the
// detail's rows, and the filter prompt's row when it shows.
type Layout struct{ Tree, Detail int }

// LayoutOf splits height, less the prompt's rows, between the tree (its
// rows, at most a third of the height but at least three) and the detail.
func LayoutOf(rows, height, prompt int) Layout {
	height -= prompt
	t := max(min(rows, max(height/3, 3)), 1)
	return Layout{Tree: t, Detail: max(height-t-1, 0)}
}

// Render draws the tree from row treeTop (the selected row highlighted),
// a rule, the detail from row detailTop, and the prompt's rows, exactly
// width×height.
func Render(st *common.Styles, rows []Row, sel, treeTop int, d Detail, detailTop int, prompt []string, width, height int) string {
	l := LayoutOf(len(rows), height, len(prompt))
	var out []string
	for i := treeTop; i < treeTop+l.Tree; i++ {
		if i >= len(rows) {
			out = append(out, "")
			continue
		}
		r := rows[i]
		text := strings.Repeat("  ", r.Depth) + common.Clean(r.Text)
		switch {
		case i == sel:
			out = append(out, st.Selected.Render(common.Fit(text, width)))
		case r.Group < 0:
			out = append(out, st.Muted.Render(common.Fit(text, width)))
		default:
			out = append(out, common.Fit(text, width))
		}
	}
	out = append(out, st.Border.Render(strings.Repeat("─", width)))
	n := len(d.Head) + len(d.Lines)
	for i := detailTop; i < detailTop+l.Detail; i++ {
		switch {
		case i >= n:
			out = append(out, "")
		case i < len(d.Head):
			h := d.Head[i]
			out = append(out, h.Kind.style(st).Render(common.Fit(common.Clean(h.Text), width)))
		default:
			out = append(out, st.Text.Render(common.Fit(common.Clean(lineRow(d.Lines[i-len(d.Head)])), width)))
		}
	}
	out = append(out, prompt...)
	return common.Block(out, width, height)
}

// Model is the printf screen's state.
type Model struct {
	c      *common.Common
	groups []*session.PrintfGroup
	rows   []Row
	sel    int // the selected row (a call), -1 when none
	// treeTop and detailTop are the first rows drawn.
	treeTop, detailTop int
	filter             session.PrintfFilter
	// detail is the selected call's, built for detailOf.
	detail   Detail
	detailOf detailKey
	input    textinput.Model
	editing  bool
	// bad is why the text typed is not a filter.
	bad string
	// lostLines are the lines the layer lost (Session.PrintfLost).
	lostLines     uint64
	width, height int
}

// detailKey says what a built detail shows.
type detailKey struct {
	g             *session.PrintfGroup
	count, values int
	filter        string
}

// valuesShown is how many distinct texts the detail lists at a height:
// a third of it, from 2 to 8, so that lines show under them.
func valuesShown(detailHeight int) int {
	return max(2, min(session.SummaryPrintfValues, detailHeight/3))
}

// New returns the screen with the filter in force at first.
func New(c *common.Common, f session.PrintfFilter) *Model {
	in := textinput.New()
	in.Prompt = "at: "
	in.Placeholder = session.PrintfFilterNames
	return &Model{c: c, sel: -1, filter: f, input: in}
}

// SetSession shows a snapshot's printf groups, keeping the selected call.
func (m *Model) SetSession(s *session.Session) {
	var keep *session.PrintfGroup
	if m.sel >= 0 && m.sel < len(m.rows) {
		keep = m.groups[m.rows[m.sel].Group]
	}
	m.groups, m.rows, m.sel, m.lostLines = nil, nil, -1, 0
	if s != nil {
		m.groups, m.lostLines = s.Printf, s.PrintfLost
		m.rows = Rows(s.Printf)
	}
	for i, r := range m.rows {
		if r.Group >= 0 && (m.sel < 0 || keep != nil && sameCall(m.groups[r.Group], keep)) {
			m.sel = i
		}
	}
	m.clamp()
}

// sameCall reports whether two snapshots' groups are the same call.
func sameCall(a, b *session.PrintfGroup) bool {
	return a.CommandBuffer.Handle == b.CommandBuffer.Handle && a.ActionIndex == b.ActionIndex &&
		a.Shader.ID == b.Shader.ID && a.Instruction == b.Instruction
}

// Filter is the coordinate filter in force.
func (m *Model) Filter() session.PrintfFilter { return m.filter }

// Selected is the selected call's group, nil when none.
func (m *Model) Selected() *session.PrintfGroup {
	if m.sel < 0 {
		return nil
	}
	return m.groups[m.rows[m.sel].Group]
}

// ensure builds the selected call's detail when it changed.
func (m *Model) ensure() {
	g := m.Selected()
	k := detailKey{g: g, filter: m.filter.String(), values: valuesShown(m.layout().Detail)}
	if g != nil {
		k.count = g.Count
	}
	if k == m.detailOf {
		return
	}
	m.detailOf = k
	m.detail = Detail{}
	if g != nil {
		m.detail = DetailOf(g, m.filter, k.values)
	}
}

// SetSize sets the screen's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.input.SetWidth(max(w-len(m.input.Prompt)-1, 1))
	m.clamp()
}

func (m *Model) layout() Layout { return LayoutOf(len(m.rows), m.height, len(m.prompt())) }

// prompt is the prompt's rows: the input while editing, and why the
// text is not a filter.
func (m *Model) prompt() []string {
	var out []string
	if m.editing {
		out = append(out, m.input.View())
	}
	if m.bad != "" {
		out = append(out, m.c.Styles.Warning.Render(common.Fit(m.bad, m.width)))
	}
	return out
}

// clamp keeps the selected row in the tree's window and the detail's
// window in range.
func (m *Model) clamp() {
	l := m.layout()
	if m.sel >= 0 {
		if m.sel < m.treeTop {
			m.treeTop = m.sel
		}
		if m.sel >= m.treeTop+l.Tree {
			m.treeTop = m.sel - l.Tree + 1
		}
	}
	m.treeTop = max(0, min(m.treeTop, len(m.rows)-l.Tree))
	m.ensure()
	n := len(m.detail.Head) + len(m.detail.Lines)
	m.detailTop = max(0, min(m.detailTop, n-l.Detail))
}

// move selects the call d calls away (at the ends, the first or last).
func (m *Model) move(d int) {
	var calls []int
	at := 0
	for i, r := range m.rows {
		if r.Group >= 0 {
			if i == m.sel {
				at = len(calls)
			}
			calls = append(calls, i)
		}
	}
	if len(calls) == 0 {
		return
	}
	next := calls[max(0, min(at+d, len(calls)-1))]
	if next != m.sel {
		m.sel, m.detailTop = next, 0
	}
	m.clamp()
}

// Capturing reports whether the screen takes every key: the filter prompt
// is open.
func (m *Model) Capturing() bool { return m.editing }

// Update handles the keys: ↑/↓ select a call, pgup/pgdn and the wheel
// scroll its lines, g/G the first and last call, / edits the filter.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if m.editing {
		return m.edit(msg)
	}
	if d, ok := common.WheelDelta(msg, common.WheelStep); ok {
		m.detailTop += d
		m.clamp()
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := m.c.Keys
	switch {
	case key.Matches(k, keys.Up):
		m.move(-1)
	case key.Matches(k, keys.Down):
		m.move(1)
	case key.Matches(k, keys.Top):
		m.move(-len(m.rows))
	case key.Matches(k, keys.Bottom):
		m.move(len(m.rows))
	case key.Matches(k, keys.PageUp):
		m.detailTop -= max(m.layout().Detail-1, 1)
		m.clamp()
	case key.Matches(k, keys.PageDown):
		m.detailTop += max(m.layout().Detail-1, 1)
		m.clamp()
	case key.Matches(k, keys.Filter):
		m.editing, m.bad = true, ""
		m.input.SetValue(m.filter.String())
		m.input.CursorEnd()
		m.clamp()
		return m.input.Focus()
	}
	return nil
}

// edit handles a key while the prompt is open: enter puts the filter in
// force (or says why it is not one), esc closes the prompt unchanged.
func (m *Model) edit(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "enter":
			f, err := session.ParsePrintfFilter(m.input.Value())
			if err != nil {
				m.bad = err.Error()
				return nil
			}
			m.filter, m.editing, m.bad, m.detailTop = f, false, "", 0
			m.input.Blur()
			m.clamp()
			return nil
		case "esc", "ctrl+c":
			m.editing, m.bad = false, ""
			m.input.Blur()
			m.clamp()
			return nil
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

// ShortHelp is the footer's help.
func (m *Model) ShortHelp() []key.Binding {
	if m.editing {
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		}
	}
	k := m.c.Keys
	return []key.Binding{common.WithHelp(k.Down, "next call"), common.WithHelp(k.PageDown, "lines"),
		common.WithHelp(k.Filter, "at coordinates")}
}

// FullHelp lists every key the screen handles.
func (m *Model) FullHelp() [][]key.Binding {
	k := m.c.Keys
	return [][]key.Binding{{common.WithHelp(k.Up, "previous call"), common.WithHelp(k.Down, "next call"),
		common.WithHelp(k.Top, "first call"), common.WithHelp(k.Bottom, "last call"),
		common.WithHelp(k.PageUp, "scroll the lines up"), common.WithHelp(k.PageDown, "scroll the lines down"),
		common.WithHelp(k.Filter, "only the lines at coordinates (pixel=X,Y...)")}}
}

// Title is "printf (2 calls, 24 lines, 5 lost) — at pixel=1,2".
func (m *Model) Title() string {
	lines := 0
	for _, g := range m.groups {
		lines += g.Count
	}
	t := fmt.Sprintf("printf (%d %s, %d %s", len(m.groups), plural(len(m.groups), "call", "calls"), lines, plural(lines, "line", "lines"))
	if n := m.lostLines; n > 0 {
		t += fmt.Sprintf(", %d lost", n)
	}
	t += ")"
	if !m.filter.IsZero() {
		t += " — at " + m.filter.String()
	}
	return t
}

// View draws the screen.
func (m *Model) View() string {
	m.clamp()
	return Render(m.c.Styles, m.rows, m.sel, m.treeTop, m.detail, m.detailTop, m.prompt(), m.width, m.height)
}
