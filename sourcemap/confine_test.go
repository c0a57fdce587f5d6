package sourcemap

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDiskConfined: a module's file names are read only inside the search
// path (after symlinks and ".."), never under /proc, /sys or /dev, and only
// when they are regular text files of reasonable size.
func TestDiskConfined(t *testing.T) {
	a, outside := t.TempDir(), t.TempDir()
	write := func(dir, name string, data []byte) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	px := write(a, "x.comp", []byte("ok\n"))
	secret := write(outside, "secret.comp", []byte("TOKEN=hunter2\n"))
	os.Symlink(secret, filepath.Join(a, "link.comp"))
	os.Symlink(outside, filepath.Join(a, "linkdir"))
	os.Symlink("/proc/self/environ", filepath.Join(a, "environ.comp"))
	if err := syscall.Mkfifo(filepath.Join(a, "fifo.comp"), 0o600); err != nil {
		t.Fatal(err)
	}
	write(a, "binary.comp", []byte("a\x00b"))
	write(a, "big.comp", []byte(strings.Repeat("x", MaxSourceFile+1)))
	outsideErr := func(p string) string { return p + ": outside the source directories (" + a + "); not read" }
	for _, c := range []struct {
		name, file string
		dirs       []string
		lines      []string
		err        string
	}{
		{"inside", "x.comp", []string{a}, []string{"ok"}, ""},
		{"inside through ..", "sub/../x.comp", []string{a}, []string{"ok"}, ""},
		{"absolute outside", secret, []string{a}, nil, outsideErr(secret)},
		{"dot-dot out", "../../../../../../../.." + secret, []string{a}, nil, outsideErr(secret)},
		{"symlink out", "link.comp", []string{a}, nil, outsideErr(filepath.Join(a, "link.comp"))},
		{"symlinked directory out", "linkdir/secret.comp", []string{a}, nil,
			outsideErr(filepath.Join(a, "linkdir/secret.comp"))},
		{"symlink to /proc", "environ.comp", []string{a}, nil, outsideErr(filepath.Join(a, "environ.comp"))},
		{"/proc even with / in the path", "/proc/self/environ", []string{"/"}, nil,
			"/proc/self/environ: outside the source directories (/); not read"},
		{"/proc as a source directory", "environ", []string{"/proc/self"}, nil,
			"/proc/self/environ: outside the source directories (/proc/self); not read"},
		{"fifo", "fifo.comp", []string{a}, nil, filepath.Join(a, "fifo.comp") + ": not a regular file"},
		{"binary", "binary.comp", []string{a}, nil, filepath.Join(a, "binary.comp") + ": not a text file"},
		{"too large", "big.comp", []string{a}, nil, filepath.Join(a, "big.comp") + ": larger than 4 MiB"},
		{"no search path", secret, nil, nil, outsideErr(secret)[:len(secret)] + ": outside the source directories (); not read"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, lines, err := NewDisk(c.dirs...).Find(c.file)
			if strings.Join(lines, "\n") != strings.Join(c.lines, "\n") {
				t.Errorf("lines %q, want %q", lines, c.lines)
			}
			if got := ""; err != nil {
				got = err.Error()
				if got != c.err {
					t.Errorf("error %q, want %q", got, c.err)
				}
			} else if c.err != "" {
				t.Errorf("no error, want %q", c.err)
			}
		})
	}
	if _, _, err := NewDisk(a).Find("x.comp"); err != nil || px == "" {
		t.Fatal(err)
	}
}

// TestDiskRecord: a file recorded at run time is what Find returns, and
// its note says whether the disk still holds the same text.
func TestDiskRecord(t *testing.T) {
	a := t.TempDir()
	p := filepath.Join(a, "x.comp")
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var read []string
	d := NewDisk(a)
	d.OnRead = func(name, path string, lines []string) {
		read = append(read, name+" "+path+" "+strings.Join(lines, "|"))
	}
	if _, _, how, err := d.FindNote("x.comp"); err != nil || how != "read from "+p+" (the module carries none)" {
		t.Fatalf("FindNote: %q %v", how, err)
	}
	d.Find("x.comp")
	if len(read) != 1 || read[0] != "x.comp "+p+" one|two" {
		t.Fatalf("OnRead calls %q, want one", read)
	}
	for _, c := range []struct {
		name, disk string
		want       string
	}{
		{"same", "one\ntwo\n", "recorded at run time from " + p + " (the module carries none)"},
		{"changed", "one\n2\n", "recorded at run time from " + p + " (the module carries none); " + p + " on disk has changed since"},
		{"gone", "", "recorded at run time from " + p + " (the module carries none); it is not on disk now"},
	} {
		os.Remove(p)
		if c.disk != "" {
			os.WriteFile(p, []byte(c.disk), 0o644)
		}
		d := NewDisk(a)
		d.OnRead = func(string, string, []string) { t.Errorf("%s: a recorded file was read again", c.name) }
		d.Record("x.comp", p, []string{"one", "two"})
		_, lines, how, err := d.FindNote("x.comp")
		if err != nil || strings.Join(lines, "|") != "one|two" || how != c.want {
			t.Errorf("%s: %q %q %v, want the recorded lines and %q", c.name, lines, how, err, c.want)
		}
	}
}
