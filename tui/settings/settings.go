// Package settings is the settings pane: every check (in gpuav.AllChecks
// order, with its title from the check registry), the reserve-slot option, safe mode and printf (with the
// printf buffer size), each switched with space or
// enter, for the next run (r). Checks the device cannot run are shown
// unavailable with the reason, and cannot be switched on.
package settings

import (
	"fmt"
	"maps"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// Option ids of the non-check settings.
const (
	ReserveSlot = "reserve_slot"
	SafeMode    = "safe_mode"
	Printf      = "printf"
)

// Item is one row: a check or an option.
type Item struct {
	// ID is the check id, or ReserveSlot / SafeMode.
	ID string
	// Check is true for checks.
	Check bool
	// On is the setting's value for the next run.
	On bool
	// Unavailable, when not empty, says why the device cannot run the check.
	Unavailable string
	// Bytes is the printf buffer size (Printf's row; 0: the layer's
	// default), shown and kept for the next run.
	Bytes uint32
}

// Availability says whether the device can run a check and, if not, why.
type Availability func(id string) (ok bool, reason string)

// descriptions of the options.
var descriptions = map[string]string{
	ReserveSlot: "report maxBoundDescriptorSets − 1 so our set never conflicts",
	SafeMode:    "skip a faulty access (zero/safe value) instead of doing it",
}

// Items lists the settings: checks in the order given, then the options,
// with their values from s.
func Items(checks []string, s session.Settings, avail Availability) []Item {
	items := make([]Item, 0, len(checks)+2)
	for _, id := range checks {
		it := Item{ID: id, Check: true, On: s.Checks[id]}
		if avail != nil {
			if ok, why := avail(id); !ok {
				if why == "" {
					why = "not supported by the device"
				}
				it.Unavailable, it.On = why, false
			}
		}
		items = append(items, it)
	}
	return append(items, Item{ID: ReserveSlot, On: s.ReserveSlot}, Item{ID: SafeMode, On: s.SafeMode},
		Item{ID: Printf, On: !s.PrintfOff, Bytes: s.PrintfBufferBytes})
}

// Settings turns items back into settings.
func Settings(items []Item) session.Settings {
	s := session.Settings{Checks: map[string]bool{}}
	for _, it := range items {
		switch {
		case it.Check:
			s.Checks[it.ID] = it.On
		case it.ID == ReserveSlot:
			s.ReserveSlot = it.On
		case it.ID == SafeMode:
			s.SafeMode = it.On
		case it.ID == Printf:
			s.PrintfOff, s.PrintfBufferBytes = !it.On, it.Bytes
		}
	}
	return s
}

// Render draws the items, the selected one with the cursor, and a footer
// saying what r does (rerun says whether it can), exactly width×height.
func Render(st *common.Styles, items []Item, selected int, changed, rerun bool, width, height int) string {
	idW := 0
	for _, it := range items {
		idW = max(idW, len(it.ID))
	}
	var lines []string
	lines = append(lines, st.Bold.Render("Checks"))
	for i, it := range items {
		if !it.Check && (i == 0 || items[i-1].Check) {
			lines = append(lines, "", st.Bold.Render("Options"))
		}
		box := "[ ]"
		if it.On {
			box = "[x]"
		}
		cur := "  "
		if i == selected {
			cur = "› "
		}
		row := cur + box + " " + common.Fit(it.ID, idW) + "  "
		note, ns := descriptions[it.ID], st.Muted
		if c := gpuav.CheckByID(it.ID); it.Check && c != nil {
			note = c.Title
		}
		if it.ID == Printf {
			note = printfNote(it)
		}
		if it.Unavailable != "" {
			box = "[-]"
			row = cur + box + " " + common.Fit(it.ID, idW) + "  "
			note, ns = "unavailable: "+it.Unavailable, st.Warning
		}
		if i == selected {
			lines = append(lines, st.Selected.Render(common.Fit(row+note, width)))
			continue
		}
		lines = append(lines, row+ns.Render(note))
	}
	lines = append(lines, "")
	note, ns := "space/enter switches; r runs the app again with these settings", st.Muted
	switch {
	case !rerun:
		note = "re-run is not available here (a saved session): change the settings with gpuav-dbg run --check"
	case changed:
		note, ns = "changed: press r to run the app again with these settings", st.Warning
	}
	for _, l := range common.Lines(ansi.Wrap(note, width, "")) {
		lines = append(lines, ns.Render(l))
	}
	return common.Block(lines, width, height)
}

// Model is the settings pane's state.
type Model struct {
	c             *common.Common
	items         []Item
	base          session.Settings
	sel           int
	rerun         bool
	width, height int
}

// New returns the settings pane; rerun says whether r can run the app again.
func New(c *common.Common, rerun bool) *Model { return &Model{c: c, rerun: rerun} }

// Reset shows the settings s of a run, for checks in order.
func (m *Model) Reset(checks []string, s session.Settings, avail Availability) {
	m.base = s
	m.items = Items(checks, s, avail)
	m.sel = max(0, min(m.sel, len(m.items)-1))
}

// Items returns the rows.
func (m *Model) Items() []Item { return m.items }

// Settings returns the settings for the next run.
func (m *Model) Settings() session.Settings { return Settings(m.items) }

// Changed reports whether the settings differ from the run's.
func (m *Model) Changed() bool {
	s := m.Settings()
	base := session.Settings{Checks: map[string]bool{}, ReserveSlot: m.base.ReserveSlot, SafeMode: m.base.SafeMode,
		PrintfOff: m.base.PrintfOff}
	for _, it := range m.items {
		if it.Check {
			base.Checks[it.ID] = m.base.Checks[it.ID] && it.Unavailable == ""
		}
	}
	return s.ReserveSlot != base.ReserveSlot || s.SafeMode != base.SafeMode || s.PrintfOff != base.PrintfOff ||
		!maps.Equal(s.Checks, base.Checks)
}

// Selected returns the selected row.
func (m *Model) Selected() int { return m.sel }

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// Toggle switches the selected setting; an unavailable check stays off.
func (m *Model) Toggle() {
	if m.sel < len(m.items) && m.items[m.sel].Unavailable == "" {
		m.items[m.sel].On = !m.items[m.sel].On
	}
}

// Update moves the selection and switches settings: the keys of
// [Model.FullHelp], and a left click on a row (in the pane's coordinates)
// selects and switches it.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k := m.c.Keys
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft && m.SelectRow(msg.Y) {
			m.Toggle()
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			m.sel = max(m.sel-1, 0)
		case key.Matches(msg, k.Down):
			m.sel = min(m.sel+1, len(m.items)-1)
		case key.Matches(msg, k.Top):
			m.sel = 0
		case key.Matches(msg, k.Bottom):
			m.sel = len(m.items) - 1
		case key.Matches(msg, k.Toggle, k.Open):
			m.Toggle()
		}
	}
	return nil
}

