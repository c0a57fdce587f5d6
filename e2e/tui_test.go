package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tmuxTerm is the real binary in a tmux terminal of a given size.
type tmuxTerm struct {
	t    *testing.T
	sock string
}

// startTmux runs gpuav-dbg with args in a detached w×h tmux session, in
// the repository root, with env added (and OSC 52 from the app stored in
// tmux's buffer).
func startTmux(t *testing.T, w, h int, env []string, args ...string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux not installed (scripts/install-deps installs it): %v", err)
	}
	tm := &tmuxTerm{t: t, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	cmd := []string{"new-session", "-d", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "-c", root,
		"-e", "XDG_RUNTIME_DIR=" + os.Getenv("XDG_RUNTIME_DIR")}
	for _, e := range env {
		cmd = append(cmd, "-e", e)
	}
	tm.run(append(append(cmd, bin("gpuav-dbg")), args...)...)
	tm.run("set-option", "-g", "set-clipboard", "on")
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", tm.sock, "kill-server").Run() })
	return tm
}

func (tm *tmuxTerm) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// buffer returns tmux's paste buffer once it has one, or "" after wait.
func (tm *tmuxTerm) buffer(wait time.Duration) string {
	tm.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		out, err := exec.Command("tmux", "-S", tm.sock, "show-buffer").CombinedOutput()
		if err == nil || time.Now().After(deadline) {
			return strings.TrimSpace(string(out))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// keys sends tmux key names (Enter, Escape, Tab, or text).
func (tm *tmuxTerm) keys(keys ...string) { tm.run(append([]string{"send-keys"}, keys...)...) }

// escape sends esc alone: a key right after it would read as alt+key.
func (tm *tmuxTerm) escape() {
	tm.keys("Escape")
	time.Sleep(300 * time.Millisecond)
}

func (tm *tmuxTerm) screen() string { return tm.run("capture-pane", "-p") }

// waitFor waits up to a minute for the screen to show what, and returns it.
func (tm *tmuxTerm) waitFor(what string) string {
	tm.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var s string
	for time.Now().Before(deadline) {
		if s = tm.screen(); strings.Contains(s, what) {
			return s
		}
		time.Sleep(200 * time.Millisecond)
	}
	tm.t.Fatalf("timed out waiting for %q; screen:\n%s", what, s)
	return ""
}

// TestTUIAt80x24 drives the real binary on an ordinary 80×24 terminal: the
// panes stack and nothing is cut that matters, the footer follows the
// focus, the help scrolls, the filter counts, y copies the error's summary
// (OSC 52) and e opens its file in $EDITOR at its line.
func TestTUIAt80x24(t *testing.T) {
	dir := t.TempDir()
	editorLog := filepath.Join(dir, "editor.args")
	editor := filepath.Join(dir, "editor.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\necho \"$@\" > "+editorLog+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := startTmux(t, 80, 24, []string{"EDITOR=" + editor, "VISUAL="},
		"run", "--theme", "dark", "--session", filepath.Join(dir, "s.gvs"), "--source-path", "examples/demo/shaders", "--", bin("demo"))
	tm.waitFor("oob_fragment.frag")
	s := tm.waitFor("exited")
	for _, want := range []string{
		"descriptor_index_oob oob_compute.comp:9 compute ×", // the leaf, whole
		"more ↓", "? help", "2 groups · 68 records",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("first screen lacks %q:\n%s", want, s)
		}
	}
	for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line %d is %d cells: %q", i, n, l)
		}
	}

	tm.keys("n") // the fragment error
	s = tm.waitFor("texture(tex[pc.tex_ind]")
	if !markedRow(s, "texture(tex[pc.tex_ind]") {
		t.Errorf("the texture line is not marked:\n%s", s)
	}
	tm.keys("Tab", "Tab") // the source pane has the focus, and the footer its keys
	s = tm.waitFor("┏━ Source oob_fragment.frag:9")
	if !strings.Contains(s, "←/→ sideways") {
		t.Errorf("the footer lacks the source pane's keys:\n%s", s)
	}

	tm.keys("?")
	tm.waitFor("Keys (? or esc to close)")
	tm.keys("G")
	s = tm.waitFor("Runs")
	if !strings.Contains(s, "more ↑") {
		t.Errorf("the help does not say it scrolled:\n%s", s)
	}
	tm.escape() // close the help
	tm.escape() // back to the tree

	tm.keys("/", "f", "r", "a", "g")
	tm.waitFor("1 of 2 groups match")
	tm.keys("Enter")
	tm.waitFor("1 of 2 groups · 64 of 68 records")
	tm.escape()
	tm.waitFor("2 groups · 68 records")

	tm.keys("y")
	tm.waitFor("copied: oob_fragment.frag:9: descriptor_index_oob")
	// The status line and the OSC 52 sequence are separate writes: under
	// load tmux may show the first before it has read the second.
	buf := tm.buffer(10 * time.Second)
	if !strings.HasPrefix(buf, "oob_fragment.frag:9: descriptor_index_oob: ") || !strings.HasSuffix(buf, "64 records)") {
		t.Errorf("clipboard %q", buf)
	}

	tm.keys("e")
	deadline := time.Now().Add(30 * time.Second)
	var args []byte
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(editorLog); err == nil && len(b) > 0 {
			args = b
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	want := "+9 " + filepath.Join(root, "examples", "demo", "shaders", "oob_fragment.frag")
	if got := strings.TrimSpace(string(args)); got != want {
		t.Errorf("the editor got %q, want %q", got, want)
	}
	tm.waitFor("Errors by command buffer") // the TUI is back
	tm.keys("q")
}

// markedRow reports whether the row marked ▶ on screen holds text.
func markedRow(screen, text string) bool {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "▶") && strings.Contains(l, text) {
			return true
		}
	}
	return false
}

