package detail

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

func TestRenderCompute(t *testing.T) {
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), fixture.Compute(), 0, 0, 70, 20)))
}

func TestRenderFragment(t *testing.T) {
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), fixture.Fragment(), 0, 0, 70, 20)))
}

// A narrow pane wraps the message and long values under their label, and
// scrolls.
func TestRenderNarrowScrolled(t *testing.T) {
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), fixture.Compute(), 0, 3, 34, 10)))
}

func TestRenderNil(t *testing.T) {
	got := Render(fixture.Styles(), nil, 0, 0, 21, 3)
	if got != "                     \n  no error selected  \n                     " {
		t.Fatalf("Render(nil) = %q", got)
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{FormatCoords(session.CoordsOf(map[string][]float64{"global_invocation_id": {0, 0, 0}})), "global_invocation_id (0, 0, 0)"},
		{FormatCoords(session.CoordsOf(map[string][]float64{"frag_coord": {0.5, 10.25}})), "frag_coord (0.5, 10.25)"},
		{FormatCoords(session.CoordsOf(map[string][]float64{"vertex_index": {7}, "instance_index": {1}})), "instance_index (1), vertex_index (7)"},
		{FormatCoords(session.Coords{}), ""},
		{FormatHandle(session.Handle{Handle: "0x1", Name: "cb"}), `0x1 "cb"`},
		{FormatHandle(session.Handle{Handle: "0x1"}), "0x1"},
		{FormatHandle(session.Handle{}), "—"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestFieldsCoverTheMessageContract(t *testing.T) {
	text := ansi.Strip(strings.Join(Lines(fixture.Styles(), fixture.Compute(), 0, 200), "\n"))
	for _, want := range []string{
		"index 3 of an array of 2 descriptors",
		"Check       descriptor_index_oob",
		"VUID        VUID-vkCmdDispatch-None-10068",
		"Stage       compute  global_invocation_id (0, 0, 0)",
		"Descriptor  set 0, binding 0, index 3, array length 2",
		`Command buf 0x000055d5c3a1b2c0 "compute cb"`,
		"Submit      #1",
		"Action      #0 vkCmdDispatch",
		"Labels      frame 0 › oob pass",
		`Pipeline    0x0000000000000042 "oob pipeline"`,
		`Shader      id 1, module 0x0000000000000017 "oob_compute"`,
		"Instruction 57",
		"Source      oob_compute.comp:9:5",
		"Count       4",
		"Samples     (0, 0, 0) (1, 0, 0) (2, 0, 0)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, text)
		}
	}
}

func TestModelScroll(t *testing.T) {
	m := New(fixture.Common())
	m.SetSize(70, 5)
	m.SetGroup(fixture.Compute(), 0, true)
	n := len(Lines(fixture.Styles(), fixture.Compute(), 0, 70))
	m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if m.Offset() != 2 {
		t.Fatalf("offset %d after jj, want 2", m.Offset())
	}
	m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	if m.Offset() != n-5 {
		t.Fatalf("offset %d after G, want %d", m.Offset(), n-5)
	}
	m.SetGroup(fixture.Fragment(), 0, false) // same selection, new snapshot
	if m.Offset() == 0 {
		t.Fatal("a refresh of the same group scrolled to the top")
	}
	m.SetGroup(fixture.Fragment(), 0, true)
	if m.Offset() != 0 {
		t.Fatalf("offset %d after a new selection, want 0", m.Offset())
	}
}

// TestFieldsSecondary: a secondary's group shows its primary and queue; a
// primary's shows no Primary line.
func TestFieldsSecondary(t *testing.T) {
	g := fixture.Compute()
	if text := ansi.Strip(strings.Join(Lines(fixture.Styles(), g, 0, 200), "\n")); strings.Contains(text, "Primary") {
		t.Errorf("a primary's detail shows a Primary line:\n%s", text)
	}
	pa := uint32(1)
	g.PrimaryCommandBuffer = session.Handle{Handle: "0x55", Name: "cmd-0"}
	g.PrimaryActionIndex = &pa
	g.Queue = session.Handle{Handle: "0x90", Name: "main-queue"}
	text := ansi.Strip(strings.Join(Lines(fixture.Styles(), g, 0, 200), "\n"))
	for _, want := range []string{`Primary     0x55 "cmd-0", after 1 of its actions`, `Queue       0x90 "main-queue"`} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, text)
		}
	}
}

// The instruction's index and its line in the SPIR-V view are both shown,
// named, where they differ; once where they are the same.
func TestInstructionText(t *testing.T) {
	for _, tc := range []struct {
		instr uint32
		line  int
		want  string
	}{
		{57, 71, "57 (index in the module; line 71 of the SPIR-V view, d)"},
		{57, 0, "57"},
		{57, 57, "57"},
	} {
		if got := InstructionText(tc.instr, tc.line); got != tc.want {
			t.Errorf("InstructionText(%d, %d) = %q, want %q", tc.instr, tc.line, got, tc.want)
		}
	}
	text := ansi.Strip(strings.Join(Lines(fixture.Styles(), fixture.Compute(), 71, 200), "\n"))
	if !strings.Contains(text, "Instruction 57 (index in the module; line 71 of the SPIR-V view, d)") {
		t.Errorf("detail:\n%s", text)
	}
}

// TestLinesLeadWithVerdict: the pane starts with one line — what went
// wrong, what the access did — then the fields; the message (several
// lines, with the source and a caret) is not repeated above them.
func TestLinesLeadWithVerdict(t *testing.T) {
	g := fixture.Compute()
	g.MessageText = "descriptor_index_oob: (set = 0, binding = 0) Index of 3 used to index descriptor array of length 2. " +
		"Command buffer 0x55, action #0 vkCmdDispatch. oob_compute.comp:9:5:\n    outs[pc.idx].v[i] = i * 3u;\n    ^"
	g.Outcome = &session.Outcome{Access: "skipped"}
	lines := Lines(fixture.Styles(), g, 0, 100)
	text := ansi.Strip(strings.Join(lines, "\n"))
	if first := ansi.Strip(lines[0]); first != "index 3 of an array of 2 descriptors — skipped (a load reads 0, a store is dropped)" {
		t.Fatalf("first line %q", first)
	}
	if ansi.Strip(lines[1]) != "" || !strings.HasPrefix(ansi.Strip(lines[2]), "Check ") {
		t.Fatalf("no fields right after the verdict:\n%s", text)
	}
	for _, bad := range []string{"␊", "Command buffer 0x55", "Index of 3 used"} {
		if strings.Contains(text, bad) {
			t.Errorf("the pane holds %q:\n%s", bad, text)
		}
	}
	g.Loop = 5
	if text := ansi.Strip(strings.Join(Lines(fixture.Styles(), g, 0, 200), "\n")); !strings.Contains(text,
		"Loop        its invocation failed 5 times in this loop; the values are the last failure's") {
		t.Errorf("no loop field:\n%s", text)
	}
}
