package tui

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// TestHostileStringsEscaped: debug names, labels, file names, source and
// output lines with ESC sequences, OSC 52 and UTF-8 C1 controls reach the
// screen escaped, in every pane a key opens (the raw render, colours off,
// holds no control but line feeds).
func TestHostileStringsEscaped(t *testing.T) {
	const evil = "\x1b[2J\x1b]52;c;aGk=\x07\u009b31m\u009d0;t\x07"
	s := fixture.Session()
	for _, g := range s.Groups {
		g.CommandBuffer.Name, g.Pipeline.Name, g.Labels = evil, evil, []string{evil}
		if g.Source != nil {
			g.Source.File, g.Source.Text = evil+".comp", evil
		}
		g.MessageText = g.Message() + evil
	}
	s.Notices = append(s.Notices, session.Notice{Level: "warning", Text: evil})
	s.Output = append(s.Output, session.OutputLine{Stream: "stdout", Text: evil})
	s.App.Path, s.Device.Name = evil, evil
	m := newModel(s, 120, 30)
	for _, keys := range [][]string{nil, {"n"}, {"enter"}, {"o"}, {"d"}, {"v"}, {"?"}} {
		press(m, keys...)
		out := m.Render()
		for _, bad := range []string{"\x1b[2J", "\x1b]52", "\u009b", "\u009d", "\x07"} {
			if strings.Contains(out, bad) {
				t.Fatalf("after %v the screen holds %q", keys, bad)
			}
		}
		press(m, "esc")
	}
	if out := view(m); !strings.Contains(out, `\x1b[2J`) {
		t.Errorf("the escaped name is not shown:\n%s", out)
	}
}
