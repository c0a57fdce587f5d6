package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav/printf"
	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// printfShader is testdata/printf.comp compiled with debug info, and its
// two calls: "i=%u n=%u" at line 8, "first %s" (a conversion printf cannot
// print) at line 10.
func printfShader(t testing.TB) (words []uint32, sites []printf.Site) {
	t.Helper()
	words = shadertest.Compile(t, "testdata", "printf.comp", "-g", "--target-env", "vulkan1.2")
	sites, err := printf.Sites(words)
	if err != nil || len(sites) != 2 {
		t.Fatalf("sites %+v, %v", sites, err)
	}
	return words, sites
}

// printfSite is a site of lines at global invocations (x, 0, 0), each line
// x and then args.
func printfSite(action uint32, inst int, nargs uint32, xs []uint32, args ...uint32) wire.PrintfSite {
	s := wire.PrintfSite{ActionIndex: action, Action: "vkCmdDispatch", Pipeline: 0x77, ShaderID: 1, Instruction: uint32(inst),
		Stage: 5, Args: nargs}
	for _, x := range xs {
		s.AppendLine([3]uint32{x, 0, 0}, append([]uint32{x}, args...)[:nargs])
	}
	return s
}

// printfRun feeds a shader, a pipeline, two submits of printf lines and
// the names that come late.
func printfRun(t *testing.T, c *Collector) {
	t.Helper()
	words, sites := printfShader(t)
	record(t, c, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: wireBytes(words), Instrumented: true})
	record(t, c, wire.KindPrintf, &wire.Printf{Submit: 1, Queue: 0x9, CommandBuffer: 0x55, Sites: []wire.PrintfSite{
		printfSite(0, sites[0].Instruction, 2, []uint32{0, 1, 2, 3}, 4),
		printfSite(0, sites[1].Instruction, 1, []uint32{0}),
	}})
	record(t, c, wire.KindPrintf, &wire.Printf{Submit: 2, Queue: 0x9, CommandBuffer: 0x55, Lost: 5, Sites: []wire.PrintfSite{
		printfSite(0, sites[0].Instruction, 2, []uint32{1, 1}, 4),
		printfSite(1, sites[0].Instruction, 2, []uint32{7}, 4),
	}})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x55, ObjectType: "command_buffer", Name: "printf-cb"})
}

func wireBytes(words []uint32) []byte { return spirvBytes(words...) }

// TestPrintfGroups: lines group by command buffer, action and call site,
// with their count, distinct texts, each invocation's coordinates and
// text, the format, the source line and a problem for what cannot be
// printed; lost lines are counted and noticed.
func TestPrintfGroups(t *testing.T) {
	c := NewCollector()
	printfRun(t, c)
	s := c.Snapshot()
	if len(s.Printf) != 3 {
		t.Fatalf("%d printf groups, want 3: %+v", len(s.Printf), s.Printf)
	}
	g := s.Printf[0]
	if g.Format != "i=%u n=%u" || g.Count != 6 || g.Stage != "compute" || g.ActionIndex != 0 || g.Submit != 1 || g.LastSubmit != 2 {
		t.Errorf("group 0: %+v", g)
	}
	wantValues := []PrintfValue{{"i=0 n=4", 1}, {"i=1 n=4", 3}, {"i=2 n=4", 1}, {"i=3 n=4", 1}}
	if !reflect.DeepEqual(g.Values, wantValues) {
		t.Errorf("values %+v, want %+v", g.Values, wantValues)
	}
	var lines []string
	for _, l := range g.Lines {
		lines = append(lines, l.Coords.Values()+" "+l.Text)
	}
	wantLines := []string{"(0,0,0) i=0 n=4", "(1,0,0) i=1 n=4", "(2,0,0) i=2 n=4", "(3,0,0) i=3 n=4", "(1,0,0) i=1 n=4", "(1,0,0) i=1 n=4"}
	if !slices.Equal(lines, wantLines) || g.Lines[4].Submit != 2 {
		t.Errorf("lines %q, want %q", lines, wantLines)
	}
	if g.Source == nil || g.Source.File != "printf.comp" || g.Source.Line != 8 || !strings.Contains(g.Source.Text, `debugPrintfEXT("i=%u n=%u"`) {
		t.Errorf("source %+v", g.Source)
	}
	if g.CommandBuffer.Name != "printf-cb" || g.Queue.Handle != "0x9" || g.Shader.Module != "0xabc" || g.Problem != "" {
		t.Errorf("attribution %+v, problem %q", g.Where, g.Problem)
	}
	bad := s.Printf[1]
	if bad.Format != "first %s" || bad.Count != 1 || bad.Lines[0].Text != "first %s" || bad.Source.Line != 10 ||
		bad.Problem != printf.ProblemSpec.String() {
		t.Errorf("group 1: %+v", bad)
	}
	if a1 := s.Printf[2]; a1.ActionIndex != 1 || a1.Count != 1 || a1.Lines[0].Text != "i=7 n=4" || a1.Submit != 2 {
		t.Errorf("group 2: %+v", a1)
	}
	if s.PrintfLost != 5 || s.PrintfLines() != 8 {
		t.Errorf("lost %d, lines %d; want 5, 8", s.PrintfLost, s.PrintfLines())
	}
	if !slices.ContainsFunc(s.Notices, func(n Notice) bool {
		return n.Level == "warning" && strings.HasPrefix(n.Text, "printf: 5 lines lost: the printf buffer was full in 1 submission")
	}) {
		t.Errorf("no lost-lines notice: %+v", s.Notices)
	}
}

