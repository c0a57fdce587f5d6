package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// TestRerunErrors: R re-runs the app with the run's settings and a scope
// of the pipelines that reported errors (the named one by its name, the
// unnamed one by its shader's code), a scope_exclude cleared; the new run's
// settings pane shows the scope, and r after it keeps it. Without errors,
// R says so and runs nothing.
func TestRerunErrors(t *testing.T) {
	words := []uint32{0x07230203, 0x00010500, 0, 12, 0}
	s := fixture.Session()
	s.Shaders = map[uint32]*session.Shader{2: {ID: 2, SPIRV: words}}
	s.Settings.Options = map[string]string{options.ScopeExclude.Key: "old*"}
	rr := &rerunner{next: func() *session.Session {
		n := fixture.SecondRun()
		n.Settings.Options = map[string]string{options.ScopeInclude.Key: "pipeline:oob pipeline"}
		return n
	}}
	m := newModelWith(s, 120, 30, Options{Checks: fixture.Checks, Rerun: rr})
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'R', Text: "R"})
	if cmd == nil || !strings.Contains(plain(m), "re-running the app") {
		t.Fatalf("R: no re-run\n%s", plain(m))
	}
	m.Update(cmd())
	got := rr.settings()
	want := "pipeline:oob pipeline," + options.SPIRVName(words)
	if len(got) != 1 || got[0].Options[options.ScopeInclude.Key] != want || got[0].Options[options.ScopeExclude.Key] != "" ||
		!got[0].Checks["descriptor_index_oob"] || got[0].OnError != s.Settings.OnError {
		t.Fatalf("Rerun got %+v, want scope_include %q and the run's checks", got, want)
	}
	if m.Runs() != 2 {
		t.Fatalf("%d runs", m.Runs())
	}
	press(m, "s")
	if p := plain(m); !strings.Contains(p, `[x] scope`) || !strings.Contains(p, `instrument only "pipeline:oob pipeline"`) {
		t.Fatalf("settings of run 2:\n%s", p)
	}
	press(m, "esc")
	// Run 2's app still runs: r asks, y stops it and re-runs.
	m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	if !m.Confirming() || !strings.Contains(plain(m), `instrumenting only pipeline:oob pipeline?`) {
		t.Fatalf("r while run 2 runs:\n%s", plain(m))
	}
	_, cmd = m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})
	m.Update(cmd())
	if got := rr.settings(); len(got) != 2 || got[1].Options[options.ScopeInclude.Key] != "pipeline:oob pipeline" {
		t.Fatalf("r after R: %+v", got)
	}

	clean := fixture.Session()
	clean.Groups = nil
	m = newModelWith(clean, 120, 30, Options{Checks: fixture.Checks, Rerun: rr})
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'R', Text: "R"}); cmd != nil ||
		!strings.Contains(plain(m), "no pipeline reported errors in this run") {
		t.Fatalf("R without errors:\n%s", plain(m))
	}
}
