// Package errlist is the error list pane: one row per error group (check,
// count, stage, file:line, action) with a selection cursor. Render is a pure
// function of its inputs; Model keeps the selection and scroll offset and
// reacts to keys and the mouse wheel.
package errlist

import (
	"fmt"
	"path"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// Cursor is drawn before the selected row; other rows get blanks.
const Cursor = "› "

// HeaderRows is the number of rows above the first group (the column header).
const HeaderRows = 1

// Row is the cells of one group's row, before layout.
type Row struct {
	// Check is the check id; Count the count as ×N; Stage the shader stage;
	// Location file:line (or the instruction index); Action the command and
	// its index in the command buffer.
	Check, Count, Stage, Location, Action string
}

// RowOf returns the cells of g's row: `descriptor_index_oob`, `×64`,
// `fragment`, `oob_fragment.frag:9`, `vkCmdDraw #0`.
func RowOf(g *session.ErrorGroup) Row {
	r := Row{
		Check: g.Check,
		Count: fmt.Sprintf("×%d", g.Count),
		Stage: g.Stage,
	}
	if g.Source != nil && g.Source.File != "" {
		r.Location = fmt.Sprintf("%s:%d", path.Base(g.Source.File), g.Source.Line)
	} else {
		r.Location = fmt.Sprintf("instr %d", g.Instruction)
	}
	if g.Action != "" {
		r.Action = fmt.Sprintf("%s #%d", g.Action, g.ActionIndex)
	} else {
		r.Action = fmt.Sprintf("action #%d", g.ActionIndex)
	}
	return r
}

// columns are the cell widths of a layout; 0 hides a column.
type columns struct{ check, count, stage, loc, action int }

// layout chooses column widths for rows in width w (the cursor excluded):
// every column at its widest when that fits; otherwise the action, then the
// stage is dropped, then the check and the location are cut.
func layout(rows []Row, w int) columns {
	var c columns
	c.check, c.count, c.stage, c.loc, c.action = len("check"), 1, len("stage"), len("location"), len("action")
	for _, r := range rows {
		c.check = max(c.check, ansi.StringWidth(r.Check))
		c.count = max(c.count, ansi.StringWidth(r.Count))
		c.stage = max(c.stage, ansi.StringWidth(r.Stage))
		c.loc = max(c.loc, ansi.StringWidth(r.Location))
		c.action = max(c.action, ansi.StringWidth(r.Action))
	}
	total := func() int {
		n, cols := 0, 0
		for _, x := range []int{c.check, c.count, c.stage, c.loc, c.action} {
			if x > 0 {
				n += x
				cols++
			}
		}
		return n + max(cols-1, 0) // one space between columns
	}
	if total() > w {
		c.action = 0
	}
	if total() > w {
		c.stage = 0
	}
	if over := total() - w; over > 0 {
		cut := min(over, max(c.check-8, 0))
		c.check -= cut
	}
	if over := total() - w; over > 0 {
		c.loc = max(c.loc-over, 4)
	}
	if over := total() - w; over > 0 {
		c.check = max(c.check-over, 1)
	}
	return c
}

func cell(s string, w int) string { return common.Fit(s, w) }

// locCell cuts a location from the left, so that the line number stays.
func locCell(s string, w int) string {
	if ansi.StringWidth(s) > w {
		s = common.Ellipsis + ansi.TruncateLeft(s, ansi.StringWidth(s)-w+1, "")
	}
	return common.Fit(s, w)
}

// Render draws the list: a header row, then the groups from offset on, the
// selected one with the cursor. focused picks the selection style. The result
// is exactly width×height cells.
func Render(st *common.Styles, groups []*session.ErrorGroup, selected, offset int, focused bool, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	rows := make([]Row, len(groups))
	for i, g := range groups {
		rows[i] = RowOf(g)
	}
	cw := width - ansi.StringWidth(Cursor)
	c := layout(rows, cw)

	join := func(r Row, styled, header bool) string {
		loc := locCell
		if header {
			loc = cell
		}
		var parts []string
		add := func(s string, w int, fit func(string, int) string, style lipgloss.Style) {
			if w <= 0 {
				return
			}
			s = fit(s, w)
			if styled {
				s = style.Render(s)
			}
			parts = append(parts, s)
		}
		right := func(s string, w int) string {
			if pad := w - ansi.StringWidth(s); pad > 0 {
				return strings.Repeat(" ", pad) + s
			}
			return common.Fit(s, w)
		}
		add(r.Check, c.check, cell, st.Check)
		add(r.Count, c.count, right, st.Count)
		add(r.Stage, c.stage, cell, st.Text)
		add(r.Location, c.loc, loc, st.Location)
		add(r.Action, c.action, cell, st.Muted)
		return strings.Join(parts, " ")
	}

	lines := make([]string, 0, height)
	hdr := join(Row{Check: "check", Count: "#", Stage: "stage", Location: "location", Action: "action"}, false, true)
	lines = append(lines, st.Header.Render(common.Fit("  "+hdr, width)))
	for i := offset; i < len(rows) && len(lines) < height; i++ {
		if i == selected {
			sel := st.Selected
			if !focused {
				sel = st.SelectedBlurred
			}
			lines = append(lines, sel.Render(common.Fit(Cursor+join(rows[i], false, false), width)))
			continue
		}
		lines = append(lines, common.Fit("  "+join(rows[i], true, false), width))
	}
	return common.Block(lines, width, height)
}

// Follow returns the scroll offset that keeps row selected visible among
// visible rows, moving offset as little as possible, and never leaving empty
// rows at the bottom while there are rows above.
func Follow(offset, selected, n, visible int) int {
	if visible <= 0 || n == 0 {
		return 0
	}
	if selected < offset {
		offset = selected
	}
	if selected >= offset+visible {
		offset = selected - visible + 1
	}
	return max(0, min(offset, n-visible))
}

// Model is the error list pane's state.
type Model struct {
	c       *common.Common
	groups  []*session.ErrorGroup
	sel     int
	offset  int
	width   int
	height  int
	focused bool
}

// New returns an empty list pane.
func New(c *common.Common) *Model { return &Model{c: c} }

// SetSize sets the pane's inner size (without its frame).
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.follow()
}

