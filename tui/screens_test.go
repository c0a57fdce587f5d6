package tui

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/compare"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

func plain(m *Model) string { return ansi.Strip(m.Render()) }

// withOutput is the fixture with app output and a notice.
func withOutput() *session.Session {
	s := fixture.Session()
	s.Output = []session.OutputLine{
		{Stream: "stdout", Text: "demo: compute pass"},
		{Stream: "stderr", Text: "demo: warning:\tslow path"},
		{Stream: "stdout", Text: "demo: draw pass"},
	}
	s.Notices = []session.Notice{fixture.Notice("shader 3 left uninstrumented: no free descriptor set")}
	return s
}

func TestLogScreen(t *testing.T) {
	m := newModel(withOutput(), 100, 20)
	press(m, "o")
	if m.Screen() != ScreenLog {
		t.Fatalf("o: screen %v", m.Screen())
	}
	out := view(m)
	checkSize(t, out, 100, 20)
	p := ansi.Strip(out)
	for _, want := range []string{"App output (3 lines, 1 notice)", "out  demo: compute pass", "err  demo: warning:  slow path",
		"Notices (1)", "warn shader 3 left uninstrumented"} {
		if !strings.Contains(p, want) {
			t.Errorf("log lacks %q:\n%s", want, p)
		}
	}
	fixture.Golden(t, out)
	press(m, "esc")
	if m.Screen() != ScreenMain {
		t.Fatal("esc did not leave the log")
	}
}

// The log follows the tail while at the bottom; scrolled up, it stays.
func TestLogFollowsTail(t *testing.T) {
	src := &liveSource{s: withOutput(), ch: make(chan struct{}, 1)}
	m := New(src, Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 15})
	press(m, "o")
	for i := range 40 {
		src.set(func(s *session.Session) {
			s.Output = append(s.Output, session.OutputLine{Stream: "stdout", Text: "line " + string(rune('a'+i%26))})
		})
		m.Update(UpdatedMsg{})
	}
	if !m.log.Following() || !strings.Contains(plain(m), "line n") { // the 40th line is 'n'
		t.Fatalf("not following the tail:\n%s", plain(m))
	}
	press(m, "k")
	top := m.log.Top()
	src.set(func(s *session.Session) { s.Output = append(s.Output, session.OutputLine{Text: "more"}) })
	m.Update(UpdatedMsg{})
	if m.log.Following() || m.log.Top() != top {
		t.Fatalf("scrolled up: following %v top %d, want %d", m.log.Following(), m.log.Top(), top)
	}
	press(m, "G")
	if !m.log.Following() {
		t.Fatal("G did not follow the tail again")
	}
}

func TestSettingsScreen(t *testing.T) {
	s := fixture.Session()
	s.Capabilities = &session.Capabilities{DeviceCapabilities: session.DeviceCapabilities{Checks: map[string]session.CheckSupport{
		"ray_query": {Available: false, Reason: "the device has no VK_KHR_ray_query"},
	}}}
	m := newModel(s, 100, 20)
	press(m, "s")
	if m.Screen() != ScreenSettings {
		t.Fatalf("s: screen %v", m.Screen())
	}
	// Switch descriptor_index_oob off, reserve slot on; ray_query cannot;
	// on_error from skip to clamp, then execute.
	press(m, "space", "j", "j", "j", "enter", "j", "space", "j", "space", "enter")
	got := m.settings.Settings()
	if got.Checks["descriptor_index_oob"] || got.Checks["ray_query"] || !got.ReserveSlot || got.OnError != "execute" || got.Robust {
		t.Fatalf("settings %+v", got)
	}
	out := view(m)
	checkSize(t, out, 100, 20)
	p := ansi.Strip(out)
	for _, want := range []string{"[ ] descriptor_index_oob", "[-] ray_query", "unavailable: the device has no VK_KHR_ray_query",
		"[x] reserve_slot", "›     on_error", " skip  clamp [execute]  failed access: let it execute", "[ ] robust",
		"re-run is not available here"} {
		if !strings.Contains(p, want) {
			t.Errorf("settings lack %q:\n%s", want, p)
		}
	}
	fixture.Golden(t, out)
	press(m, "r")
	if !strings.Contains(plain(m), "re-run is not available for a saved session") || m.Runs() != 1 {
		t.Fatalf("r without Rerun:\n%s", plain(m))
	}
}

