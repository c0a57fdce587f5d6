package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/golden"
)

func TestParseOutput(t *testing.T) {
	f, err := os.Open("testdata/scene-output.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ParseOutput(f)
	if err != nil {
		t.Fatal(err)
	}
	want := Output{
		Scene: "dispatch", Device: "llvmpipe (LLVM 15.0.6, 256 bits)",
		Driver:  "llvmpipe Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) (Vulkan 1.4.305)",
		Size:    "dispatches=1000",
		Khronos: true, Warmup: []int64{72455348}, Iters: []int64{37960363, 39804172, 29322143},
		CheckOK: true, VkErrors: 3, Done: true, HandErrors: -1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseOutput:\n got %+v\nwant %+v", got, want)
	}
	for in, want := range map[string]int64{"bench: hand-errors 0\n": 0, "bench: hand-errors 1048412\n": 1048412} {
		if o, err := ParseOutput(strings.NewReader(in)); err != nil || o.HandErrors != want {
			t.Errorf("ParseOutput(%q): hand errors %d, %v; want %d", in, o.HandErrors, err, want)
		}
	}
}

func TestParseOutputErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"bench: iter 1 100\n", `line 1 "bench: iter 1 100": iteration 1 out of order (want 0)`},
		{"bench: iter 0 100\nbench: iter 0 100\n", "line 2"},
		{"bench: iter 0 -5\n", `bad time "-5"`},
		{"bench: iter 0\n", "want an index and nanoseconds"},
		{"bench: iter x 5\n", "invalid syntax"},
		{"bench: vk-errors many\n", `bad count "many"`},
		{"bench: hand-errors -1\n", `bad count "-1"`},
		{"bench: frobnicate 1\n", `unknown key "frobnicate"`},
	} {
		_, err := ParseOutput(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOutput(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParseOutput(f *testing.F) {
	b, err := os.ReadFile("testdata/scene-output.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("bench: iter 0 1\nbench: warmup 0 2\n")
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOutput(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, v := range append(o.Warmup, o.Iters...) {
			if v <= 0 {
				t.Fatalf("accepted a time of %d", v)
			}
		}
		if o.VkErrors < 0 {
			t.Fatalf("accepted %d errors", o.VkErrors)
		}
	})
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []int64
		want int64
	}{
		{nil, 0}, {[]int64{5}, 5}, {[]int64{9, 1, 5}, 5}, {[]int64{4, 1, 3, 2}, 2}, {[]int64{10, 30}, 20},
	} {
		in := append([]int64(nil), tc.in...)
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %d, want %d", tc.in, got, tc.want)
		}
		if !reflect.DeepEqual(in, tc.in) {
			t.Errorf("Median changed its input to %v", tc.in)
		}
	}
}

func TestCountLayerErrors(t *testing.T) {
	stderr := "gpuav-dbg: WARNING: something\n" +
		"gpuav-dbg: ERROR descriptor_index_oob VUID-x: (set = 0, binding = 0) Index of 4 ...\n" +
		"[vk error] not ours\n" +
		"gpuav-dbg: ERROR descriptor_index_oob VUID-x: again\n" +
		"gpuav-dbg: further errors are not printed\n"
	if got := CountLayerErrors(stderr); got != 3 {
		t.Errorf("CountLayerErrors = %d, want 3", got)
	}
	if got := CountLayerErrors("gpuav-dbg: INFO: fine\n"); got != 0 {
		t.Errorf("CountLayerErrors(info) = %d, want 0", got)
	}
}

func TestReplaceSection(t *testing.T) {
	doc := "# B\n\nother rows\n<!-- bench:lavapipe -->\nold\n<!-- /bench:lavapipe -->\ntail\n" +
		"<!-- bench:nvidia -->\nkeep\n<!-- /bench:nvidia -->\n"
	got, err := ReplaceSection(doc, "lavapipe", "new table")
	if err != nil {
		t.Fatal(err)
	}
	want := "# B\n\nother rows\n<!-- bench:lavapipe -->\nnew table\n<!-- /bench:lavapipe -->\ntail\n" +
		"<!-- bench:nvidia -->\nkeep\n<!-- /bench:nvidia -->\n"
	if got != want {
		t.Errorf("ReplaceSection:\n%s\nwant\n%s", got, want)
	}
	if _, err := ReplaceSection("no markers", "nvidia", "x"); !errors.Is(err, ErrNoMarkers) {
		t.Errorf("ReplaceSection without markers: %v, want ErrNoMarkers", err)
	}
	twice := doc + "<!-- bench:lavapipe -->\n"
	if _, err := ReplaceSection(twice, "lavapipe", "x"); err == nil || !strings.Contains(err.Error(), "more than once") {
		t.Errorf("ReplaceSection with a repeated marker: %v", err)
	}
}

// TestMarkdownGolden renders a results file of the first harness (three
// configurations) and one with every configuration and the hot loop's
// reference variants.
func TestMarkdownGolden(t *testing.T) {
	for _, name := range []string{"results", "results-hotloop"} {
		b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var r Results
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		got := Markdown(&r)
		golden.AssertString(t, filepath.Join("testdata", strings.Replace(name, "results", "markdown", 1)+".golden"), got)
	}
}

func TestMet(t *testing.T) {
	for _, tc := range []struct {
		none, ours, khronos  int64
		target               float64
		wantTarget, wantBeat bool
	}{
		{100, 105, 130, 1.10, true, true},
		{100, 111, 130, 1.10, false, true},
		{100, 105, 104, 1.10, true, false},
		{100, 200, 150, 1.5, false, false},
	} {
		s := SceneResult{Target: tc.target, Median: map[string]int64{ConfigNone: tc.none, ConfigOurs: tc.ours, ConfigKhronos: tc.khronos}}
		gotT, gotB := s.Met()
		if gotT != tc.wantTarget || gotB != tc.wantBeat {
			t.Errorf("Met(%d,%d,%d, ≤%.2f) = %v,%v, want %v,%v", tc.none, tc.ours, tc.khronos, tc.target, gotT, gotB, tc.wantTarget, tc.wantBeat)
		}
		// With every check on measured, the target is judged on that run.
		s.Median[ConfigOurs], s.Median[ConfigOursAll] = 1, tc.ours
		gotT, gotB = s.Met()
		if s.Judged() != ConfigOursAll || gotT != tc.wantTarget || gotB != tc.wantBeat {
			t.Errorf("Met with every check %d: %s %v,%v, want %v,%v", tc.ours, s.Judged(), gotT, gotB, tc.wantTarget, tc.wantBeat)
		}
	}
}

// TestMetTextWithoutOurs: a part that ran only the Khronos layers (the
// pipeline-khronos part) judges nothing against the target.
func TestMetTextWithoutOurs(t *testing.T) {
	s := SceneResult{Target: 1.5, Median: map[string]int64{ConfigNone: 100, ConfigKhronos: 2200}}
	if got, want := metText(s), "— (gpuav-dbg not in this run)"; got != want {
		t.Errorf("metText without our layer = %q, want %q", got, want)
	}
	s.Median[ConfigOurs] = 140
	if got := metText(s); got != "yes" {
		t.Errorf("metText at 1.40× of a 1.5× target, below Khronos = %q, want yes", got)
	}
}

// TestRenderWrites runs the -render path end to end on a copy of a doc.
func TestRenderWrites(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "B.md")
	if err := os.WriteFile(doc, []byte("x\n<!-- bench:nvidia -->\nold\n<!-- /bench:nvidia -->\ny\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-render", "testdata/results.json", "-section", "nvidia", "-write", doc}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/markdown.golden")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "x\n<!-- bench:nvidia -->\n"+string(want)+"<!-- /bench:nvidia -->\ny\n" {
		t.Errorf("rendered doc:\n%s", b)
	}
	// Two results files: one section, their tables in order.
	md := filepath.Join(t.TempDir(), "two.md")
	if err := run([]string{"-render", "testdata/results.json,testdata/results.json", "-md", md}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(md); err != nil || string(b) != string(want)+"\n"+string(want) {
		t.Errorf("two files rendered (%v):\n%s", err, b)
	}
	if err := run([]string{"-render", "testdata/results.json", "-section", "gpu"}); err == nil || !strings.Contains(err.Error(), `unknown section "gpu"`) {
		t.Errorf("bad section: %v", err)
	}
}
