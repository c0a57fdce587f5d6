package status

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/themes"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
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
		{session.App{State: "stopped", Signal: "SIGTERM"}, "stopped by you"},
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

func TestRenderRunning(t *testing.T) { fixture.Golden(t, render(fixture.Session(), 120)) }

// At the 60-column minimum the help is cut with an ellipsis.
func TestRenderNarrow(t *testing.T) { fixture.Golden(t, render(fixture.Session(), 60)) }

func TestRenderCrashed(t *testing.T) {
	s := fixture.Session()
	s.App.State, s.App.Signal = session.AppCrashed, "SIGSEGV"
	s.Dropped = 12
	s.Notices = append(s.Notices, fixture.Notice("shader 3 left uninstrumented"))
	fixture.Golden(t, render(s, 120))
}

// TestOnErrorText: the run's failed-access behaviour in the bar; clamp,
// execute and robust stay when the bar is too narrow for the default's.
func TestOnErrorText(t *testing.T) {
	for _, tc := range []struct {
		onError  string
		robust   bool
		want     string
		keptAt75 bool
	}{
		{"", false, "on error: skip", false},
		{"skip", false, "on error: skip", false},
		{"clamp", false, "on error: clamp", true},
		{"execute", false, "on error: execute", true},
		{"clamp", true, "robust only", true},
	} {
		set := fixture.Settings()
		set.OnError, set.Robust = tc.onError, tc.robust
		if got := OnErrorText(set); got != tc.want {
			t.Errorf("OnErrorText(%q, robust %v) = %q, want %q", tc.onError, tc.robust, got, tc.want)
		}
		s := fixture.Session()
		s.Settings = set
		if wide := render(s, 200); !strings.Contains(wide, "checks 1/4 │ "+tc.want+" │") {
			t.Errorf("%q: bar at 200 columns lacks it:\n%s", tc.want, wide)
		}
		if narrow := render(s, 75); strings.Contains(narrow, tc.want) != tc.keptAt75 || !strings.Contains(narrow, "checks 1/4") {
			t.Errorf("%q: bar at 75 columns shows it %v, want %v:\n%s", tc.want, !tc.keptAt75, tc.keptAt75, narrow)
		}
	}
}

// TestRenderErrorNotice: an error-level notice (a pipeline left
// unchecked) is counted on its own, and stays when the bar is narrow.
func TestRenderErrorNotice(t *testing.T) {
	s := fixture.Session()
	s.Notices = append(s.Notices, fixture.Notice("shader 3 left uninstrumented"),
		session.Notice{Level: "error", Text: "pipeline layout 0x10 uses 8 descriptor sets: pipelines created with it run uninstrumented shaders"})
	for _, w := range []int{120, 70} {
		if got := render(s, w); !strings.Contains(got, "notices, 1 error (o)") {
			t.Errorf("width %d: no error count in the bar:\n%s", w, got)
		}
	}
}

func TestRenderExited(t *testing.T) {
	fixture.Golden(t, render(fixture.Empty(session.AppExited), 100))
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

// The bars set their background once, at the start, and reset once, at
// the end: no glyph falls back to the terminal's background (the old bar
// reset everything after each key of its help).
func TestBarsSetBackgroundOnce(t *testing.T) {
	for _, name := range themes.Names() {
		th, _ := themes.Get(name)
		st := common.NewStyles(th)
		s := fixture.Session()
		s.Dropped, s.Notices = 3, []session.Notice{fixture.Notice("n")}
		for what, bar := range map[string]string{
			"status": Render(st, s, "⠋", "run 2/2", countsOf(s), 200),
			"footer": RenderKeys(st, keys.Default().All(), 200),
		} {
			if n := strings.Count(bar, "48;2;"); n != 1 || !strings.HasPrefix(bar, "\x1b[48;2;") {
				t.Errorf("%s %s: background set %d times: %q", name, what, n, bar)
			}
			resets := strings.Count(bar, "\x1b[m") + strings.Count(bar, "\x1b[0m")
			if resets != 1 || !strings.HasSuffix(bar, "\x1b[m") {
				t.Errorf("%s %s: %d resets: %q", name, what, resets, bar)
			}
			if w := ansi.StringWidth(bar); w != 200 {
				t.Errorf("%s %s: %d cells", name, what, w)
			}
		}
	}
}

// The footer shows the keys it is given, key then what it does, and
// leaves out those that do not fit.
func TestRenderKeys(t *testing.T) {
	k := keys.Default()
	bs := []key.Binding{k.Help, k.Down, common.WithHelp(k.Filter, "filter"), k.Quit}
	for _, tc := range []struct {
		w    int
		want string
	}{
		{60, " ? help  ↓/j down  / filter  q quit"},
		{30, " ? help  ↓/j down  / filter"},
		{12, " ? help"},
	} {
		if got := ansi.Strip(RenderKeys(fixture.Styles(), bs, tc.w)); got != common.Fit(tc.want, tc.w) {
			t.Errorf("width %d: footer %q, want %q", tc.w, got, tc.want)
		}
	}
}

// TestRenderVerdict: a run that checked nothing never shows its settings
// as if they ran (checks 2/2) nor a green exit; one that checked part of
// it says so; both stay at any width. The app's state is green only when
// everything was checked.
func TestRenderVerdict(t *testing.T) {
	on := session.Settings{Checks: map[string]bool{"descriptor_index_oob": true, "buffer_oob": true}}
	for _, tc := range []struct {
		name   string
		s      *session.Session
		want   string
		checks bool
		green  bool
	}{
		{"checked", &session.Session{App: session.App{State: session.AppExited, LayerLoaded: true}, Settings: on}, "", true, true},
		{"layer not loaded", &session.Session{App: session.App{State: session.AppExited}, Settings: on}, VerdictNoneText, false, false},
		{"every check off", &session.Session{App: session.App{State: session.AppExited, LayerLoaded: true},
			Settings: session.Settings{Checks: map[string]bool{"descriptor_index_oob": false}}}, VerdictNoneText, false, false},
		{"a shader left out", &session.Session{App: session.App{State: session.AppExited, LayerLoaded: true}, Settings: on,
			Unchecked: []session.Unchecked{{Kind: session.UncheckedShader, Reason: "left uninstrumented", Count: 1}}}, VerdictPartlyText, true, false},
		{"still running", &session.Session{App: session.App{State: session.AppRunning}, Settings: on}, "", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range []int{120, 60} {
				plain := render(tc.s, w)
				if tc.want != "" && !strings.Contains(plain, tc.want) || tc.want == "" && (strings.Contains(plain, VerdictNoneText) ||
					strings.Contains(plain, VerdictPartlyText)) {
					t.Errorf("width %d: %q, want %q", w, plain, tc.want)
				}
				if w == 120 && strings.Contains(plain, "checks 2/2") != tc.checks {
					t.Errorf("%q: checks shown %v, want %v", plain, !tc.checks, tc.checks)
				}
			}
			th, _ := themes.Get(themes.Dark)
			st := common.NewStyles(th)
			bar := Render(st, tc.s, "⠋", "", countsOf(tc.s), 120)
			green := strings.Contains(bar, ansi.Style{}.ForegroundColor(th.StatusOK).String()[2:len(ansi.Style{}.ForegroundColor(th.StatusOK).String())-1])
			if green != tc.green {
				t.Errorf("green %v, want %v: %q", green, tc.green, bar)
			}
		})
	}
	s := &session.Session{App: session.App{State: session.AppExited}, Settings: on}
	fixture.Golden(t, render(s, 80))
}
