package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// This file is the history of runs: the first run's source and those that
// re-runs (r) added, their snapshots, and switching between them.

// run is one run of the history.
type run struct {
	src Source
	s   *session.Session
	// disasm caches the shaders' disassembly (SPIR-V does not change).
	disasm map[uint32]*session.Disassembly
}

// updatesMsg is a notice that came through run's Source channel; the model
// listens again after each.
type updatesMsg struct{ run int }

// rerunMsg is the result of Options.Rerun.
type rerunMsg struct {
	src Source
	err error
}

// listen waits for the next notice on run i's channel.
func (m *Model) listen(i int) tea.Cmd {
	ch := m.runs[i].src.Updates()
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		if _, ok := <-ch; !ok {
			return nil
		}
		return updatesMsg{run: i}
	}
}

// refresh takes a new snapshot of run i; when it is the run shown, the
// panes get it.
func (m *Model) refresh(i int) tea.Cmd {
	r := m.runs[i]
	s := r.src.Snapshot()
	if s == nil {
		s = &session.Session{}
	}
	r.s = s
	if i != m.cur {
		return nil
	}
	return m.show()
}

// show hands the current run's snapshot to the panes.
func (m *Model) show() tea.Cmd {
	m.s = m.runs[m.cur].s
	m.tree.SetGroups(m.s.Groups)
	if m.filter != "" {
		m.applyFilter(m.filter)
	}
	m.log.SetSession(m.s)
	m.status.SetRun(m.runLabel())
	cmd := m.status.SetSession(m.s)
	m.sync(true)
	if m.screen == ScreenCompare {
		m.setCompare()
	}
	return cmd
}

// runLabel is "run 2/3" once there is a history.
func (m *Model) runLabel() string {
	if len(m.runs) < 2 {
		return ""
	}
	return fmt.Sprintf("run %d/%d", m.cur+1, len(m.runs))
}

// setCompare compares the run shown with the one before it (run 1 with run
// 2 when run 1 is shown).
func (m *Model) setCompare() {
	if len(m.runs) < 2 {
		return
	}
	a, b := m.cur-1, m.cur
	if a < 0 {
		a, b = 0, 1
	}
	m.compare.Set(m.runs[a].s, m.runs[b].s, fmt.Sprintf("run %d", a+1), fmt.Sprintf("run %d", b+1))
}

// switchRun shows run i of the history.
func (m *Model) switchRun(i int) {
	if i < 0 || i >= len(m.runs) || i == m.cur {
		return
	}
	m.cur = i
	m.shown = -1
	m.show()
	m.settings.Reset(m.opts.Checks, m.s.Settings, availability(m.s))
}

// rerun runs the app again with the settings pane's settings.
func (m *Model) rerun() tea.Cmd {
	if m.opts.Rerun == nil {
		m.flash = "re-run is not available for a saved session"
		return nil
	}
	if m.rerunning {
		return nil
	}
	m.rerunning = true
	set, fn := m.settings.Settings(), m.opts.Rerun
	return func() tea.Msg {
		src, err := fn(set)
		return rerunMsg{src: src, err: err}
	}
}

// rerunDone adds a new run to the history and shows it.
func (m *Model) rerunDone(msg rerunMsg) tea.Cmd {
	m.rerunning = false
	if msg.err != nil {
		m.flash = "re-run failed: " + msg.err.Error()
		return nil
	}
	if msg.src == nil {
		return nil
	}
	m.runs = append(m.runs, &run{src: msg.src})
	m.cur = len(m.runs) - 1
	m.screen = ScreenMain
	m.shown = -1
	cmd := m.refresh(m.cur)
	m.settings.Reset(m.opts.Checks, m.s.Settings, availability(m.s))
	return tea.Batch(cmd, m.listen(m.cur))
}
