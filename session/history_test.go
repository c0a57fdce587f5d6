package session

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestHistoryRuns(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		"demo-20250102-090000.gvs", "demo-20250101-100000-2.gvs", "demo-20250101-100000.gvs",
		"demo-20250101-100000-2.3.gvs", "demo-20250101-100000-2.2.gvs", "demo-20250101-100000.x.gvs",
		"other-app-20250101-120000.gvs", "junk.txt", "demo-2025.gvs", "demo-20251301-000000.gvs",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(FileHeader), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "x-20250101-100000.gvs"), 0o700); err != nil {
		t.Fatal(err)
	}
	h := &History{Dir: dir}
	at := func(s string) time.Time {
		tt, err := time.ParseInLocation("2006-01-02 15:04:05", s, time.Local)
		if err != nil {
			t.Fatal(err)
		}
		return tt
	}
	runs, err := h.Runs("./build/demo")
	if err != nil {
		t.Fatal(err)
	}
	want := []Run{
		{Path: filepath.Join(dir, "demo-20250101-100000.gvs"), App: "demo", Time: at("2025-01-01 10:00:00")},
		{Path: filepath.Join(dir, "demo-20250101-100000-2.gvs"), App: "demo", Time: at("2025-01-01 10:00:00"), Seq: 2},
		{Path: filepath.Join(dir, "demo-20250101-100000-2.2.gvs"), App: "demo", Time: at("2025-01-01 10:00:00"), Seq: 2, Rerun: 2},
		{Path: filepath.Join(dir, "demo-20250101-100000-2.3.gvs"), App: "demo", Time: at("2025-01-01 10:00:00"), Seq: 2, Rerun: 3},
		{Path: filepath.Join(dir, "demo-20250102-090000.gvs"), App: "demo", Time: at("2025-01-02 09:00:00")},
	}
	if !reflect.DeepEqual(runs, want) {
		t.Fatalf("runs:\n got %+v\nwant %+v", runs, want)
	}
	all, _ := h.Runs("")
	if len(all) != 6 || all[4].App != "other-app" {
		t.Fatalf("all runs: %+v", all)
	}
	prev, err := h.Previous(want[4].Path)
	if err != nil || prev != want[3] {
		t.Fatalf("previous of the latest: %+v %v", prev, err)
	}
	if prev, err := h.Previous(want[3].Path); err != nil || prev != want[2] {
		t.Fatalf("previous of re-run 3: %+v %v", prev, err)
	}
	if prev, err := h.Previous(want[2].Path); err != nil || prev != want[1] {
		t.Fatalf("previous of re-run 2: %+v %v", prev, err)
	}
	if prev, err := h.Previous(want[1].Path); err != nil || prev != want[0] {
		t.Fatalf("previous of the same-second run: %+v %v", prev, err)
	}
	if _, err := h.Previous(want[0].Path); !errors.Is(err, ErrNoPrevious) {
		t.Fatalf("previous of the first: %v", err)
	}
	if _, err := h.Previous("/tmp/mine.gvs"); err == nil {
		t.Fatal("previous of a file named otherwise")
	}
	if runs, err := (&History{Dir: filepath.Join(dir, "none")}).Runs("demo"); err != nil || len(runs) != 0 {
		t.Fatalf("missing directory: %v %v", runs, err)
	}
}

func TestDefaultPathUnique(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	at := time.Date(2025, 6, 7, 8, 9, 10, 0, time.Local)
	var paths []string
	for range 3 {
		p, err := DefaultPath("/bin/demo", at)
		if err != nil {
			t.Fatal(err)
		}
		f, err := CreateFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		paths = append(paths, filepath.Base(p))
	}
	if !reflect.DeepEqual(paths, []string{"demo-20250607-080910.gvs", "demo-20250607-080910-2.gvs", "demo-20250607-080910-3.gvs"}) {
		t.Fatalf("paths %v", paths)
	}
	h, _ := DefaultHistory()
	if runs, _ := h.Runs("demo"); len(runs) != 3 || runs[2].Seq != 3 {
		t.Fatalf("history %+v", runs)
	}
}

