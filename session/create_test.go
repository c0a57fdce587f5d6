package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCreatePrivate: the session file, the JSON report and the SARIF log
// are created 0600 (under umask 0 too) as new files; in a directory other
// users share, what is planted at the path is refused with one line and
// left as it was (a symbolic link to the user's file, a dangling one, a
// file of another user's, a hard link, a FIFO); only the user's own
// regular file, from an earlier run, is replaced.
func TestCreatePrivate(t *testing.T) {
	old := setUmask(0)
	defer setUmask(old)
	c := newTestCollector()
	fullRun(t, c)
	s := c.Snapshot()
	writers := []struct {
		name, prefix string
		write        func(path string) error
	}{
		{"session", "create session: refused: ", func(p string) error {
			f, err := CreateFile(p)
			if err == nil {
				f.Close()
			}
			return err
		}},
		{"json", "write report: refused: ", func(p string) error { return WriteReportFile(p, s) }},
		{"sarif", "write SARIF: refused: ", func(p string) error { return WriteSARIFFile(p, s, SARIFOptions{}) }},
	}
	for _, w := range writers {
		for _, c := range []struct {
			name string
			// plant makes what is at p before the write and returns the
			// file whose bytes must be left as they were ("" for none).
			plant  func(t *testing.T, dir, p string) string
			refuse string // the error after the prefix, with P for the path
		}{
			{"new", func(*testing.T, string, string) string { return "" }, ""},
			{"own file from an earlier run", func(t *testing.T, _, p string) string {
				write(t, p, "old", 0o644)
				return ""
			}, ""},
			{"symlink to the user's file", func(t *testing.T, dir, p string) string {
				victim := filepath.Join(dir, "victim")
				write(t, victim, "the user's", 0o644)
				os.Symlink(victim, p)
				return victim
			}, "P is a symbolic link (gpuav-dbg never writes through one)"},
			{"dangling symlink", func(t *testing.T, dir, p string) string {
				os.Symlink(filepath.Join(dir, "made"), p)
				return ""
			}, "P is a symbolic link (gpuav-dbg never writes through one)"},
			{"another user's file", func(t *testing.T, _, p string) string {
				if os.Geteuid() != 0 {
					t.Skip("needs root to give a file to another user")
				}
				write(t, p, "theirs", 0o666)
				if err := os.Chown(p, 65534, 65534); err != nil {
					t.Fatal(err)
				}
				return p
			}, "P belongs to another user (uid 65534); gpuav-dbg replaces only a regular file of yours"},
			{"hard link to the user's file", func(t *testing.T, dir, p string) string {
				victim := filepath.Join(dir, "victim")
				write(t, victim, "the user's", 0o644)
				os.Link(victim, p)
				return victim
			}, "P has 2 hard links; gpuav-dbg replaces only a regular file of yours"},
			{"fifo", func(t *testing.T, _, p string) string {
				if err := syscall.Mkfifo(p, 0o666); err != nil {
					t.Fatal(err)
				}
				return ""
			}, "P is not a regular file; gpuav-dbg replaces only a regular file of yours"},
		} {
			t.Run(w.name+"/"+c.name, func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, "out")
				kept := c.plant(t, dir, p)
				var before []byte
				if kept != "" {
					before, _ = os.ReadFile(kept)
				}
				err := w.write(p)
				if c.refuse == "" {
					if err != nil {
						t.Fatal(err)
					}
					fi, err := os.Lstat(p)
					if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
						t.Fatalf("%v %v, want a regular file of mode 0600", fi, err)
					}
					if b, _ := os.ReadFile(p); len(b) < 10 || strings.HasPrefix(string(b), "old") {
						t.Errorf("not written: %q", b)
					}
					return
				}
				want := w.prefix + strings.ReplaceAll(c.refuse, "P", p)
				if err == nil || err.Error() != want || !errors.Is(err, ErrRefusedPath) {
					t.Fatalf("error %v, want %q", err, want)
				}
				if kept != "" {
					if after, _ := os.ReadFile(kept); string(after) != string(before) {
						t.Errorf("%s changed: %q, was %q", kept, after, before)
					}
				}
				if _, err := os.Stat(filepath.Join(dir, "made")); err == nil {
					t.Errorf("a link's target was created")
				}
			})
		}
	}
}

func write(t *testing.T, p, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}
