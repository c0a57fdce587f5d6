package logview

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

func sess() *session.Session {
	s := fixture.Session()
	s.Output = []session.OutputLine{
		{Stream: "stdout", Text: "demo: compute pass"},
		{Stream: "stderr", Text: "demo:\twarning \x1b[31mred\x1b[m"},
		{Stream: "stdout", Text: "a line much longer than the pane it is shown in, to be cut or wrapped"},
	}
	s.Notices = []session.Notice{fixture.Notice("shader 3 left uninstrumented"), {Level: "error", Text: "the layer failed"}}
	return s
}

func TestRender(t *testing.T) {
	lines := Lines(sess())
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), lines, 0, 0, 40, 8)))
}

func TestRenderScrolledSideways(t *testing.T) {
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), Lines(sess()), 0, 10, 40, 8)))
}

func TestRenderWrapped(t *testing.T) {
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), Rows(Lines(sess()), true, 40), 0, 0, 40, 9)))
}

// The app's escape sequences are shown, not sent; tabs are expanded.
func TestLinesClean(t *testing.T) {
	got := Lines(sess())[1].Text
	if got != "demo:   warning ␛[31mred␛[m" {
		t.Fatalf("line %q", got)
	}
}

// Appended output is added to what the pane has; a shorter session (another
// run) starts again.
func TestModelIncremental(t *testing.T) {
	m := New(fixture.Common())
	m.SetSize(40, 4)
	s := sess()
	m.SetSession(s)
	if m.Top() != 3 || !m.Following() { // 3 lines, blank, header, 2 notices: 7 rows
		t.Fatalf("top %d following %v", m.Top(), m.Following())
	}
	s2 := *s
	s2.Output = append(s.Output[:3:3], session.OutputLine{Stream: "stdout", Text: "fourth"})
	m.SetSession(&s2)
	if len(m.lines) != 4 || m.Top() != 4 || !strings.Contains(ansi.Strip(m.View()), "the layer failed") {
		t.Fatalf("after one more line: %d lines, top %d\n%s", len(m.lines), m.Top(), m.View())
	}
	m.SetSession(fixture.Session()) // another run, no output
	if len(m.lines) != 0 || !strings.Contains(ansi.Strip(m.View()), "(the app printed nothing yet)") {
		t.Fatalf("another run: %d lines\n%s", len(m.lines), m.View())
	}
	m.Update(tea.KeyPressMsg{Code: 'w', Text: "w"})
	if !m.Wrapping() || !strings.HasSuffix(m.Title(), "— wrapped") {
		t.Fatalf("w: %v %q", m.Wrapping(), m.Title())
	}
}
