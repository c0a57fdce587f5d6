package status

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// TestRenderPaused: while the layer keeps the app paused at its first
// error, the bar says so in place of the spinner, with the key that goes
// on, at every width; once the app continued (or ended) it does not.
func TestRenderPaused(t *testing.T) {
	s := fixture.Session()
	s.Pauses = []session.Pause{{PID: 7, Submit: 1, Records: 4, State: session.PausePaused}}
	fixture.Golden(t, render(s, 120))
	if got := render(s, 60); !strings.Contains(got, PausedText) || strings.Contains(got, "⠋") {
		t.Errorf("width 60: %q", got)
	}
	s.Pauses[0].State = session.PauseContinued
	if got := render(s, 120); strings.Contains(got, "paused") || !strings.Contains(got, "⠋ running") {
		t.Errorf("continued: %q", got)
	}
	s.Pauses[0].State = session.PausePaused
	s.App.State = session.AppStopped
	if got := render(s, 120); strings.Contains(got, "paused") {
		t.Errorf("stopped app: %q", got)
	}
}