func TestCompare(t *testing.T) {
	grp := func(check string, file string, line int, action string, idx uint32, count int, index uint32) *ErrorGroup {
		g := &ErrorGroup{Check: check, Where: Where{Action: action, ActionIndex: idx, Shader: ShaderRef{ID: 3}, Instruction: 50},
			Count: count, Descriptor: &Descriptor{Index: index, ArrayLength: 2}}
		if file != "" {
			g.Source = &Source{File: file, Line: line}
		} else {
			g.Source = &Source{Note: "no debug information"}
		}
		return g
	}
	oldS := &Session{Groups: []*ErrorGroup{
		grp("descriptor_index_oob", "a.comp", 9, "vkCmdDispatch", 0, 4, 3),  // same
		grp("descriptor_index_oob", "a.frag", 9, "vkCmdDraw", 1, 64, 6),     // fixed
		grp("descriptor_index_oob", "b.comp", 12, "vkCmdDispatch", 2, 1, 3), // changed count
		grp("descriptor_index_oob", "", 0, "vkCmdDispatch", 3, 2, 5),        // changed index
		grp("descriptor_index_oob", "a.comp", 20, "vkCmdDispatch", 0, 1, 3), // pairs with the first duplicate
	}}
	newS := &Session{Groups: []*ErrorGroup{
		grp("descriptor_index_oob", "b.comp", 12, "vkCmdDispatch", 2, 5, 3),
		grp("descriptor_index_oob", "a.comp", 9, "vkCmdDispatch", 0, 4, 3),
		grp("descriptor_index_oob", "a.comp", 9, "vkCmdDispatch", 1, 4, 3), // another action: new
		grp("descriptor_index_oob", "", 0, "vkCmdDispatch", 3, 2, 7),
		grp("descriptor_index_oob", "a.comp", 20, "vkCmdDispatch", 0, 1, 3),
		grp("descriptor_index_oob", "a.comp", 20, "vkCmdDispatch", 0, 1, 3), // second of a key: new
	}}
	diffs := Compare(oldS, newS)
	type row struct {
		kind  DiffKind
		key   string
		delta int
		old   *ErrorGroup
		new   *ErrorGroup
	}
	want := []row{
		{DiffChanged, "descriptor_index_oob b.comp:12 vkCmdDispatch #2", 4, oldS.Groups[2], newS.Groups[0]},
		{DiffSame, "descriptor_index_oob a.comp:9 vkCmdDispatch #0", 0, oldS.Groups[0], newS.Groups[1]},
		{DiffNew, "descriptor_index_oob a.comp:9 vkCmdDispatch #1", 4, nil, newS.Groups[2]},
		{DiffChanged, "descriptor_index_oob shader 3 instruction 50 vkCmdDispatch #3", 0, oldS.Groups[3], newS.Groups[3]},
		{DiffSame, "descriptor_index_oob a.comp:20 vkCmdDispatch #0", 0, oldS.Groups[4], newS.Groups[4]},
		{DiffNew, "descriptor_index_oob a.comp:20 vkCmdDispatch #0", 1, nil, newS.Groups[5]},
		{DiffFixed, "descriptor_index_oob a.frag:9 vkCmdDraw #1", -64, oldS.Groups[1], nil},
	}
	if len(diffs) != len(want) {
		t.Fatalf("%d diffs, want %d: %+v", len(diffs), len(want), diffs)
	}
	for i, w := range want {
		d := diffs[i]
		if d.Kind != w.kind || d.Key != w.key || d.CountDelta() != w.delta || d.Old != w.old || d.New != w.new {
			t.Errorf("diff %d: %v %q %+d, want %v %q %+d", i, d.Kind, d.Key, d.CountDelta(), w.kind, w.key, w.delta)
		}
	}
	if got := Summarize(diffs).String(); got != "2 new, 1 fixed, 2 changed, 2 same" {
		t.Fatalf("summary %q", got)
	}
	if got := Summarize(Compare(nil, newS)); got.New != 6 {
		t.Fatalf("against nothing: %+v", got)
	}
}

