// Package editor opens a shader's source file in the user's editor (the e
// key): it finds the file the debug info names inside the directories the
// user let the session read — never a path straight from the module, which
// the app wrote — and builds the editor's command line for a line number.
package editor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Find returns the file that name (a file name from a shader's debug info,
// untrusted) stands for inside one of dirs: dir/name for a relative name
// without "..", then dir/base(name); an absolute name only when it lies
// inside one of dirs. A candidate counts only when it is a regular file
// whose real path (symbolic links resolved) is inside its directory.
func Find(name string, dirs []string) (string, error) {
	if name == "" {
		return "", errors.New("the shader names no source file")
	}
	if len(dirs) == 0 {
		return "", errors.New("the session may read no directory (run it with --source-path DIR)")
	}
	clean := filepath.Clean(name)
	for _, dir := range dirs {
		var cands []string
		switch {
		case filepath.IsAbs(clean):
			cands = append(cands, clean)
		case !strings.HasPrefix(clean, ".."):
			cands = append(cands, filepath.Join(dir, clean))
		}
		cands = append(cands, filepath.Join(dir, filepath.Base(clean)))
		for _, c := range cands {
			if p, ok := inside(c, dir); ok {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%s is not in %s (the directories the session may read: the app's working directory and --source-path)",
		filepath.Base(clean), strings.Join(dirs, ", "))
}

// inside reports whether path is a regular file whose real path lies in
// dir's real path, and returns that real path.
func inside(path, dir string) (string, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	rdir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(rdir, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	return real, true
}

// Fallbacks are the editors tried, in order, when neither $VISUAL nor
// $EDITOR is set (as git and crontab fall back to vi).
var Fallbacks = []string{"vi", "nano"}

// lookPath finds a fallback editor; tests replace it.
var lookPath = exec.LookPath

// Editor is the user's editor command: $VISUAL, else $EDITOR, else the
// first of Fallbacks on $PATH; "" when there is none.
func Editor(getenv func(string) string) string {
	if v := strings.TrimSpace(getenv("VISUAL")); v != "" {
		return v
	}
	if v := strings.TrimSpace(getenv("EDITOR")); v != "" {
		return v
	}
	for _, e := range Fallbacks {
		if _, err := lookPath(e); err == nil {
			return e
		}
	}
	return ""
}

// Command is the command that opens path at line in editor (a command line
// such as "vim" or "code --wait"): "+LINE PATH", which vi, vim, nvim,
// emacs, nano, micro, helix, kakoune and joe understand, or "--goto
// PATH:LINE" for VS Code (code, codium) and "PATH:LINE" for Sublime Text
// (subl).
func Command(editor, path string, line int) (*exec.Cmd, error) {
	f := strings.Fields(editor)
	if len(f) == 0 {
		return nil, errors.New("no editor: set $EDITOR (or $VISUAL); neither vi nor nano is installed")
	}
	args := f[1:]
	switch filepath.Base(f[0]) {
	case "code", "codium", "code-insiders":
		args = append(args, "--goto", path+":"+strconv.Itoa(max(line, 1)))
	case "subl":
		args = append(args, path+":"+strconv.Itoa(max(line, 1)))
	default:
		if line > 0 {
			args = append(args, "+"+strconv.Itoa(line))
		}
		args = append(args, path)
	}
	return exec.Command(f[0], args...), nil
}

// Settle is how long [Exec] waits before it starts the editor.
const Settle = 20 * time.Millisecond

// Exec runs the editor's command c with the terminal, as tea.ExecProcess
// does, and calls fn with its error; it first waits [Settle], so that the
// screen is drawn again after the editor. Bubble Tea (v2.0.10, v2.1.1)
// stops its renderer for the command by signalling the renderer's
// goroutine without waiting for it; when that goroutine stops its frame
// ticker only after the renderer has started again, no frame is ever drawn
// again (charmbracelet/bubbletea#1778). Sleeping here, with the goroutine
// already signalled, lets it finish first.
func Exec(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd { return execSettled(command{c}, fn) }

// execSettled is tea.Exec of c after Settle.
func execSettled(c tea.ExecCommand, fn tea.ExecCallback) tea.Cmd { return tea.Exec(settled{c}, fn) }

// settled is a command for tea.Exec that waits Settle before it runs.
type settled struct{ tea.ExecCommand }

func (c settled) Run() error {
	time.Sleep(Settle)
	return c.ExecCommand.Run()
}

// command is an *exec.Cmd for tea.Exec: it gets the terminal, unless it
// has its own input or output.
type command struct{ *exec.Cmd }

func (c command) SetStdin(r io.Reader) {
	if c.Stdin == nil {
		c.Stdin = r
	}
}

func (c command) SetStdout(w io.Writer) {
	if c.Stdout == nil {
		c.Stdout = w
	}
}

func (c command) SetStderr(w io.Writer) {
	if c.Stderr == nil {
		c.Stderr = w
	}
}
