package session

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// saveRun writes a session file named for app at start into dir, with
// output files named as the launcher names them (stdout: the name its
// app_started frame gives; stderr: "" to leave it out), padded to about
// size bytes, modified at mod.
func saveRun(t *testing.T, dir, app string, start, mod time.Time, size int, outNames ...string) string {
	t.Helper()
	path := filepath.Join(dir, AppName(app)+"-"+start.Format(timeLayout)+FileExt)
	f, err := CreateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestCollector()
	c.SetFile(f)
	st := &wire.AppStarted{Path: app, PID: 1, Time: start}
	for i, n := range outNames {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(strings.Repeat("x", 100)), 0o600); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			st.Stdout = p
		} else {
			st.Stderr = p
		}
	}
	record(t, c, wire.KindAppStarted, st)
	for size > 0 {
		line := strings.Repeat("y", min(size, 4000))
		record(t, c, wire.KindAppOutput, &wire.AppOutput{Stream: "stdout", Text: line})
		size -= len(line)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParseRetention(t *testing.T) {
	for _, c := range []struct {
		size, age string
		want      Retention
		err       string
	}{
		{"", "", DefaultRetention, ""},
		{"500MB", "12h", Retention{500e6, 12 * time.Hour}, ""},
		{"2GiB", "7d", Retention{2 << 30, 7 * 24 * time.Hour}, ""},
		{"0", "0", Retention{}, ""},
		{"4096", "1.5d", Retention{4096, 36 * time.Hour}, ""},
		{"lots", "", Retention{}, "GPUAV_DBG_KEEP_SIZE: \"lots\" is not a size"},
		{"", "-1d", Retention{}, "GPUAV_DBG_KEEP_AGE: \"-1d\" is not an age"},
	} {
		env := map[string]string{options.KeepSize.Env: c.size, options.KeepAge.Env: c.age}
		got, err := RetentionFrom(func(k string) string { return env[k] })
		switch {
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("%q %q: error %v, want %q", c.size, c.age, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%q %q: %+v %v, want %+v", c.size, c.age, got, err, c.want)
		}
	}
	if s := DefaultRetention.String(); s != "1 GiB or 30 days" {
		t.Errorf("default %q", s)
	}
	for n, want := range map[int64]string{512: "512 B", 41 << 10: "41 KB", 22<<20 + 300<<10: "22.3 MB", 1 << 30: "1 GiB", 3 << 29: "1.50 GB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestPrune: runs older than the age cap go, then the oldest until the
// size cap holds, each with its companions (the output files its session
// names, and the old .stdout/.stderr names); the runs named in keep, and
// every file the launcher did not write (another name, a subdirectory, a
// symbolic link, a user's file named like a companion of no session), stay.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	h := &History{Dir: dir}
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.Local)
	day := 24 * time.Hour
	ancient := saveRun(t, dir, "app", now.Add(-40*day), now.Add(-40*day), 1000, "app-ancient.stdout")
	old := saveRun(t, dir, "app", now.Add(-10*day), now.Add(-10*day), 300_000, filepath.Base(strings.TrimSuffix(
		filepath.Join(dir, AppName("app")+"-"+now.Add(-10*day).Format(timeLayout)), ".gvs"))+".stdout",
		AppName("app")+"-"+now.Add(-10*day).Format(timeLayout)+".stderr")
	mid := saveRun(t, dir, "other", now.Add(-5*day), now.Add(-5*day), 300_000)
	midOld := strings.TrimSuffix(mid, FileExt) + ".stderr" // the old fixed name, not in its session
	if err := os.WriteFile(midOld, []byte("err"), 0o600); err != nil {
		t.Fatal(err)
	}
	cur := saveRun(t, dir, "app", now.Add(-time.Hour), now.Add(-time.Hour), 300_000)
	// Not the launcher's: left alone whatever their age.
	strangers := []string{filepath.Join(dir, "notes.txt"), filepath.Join(dir, "app-20200101-000000.stdout"), filepath.Join(dir, "sub", "x.gvs")}
	for _, s := range strangers {
		if err := os.MkdirAll(filepath.Dir(s), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s, []byte("mine"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(s, now.Add(-100*day), now.Add(-100*day)); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "app-20200101-000001.gvs")
	if err := os.Symlink(strangers[0], link); err != nil {
		t.Fatal(err)
	}

	saved, err := h.Saved("")
	if err != nil || len(saved) != 4 {
		t.Fatalf("saved %d runs, %v", len(saved), err)
	}
	// The size cap: after the ancient one (age), the oldest until ≤ 700 kB:
	// old goes, mid and cur stay (cur is kept in any case).
	pruned, err := h.Prune(Retention{MaxBytes: 700_000, MaxAge: 30 * day}, now, cur)
	if err != nil {
		t.Fatal(err)
	}
	var gone []string
	for _, p := range pruned {
		gone = append(gone, filepath.Base(p.Path)+": "+p.Reason)
	}
	want := []string{filepath.Base(ancient) + ": older than 30 days", filepath.Base(old) + ": the sessions take more than 684 KB"}
	if !slices.Equal(gone, want) {
		t.Fatalf("pruned %q, want %q", gone, want)
	}
	for _, p := range []string{ancient, old, strings.TrimSuffix(old, FileExt) + ".stdout", strings.TrimSuffix(old, FileExt) + ".stderr"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	// ancient's stdout is not named after it: not its companion, kept.
	for _, p := range append([]string{mid, midOld, cur, link, filepath.Join(dir, "app-ancient.stdout")}, strangers...) {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	// Within the caps, nothing goes; the current run is never pruned.
	if pruned, err := h.Prune(Retention{MaxBytes: 1, MaxAge: 0}, now, cur, mid); err != nil || len(pruned) != 0 {
		t.Fatalf("pruned %v %v", pruned, err)
	}
}
