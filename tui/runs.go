package tui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/compare"
	"github.com/gpuav-dbg/gpuav-dbg/tui/status"
)

// This file is the history of runs: the first run's source and those that
// re-runs (r) added, their snapshots, and switching between them.

// run is one run of the history.
type run struct {
	src Source
	s   *session.Session
	// disasm caches the shaders' disassembly (SPIR-V does not change).
	disasm map[uint32]*session.Disassembly
	// next is the earliest time to take the next snapshot (see pace).
	next time.Time
}

// snapshotMsg is a snapshot of run i, taken when its Source's channel
// said the session changed. It is taken in a command, off the event loop,
// so that keys never wait for a copy of a large session; took is how long
// that copy took.
type snapshotMsg struct {
	run  int
	s    *session.Session
	took time.Duration
}

// MinSnapshotInterval is the shortest time between two snapshots of a live
// run: the screen follows a stream of records at up to 10 frames a second.
const MinSnapshotInterval = 100 * time.Millisecond

// pace is the wait before run r's next snapshot: at least
// MinSnapshotInterval, and twice what the last one cost (copying it and
// showing it), so that a large session streaming records leaves the event
// loop free most of the time.
func pace(took, applied time.Duration) time.Duration {
	return max(MinSnapshotInterval, 2*(took+applied))
}

// rerunMsg is the result of Options.Rerun.
type rerunMsg struct {
	src Source
	err error
}

// listen waits for the next notice on run i's channel and then, no sooner
// than the run's pace allows, takes a snapshot: notices that arrive
// meanwhile are one (the channel holds one).
func (m *Model) listen(i int) tea.Cmd {
	r := m.runs[i]
	ch := r.src.Updates()
	if ch == nil {
		return nil
	}
	src, next := r.src, r.next
	return func() tea.Msg {
		if _, ok := <-ch; !ok {
			return nil
		}
		if d := time.Until(next); d > 0 {
			time.Sleep(d)
		}
		start := time.Now()
		s := src.Snapshot()
		return snapshotMsg{run: i, s: s, took: time.Since(start)}
	}
}

// applySnapshot shows a snapshot taken by listen and listens again.
func (m *Model) applySnapshot(msg snapshotMsg) tea.Cmd {
	if msg.run >= len(m.runs) {
		return nil
	}
	start := time.Now()
	r := m.runs[msg.run]
	cmd := m.take(msg.run, msg.s)
	r.next = time.Now().Add(pace(msg.took, time.Since(start)))
	return tea.Batch(cmd, m.listen(msg.run))
}

// refresh takes a new snapshot of run i now (at start, and on UpdatedMsg).
func (m *Model) refresh(i int) tea.Cmd { return m.take(i, m.runs[i].src.Snapshot()) }

// take makes s run i's snapshot; when it is the run shown, the panes get
// it.
func (m *Model) take(i int, s *session.Session) tea.Cmd {
	if s == nil {
		s = &session.Session{}
	}
	m.runs[i].s = s
	if i != m.cur {
		return nil
	}
	return m.show()
}

// show hands the current run's snapshot to the panes.
func (m *Model) show() tea.Cmd {
	prev := m.s
	m.s = m.runs[m.cur].s
	m.records = recount(m.records, prev, m.s)
	m.tree.SetGroups(m.s.Groups) // the filter in force applies to new groups
	m.showPause()
	m.setCounts()
	m.log.SetSession(m.s)
	m.printf.SetSession(m.s)
	m.status.SetRun(m.runLabel())
	cmd := m.status.SetSession(m.s)
	m.sync(true)
	if m.screen == ScreenCompare {
		m.setCompare()
	}
	return cmd
}

// recount returns the records of s's groups, given those of prev's
// (nil: none): only the groups that are not prev's look again. Snapshots
// of a live session share the groups that did not change, so a snapshot
// of a large session is counted without reading every group.
func recount(records int, prev, s *session.Session) int {
	var old []*session.ErrorGroup
	if prev != nil {
		old = prev.Groups
	}
	for i, g := range s.Groups {
		if i < len(old) && old[i] == g {
			continue
		}
		if i < len(old) {
			records -= old[i].Count
		}
		records += g.Count
	}
	for _, g := range old[min(len(old), len(s.Groups)):] {
		records -= g.Count
	}
	return records
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
	m.compare.Set(compare.Run{Name: fmt.Sprintf("run %d", a+1), S: m.runs[a].s},
		compare.Run{Name: fmt.Sprintf("run %d", b+1), S: m.runs[b].s}, a, b)
}

// openCompared shows a group the compare view picked: its run, the main
// screen, the group selected.
func (m *Model) openCompared(msg compare.OpenMsg) {
	if msg.Run < 0 || msg.Run >= len(m.runs) {
		return
	}
	m.switchRun(msg.Run)
	m.screen = ScreenMain
	if !m.tree.SelectGroup(msg.Group) {
		m.flash = "that error is hidden by the filter (esc clears it)"
	}
	m.sync(false)
}

