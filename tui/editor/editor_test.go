package editor

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree makes dir/shaders/a.comp, dir/b.frag, a file outside dir and a
// symbolic link inside dir that points to it.
func tree(t *testing.T) (dir, outside string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "proj")
	outside = filepath.Join(root, "secret.txt")
	for _, p := range []string{filepath.Join(dir, "shaders", "a.comp"), filepath.Join(dir, "b.frag"), outside} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.comp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d.comp"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, outside
}

func TestFind(t *testing.T) {
	dir, outside := tree(t)
	real := func(p string) string {
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, tc := range []struct {
		name string
		want string // "" for not found
	}{
		{"shaders/a.comp", real(filepath.Join(dir, "shaders", "a.comp"))},
		{"b.frag", real(filepath.Join(dir, "b.frag"))},
		{"/elsewhere/build/b.frag", real(filepath.Join(dir, "b.frag"))},                          // the base name in the directory
		{filepath.Join(dir, "shaders", "a.comp"), real(filepath.Join(dir, "shaders", "a.comp"))}, // absolute, inside
		{outside, ""},                    // absolute, outside: never
		{"../secret.txt", ""},            // climbs out: only the base name is tried
		{"shaders/../../secret.txt", ""}, // the same, hidden
		{"link.comp", ""},                // a link that leads out
		{"d.comp", ""},                   // not a regular file
		{"missing.comp", ""},
		{"", ""},
	} {
		got, err := Find(tc.name, []string{dir})
		if got != tc.want || (tc.want == "") != (err != nil) {
			t.Errorf("Find(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	if _, err := Find("b.frag", nil); err == nil || !strings.Contains(err.Error(), "--source-path") {
		t.Errorf("no directories: %v", err)
	}
	_, err := Find("missing.comp", []string{dir})
	if err == nil || !strings.Contains(err.Error(), "missing.comp is not in "+dir) {
		t.Errorf("not found: %v", err)
	}
}

func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		editor string
		line   int
		want   string
	}{
		{"vim", 9, "vim +9 /p/a.comp"},
		{"nvim -u NONE", 12, "nvim -u NONE +12 /p/a.comp"},
		{"nano", 0, "nano /p/a.comp"},
		{"code --wait", 9, "code --wait --goto /p/a.comp:9"},
		{"/usr/bin/codium", 3, "/usr/bin/codium --goto /p/a.comp:3"},
		{"subl", 9, "subl /p/a.comp:9"},
	} {
		cmd, err := Command(tc.editor, "/p/a.comp", tc.line)
		if err != nil {
			t.Fatalf("%s: %v", tc.editor, err)
		}
		if got := strings.Join(cmd.Args, " "); got != tc.want {
			t.Errorf("Command(%q) = %q, want %q", tc.editor, got, tc.want)
		}
	}
	if _, err := Command("  ", "/p/a.comp", 1); err == nil {
		t.Error("no editor: no error")
	}
	env := map[string]string{"EDITOR": "nano"}
	if got := Editor(func(k string) string { return env[k] }); got != "nano" {
		t.Errorf("Editor = %q", got)
	}
	env["VISUAL"] = "vim"
	if got := Editor(func(k string) string { return env[k] }); got != "vim" {
		t.Errorf("Editor with VISUAL = %q", got)
	}
}

// TestEditorFallback: with neither $VISUAL nor $EDITOR, vi, else nano, as
// found on $PATH; none is "" (and Command says what to set).
func TestEditorFallback(t *testing.T) {
	defer func(f func(string) (string, error)) { lookPath = f }(lookPath)
	none := func(string) string { return "" }
	for _, tc := range []struct {
		installed []string
		want      string
	}{
		{[]string{"vi", "nano"}, "vi"},
		{[]string{"nano"}, "nano"},
		{nil, ""},
	} {
		lookPath = func(name string) (string, error) {
			if slices.Contains(tc.installed, name) {
				return "/usr/bin/" + name, nil
			}
			return "", exec.ErrNotFound
		}
		if got := Editor(none); got != tc.want {
			t.Errorf("installed %v: Editor = %q, want %q", tc.installed, got, tc.want)
		}
	}
	if _, err := Command(Editor(none), "/p/a.comp", 1); err == nil || !strings.Contains(err.Error(), "neither vi nor nano is installed") {
		t.Errorf("no editor at all: %v", err)
	}
}
