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

// TestDiskSecrets: inside the source directories, a file is read only when
// its extension is a shader source's (SourceExtensions, or one the user
// added) and no component of its path below the directory starts with a
// dot, unless the user named that hidden directory itself; each refused
// name is told once (OnRefuse), with why.
func TestDiskSecrets(t *testing.T) {
	a := t.TempDir()
	for name, text := range map[string]string{
		".git/config":          "[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n",
		".env":                 "TOKEN=hunter2\n",
		".ssh/id_rsa":          "-----BEGIN OPENSSH PRIVATE KEY-----\n",
		".ssh/key.glsl":        "secret in a shader's clothes\n",
		".shaders/y.comp":      "hidden shader\n",
		"sub/.hide/z.frag":     "hidden below\n",
		"notes.conf":           "not a shader\n",
		"README":               "no extension\n",
		"UPPER.COMP":           "upper\n",
		"inc/common.glsl":      "common\n",
		"lib/util.slang":       "slang\n",
		"cfg/app.json":         "{}\n",
		"link.comp.target.txt": "linked\n",
	} {
		p := filepath.Join(a, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink(filepath.Join(a, ".env"), filepath.Join(a, "env.comp"))
	os.Symlink(filepath.Join(a, "link.comp.target.txt"), filepath.Join(a, "link.comp"))
	hidden := func(p string) string {
		return filepath.Join(a, p) + ": a hidden path (a name that starts with a dot) below the source directories; not read (name its directory with --source-path to read it)"
	}
	ext := func(p, what string) string {
		return filepath.Join(a, p) + ": " + what + " is not a shader source's; not read (add it with --source-ext or GPUAV_DBG_SOURCE_EXT)"
	}
	for _, c := range []struct {
		name, file string
		dirs       []string
		exts       []string
		lines      string
		err, why   string
	}{
		{"git config", ".git/config", []string{a}, nil, "", hidden(".git/config"), RefusedHidden},
		{".env", ".env", []string{a}, nil, "", hidden(".env"), RefusedHidden},
		{"ssh key", ".ssh/id_rsa", []string{a}, nil, "", hidden(".ssh/id_rsa"), RefusedHidden},
		{"ssh key by absolute name", filepath.Join(a, ".ssh/id_rsa"), []string{a}, nil, "", hidden(".ssh/id_rsa"), RefusedHidden},
		{"shader extension in a hidden directory", ".ssh/key.glsl", []string{a}, nil, "", hidden(".ssh/key.glsl"), RefusedHidden},
		{"symlink to .env", "env.comp", []string{a}, nil, "", hidden("env.comp"), RefusedHidden},
		{"hidden below", "sub/.hide/z.frag", []string{a}, nil, "", hidden("sub/.hide/z.frag"), RefusedHidden},
		{"hidden directory not named", ".shaders/y.comp", []string{a}, nil, "", hidden(".shaders/y.comp"), RefusedHidden},
		{"hidden directory named", ".shaders/y.comp", []string{a, filepath.Join(a, ".shaders")}, nil, "hidden shader", "", ""},
		{"by base name in the named hidden directory", "y.comp", []string{a, filepath.Join(a, ".shaders")}, nil, "hidden shader", "", ""},
		{"other extension", "notes.conf", []string{a}, nil, "", ext("notes.conf", "extension .conf"), RefusedExtension},
		{"json", "cfg/app.json", []string{a}, nil, "", ext("cfg/app.json", "extension .json"), RefusedExtension},
		{"no extension", "README", []string{a}, nil, "", ext("README", "no extension"), RefusedExtension},
		{"symlink to another extension", "link.comp", []string{a}, nil, "", ext("link.comp", "extension .txt"), RefusedExtension},
		{"extension added", "notes.conf", []string{a}, []string{"conf"}, "not a shader", "", ""},
		{"extension added with its dot, any case", "notes.conf", []string{a}, []string{".CONF"}, "not a shader", "", ""},
		{"upper case", "UPPER.COMP", []string{a}, nil, "upper", "", ""},
		{"include", "inc/common.glsl", []string{a}, nil, "common", "", ""},
		{"slang", "lib/util.slang", []string{a}, nil, "slang", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := NewDisk(c.dirs...)
			d.AllowExtensions(c.exts...)
			var refused []string
			d.OnRefuse = func(name, path, why string) { refused = append(refused, name+" "+path+" "+why) }
			_, lines, err := d.Find(c.file)
			d.Find(c.file)
			if got := strings.Join(lines, "\n"); got != c.lines {
				t.Errorf("lines %q, want %q", got, c.lines)
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.err {
				t.Errorf("error %q, want %q", got, c.err)
			}
			var want []string
			if c.why != "" {
				p := c.file
				if !filepath.IsAbs(p) {
					p = filepath.Join(a, p)
				}
				want = []string{c.file + " " + p + " " + c.why}
			}
			if strings.Join(refused, "\n") != strings.Join(want, "\n") {
				t.Errorf("refused %q, want %q", refused, want)
			}
		})
	}
}