// TestOpenPair opens two saved runs; a truncated one comes with its error.
func TestOpenPair(t *testing.T) {
	path, data, _ := writeSession(t)
	cut := filepath.Join(t.TempDir(), "cut.gvs")
	if err := os.WriteFile(cut, data[:len(data)-2], 0o600); err != nil {
		t.Fatal(err)
	}
	a, b, err := OpenPair(path, cut)
	var te *TruncatedError
	if a == nil || b == nil || !errors.As(err, &te) || te.Path != cut {
		t.Fatalf("OpenPair: %v %v %v", a != nil, b != nil, err)
	}
	if s := Summarize(Compare(a, b)); s != (DiffSummary{Same: 2}) {
		t.Fatalf("compare with itself: %+v", s)
	}
	if _, _, err := OpenPair(path, filepath.Join(t.TempDir(), "none.gvs")); err == nil {
		t.Fatal("missing file opened")
	}
}

// TestCompareNoLongerChecked: a group the newer run lacks is fixed only
// when the newer run could have found it; else it is no longer checked,
// with the reason.
func TestCompareNoLongerChecked(t *testing.T) {
	g := &ErrorGroup{Check: "descriptor_index_oob", Count: 4, Where: Where{Action: "vkCmdDraw", Shader: ShaderRef{ID: 1},
		Source: &Source{File: "a.frag", Line: 9}}}
	oldS := &Session{Groups: []*ErrorGroup{g}}
	on := Settings{Checks: map[string]bool{"descriptor_index_oob": true}}
	exited := App{State: AppExited, LayerLoaded: true}
	for _, c := range []struct {
		name   string
		cur    Session
		kind   DiffKind
		reason string
	}{
		{"fixed", Session{App: exited, Settings: on}, DiffFixed, ""},
		{"fixed, app failed", Session{App: App{State: AppExited, ExitCode: 1, LayerLoaded: true}, Settings: on}, DiffFixed, ""},
		{"check off", Session{App: exited, Settings: Settings{Checks: map[string]bool{"descriptor_index_oob": false, "buffer_oob": true}}},
			DiffUnchecked, "check descriptor_index_oob was off"},
		{"layer not loaded", Session{App: App{State: AppExited}, Settings: on}, DiffUnchecked, "the layer was not loaded"},
		{"crashed", Session{App: App{State: AppCrashed, Signal: "SIGSEGV", LayerLoaded: true}, Settings: on}, DiffUnchecked,
			"the app crashed (SIGSEGV) before it finished"},
		{"stopped", Session{App: App{State: AppStopped, LayerLoaded: true}, Settings: on}, DiffUnchecked, "you stopped the app before it finished"},
		{"end unknown", Session{App: App{State: AppUnknown, LayerLoaded: true}, Settings: on}, DiffUnchecked, "the app's end was not recorded"},
		{"failed to start", Session{App: App{State: AppFailed}, Settings: on}, DiffUnchecked, "the app failed to start"},
		{"robust only", Session{App: exited, Settings: Settings{Checks: on.Checks, Robust: true}}, DiffUnchecked,
			"the robust-only mode reports nothing"},
		{"no device", Session{App: exited, Settings: on, Unchecked: []Unchecked{{Kind: UncheckedDevice, Reason: "instrumentation disabled on llvmpipe: every check is off"}}},
			DiffUnchecked, "instrumentation disabled on llvmpipe: every check is off"},
	} {
		t.Run(c.name, func(t *testing.T) {
			diffs := Compare(oldS, &c.cur)
			if len(diffs) != 1 || diffs[0].Kind != c.kind || diffs[0].Reason != c.reason || diffs[0].Old != g {
				t.Fatalf("diffs %+v, want %v %q", diffs, c.kind, c.reason)
			}
			want := "0 new, 1 fixed, 0 changed, 0 same"
			if c.kind == DiffUnchecked {
				want = "0 new, 0 fixed, 1 no longer checked, 0 changed, 0 same"
			}
			if got := Summarize(diffs).String(); got != want {
				t.Fatalf("summary %q, want %q", got, want)
			}
		})
	}
}
