package tui

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// newModel returns a model of s, without colours, sized w×h.
func newModel(s *session.Session, w, h int) *Model { return newModelWith(s, w, h, Options{}) }

// newModelWith is newModel with options (theme, colours and checks set).
func newModelWith(s *session.Session, w, h int, o Options) *Model {
	o.Theme, o.NoColor, o.Checks = "dark", true, fixture.Checks
	m := New(Static(s), o)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// keyMsg is the key press k names (fixture.Key).
func keyMsg(k string) tea.KeyPressMsg { return fixture.Key(k) }

func press(m *Model, keys ...string) {
	for _, k := range keys {
		m.Update(keyMsg(k))
	}
}

func view(m *Model) string { return fixture.ASCII(m.Render()) }

// checkSize asserts the screen is exactly w×h cells.
func checkSize(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), h, out)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

// markedLine returns the text of the source line marked with ▶.
func markedLine(out string) string {
	for _, l := range strings.Split(ansi.Strip(out), "\n") {
		if i := strings.Index(l, "▶"); i >= 0 {
			return l[i:]
		}
	}
	return ""
}

func TestViewCompute(t *testing.T) {
	m := newModel(fixture.Session(), 120, 30)
	out := view(m)
	checkSize(t, out, 120, 30)
	fixture.Golden(t, out)
}

// n selects the next error group (the fragment one), enter on it focuses
// the source pane.
func TestViewFragmentSourceFocused(t *testing.T) {
	m := newModel(fixture.Session(), 120, 30)
	press(m, "n", "enter")
	if m.Focus() != PaneSource || m.Selected() != 1 {
		t.Fatalf("focus %v selected %d, want source 1", m.Focus(), m.Selected())
	}
	out := view(m)
	checkSize(t, out, 120, 30)
	if got := markedLine(out); !strings.Contains(got, "9 │     color = texture(tex[pc.tex_ind], uv);") {
		t.Fatalf("marked line %q", got)
	}
	fixture.Golden(t, out)
}

func TestViewMinimumSize(t *testing.T) {
	m := newModel(fixture.Session(), MinWidth, MinHeight)
	out := view(m)
	checkSize(t, out, MinWidth, MinHeight)
	fixture.Golden(t, out)
}

func TestViewTooSmall(t *testing.T) {
	for _, sz := range [][2]int{{59, 15}, {60, 14}, {30, 8}} {
		m := newModel(fixture.Session(), sz[0], sz[1])
		out := ansi.Strip(m.Render())
		checkSize(t, out, sz[0], sz[1])
		want := fmt.Sprintf("terminal too small (%dx%d), need at least 60x15", sz[0], sz[1])
		if got := strings.Join(strings.Fields(out), " "); got != want {
			t.Errorf("%dx%d: screen says %q, want %q", sz[0], sz[1], got, want)
		}
	}
	fixture.Golden(t, view(newModel(fixture.Session(), 59, 15)))
}

func TestViewWaiting(t *testing.T) {
	out := view(newModel(fixture.Empty(session.AppRunning), 80, 20))
	checkSize(t, out, 80, 20)
	plain := ansi.Strip(out)
	if !strings.Contains(plain, "waiting for errors…") || !strings.Contains(plain, "./oob running (pid 4242)") {
		t.Fatalf("waiting view:\n%s", plain)
	}
	fixture.Golden(t, out)
}

func TestViewNoErrors(t *testing.T) {
	out := view(newModel(fixture.Empty(session.AppExited), 80, 20))
	checkSize(t, out, 80, 20)
	plain := ansi.Strip(out)
	if !strings.Contains(plain, "no validation errors") || !strings.Contains(plain, "./oob exited 0") ||
		strings.Contains(plain, "waiting") {
		t.Fatalf("no-errors view:\n%s", plain)
	}
	fixture.Golden(t, out)
}

func TestViewCrashedWithNotices(t *testing.T) {
	s := fixture.Empty(session.AppCrashed)
	s.App.LayerLoaded = false
	s.Notices = []session.Notice{fixture.Notice("the layer never loaded: check VK_LOADER_DEBUG=layer")}
	out := view(newModel(s, 80, 20))
	checkSize(t, out, 80, 20)
	plain := ansi.Strip(out)
	for _, want := range []string{"not checked: nothing was validated", "./oob crashed (SIGSEGV)", "NOT CHECKED",
		"the layer was not loaded by the app, so nothing was checked", "the layer never loaded", "1 notice: o shows them"} {
		if !strings.Contains(plain, want) {
			t.Errorf("crashed view lacks %q:\n%s", want, plain)
		}
	}
}