// TestPrintfLimits: past MaxPrintfValues distinct texts a group counts the
// others together; past the session's line limit lines are counted, not
// kept, with one notice.
func TestPrintfLimits(t *testing.T) {
	c := NewCollector()
	c.printf.maxLines = 70
	words, sites := printfShader(t)
	record(t, c, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: wireBytes(words)})
	xs := make([]uint32, MaxPrintfValues+10)
	for i := range xs {
		xs[i] = uint32(i)
	}
	record(t, c, wire.KindPrintf, &wire.Printf{Submit: 1, CommandBuffer: 0x55,
		Sites: []wire.PrintfSite{printfSite(0, sites[0].Instruction, 2, xs, 4)}})
	s := c.Snapshot()
	g := s.Printf[0]
	if g.Count != MaxPrintfValues+10 || len(g.Values) != MaxPrintfValues || g.OtherValues != 10 {
		t.Errorf("count %d, %d values, %d others", g.Count, len(g.Values), g.OtherValues)
	}
	if len(g.Lines) != 70 || g.LinesNotKept != MaxPrintfValues-60 || s.PrintfNotKept != uint64(g.LinesNotKept) {
		t.Errorf("%d lines kept, %d not (session %d)", len(g.Lines), g.LinesNotKept, s.PrintfNotKept)
	}
	if g.Lines[69].Text != "i=69 n=4" {
		t.Errorf("line 69: %q", g.Lines[69].Text)
	}
	n := 0
	for _, no := range s.Notices {
		if strings.HasPrefix(no.Text, "printf: more than 70 lines") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d not-kept notices, want 1: %+v", n, s.Notices)
	}
}

// TestPrintfUnknownSiteAndBadLines: lines of an instruction that is no
// printf call show their words and say so; a message with lines that are
// not whole is refused and changes nothing.
func TestPrintfUnknownSiteAndBadLines(t *testing.T) {
	c := NewCollector()
	words, _ := printfShader(t)
	record(t, c, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: wireBytes(words)})
	bad := printfSite(0, 3, 2, []uint32{1}, 0xff)
	bad.Lines = bad.Lines[:len(bad.Lines)-1]
	err := c.Record(wire.KindPrintf, &wire.Printf{Submit: 1, CommandBuffer: 0x55, Sites: []wire.PrintfSite{printfSite(0, 3, 2, []uint32{6}, 0xff), bad}})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "site 1: printf site: 19 bytes of lines of 20 bytes each") {
		t.Errorf("a message with a bad site: %v", err)
	}
	record(t, c, wire.KindPrintf, &wire.Printf{Submit: 1, CommandBuffer: 0x55, Sites: []wire.PrintfSite{printfSite(0, 3, 2, []uint32{5}, 0xff)}})
	s := c.Snapshot()
	if len(s.Printf) != 1 || s.Printf[0].Count != 1 {
		t.Fatalf("groups %+v", s.Printf)
	}
	g := s.Printf[0]
	if g.Format != "" || g.Lines[0].Text != "0x5 0xff" || g.Problem != "shader 1 has no printf call at instruction 3: lines show their words" {
		t.Errorf("group %+v", g)
	}
}

// TestPrintfSnapshotsAndFile: a snapshot does not change when more lines
// come; a session file replays to the same printf groups.
func TestPrintfSnapshotsAndFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.gvs")
	f, err := CreateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCollector()
	c.SetFile(f)
	printfRun(t, c)
	before := c.Snapshot()
	count, v1 := before.Printf[0].Count, before.Printf[0].Values[1]
	_, sites := printfShader(t)
	record(t, c, wire.KindPrintf, &wire.Printf{Submit: 3, CommandBuffer: 0x55,
		Sites: []wire.PrintfSite{printfSite(0, sites[0].Instruction, 2, []uint32{1}, 4)}})
	if before.Printf[0].Count != count || before.Printf[0].Values[1] != v1 {
		t.Errorf("snapshot changed: count %d, value %+v", before.Printf[0].Count, before.Printf[0].Values[1])
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	live := c.Snapshot()
	opened, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := json.Marshal([]any{live.Printf, live.PrintfLost, live.PrintfNotKept})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal([]any{opened.Printf, opened.PrintfLost, opened.PrintfNotKept})
	if err != nil {
		t.Fatal(err)
	}
	if len(live.Printf) != 3 || string(a) != string(b) {
		t.Errorf("opened printf groups differ from the live ones:\n%s", firstDiff(string(a), string(b)))
	}
	_ = os.Remove(path)
}

