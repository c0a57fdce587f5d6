package status

import (
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

func TestStateText(t *testing.T) {
	for _, tc := range []struct {
		app  session.App
		want string
	}{
		{session.App{}, "starting"},
		{session.App{State: session.AppStarting}, "starting"},
		{session.App{State: session.AppRunning}, "running"},
		{session.App{State: session.AppExited}, "exited 0"},
		{session.App{State: session.AppExited, ExitCode: 3}, "exited 3"},
		{session.App{State: session.AppCrashed, Signal: "SIGSEGV"}, "crashed (SIGSEGV)"},
		{session.App{State: session.AppCrashed}, "crashed"},
		{session.App{State: session.AppFailed}, "failed to start"},
	} {
		if got := StateText(tc.app); got != tc.want {
			t.Errorf("StateText(%+v) = %q, want %q", tc.app, got, tc.want)
		}
	}
}

func render(s *session.Session, w int) string {
	return fixture.ASCII(Render(fixture.Styles(), s, "⠋", "", countsOf(s), w))
}

func countsOf(s *session.Session) Counts {
	return Counts{Groups: len(s.Groups), Records: Records(s.Groups)}
}

func TestRenderRunning(t *testing.T) { golden.RequireEqual(t, render(fixture.Session(), 120)) }

// At the 60-column minimum the help is cut with an ellipsis.
func TestRenderNarrow(t *testing.T) { golden.RequireEqual(t, render(fixture.Session(), 60)) }

func TestRenderCrashed(t *testing.T) {
	s := fixture.Session()
	s.App.State, s.App.Signal = session.AppCrashed, "SIGSEGV"
	s.Dropped = 12
	s.Notices = append(s.Notices, fixture.Notice("shader 3 left uninstrumented"))
	golden.RequireEqual(t, render(s, 120))
}

func TestRenderExited(t *testing.T) {
	golden.RequireEqual(t, render(fixture.Empty(session.AppExited), 100))
}

func TestRenderWidthIsExact(t *testing.T) {
	for _, w := range []int{1, 10, 30, 59, 60, 61, 200} {
		if got := ansi.StringWidth(render(fixture.Session(), w)); got != w {
			t.Errorf("width %d: bar is %d cells", w, got)
		}
	}
}

func TestSpinnerRunsOnlyWhileLive(t *testing.T) {
	m := New(fixture.Common())
	if cmd := m.SetSession(fixture.Session()); cmd == nil {
		t.Fatal("running app: no spinner tick")
	}
	if cmd := m.SetSession(fixture.Session()); cmd != nil {
		t.Fatal("still running: a second tick chain started")
	}
	tick, ok := m.spinner.Tick().(spinner.TickMsg)
	if !ok {
		t.Fatal("no tick message")
	}
	if cmd := m.Update(tick); cmd == nil {
		t.Fatal("running: the tick did not schedule the next")
	}
	if cmd := m.SetSession(fixture.Empty(session.AppExited)); cmd != nil {
		t.Fatal("exited: spinner started")
	}
	if cmd := m.Update(tick); cmd != nil {
		t.Fatal("exited: the spinner kept ticking")
	}
	var _ tea.Cmd = m.Init()
}