func TestHelpOverlay(t *testing.T) {
	m := newModel(fixture.Session(), 120, 30)
	press(m, "?")
	if !m.HelpShown() {
		t.Fatal("? did not open the help")
	}
	out := view(m)
	checkSize(t, out, 120, 30)
	for _, want := range []string{"shift+tab", "previous pane", "page down", "quit"} {
		if !strings.Contains(ansi.Strip(out), want) {
			t.Errorf("help lacks %q", want)
		}
	}
	fixture.Golden(t, out)
	press(m, "j") // keys other than ?, esc and q do nothing under the help
	if m.Selected() != 0 {
		t.Fatal("j moved the selection under the help overlay")
	}
	press(m, "esc")
	if m.HelpShown() {
		t.Fatal("esc did not close the help")
	}
	press(m, "?", "?")
	if m.HelpShown() {
		t.Fatal("? did not toggle the help")
	}
}

func TestFocus(t *testing.T) {
	m := newModel(fixture.Session(), 120, 30)
	// The tree rows: 0 cmdbuf, 1 action, 2 pipeline, 3 compute group (the
	// first selection), 4 cmdbuf, 5 action, 6 pipeline, 7 fragment group.
	steps := []struct {
		key  string
		want Pane
		row  int
	}{
		{"tab", PaneDetail, 3},
		{"tab", PaneSource, 3},
		{"tab", PaneList, 3},
		{"shift+tab", PaneSource, 3},
		{"h", PaneDetail, 3},
		{"h", PaneList, 3},
		{"h", PaneList, 2},   // h on a group selects its parent
		{"h", PaneList, 2},   // h on an expanded node collapses it
		{"l", PaneList, 2},   // l on a collapsed node expands it
		{"l", PaneDetail, 2}, // l on an expanded node moves right
		{"l", PaneSource, 2},
		{"l", PaneSource, 2},
		{"esc", PaneList, 2},
		{"enter", PaneList, 2}, // enter on a node collapses it
		{"enter", PaneList, 2}, // and expands it again
		{"j", PaneList, 3},
		{"enter", PaneSource, 3}, // enter on a group opens its source
		{"enter", PaneSource, 3}, // enter opens the source only from the list
		{"esc", PaneList, 3},
	}
	for i, s := range steps {
		press(m, s.key)
		if m.Focus() != s.want || m.Tree().Cursor() != s.row {
			t.Fatalf("step %d (%s): focus %v row %d, want %v row %d", i, s.key, m.Focus(), m.Tree().Cursor(), s.want, s.row)
		}
	}
	// j in the source pane scrolls, it does not change the selection.
	press(m, "enter", "j")
	if m.Selected() != 0 {
		t.Fatal("j in the source pane moved the selection")
	}
}

