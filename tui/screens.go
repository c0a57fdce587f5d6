package tui

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
)

// screenEntry is one row of the screen table: a screen, the key that opens
// and closes it, its panes in focus order, and where they go.
//
// Adding a screen is a package implementing [common.Component] and one
// entry here; adding a pane to a screen is a package and one more element
// of its panes (and a rectangle from its layout).
type screenEntry struct {
	id Screen
	// toggle is the key that opens and closes the screen; nil for the main
	// screen, which esc returns to.
	toggle func(*keys.KeyMap) key.Binding
	// panes are the screen's components in focus order: for the main
	// screen, indexed by [Pane].
	panes []common.Component
	// layout places the panes in the body: one rectangle per pane.
	layout func(screenLayout) []rect
	// open prepares the screen before it shows; a non-empty answer refuses
	// to open it and is shown in the status bar.
	open func(m *Model) string
	// keys are the screen's own keys for the footer, after the focused
	// pane's.
	keys func(m *Model) []key.Binding
}

// screenTable is the TUI's screens.
func (m *Model) screenTable() []screenEntry {
	full := func(l screenLayout) []rect { return []rect{l.full} }
	short := common.WithHelp
	back := func(m *Model) []key.Binding { return []key.Binding{short(m.c.Keys.Back, "close")} }
	return []screenEntry{
		{id: ScreenMain, panes: []common.Component{m.tree, m.detail, m.source},
			layout: func(l screenLayout) []rect { return []rect{l.list, l.detail, l.source} },
			keys:   (*Model).mainKeys},
		{id: ScreenLog, toggle: func(k *keys.KeyMap) key.Binding { return k.Log },
			panes: []common.Component{m.log}, layout: full, keys: back},
		{id: ScreenSettings, toggle: func(k *keys.KeyMap) key.Binding { return k.Settings },
			panes: []common.Component{m.settings}, layout: full,
			open: func(m *Model) string {
				m.settings.Reset(m.opts.Checks, m.s.Settings, availability(m.s))
				return ""
			},
			keys: func(m *Model) []key.Binding {
				if m.opts.Rerun == nil {
					return back(m)
				}
				return append([]key.Binding{short(m.c.Keys.Rerun, "re-run"), short(m.c.Keys.RerunErrors, "re-run the erring pipelines")},
					back(m)...)
			}},
		{id: ScreenCompare, toggle: func(k *keys.KeyMap) key.Binding { return k.Compare },
			panes: []common.Component{m.compare}, layout: full,
			open: func(m *Model) string {
				if len(m.runs) >= 2 {
					m.setCompare()
					return ""
				}
				if m.opts.Rerun == nil {
					return "compare needs two runs: this saved session has one (re-run from gpuav-dbg run, with s and r)"
				}
				return "compare needs two runs: change the settings (s) and re-run (r)"
			},
			keys: func(m *Model) []key.Binding {
				return append([]key.Binding{short(m.c.Keys.PrevRun, "earlier runs"), short(m.c.Keys.NextRun, "later runs")}, back(m)...)
			}},
		{id: ScreenPrintf, toggle: func(k *keys.KeyMap) key.Binding { return k.Printf },
			panes: []common.Component{m.printf}, layout: full,
			open: func(m *Model) string {
				if len(m.s.Printf) == 0 {
					return "no printf lines in this run: its shaders printed nothing (debugPrintfEXT)"
				}
				return ""
			},
			keys: back},
	}
}

// capturing reports whether the focused pane takes every key (a text
// input of its own is open).
func (m *Model) capturing() bool {
	c, ok := m.focused().(interface{ Capturing() bool })
	return ok && c.Capturing()
}

// footerKeys are the footer's keys: the question's answers while one is
// asked, the overlay's while it shows, else help, the focused pane's, the
// screen's, quit.
func (m *Model) footerKeys() []key.Binding {
	k := m.c.Keys
	switch {
	case m.confirm != nil:
		return []key.Binding{k.Yes, k.No}
	case m.showHelp:
		return m.help.ShortHelp()
	case m.capturing():
		return m.focused().ShortHelp()
	}
	out := []key.Binding{k.Help}
	if m.canContinue() {
		out = append(out, common.WithHelp(k.Continue, "continue"))
	}
	out = append(out, m.focused().ShortHelp()...)
	if e := m.entry(); e.keys != nil {
		out = append(out, e.keys(m)...)
	}
	return append(out, k.Quit)
}

// entry returns the screen shown.
func (m *Model) entry() *screenEntry {
	for i := range m.screens {
		if m.screens[i].id == m.screen {
			return &m.screens[i]
		}
	}
	return &m.screens[0]
}

// toggledBy returns the screen whose key msg is, nil when none.
func (m *Model) toggledBy(msg tea.KeyPressMsg) *screenEntry {
	for i := range m.screens {
		e := &m.screens[i]
		if e.toggle != nil && key.Matches(msg, e.toggle(m.c.Keys)) {
			return e
		}
	}
	return nil
}