// switchRun shows run i of the history.
func (m *Model) switchRun(i int) {
	if i < 0 || i >= len(m.runs) || i == m.cur {
		return
	}
	m.cur = i
	m.shown = -1
	m.log.Clear()
	m.tree.Reset()
	m.show()
	m.settings.Reset(m.opts.Checks, m.s.Settings, availability(m.s))
}

// confirmation is a question the user answers with y or n before
// anything else.
type confirmation struct {
	title string
	text  []string
	yes   func() tea.Cmd
}

// lines are the question's lines wrapped to width, then its answers.
func (c *confirmation) lines(st *common.Styles, width int) []string {
	var out []string
	for _, t := range c.text {
		out = append(out, common.Lines(ansi.Wrap(t, min(width, 64), ""))...)
	}
	return append(out, "", st.Bold.Render("y/enter")+" stop it and re-run   "+st.Bold.Render("n/esc")+" keep it running")
}

// answer handles a key while a question is asked: yes runs its action, no
// drops it, any other key is ignored.
func (m *Model) answer(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.Yes):
		c := m.confirm
		m.confirm = nil
		return c.yes()
	case key.Matches(msg, k.No), key.Matches(msg, k.Quit):
		m.confirm = nil
		m.flash = "re-run cancelled: the app keeps running"
	}
	return nil
}

// rerun runs the app again with the settings pane's settings; while an app
// still runs, it asks first, and stops it before the new run starts.
func (m *Model) rerun() tea.Cmd {
	if m.opts.Rerun == nil {
		m.flash = "re-run is not available for a saved session"
		return nil
	}
	return m.rerunWith(m.settings.Settings())
}

// rerunErrors is rerun instrumenting only the pipelines that reported
// errors in the run shown: the settings pane's settings with their scope
// (session.ErrorScope; docs/decisions/scope-by-name.md).
func (m *Model) rerunErrors() tea.Cmd {
	if m.opts.Rerun == nil {
		m.flash = "re-run is not available for a saved session"
		return nil
	}
	include, unnamed := m.s.ErrorScope()
	if include == "" {
		m.flash = "no pipeline reported errors in this run: nothing to scope a re-run to"
		return nil
	}
	cmd := m.rerunWith(session.WithScope(m.settings.Settings(), include))
	if unnamed > 0 && m.confirm == nil {
		m.flash = fmt.Sprintf("scope %s: %d error %s no pipeline name or shader to scope by", include, unnamed,
			plural(unnamed, "group has", "groups have"))
	}
	return cmd
}

// rerunWith runs the app again with set.
func (m *Model) rerunWith(set session.Settings) tea.Cmd {
	if m.rerunning != "" {
		return nil
	}
	rr := m.opts.Rerun
	if !rr.Running() {
		m.rerunning = "re-running the app…"
		return func() tea.Msg {
			src, err := rr.Rerun(set)
			return rerunMsg{src: src, err: err}
		}
	}
	what := "The app is still running"
	if a := m.s.App; status.Live(a) && a.PID != 0 {
		what = fmt.Sprintf("The app is still running (%s, pid %d)", common.Clean(a.Path), a.PID)
	}
	m.confirm = &confirmation{
		title: "Re-run",
		text:  []string{what + ".", "Stop it (SIGTERM, then SIGKILL) and run it again with " + scopeWords(set) + "?"},
		yes: func() tea.Cmd {
			m.rerunning = "stopping the app, then re-running it…"
			return func() tea.Msg {
				if err := rr.Stop(); err != nil {
					return rerunMsg{err: fmt.Errorf("stop the running app: %w", err)}
				}
				src, err := rr.Rerun(set)
				return rerunMsg{src: src, err: err}
			}
		},
	}
	return nil
}

// rerunDone adds a new run to the history and shows it.
func (m *Model) rerunDone(msg rerunMsg) tea.Cmd {
	m.rerunning = ""
	if msg.err != nil {
		m.flash = "re-run failed: " + common.Clean(msg.err.Error())
		if msg.src == nil {
			return nil
		}
	}
	if msg.src == nil {
		return nil
	}
	m.runs = append(m.runs, &run{src: msg.src})
	m.cur = len(m.runs) - 1
	m.screen = ScreenMain
	m.shown = -1
	m.log.Clear()
	m.tree.Reset()
	cmd := m.refresh(m.cur)
	m.settings.Reset(m.opts.Checks, m.s.Settings, availability(m.s))
	return tea.Batch(cmd, m.listen(m.cur))
}

// scopeWords is what the re-run question calls its settings: "the
// settings", and the scope they instrument when they have one.
func scopeWords(set session.Settings) string {
	v := options.Values{Settings: set}
	if inc := options.ScopeInclude.Text(&v); inc != "" {
		return "the settings, instrumenting only " + common.Clean(inc)
	}
	return "the settings"
}
