package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// pausedSession is the fixture with its app paused at its first error.
func pausedSession(*testing.T) *session.Session {
	s := fixture.Session()
	s.Pauses = []session.Pause{{PID: 4242, Submit: 1, Records: 4, State: session.PausePaused}}
	return s
}

// swapSource is a Source whose session the test replaces.
type swapSource struct{ s *session.Session }

func (s *swapSource) Snapshot() *session.Session { return s.s }
func (s *swapSource) Updates() <-chan struct{}   { return nil }

// TestContinueKey: when the app pauses at its first error the first
// error is selected; c then asks the launcher to continue (once per press,
// from a command) instead of opening the compare screen, which c still
// opens when nothing is paused; a launcher that reached no paused app says
// so.
func TestContinueKey(t *testing.T) {
	calls, answer := 0, true
	src := &swapSource{s: fixture.Session()}
	o := Options{Theme: "dark", NoColor: true, Checks: fixture.Checks, Continue: func() bool { calls++; return answer }}
	m := New(src, o)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if !m.tree.SelectGroup(1) || m.Selected() != 1 {
		t.Fatal("select the second group")
	}
	// Not paused: c is compare (refused with one run), nothing continues.
	if _, cmd := m.Update(keyMsg("c")); cmd != nil || calls != 0 || !strings.Contains(plain(m), "compare needs two runs") {
		t.Fatalf("c while running: cmd %v, %d calls\n%s", cmd != nil, calls, plain(m))
	}
	src.s = pausedSession(t)
	m.Update(UpdatedMsg{})
	if m.Selected() != 0 {
		t.Errorf("paused: group %d selected, want the first error's (0)", m.Selected())
	}
	out := plain(m)
	if !strings.Contains(out, "paused at the first error — c continues") || !strings.Contains(out, "c continue") {
		t.Fatalf("paused screen:\n%s", out)
	}
	_, cmd := m.Update(keyMsg("c"))
	if cmd == nil || m.Screen() != ScreenMain || calls != 0 {
		t.Fatalf("c while paused: cmd %v, screen %v, %d calls before the command ran", cmd != nil, m.Screen(), calls)
	}
	if !strings.Contains(plain(m), "continuing the app…") {
		t.Errorf("no word that it continues:\n%s", plain(m))
	}
	msg := cmd()
	if calls != 1 {
		t.Fatalf("Continue called %d times, want 1", calls)
	}
	m.Update(msg)
	if strings.Contains(plain(m), "continuing the app…") {
		t.Errorf("the word stays after the answer")
	}
	// The launcher found nothing paused any more (the app went away).
	answer = false
	_, cmd = m.Update(keyMsg("c"))
	m.Update(cmd())
	if !strings.Contains(plain(m), "the app is no longer paused") {
		t.Errorf("no word that nothing was paused:\n%s", plain(m))
	}
	// The selection is the user's again while the same stop lasts.
	m.tree.SelectGroup(1)
	m.Update(UpdatedMsg{})
	if m.Selected() != 1 {
		t.Errorf("the same stop moved the selection to %d", m.Selected())
	}
	// Continued: c is compare again.
	s := pausedSession(t)
	s.Pauses[0].State = session.PauseContinued
	src.s = s
	m.Update(UpdatedMsg{})
	if _, cmd := m.Update(keyMsg("c")); cmd != nil || calls != 2 || strings.Contains(plain(m), "paused at the first error") {
		t.Fatalf("c after continue: cmd %v, %d calls\n%s", cmd != nil, calls, plain(m))
	}
}