func TestQuit(t *testing.T) {
	for _, k := range []tea.KeyPressMsg{{Code: 'q', Text: "q"}, {Code: 'c', Mod: tea.ModCtrl}} {
		m := newModel(fixture.Session(), 120, 30)
		_, cmd := m.Update(k)
		if cmd == nil {
			t.Fatalf("%v: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Fatalf("%v: command is not quit", k)
		}
	}
}

func TestResizeKeepsExactSize(t *testing.T) {
	m := newModel(fixture.Session(), 120, 30)
	press(m, "j")
	for _, sz := range [][2]int{{60, 15}, {200, 60}, {61, 16}, {90, 24}, {20, 5}, {120, 30}} {
		m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		checkSize(t, m.Render(), sz[0], sz[1])
		if sz[0] >= MinWidth && sz[1] >= MinHeight {
			if got := markedLine(m.Render()); !strings.Contains(got, "texture(tex[") {
				t.Errorf("%dx%d: marked line %q", sz[0], sz[1], got)
			}
		}
	}
}

func TestMouse(t *testing.T) {
	m := newModel(fixture.Session(), 120, 30)
	// The list is the left 48 columns; its first group is on row 2.
	m.Update(tea.MouseWheelMsg{X: 5, Y: 5, Button: tea.MouseWheelDown})
	if m.Selected() != 1 {
		t.Fatalf("wheel down over the list: selected %d, want 1", m.Selected())
	}
	m.Update(tea.MouseWheelMsg{X: 5, Y: 5, Button: tea.MouseWheelUp})
	if m.Selected() != 0 {
		t.Fatalf("wheel up over the list: selected %d, want 0", m.Selected())
	}
	// Row 7 of the tree (screen row 8) is the fragment group.
	m.Update(tea.MouseClickMsg{X: 5, Y: 8, Button: tea.MouseLeft})
	if m.Selected() != 1 || m.Focus() != PaneList || m.Tree().Cursor() != 7 {
		t.Fatalf("click on row 7: selected %d focus %v cursor %d", m.Selected(), m.Focus(), m.Tree().Cursor())
	}
	m.Update(tea.MouseClickMsg{X: 80, Y: 25, Button: tea.MouseLeft})
	if m.Focus() != PaneSource {
		t.Fatalf("click in the source pane: focus %v", m.Focus())
	}
	m.Update(tea.MouseClickMsg{X: 80, Y: 3, Button: tea.MouseLeft})
	if m.Focus() != PaneDetail {
		t.Fatalf("click in the detail pane: focus %v", m.Focus())
	}
	// The wheel over the detail pane scrolls it, not the list.
	m.Update(tea.MouseWheelMsg{X: 80, Y: 3, Button: tea.MouseWheelDown})
	if m.Selected() != 1 || m.detail.Offset() != common.WheelStep {
		t.Fatalf("wheel over detail: selected %d offset %d", m.Selected(), m.detail.Offset())
	}
}

// liveSource is a Source whose session changes, like a launcher's.
type liveSource struct {
	mu sync.Mutex
	s  *session.Session
	ch chan struct{}
}

func (l *liveSource) Snapshot() *session.Session {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := *l.s
	c.Groups = append([]*session.ErrorGroup(nil), l.s.Groups...)
	return &c
}

func (l *liveSource) Updates() <-chan struct{} { return l.ch }

func (l *liveSource) set(f func(s *session.Session)) {
	l.mu.Lock()
	f(l.s)
	l.mu.Unlock()
	select {
	case l.ch <- struct{}{}:
	default:
	}
}

func TestUpdatedMsg(t *testing.T) {
	src := &liveSource{s: fixture.Empty(session.AppRunning), ch: make(chan struct{}, 1)}
	m := New(src, Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if !strings.Contains(ansi.Strip(m.Render()), "waiting for errors…") {
		t.Fatal("not waiting before the first error")
	}
	src.set(func(s *session.Session) { s.Groups = append(s.Groups, fixture.Compute()) })
	m.Update(UpdatedMsg{})
	press(m, "tab", "tab") // focus the source pane and scroll it
	press(m, "k")
	top := m.source.Top()
	src.set(func(s *session.Session) {
		s.Groups = append(s.Groups, fixture.Fragment())
		s.Sources = fixture.Session().Sources
	})
	m.Update(UpdatedMsg{})
	if m.Selected() != 0 || len(m.Session().Groups) != 2 {
		t.Fatalf("after an update: selected %d of %d groups", m.Selected(), len(m.Session().Groups))
	}
	if m.source.Top() != top {
		t.Fatalf("an update moved the source scroll from %d to %d", top, m.source.Top())
	}
	// The channel path: the command from Init waits for a notice and turns
	// it into a refresh.
	cmd := m.listen(0)
	if cmd == nil {
		t.Fatal("no listener on the Updates channel")
	}
	src.set(func(s *session.Session) { s.App.State, s.App.ExitCode = session.AppExited, 0 })
	msg := cmd()
	if sm, ok := msg.(snapshotMsg); !ok || sm.s.App.State != session.AppExited {
		t.Fatalf("listener returned %T %+v", msg, msg)
	}
	if _, next := m.Update(msg); next == nil {
		t.Fatal("no new listener after a notice")
	}
	if !strings.Contains(ansi.Strip(m.Render()), "exited 0") {
		t.Fatal("the status bar does not show the exit")
	}
	close(src.ch)
	if msg := m.listen(0)(); msg != nil {
		t.Fatalf("closed channel: listener returned %v", msg)
	}
	if Static(fixture.Session()).Updates() != nil {
		t.Fatal("Static has updates")
	}
}

func TestOptions(t *testing.T) {
	for _, th := range []string{"", "auto", "dark", "light", "high-contrast"} {
		if err := (Options{Theme: th}).Validate(); err != nil {
			t.Errorf("Validate(%q): %v", th, err)
		}
	}
	if err := (Options{Theme: "neon"}).Validate(); err == nil {
		t.Error("Validate(neon): want an error")
	}
	// Theme auto asks the terminal for its background, and follows it.
	t.Setenv("NO_COLOR", "")
	m := New(Static(fixture.Session()), Options{Theme: "auto"})
	if m.c.Styles.Theme.Name != "dark" {
		t.Fatalf("auto before the answer: %s", m.c.Styles.Theme.Name)
	}
	m.Update(tea.BackgroundColorMsg{Color: whiteColor{}})
	if m.c.Styles.Theme.Name != "light" {
		t.Fatalf("auto on a white background: %s", m.c.Styles.Theme.Name)
	}
	// A fixed theme ignores the terminal.
	m = New(Static(fixture.Session()), Options{Theme: "high-contrast"})
	m.Update(tea.BackgroundColorMsg{Color: whiteColor{}})
	if m.c.Styles.Theme.Name != "high-contrast" || m.c.Styles.Theme.NoColor {
		t.Fatalf("fixed theme: %+v", m.c.Styles.Theme)
	}
	// NO_COLOR turns colours off whatever the options say.
	t.Setenv("NO_COLOR", "1")
	m = New(Static(fixture.Session()), Options{Theme: "light"})
	if !m.c.Styles.Theme.NoColor {
		t.Fatal("NO_COLOR=1: colours on")
	}
}

type whiteColor struct{}

func (whiteColor) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

// NoColor output holds text attributes only; a colour theme colours.
func TestColourSwitch(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	m := newModel(fixture.Session(), 120, 30)
	raw := m.Render()
	for _, bad := range []string{"38;2;", "48;2;", "38;5;", "48;5;"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("NoColor output holds colour %q", bad)
		}
	}
	if !strings.Contains(raw, "\x1b[1;7m▶") {
		t.Fatal("NoColor: the marked line is not in reverse video")
	}
	c := New(Static(fixture.Session()), Options{Theme: "dark"})
	c.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	raw = c.Render()
	if !strings.Contains(raw, "48;2;95;0;0") { // the dark theme's MarkBg #5f0000
		t.Fatal("dark theme: no mark background in the output")
	}
	checkSize(t, raw, 120, 30)
}

// TestViewNotChecked: a run that checked nothing (the layer never loaded,
// every check off) never shows a green "no validation errors": it says
// "not checked" and why, and so does one that checked part of it; the
// internal notices stay in the log (o).
func TestViewNotChecked(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(s *session.Session)
		want   []string
	}{
		{"layer not loaded", func(s *session.Session) {
			s.App.LayerLoaded = false
			s.Notices = []session.Notice{{Level: "warning", Text: "the app never loaded the gpuav-dbg layer (run with VK_LOADER_DEBUG=layer to see why)"},
				{Level: "info", Text: "pipeline shadow cache: 3 hits"}}
		}, []string{"not checked: nothing was validated", "the layer was not loaded by the app, so nothing was checked",
			"the app never loaded the gpuav-dbg layer", "2 notices: o shows them", "NOT CHECKED"}},
		{"every check off", func(s *session.Session) {
			s.Settings.Checks = map[string]bool{"descriptor_index_oob": false, "buffer_oob": false}
		}, []string{"not checked: nothing was validated", "every check is off", "NOT CHECKED"}},
		{"partly", func(s *session.Session) {
			s.Unchecked = []session.Unchecked{{Kind: session.UncheckedShader, Reason: "module has no entry point: left uninstrumented", Count: 2}}
		}, []string{"no validation errors in what was checked", "2 shaders: module has no entry point: left uninstrumented",
			"partly checked"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fixture.Empty(session.AppExited)
			tc.change(s)
			out := view(newModel(s, 80, 20))
			checkSize(t, out, 80, 20)
			plain := ansi.Strip(out)
			for _, w := range tc.want {
				if !strings.Contains(plain, w) {
					t.Errorf("lacks %q:\n%s", w, plain)
				}
			}
			for _, l := range strings.Split(plain, "\n") {
				if strings.TrimSpace(l) == "no validation errors" {
					t.Errorf("a plain \"no validation errors\":\n%s", plain)
				}
			}
			for _, bad := range []string{"checks 2/2", "shadow cache"} {
				if strings.Contains(plain, bad) && !(bad == "checks 2/2" && tc.name == "partly") {
					t.Errorf("shows %q:\n%s", bad, plain)
				}
			}
			fixture.Golden(t, out)
		})
	}
}
