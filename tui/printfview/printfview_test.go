package printfview

import (
	"fmt"
	"slices"
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

// stageGroups are printf groups of a tessellation evaluation shader and
// a ray generation shader (two calls, one in a loop) as e2e's
// TestPrintfStages has them (stageapp --case printf): lines with those
// stages' coordinates.
func stageGroups() []*session.PrintfGroup {
	where := func(cb, action string, shader uint32, file string, line int, text string) session.Where {
		return session.Where{
			CommandBuffer: session.Handle{Handle: cb, Name: "stage-cmd"}, Submit: 1, Action: action,
			Pipeline: session.Handle{Handle: "0x90", Name: "stage-pipeline"}, Shader: session.ShaderRef{ID: shader},
			Source: &session.Source{File: file, Line: line, Text: text},
		}
	}
	add := func(g *session.PrintfGroup, submit uint64, c map[string][]float64, text string) {
		g.Count++
		g.Values = append(g.Values, session.PrintfValue{Text: text, Count: 1})
		g.Lines = append(g.Lines, session.PrintfLine{Submit: submit, Coords: session.CoordsOf(c), Text: text})
	}
	tese := &session.PrintfGroup{Format: "tese primitive %d tess coord %.2f, %.2f", Stage: "tess_eval",
		Where: where("0x51", "vkCmdDraw", 2, "stage_printf.tese", 8,
			`    debugPrintfEXT("tese primitive %d tess coord %.2f, %.2f", gl_PrimitiveID, gl_TessCoord.x, gl_TessCoord.y);`)}
	for p := range 3 {
		for _, v := range []float64{0, 0.5} {
			for _, u := range []float64{0, 1} {
				add(tese, 1, map[string][]float64{"primitive_id": {float64(p)}, "tess_coord": {u, v}},
					fmt.Sprintf("tese primitive %d tess coord %.2f, %.2f", p, u, v))
			}
		}
	}
	loop := &session.PrintfGroup{Format: "raygen launch %v3u of %v3u line %u", Stage: "raygen",
		Where: where("0x52", "vkCmdTraceRaysKHR", 3, "stage_printf.rgen", 9,
			`        debugPrintfEXT("raygen launch %v3u of %v3u line %u", gl_LaunchIDEXT, gl_LaunchSizeEXT, i);`)}
	done := &session.PrintfGroup{Format: "raygen launch %v3u done after %u lines", Stage: "raygen",
		Where: where("0x52", "vkCmdTraceRaysKHR", 3, "stage_printf.rgen", 10,
			`    debugPrintfEXT("raygen launch %v3u done after %u lines", gl_LaunchIDEXT, i);`)}
	for y := range 2 {
		for x := range 4 {
			c := map[string][]float64{"launch_id": {float64(x), float64(y), 0}}
			for i := range 4 {
				add(loop, 2, c, fmt.Sprintf("raygen launch %d, %d, 0 of 4, 2, 1 line %d", x, y, i))
			}
			add(done, 2, c, fmt.Sprintf("raygen launch %d, %d, 0 done after 4 lines", x, y))
		}
	}
	return []*session.PrintfGroup{tese, loop, done}
}

// TestRenderStages pins the screen of a tessellation evaluation call
// (its lines labelled with primitive_id and tess_coord) filtered to one
// primitive, and of a ray generation call filtered to one launch.
func TestRenderStages(t *testing.T) {
	groups := stageGroups()
	rows := Rows(groups)
	for _, tc := range []struct {
		name, at string
		group    int
	}{
		{"tess_eval", "primitive=1", 0},
		{"raygen", "launch=3,1,0", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := session.ParsePrintfFilter(tc.at)
			if err != nil {
				t.Fatal(err)
			}
			sel := slices.IndexFunc(rows, func(r Row) bool { return r.Group == tc.group })
			d := DetailOf(groups[tc.group], f, 3)
			out := Render(fixture.Styles(), rows, sel, 0, d, 0, nil, 100, 24)
			fixture.Golden(t, fixture.ASCII(out))
		})
	}
}