// TestTUIRerunStopsRunningApp: r while the app still runs asks first; y
// stops it and runs it again. The app is the demo followed by a long
// sleep, so that it is still running when r comes.
func TestTUIRerunStopsRunningApp(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "demo-then-wait.sh")
	if err := os.WriteFile(app, []byte("#!/bin/sh\n\""+bin("demo")+"\" \"$@\"\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := startTmux(t, 80, 24, nil, "run", "--theme", "dark", "--session", filepath.Join(dir, "s.gvs"), "--", app)
	tm.waitFor("2 groups · 68 records")
	tm.waitFor("running")
	tm.keys("r")
	s := tm.waitFor("The app is still running")
	if !strings.Contains(s, "y/enter stop it and re-run") {
		t.Errorf("the question lacks its answers:\n%s", s)
	}
	tm.keys("n")
	tm.waitFor("re-run cancelled: the app keeps running")
	tm.keys("r")
	tm.waitFor("The app is still running")
	tm.keys("y")
	tm.waitFor("run 2/2")
	tm.waitFor("2 groups · 68 records")
	tm.keys("<") // run 1: stopped, no longer running
	s = tm.waitFor("run 1/2")
	status := ""
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "run 1/2") {
			status = l
		}
	}
	if strings.Contains(status, "running") {
		t.Errorf("run 1 still runs after y: %q", status)
	}
	tm.keys("q")
}

// TestTUINotCheckedAtBinTrue: an app that never loads the layer
// (/bin/true) leaves the TUI saying "not checked" and why, never a green
// "no validation errors" or the settings as if they ran.
func TestTUINotCheckedAtBinTrue(t *testing.T) {
	tm := startTmux(t, 80, 24, nil, "run", "--theme", "dark", "--session", filepath.Join(t.TempDir(), "s.gvs"), "--", "/bin/true")
	s := tm.waitFor("not checked: nothing was validated")
	for _, want := range []string{"/bin/true exited 0", "the layer was not loaded by the app, so nothing was checked", "NOT CHECKED"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	for _, bad := range []string{"checks 10/10", "checks 9/9"} {
		if strings.Contains(s, bad) {
			t.Errorf("screen shows %q:\n%s", bad, s)
		}
	}
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == "no validation errors" {
			t.Errorf("screen says no validation errors:\n%s", s)
		}
	}
	tm.keys("q")
}

// TestTUIStopOnError: the demo run with --stop-on-error in the TUI pauses
// at its first error (the compute dispatch's): the status bar says so with
// that one group, and the app has not drawn; c lets it run on, and the
// draw's error arrives as the app runs to its end.
func TestTUIStopOnError(t *testing.T) {
	dir := t.TempDir()
	tm := startTmux(t, 100, 30, nil, "run", "--theme", "dark", "--stop-on-error", "--session", filepath.Join(dir, "s.gvs"),
		"--", bin("demo"))
	s := tm.waitFor("paused at the first error — c continues")
	for _, want := range []string{"1 group · 4 records", "c continue"} {
		if !strings.Contains(s, want) {
			t.Errorf("paused screen lacks %q:\n%s", want, s)
		}
	}
	// Still paused a moment later: nothing more arrived.
	time.Sleep(time.Second)
	if s = tm.screen(); !strings.Contains(s, "paused at the first error") || !strings.Contains(s, "1 group · 4 records") {
		t.Fatalf("the app did not stay paused:\n%s", s)
	}
	tm.keys("c")
	s = tm.waitFor("exited 0")
	if !strings.Contains(s, "2 groups · 68 records") || strings.Contains(s, "paused") {
		t.Errorf("after c the app did not run to its end with both errors:\n%s", s)
	}
	tm.keys("q")
}
