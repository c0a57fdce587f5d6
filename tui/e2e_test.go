package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// The whole program on a fake terminal: it starts on the compute group,
// j selects the fragment group, and the source pane then marks the
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
	tm.Type("j")
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
