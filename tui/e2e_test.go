package tui

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/gpuav-dbg/gpuav-dbg/session"

	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// The whole program on a fake terminal: it starts on the compute group,
// n selects the fragment group, and the source pane then marks the
// texture(tex[pc.tex_ind], uv) line.
func TestEndToEndSelectFragment(t *testing.T) {
	tm := teatest.NewTestModel(t, New(Static(fixture.Session()), Options{Theme: "dark"}),
		teatest.WithInitialTermSize(120, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ASCII)))

	// Reading the output consumes it: wait for the first screen, then for
	// the change that j makes.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Source oob_compute.comp:9:5"))
	}, teatest.WithDuration(5*time.Second))
	tm.Type("n")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("tex_ind"))
	}, teatest.WithDuration(5*time.Second))
	tm.Type("q")

	fm, ok := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if !ok {
		t.Fatal("final model is not a *Model")
	}
	if fm.Selected() != 1 {
		t.Fatalf("selected %d, want 1", fm.Selected())
	}
	v := fm.View()
	if !v.AltScreen || v.MouseMode != tea.MouseModeCellMotion {
		t.Errorf("view: alt screen %v, mouse %v", v.AltScreen, v.MouseMode)
	}
	got := markedLine(v.Content)
	if !strings.HasPrefix(got, "▶ 9 │     color = texture(tex[pc.tex_ind], uv);") {
		t.Fatalf("marked line %q; screen:\n%s", got, ansi.Strip(v.Content))
	}
	if !strings.Contains(ansi.Strip(v.Content), "Source oob_fragment.frag:9:13") {
		t.Fatalf("source title not updated:\n%s", ansi.Strip(v.Content))
	}
}

// Re-run from the settings: s, space switches descriptor_index_oob off, r
// calls Rerun with those settings; the new run is shown as run 2/2, c
// compares it with run 1, < goes back to run 1.
func TestEndToEndRerun(t *testing.T) {
	rr := &rerunner{next: fixture.SecondRun}
	opts := Options{Theme: "dark", Checks: fixture.Checks, Rerun: rr}
	tm := teatest.NewTestModel(t, New(Static(fixture.Session()), opts),
		teatest.WithInitialTermSize(120, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ASCII)))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Errors by command buffer")) },
		teatest.WithDuration(5*time.Second))
	tm.Type("s")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Settings for the next run")) },
		teatest.WithDuration(5*time.Second))
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	tm.Type("r")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("run 2/2")) },
		teatest.WithDuration(5*time.Second))
	tm.Type("c")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("run 1 → run 2: 1 new, 1 fixed, 1 changed, 0 same"))
	}, teatest.WithDuration(5*time.Second))
	tm.Type("<")
	tm.Type("q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if fm.Runs() != 2 || fm.Current() != 0 || len(fm.RunSession(1).Groups) != 2 || len(fm.Session().Groups) != 2 ||
		fm.Session().Groups[0].Count != 4 {
		t.Fatalf("runs %d, current %d", fm.Runs(), fm.Current())
	}
	got := rr.settings()
	if len(got) != 1 || got[0].Checks["descriptor_index_oob"] || got[0].OnError != "skip" || got[0].Robust {
		t.Fatalf("Rerun got %+v", got)
	}
}

// The compare screen of two runs, pinned.
func TestCompareScreen(t *testing.T) {
	m := newModelWith(fixture.Session(), 120, 20, Options{Rerun: &rerunner{next: fixture.SecondRun}})
	press(m, "c")
	if m.Screen() != ScreenMain || !strings.Contains(plain(m), "compare needs two runs") {
		t.Fatalf("c with one run:\n%s", plain(m))
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	if !strings.Contains(plain(m), "re-running the app") {
		t.Fatalf("no re-running notice:\n%s", plain(m))
	}
	m.Update(cmd())
	if m.Runs() != 2 || m.Current() != 1 || !strings.Contains(plain(m), "run 2/2") {
		t.Fatalf("after the re-run: %d runs, current %d\n%s", m.Runs(), m.Current(), plain(m))
	}
	press(m, "c")
	out := view(m)
	checkSize(t, out, 120, 20)
	fixture.Golden(t, out)
	press(m, "<")
	if m.Current() != 0 || !strings.Contains(plain(m), "run 1/2") {
		t.Fatalf("<: current %d", m.Current())
	}
	// The tree is run 1's, not run 2's rows with run 1's counts.
	press(m, "esc")
	if p := plain(m); !strings.Contains(p, "• descriptor_index_oob oob_compute.comp:9") || strings.Contains(p, "buffer_oob") {
		t.Fatalf("run 1's tree:\n%s", p)
	}
}

// rerunner is the launcher side of a re-run for these tests: each Rerun
// returns a static session of next(), Running says whether the last run's
// app is live until Stop.
type rerunner struct {
	next func() *session.Session

	mu      sync.Mutex
	got     []session.Settings
	live    bool
	stopped int
}

func (r *rerunner) Rerun(s session.Settings) (Source, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, s)
	n := r.next()
	r.live = n.App.State == session.AppRunning
	return Static(n), nil
}

func (r *rerunner) Running() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.live
}

func (r *rerunner) Stop() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.live = false
	r.stopped++
	return nil
}

func (r *rerunner) settings() []session.Settings {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]session.Settings(nil), r.got...)
}
