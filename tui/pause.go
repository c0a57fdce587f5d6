package tui

import (
	tea "charm.land/bubbletea/v2"
)

// Stopping at the first error (--stop-on-error): while the layer keeps the
// app paused, the status bar says so, the error is selected, and c lets
// the app continue (Options.Continue); c is Compare otherwise.

// continuedMsg is the answer of Options.Continue: whether a paused app was
// reached.
type continuedMsg struct{ ok bool }

// canContinue reports whether c continues: the run shown is the latest
// (the one the launcher can reach), its app is paused, and the launcher
// can continue it.
func (m *Model) canContinue() bool {
	return m.opts.Continue != nil && m.cur == len(m.runs)-1 && m.s.Paused() != nil
}

// continueApp asks the launcher to let the paused app continue.
func (m *Model) continueApp() tea.Cmd {
	f := m.opts.Continue
	m.flash = "continuing the app…"
	return func() tea.Msg { return continuedMsg{ok: f()} }
}

// continued reads the launcher's answer; the next snapshot shows the app
// running again.
func (m *Model) continued(msg continuedMsg) {
	m.flash = ""
	if !msg.ok {
		m.flash = "the app is no longer paused"
	}
}

// showPause selects the first error group when the app has just paused at
// its first error (the groups the session has then are that
// submission's: the first records pause), and clears a one-time message
// that would hide the paused state.
func (m *Model) showPause() {
	p := m.s.Paused()
	if p == nil || *p == m.pauseShown {
		return
	}
	m.pauseShown = *p
	m.flash = ""
	if len(m.s.Groups) > 0 {
		m.tree.SelectGroup(0)
	}
}