// spirvSession is the fixture with the compute group's shader as real
// SPIR-V (spirv/testdata's compute module) and without debug info.
func spirvSession(t *testing.T) *session.Session {
	b, err := os.ReadFile("testdata/compute.spv")
	if err != nil {
		t.Fatal(err)
	}
	words := make([]uint32, len(b)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	s := fixture.Session()
	s.Shaders = map[uint32]*session.Shader{1: {ID: 1, SPIRV: words}}
	s.Groups[0].Source = nil
	s.Groups[0].Instruction = 20
	return s
}

// Without source, the source pane shows the disassembly with the
// instruction marked; d switches the view.
func TestSPIRVView(t *testing.T) {
	m := newModel(spirvSession(t), 120, 30)
	out := view(m)
	checkSize(t, out, 120, 30)
	p := ansi.Strip(out)
	// Instruction 20 is line 71 of spirv-dis's text: OpSource holds the
	// GLSL source over several lines.
	if !strings.Contains(p, "SPIR-V shader-1.spvasm:71") {
		t.Fatalf("no SPIR-V title:\n%s", p)
	}
	if got := markedLine(out); !strings.HasPrefix(got, "▶  71 │") || !strings.Contains(got, `OpName %acc "acc"`) {
		t.Fatalf("marked line %q", got)
	}
	fixture.Golden(t, out)
	// The fragment group has its source line; d shows its SPIR-V, which
	// the session lacks: the pane says so.
	press(m, "n")
	if !strings.Contains(plain(m), "Source oob_fragment.frag:9:13") {
		t.Fatal("fragment: no source")
	}
	press(m, "d")
	if !strings.Contains(plain(m), "disassemble shader 2: the session holds no SPIR-V for it") {
		t.Fatalf("d on a shader without SPIR-V:\n%s", plain(m))
	}
	press(m, "d")
	if !strings.Contains(plain(m), "Source oob_fragment.frag:9:13") {
		t.Fatal("d did not switch back to the source")
	}
}

// The disassembly's lines are spirv-dis's.
func TestDisassemblyMatchesSpirvDis(t *testing.T) {
	s := spirvSession(t)
	d, err := s.Disassemble(1)
	if err != nil {
		t.Fatal(err)
	}
	if d.Header != 5 || d.Lines[0] != "; SPIR-V" || strings.TrimSpace(d.Lines[5]) != "OpCapability Shader" || d.Line(0) != 6 {
		t.Fatalf("header %d, lines %q, line(0) %d", d.Header, d.Lines[:6], d.Line(0))
	}
	if d.Line(1<<20) != 0 {
		t.Fatal("an instruction past the end has a line")
	}
}

func TestFilter(t *testing.T) {
	m := newModel(fixture.Session(), 120, 30)
	press(m, "/", "f", "r", "a", "g")
	if m.Filter() != "frag" || m.Tree().Total() != 1 || m.Selected() != 1 {
		t.Fatalf("filter %q: %d groups, selected %d", m.Filter(), m.Tree().Total(), m.Selected())
	}
	if !strings.Contains(plain(m), "/frag") || !strings.Contains(plain(m), "1 of 2 groups match") ||
		!strings.Contains(plain(m), "1 of 2 groups · 64 of 68 records") {
		t.Fatalf("prompt:\n%s", plain(m))
	}
	press(m, "enter")
	if !strings.Contains(plain(m), "Errors by command buffer (1 group) /frag") {
		t.Fatalf("title:\n%s", plain(m))
	}
	// Labels and actions match too, case-insensitively.
	press(m, "/", "backspace", "backspace", "backspace", "backspace", "O", "O", "B", " ", "P", "enter")
	if m.Tree().Total() != 1 || m.Selected() != 0 {
		t.Fatalf("label filter: %d groups, selected %d", m.Tree().Total(), m.Selected())
	}
	// n and N walk the matches; with a filter on both groups, n goes to
	// the next.
	press(m, "/", "ctrl+u", "d", "e", "s", "c", "enter")
	if m.Tree().Total() != 2 {
		t.Fatalf("desc: %d groups", m.Tree().Total())
	}
	press(m, "n")
	if m.Selected() != 1 {
		t.Fatalf("n: selected %d", m.Selected())
	}
	press(m, "N")
	if m.Selected() != 0 {
		t.Fatalf("N: selected %d", m.Selected())
	}
	// esc in the list clears the filter.
	press(m, "esc")
	if m.Filter() != "" || m.Tree().Total() != 2 {
		t.Fatalf("esc: filter %q", m.Filter())
	}
	if Match(fixture.Compute(), "nothing like it") {
		t.Fatal("Match matched nothing")
	}
}

// The filter's case-insensitive search finds what strings.ToLower and
// strings.Contains find, ASCII or not.
func TestContainsLower(t *testing.T) {
	for _, c := range []struct {
		s, q string
		want bool
	}{
		{"Index of 8 used. VUID-vkCmdDispatch-None-10068", "vuid-vkcmd", true},
		{"Index of 8", "index of 8", true},
		{"Index of 8", "of 9", false},
		{"abc", "abcd", false},
		{"abc", "", true},
		{"", "a", false},
		{"pass \u212a", "k", true}, // the Kelvin sign lowers to k
		{"ÉTÉ frame", "été", true},
		{"frame", "été", false},
	} {
		if got := containsLower(c.s, c.q); got != c.want || got != strings.Contains(strings.ToLower(c.s), c.q) {
			t.Errorf("containsLower(%q, %q) = %v, want %v", c.s, c.q, got, c.want)
		}
	}
}

// ] and [ walk the errors of one shader in source order.
func TestJumpInShader(t *testing.T) {
	s := fixture.Session()
	g := fixture.Compute()
	g.Check, g.ActionIndex, g.Count = "buffer_oob", 2, 7
	g.Source = &session.Source{File: fixture.ComputeFile, Line: 3, Column: 14}
	s.Groups = append(s.Groups, g)
	m := newModel(s, 120, 30)
	// Group 0 (line 9) is the last in the shader: ] wraps to line 3.
	press(m, "]")
	if m.Selected() != 2 || m.source.Doc().Mark != 3 {
		t.Fatalf("]: selected %d mark %d", m.Selected(), m.source.Doc().Mark)
	}
	press(m, "[")
	if m.Selected() != 0 || m.source.Doc().Mark != 9 {
		t.Fatalf("[: selected %d mark %d", m.Selected(), m.source.Doc().Mark)
	}
	press(m, "[")
	if m.Selected() != 2 || m.source.Doc().Mark != 3 {
		t.Fatalf("[ again: selected %d mark %d", m.Selected(), m.source.Doc().Mark)
	}
	// The fragment shader has one error: ] says so.
	press(m, "n") // tree order: group 0, group 2, group 1
	press(m, "]")
	if m.Selected() != 1 || !strings.Contains(plain(m), "no other error in this shader") {
		t.Fatalf("] alone: selected %d\n%s", m.Selected(), plain(m))
	}
}

func TestGroupingKeys(t *testing.T) {
	m := newModel(fixture.Session(), 120, 30)
	for _, tc := range []struct{ key, title string }{
		{"v", "Errors by pipeline"}, {"v", "Errors by source"}, {"v", "Errors by check"}, {"v", "Errors by command buffer"},
		{"3", "Errors by source"}, {"4", "Errors by check"}, {"2", "Errors by pipeline"}, {"1", "Errors by command buffer"},
	} {
		press(m, tc.key)
		if !strings.Contains(plain(m), tc.title+" (2 groups)") {
			t.Fatalf("%s: want %q\n%s", tc.key, tc.title, plain(m))
		}
	}
}

func TestCompare(t *testing.T) {
	rows := compare.Compare(fixture.Session(), fixture.SecondRun())
	want := []compare.Row{
		{Check: "descriptor_index_oob", Location: "oob_fragment.frag:9", Action: "#0 vkCmdDraw", A: 64, B: 128, Status: compare.StatusChanged,
			GroupA: 1, GroupB: 0},
		{Check: "buffer_oob", Location: "oob_compute.comp:9", Action: "#2 vkCmdDispatch — frame 0 › oob pass", A: 0, B: 7, Status: compare.StatusNew,
			GroupA: -1, GroupB: 1},
		{Check: "descriptor_index_oob", Location: "oob_compute.comp:9", Action: "#0 vkCmdDispatch — frame 0 › oob pass", A: 4, B: 0, Status: compare.StatusFixed,
			GroupA: 0, GroupB: -1},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
	same := compare.Compare(fixture.Session(), fixture.Session())
	if len(same) != 2 || same[0].Status != compare.StatusSame {
		t.Fatalf("same runs: %+v", same)
	}
}