// firstDiff shows where two texts part.
func firstDiff(a, b string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			lo := max(0, i-80)
			return "live:   " + a[lo:min(len(a), i+80)] + "\nopened: " + b[lo:min(len(b), i+80)]
		}
	}
	return "one is a prefix of the other"
}

// TestPrintfFilter parses filters and keeps the lines they name.
func TestPrintfFilter(t *testing.T) {
	frag := CoordsOf(map[string][]float64{"frag_coord": {120.5, 45.5}})
	inv := CoordsOf(map[string][]float64{"global_invocation_id": {3, 0, 0}})
	vert := CoordsOf(map[string][]float64{"vertex_index": {5}, "instance_index": {0}})
	tests := []struct {
		filter          string
		frag, inv, vert bool
		canonical       string
		err             string
	}{
		{"", true, true, true, "", ""},
		{"pixel=120,45", true, true, true, "pixel=120,45", ""},
		{"pixel=121,45", false, true, true, "pixel=121,45", ""},
		{"invocation=(3,0,0)", true, true, true, "invocation=3,0,0", ""},
		{"invocation=3,1,0; pixel=120,45", true, false, true, "invocation=3,1,0 pixel=120,45", ""},
		{"vertex=5 instance=1", true, true, false, "vertex=5 instance=1", ""},
		{"frag_coord=120.5,45.5", true, true, true, "frag_coord=120.5,45.5", ""},
		{"invocation=3,0", false, false, false, "", "invocation takes 3 values"},
		{"invocation=1", false, false, false, "", "invocation takes 3 values (gl_GlobalInvocationID; a tessellation control or geometry shader's gl_InvocationID is invocation_id=N)"},
		{"invocation_id=1 tess_coord=1,0.5", true, true, true, "invocation_id=1 tess_coord=1,0.5", ""},
		{"tess=1", false, false, false, "", `unknown name "tess" (pixel=X,Y invocation=X,Y,Z vertex=N instance=N primitive=N invocation_id=N tess_coord=U,V launch=X,Y,Z)`},
		{"frag_coord=1", false, false, false, "", "frag_coord takes 2 values"},
		{"texel=1", false, false, false, "", `unknown name "texel"`},
		{"pixel", false, false, false, "", "want NAME=VALUES"},
		{"pixel=a,1", false, false, false, "", `"a" is not a number`},
	}
	for _, tc := range tests {
		f, err := ParsePrintfFilter(tc.filter)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.filter, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.filter, err)
			continue
		}
		if got := [3]bool{f.Match(frag), f.Match(inv), f.Match(vert)}; got != [3]bool{tc.frag, tc.inv, tc.vert} {
			t.Errorf("%q keeps frag, invocation, vertex: %v, want %v", tc.filter, got, [3]bool{tc.frag, tc.inv, tc.vert})
		}
		if f.String() != tc.canonical {
			t.Errorf("%q: String %q, want %q", tc.filter, f.String(), tc.canonical)
		}
	}
	g := &PrintfGroup{Lines: []PrintfLine{{Coords: gid(1), Text: "a"}, {Coords: gid(3), Text: "b"}, {Coords: gid(3), Text: "c"}}}
	f, _ := ParsePrintfFilter("invocation=3,0,0")
	if got := g.LinesAt(f); len(got) != 2 || got[0].Text != "b" || got[1].Text != "c" {
		t.Errorf("LinesAt: %+v", got)
	}
}

// TestPrintfReportLimitsLines: the JSON report lists a group's first
// ReportPrintfLines lines and counts the others; the session keeps them.
func TestPrintfReportLimitsLines(t *testing.T) {
	g := &PrintfGroup{Format: "x", Count: ReportPrintfLines + 5, Values: []PrintfValue{{"x", ReportPrintfLines + 5}},
		Lines: make([]PrintfLine, ReportPrintfLines+5)}
	s := &Session{Printf: []*PrintfGroup{g}}
	var b bytes.Buffer
	if err := WriteReport(&b, s); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Printf []struct {
			Lines   []PrintfLine `json:"lines"`
			Omitted int          `json:"lines_omitted"`
			Count   int          `json:"count"`
		} `json:"printf"`
	}
	if err := json.Unmarshal(b.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Printf) != 1 || len(r.Printf[0].Lines) != ReportPrintfLines || r.Printf[0].Omitted != 5 || r.Printf[0].Count != ReportPrintfLines+5 {
		t.Errorf("report printf: %d groups, %d lines, %d omitted", len(r.Printf), len(r.Printf[0].Lines), r.Printf[0].Omitted)
	}
	if len(g.Lines) != ReportPrintfLines+5 || g.LinesOmitted != 0 {
		t.Errorf("the session's group changed: %d lines, %d omitted", len(g.Lines), g.LinesOmitted)
	}
}