// toggle closes screen e when it shows and opens it otherwise, unless its
// open hook refuses.
func (m *Model) toggle(e *screenEntry) {
	if m.screen == e.id {
		m.screen = ScreenMain
		return
	}
	if e.open != nil {
		if why := e.open(m); why != "" {
			m.flash = why
			return
		}
	}
	m.screen = e.id
}

// focused returns the pane with the keyboard: the main screen's focused
// pane, or a full-size screen's only one.
func (m *Model) focused() common.Component {
	e := m.entry()
	if e.id == ScreenMain {
		return e.panes[m.focus]
	}
	return e.panes[0]
}

// handles reports whether c declares msg among its keys (its full help),
// which is what routes the key to it before the root's own keys.
func handles(c common.Component, msg tea.KeyPressMsg) bool {
	return key.Matches(msg, common.Bindings(c.FullHelp())...)
}

// screenKey handles a key that is not global: the focused pane's keys
// first, then esc back to the main screen, then the main screen's keys.
func (m *Model) screenKey(msg tea.KeyPressMsg) tea.Cmd {
	if p := m.focused(); handles(p, msg) {
		cmd := p.Update(msg)
		m.sync(false)
		return cmd
	}
	if m.screen != ScreenMain {
		if key.Matches(msg, m.c.Keys.Back) {
			m.screen = ScreenMain
		}
		return nil
	}
	return m.mainKey(msg)
}

// setFocus focuses pane p of the main screen (wrapping around); panes
// that draw their focus are told.
func (m *Model) setFocus(p Pane) {
	panes := m.screens[0].panes // the main screen
	m.focus = Pane((int(p) + len(panes)) % len(panes))
	for i, c := range panes {
		if f, ok := c.(interface{ SetFocused(bool) }); ok {
			f.SetFocused(i == int(m.focus))
		}
	}
}

// mouse sends a click or a wheel turn to the pane under it, in the pane's
// own coordinates; a click on the main screen also focuses that pane. The
// wheel over the help overlay scrolls it.
func (m *Model) mouse(msg tea.Msg) tea.Cmd {
	l := m.lay
	if !l.ok || m.confirm != nil {
		return nil
	}
	if m.showHelp {
		if _, wheel := msg.(tea.MouseWheelMsg); wheel {
			return m.help.Update(msg)
		}
		return nil
	}
	var ms tea.Mouse
	switch v := msg.(type) {
	case tea.MouseClickMsg:
		if v.Button != tea.MouseLeft {
			return nil
		}
		ms = tea.Mouse(v)
	case tea.MouseWheelMsg:
		ms = tea.Mouse(v)
	}
	e := m.entry()
	for i, r := range e.layout(l) {
		if !r.contains(ms.X, ms.Y) {
			continue
		}
		if _, click := msg.(tea.MouseClickMsg); click && e.id == ScreenMain {
			m.setFocus(Pane(i))
		}
		cmd := e.panes[i].Update(common.Relative(msg, r.x+1, r.y+1))
		m.sync(false)
		return cmd
	}
	return nil
}

// relayout lays the screen out for the terminal's size, the focus and the
// tree's width, and gives the panes whose rectangle changed their new size.
func (m *Model) relayout() {
	l := computeLayout(m.c.Width, m.c.Height, m.tree.NeededWidth()+2, len(m.tree.Rows())+2, m.focus)
	if l == m.lay {
		return
	}
	old := m.lay
	m.lay = l
	for _, e := range m.screens {
		was := e.layout(old)
		for i, r := range e.layout(l) {
			if r != was[i] || !old.ok {
				e.panes[i].SetSize(r.inner())
			}
		}
	}
	m.status.SetSize(m.c.Width, 1)
	m.help.SetSize(max(m.c.Width-4, 1), max(l.bodyHeight-2, 1))
}

// renderScreen draws the screen shown: each pane framed at its rectangle,
// the focused one highlighted, the frames joined row by row.
func (m *Model) renderScreen(l screenLayout) string {
	e := m.entry()
	focused := m.focused()
	type placed struct {
		r     rect
		lines []string
	}
	var ps []placed
	for i, r := range e.layout(l) {
		c := e.panes[i]
		frame := common.FrameMore(m.c.Styles, c.Title(), c.View(), r.w, r.h, c == focused, common.MoreOf(c))
		ps = append(ps, placed{r, common.Lines(frame)})
	}
	sort.SliceStable(ps, func(a, b int) bool { return ps[a].r.x < ps[b].r.x })
	rows := make([]string, l.bodyHeight)
	for y := range rows {
		var b strings.Builder
		for _, p := range ps {
			if y >= p.r.y && y < p.r.y+p.r.h {
				b.WriteString(p.lines[y-p.r.y])
			}
		}
		rows[y] = b.String()
	}
	return strings.Join(rows, "\n")
}
