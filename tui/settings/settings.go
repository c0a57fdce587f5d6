// Package settings is the settings pane: every check (in gpuav.AllChecks
// order, with its title from the check registry), then the options the
// options table shows here (options.Pane: the reserve-slot option, what a
// failed access does (skip, clamp, execute: space or enter moves to the
// next), the robust-only mode and printf, with the printf buffer size),
// for the next run (r). Checks are switched with space or enter; those the
// device cannot run are shown unavailable with the reason, and cannot be
// switched on. What the pane does not show is kept from the run.
package settings

import (
	"fmt"
	"maps"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// Option ids of the non-check rows the pane knows by name: their keys in
// the options table.
var (
	OnError = options.OnError.Key
	Robust  = options.Robust.Key
	Printf  = options.Printf.Key
)

// Scope is the id of the scope's row: shown when the run had a scope
// (scope_include, scope_exclude; the R re-run sets one), switched off it
// instruments everything in the next run.
const Scope = "scope"

// Item is one row: a check or an option.
type Item struct {
	// ID is the check id, or the option's key (options.Pane rows).
	ID string
	// Check is true for checks.
	Check bool
	// On is a switch's value for the next run.
	On bool
	// Choices are the values of a row that picks one (OnError); Value is
	// the one picked.
	Choices []string
	Value   string
	// Unavailable, when not empty, says why the device cannot run the check.
	Unavailable string
	// Bytes is the printf buffer size (Printf's row; 0: the layer's
	// default), shown and kept for the next run.
	Bytes uint32
}

// Availability says whether the device can run a check and, if not, why.
type Availability func(id string) (ok bool, reason string)

// Items lists the settings: checks in the order given, then the options
// the table shows on the pane, with their values from s.
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
	v := options.Values{Settings: s}
	for _, o := range options.With(options.Pane) {
		it := Item{ID: o.Key}
		switch o.Kind {
		case options.Enum:
			for _, c := range o.Values {
				it.Choices = append(it.Choices, c.Key)
			}
			it.Value = o.Text(&v)
		default: // a Bool (TestTableRules)
			it.On = o.Bool(&v)
		}
		if o == options.Printf {
			it.Bytes = s.PrintfBufferBytes
		}
		items = append(items, it)
	}
	if w := scopeText(&v); w != "" {
		items = append(items, Item{ID: Scope, On: true, Value: w})
	}
	return items
}

// scopeText says what a scope instruments: `only "a,b"; not "c"`; ""
// without one.
func scopeText(v *options.Values) string {
	var parts []string
	if inc := options.ScopeInclude.Text(v); inc != "" {
		parts = append(parts, fmt.Sprintf("only %q", inc))
	}
	if exc := options.ScopeExclude.Text(v); exc != "" {
		parts = append(parts, fmt.Sprintf("not %q", exc))
	}
	return strings.Join(parts, "; ")
}

// Settings turns items back into settings: base's, with the items' values.
func Settings(base session.Settings, items []Item) session.Settings {
	v := options.Values{Settings: base}
	v.Checks, v.Options = maps.Clone(base.Checks), maps.Clone(base.Options)
	if v.Checks == nil {
		v.Checks = map[string]bool{}
	}
	for _, it := range items {
		o := options.ByKey(it.ID)
		switch {
		case it.Check:
			v.Checks[it.ID] = it.On
		case it.ID == Scope && !it.On:
			delete(v.Options, options.ScopeInclude.Key)
			delete(v.Options, options.ScopeExclude.Key)
		case o == nil:
		case it.Choices != nil:
			o.Set(&v, it.Value)
		default:
			o.Set(&v, bool01(it.On))
		}
	}
	if v.Robust {
		v.OnError = string(gpuav.OnErrorClamp)
	}
	return v.Settings
}

func bool01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// choiceText draws a choice row's values, the picked one in brackets:
// "[skip] clamp execute"; under robust only clamp is offered.
func choiceText(it Item, robust bool) string {
	var parts []string
	for _, c := range it.Choices {
		switch {
		case robust && c == string(gpuav.OnErrorClamp):
			parts = append(parts, "["+c+"]")
		case robust:
			parts = append(parts, strings.Repeat(" ", len(c)+2))
		case c == it.Value:
			parts = append(parts, "["+c+"]")
		default:
			parts = append(parts, " "+c+" ")
		}
	}
	return strings.Join(parts, "")
}

// choiceNote is what a choice row says after its values: the picked
// behaviour's title, or why robust fixes it.
func choiceNote(it Item, robust bool) string {
	if robust {
		return "the robust-only mode clamps"
	}
	for _, b := range gpuav.OnErrors {
		if string(b.Value) == it.Value {
			return "failed access: " + strings.ToLower(b.Title[:1]) + b.Title[1:]
		}
	}
	return ""
}

// robustOn says whether the items switch the robust-only mode on.
func robustOn(items []Item) bool {
	for _, it := range items {
		if it.ID == Robust {
			return it.On
		}
	}
	return false
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
		note, ns := "", st.Muted
		if c := gpuav.CheckByID(it.ID); it.Check && c != nil {
			note = c.Title
		} else if o := options.ByKey(it.ID); o != nil {
			note = o.Pane
		}
		if it.Choices != nil {
			row = cur + "    " + common.Fit(it.ID, idW) + "  " + choiceText(it, robustOn(items)) + "  "
			note = choiceNote(it, robustOn(items))
		}
		if it.ID == Printf {
			note = printfNote(it)
		}
		if it.ID == Scope {
			note = "instrument " + common.Clean(it.Value)
			if !it.On {
				note = "instrument every pipeline (was: " + common.Clean(it.Value) + ")"
			}
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

// Settings returns the settings for the next run: the run's, with the
// pane's.
func (m *Model) Settings() session.Settings { return Settings(m.base, m.items) }

// Changed reports whether the settings differ from the run's.
func (m *Model) Changed() bool {
	s := m.Settings()
	base := Settings(m.base, Items(nil, m.base, nil))
	for _, it := range m.items {
		if it.Check {
			base.Checks[it.ID] = m.base.Checks[it.ID] && it.Unavailable == ""
		}
	}
	if !maps.Equal(s.Checks, base.Checks) {
		return true
	}
	vs, vb := options.Values{Settings: s}, options.Values{Settings: base}
	for _, o := range append(options.With(options.Pane), options.ScopeInclude, options.ScopeExclude) {
		if o.Text(&vs) != o.Text(&vb) {
			return true
		}
	}
	return false
}

// Selected returns the selected row.
func (m *Model) Selected() int { return m.sel }

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// Toggle switches the selected setting, or picks a choice row's next
// value; an unavailable check stays off, and on_error stays clamp under
// the robust-only mode.
func (m *Model) Toggle() {
	if m.sel >= len(m.items) || m.items[m.sel].Unavailable != "" {
		return
	}
	it := &m.items[m.sel]
	if it.Choices == nil {
		it.On = !it.On
		return
	}
	if robustOn(m.items) {
		return
	}
	next := 0
	for i, c := range it.Choices {
		if c == it.Value {
			next = (i + 1) % len(it.Choices)
		}
	}
	it.Value = it.Choices[next]
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