// SetFocused says whether the pane has focus.
func (m *Model) SetFocused(f bool) { m.focused = f }

// SetGroups replaces the groups. Groups only ever get appended, so the
// selection keeps its index (clamped).
func (m *Model) SetGroups(g []*session.ErrorGroup) {
	m.groups = g
	m.Select(m.sel)
}

// Selected returns the index of the selected group (0 when empty).
func (m *Model) Selected() int { return m.sel }

// SelectedGroup returns the selected group, or nil when there is none.
func (m *Model) SelectedGroup() *session.ErrorGroup {
	if m.sel < len(m.groups) {
		return m.groups[m.sel]
	}
	return nil
}

// Select selects group i, clamped to the list.
func (m *Model) Select(i int) {
	m.sel = max(0, min(i, len(m.groups)-1))
	m.follow()
}

// Move moves the selection by d rows.
func (m *Model) Move(d int) { m.Select(m.sel + d) }

// SelectRow selects the group drawn on row y of the pane's inner area (0 is
// the header); it reports whether y was on a group.
func (m *Model) SelectRow(y int) bool {
	i := m.offset + y - HeaderRows
	if y < HeaderRows || i >= len(m.groups) {
		return false
	}
	m.Select(i)
	return true
}

func (m *Model) visible() int { return m.height - HeaderRows }

func (m *Model) follow() { m.offset = Follow(m.offset, m.sel, len(m.groups), m.visible()) }

// Update handles the movement keys; the root sends it keys only while the
// pane has focus.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k := m.c.Keys
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(msg, k.Up):
			m.Move(-1)
		case key.Matches(msg, k.Down):
			m.Move(1)
		case key.Matches(msg, k.PageUp):
			m.Move(-max(m.visible(), 1))
		case key.Matches(msg, k.PageDown):
			m.Move(max(m.visible(), 1))
		case key.Matches(msg, k.Top):
			m.Select(0)
		case key.Matches(msg, k.Bottom):
			m.Select(len(m.groups) - 1)
		}
	}
	return nil
}

// Title is the pane's title: "Errors (2 groups)".
func (m *Model) Title() string {
	if len(m.groups) == 1 {
		return "Errors (1 group)"
	}
	return fmt.Sprintf("Errors (%d groups)", len(m.groups))
}

// View draws the pane's inner area.
func (m *Model) View() string {
	return Render(m.c.Styles, m.groups, m.sel, m.offset, m.focused, m.width, m.height)
}