// ShortHelp is the footer's help: move, switch.
func (m *Model) ShortHelp() []key.Binding {
	k := m.c.Keys
	return []key.Binding{k.Down, k.Up, common.WithHelp(k.Toggle, "switch")}
}

// FullHelp lists every key the pane handles.
func (m *Model) FullHelp() [][]key.Binding {
	k := m.c.Keys
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom}, {common.WithHelp(k.Toggle, "switch"), common.WithHelp(k.Open, "switch")}}
}

// SelectRow selects the item drawn on line y of the pane; it reports
// whether y was on an item.
func (m *Model) SelectRow(y int) bool {
	row := 1 // "Checks"
	for i, it := range m.items {
		if !it.Check && (i == 0 || m.items[i-1].Check) {
			row += 2
		}
		if row == y {
			m.sel = i
			return true
		}
		row++
	}
	return false
}

// Title is the pane's title.
func (m *Model) Title() string { return "Settings for the next run" }

// View draws the pane's inner area.
func (m *Model) View() string {
	return Render(m.c.Styles, m.items, m.sel, m.Changed(), m.rerun, m.width, m.height)
}

// printfNote describes the printf row: what it does and the buffer size.
func printfNote(it Item) string {
	size := "the layer's default size"
	if it.Bytes != 0 {
		size = fmt.Sprintf("%d bytes", it.Bytes)
	}
	return "print debugPrintfEXT lines (off: the calls are removed); printf buffer: " + size + " per command buffer"
}
