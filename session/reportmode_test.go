package session

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReportFileModes: reports get the session file's mode (0600), under
// umask 0 too and over a file that was 0644; a mode asked for is kept.
func TestReportFileModes(t *testing.T) {
	old := setUmask(0)
	defer setUmask(old)
	c := newTestCollector()
	fullRun(t, c)
	s := c.Snapshot()
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.json")
	if err := os.WriteFile(existing, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		name  string
		path  string
		write func(string) error
		want  os.FileMode
	}{
		{"json", filepath.Join(dir, "r.json"), func(p string) error { return WriteReportFile(p, s) }, 0o600},
		{"json over a 0644 file", existing, func(p string) error { return WriteReportFile(p, s) }, 0o600},
		{"json 0644 asked", filepath.Join(dir, "r2.json"), func(p string) error { return WriteReportFileMode(p, s, 0o644) }, 0o644},
		{"sarif", filepath.Join(dir, "r.sarif"), func(p string) error { return WriteSARIFFile(p, s, SARIFOptions{SourceRoot: dir}) }, 0o600},
		{"sarif 0640 asked", filepath.Join(dir, "r2.sarif"), func(p string) error {
			return WriteSARIFFile(p, s, SARIFOptions{SourceRoot: dir, Mode: 0o640})
		}, 0o640},
	} {
		if err := w.write(w.path); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		fi, err := os.Stat(w.path)
		if err != nil || fi.Mode().Perm() != w.want {
			t.Errorf("%s: mode %v (%v), want %v", w.name, fi.Mode().Perm(), err, w.want)
		}
	}
}
