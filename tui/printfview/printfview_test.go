package printfview

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

func press(k string) tea.KeyPressMsg { return fixture.Key(k) }

func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(press(string(r)))
	}
}

// TestRows: command buffers in order, actions by index, calls under them;
// only calls point at a group.
func TestRows(t *testing.T) {
	groups := fixture.Printf()
	// A second call of the first command buffer, in an earlier action.
	early := *groups[0]
	early.ActionIndex, early.Format, early.Count = 0, "early", 1
	late := *groups[0]
	late.ActionIndex, late.Format = 5, "late"
	groups = append(groups, &late, &early)
	var got []string
	for _, r := range Rows(groups) {
		got = append(got, strings.Repeat("  ", r.Depth)+r.Text+" →"+itoa(r.Group))
	}
	want := []string{
		`cmd 0x55 "compute-cmd" →-1`,
		`  #0 vkCmdDispatch · pipeline 0x77 "grid" →-1`,
		`    shaders/printf.comp:8 "invocation %v3u local %u" ×8 →0`,
		`    shaders/printf.comp:8 "early" ×1 →3`,
		`  #5 vkCmdDispatch · pipeline 0x77 "grid" →-1`,
		`    shaders/printf.comp:8 "late" ×8 →2`,
		`cmd 0x66 →-1`,
		`  #1 vkCmdDraw · pipeline 0x88 →-1`,
		`    shaders/printf.frag:9 "pixel %v2f is %s" ×16 →1`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestModel: ↓ selects the next call, a new snapshot keeps it, pgdn
// scrolls its lines, / with a bad filter says why and keeps the prompt,
// a good one applies and esc leaves the prompt.
func TestModel(t *testing.T) {
	m := New(fixture.Common(), session.PrintfFilter{})
	m.SetSize(80, 20)
	m.SetSession(fixture.PrintfSession())
	if g := m.Selected(); g == nil || g.Stage != "compute" {
		t.Fatalf("first selection %+v", g)
	}
	m.Update(press("down"))
	if g := m.Selected(); g == nil || g.Stage != "fragment" {
		t.Fatalf("after down: %+v", g)
	}
	m.SetSession(fixture.PrintfSession())
	if g := m.Selected(); g == nil || g.Stage != "fragment" {
		t.Fatalf("a new snapshot lost the selection: %+v", g)
	}
	m.Update(press("pgdown"))
	if m.detailTop == 0 {
		t.Errorf("pgdn did not scroll the lines")
	}
	m.Update(press("/"))
	if !m.Capturing() {
		t.Fatal("/ did not open the prompt")
	}
	m.input.SetValue("")
	typeText(m, "pixel=9")
	m.Update(press("enter"))
	if !m.Capturing() || !strings.Contains(ansi.Strip(m.View()), "pixel=9") || m.bad == "" {
		t.Fatalf("a bad filter: capturing %v, bad %q", m.Capturing(), m.bad)
	}
	m.input.SetValue("")
	typeText(m, "pixel=3,3")
	m.Update(press("enter"))
	if m.Capturing() || m.Filter().String() != "pixel=3,3" {
		t.Fatalf("filter %q, capturing %v", m.Filter(), m.Capturing())
	}
	out := ansi.Strip(m.View())
	if !strings.Contains(out, "Lines at pixel=3,3 (1 of 16)") || !strings.Contains(out, "(3.5,3.5)  pixel 3.500000, 3.500000 is %s") {
		t.Errorf("view:\n%s", out)
	}
	if !strings.Contains(m.Title(), "— at pixel=3,3") {
		t.Errorf("title %q", m.Title())
	}
	m.Update(press("/"))
	typeText(m, "xyz")
	m.Update(press("esc"))
	if m.Capturing() || m.Filter().String() != "pixel=3,3" {
		t.Errorf("esc: filter %q, capturing %v", m.Filter(), m.Capturing())
	}
}

// TestRender pins the screen of the fixture's compute call with a filter.
func TestRender(t *testing.T) {
	groups := fixture.Printf()
	f, _ := session.ParsePrintfFilter("invocation=5,0,0")
	d := DetailOf(groups[0], f, 2)
	out := Render(fixture.Styles(), Rows(groups), 2, 0, d, 0, nil, 70, 16)
	fixture.Golden(t, fixture.ASCII(out))
}

// TestAppText: control characters from the app are made safe.
func TestAppText(t *testing.T) {
	g := fixture.Printf()[0]
	g.Format = "evil \x1b]52;c;aGk=\x07 %d"
	g.Lines[0].Text = "\x1b[2Jcleared"
	d := DetailOf(g, session.PrintfFilter{}, 2)
	out := Render(fixture.Styles(), Rows([]*session.PrintfGroup{g}), 2, 0, d, 0, nil, 70, 16)
	if strings.Contains(out, "\x1b]52") || strings.Contains(out, "\x1b[2J") {
		t.Errorf("escape sequences from the app reached the screen: %q", out)
	}
}
