package editor

import (
	"bytes"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// execModel runs a command through run, then shows a new word every 30 ms
// (each differs from the last in every cell, so that the renderer writes
// it whole) and quits after the last.
type execModel struct {
	run  func(fn tea.ExecCallback) tea.Cmd
	step int
}

var execWords = []string{"before", "xxxxxx", "yyyyyy", "zzzzzz", "wwwwww", "qqqqqq"}

type (
	execDone struct{}
	execTick struct{}
)

func (m *execModel) Init() tea.Cmd {
	return m.run(func(error) tea.Msg { return execDone{} })
}

func (m *execModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case execDone, execTick:
		m.step++
		if m.step == len(execWords)-1 {
			return m, tea.Quit
		}
		return m, tea.Tick(30*time.Millisecond, func(time.Time) tea.Msg { return execTick{} })
	}
	return m, nil
}

func (m *execModel) View() tea.View {
	v := tea.NewView(execWords[m.step])
	v.AltScreen = true
	return v
}

// noop is a command that returns at once: the editor of a user who quits
// it straight away, without the process (which would give the scheduler
// time to run the renderer's goroutine).
type noop struct{}

func (noop) Run() error          { return nil }
func (noop) SetStdin(io.Reader)  {}
func (noop) SetStdout(io.Writer) {}
func (noop) SetStderr(io.Writer) {}

// After the editor, the screen is drawn again: Bubble Tea's renderer keeps
// drawing the frames that follow (its ticker survives the release and
// restore of the terminal). One CPU makes the race all but certain with
// tea.Exec alone.
func TestExecRedraws(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, tc := range []struct {
		name string
		run  func(fn tea.ExecCallback) tea.Cmd
		runs int
	}{
		{"noop", func(fn tea.ExecCallback) tea.Cmd { return execSettled(noop{}, fn) }, 5},
		{"process", func(fn tea.ExecCallback) tea.Cmd { return Exec(exec.Command("true"), fn) }, 2},
	} {
		for i := range tc.runs {
			var out bytes.Buffer
			p := tea.NewProgram(&execModel{run: tc.run}, tea.WithInput(nil), tea.WithOutput(&out), tea.WithWindowSize(20, 3))
			if _, err := p.Run(); err != nil {
				t.Fatal(err)
			}
			// A renderer that stopped after the command draws none of the
			// frames that follow; a loaded machine may make it skip one,
			// when the next tick comes before its next frame.
			var missed []string
			for _, w := range execWords[1 : len(execWords)-1] {
				if !strings.Contains(out.String(), w) {
					missed = append(missed, w)
				}
			}
			if len(missed) > 1 {
				t.Fatalf("%s run %d: the frames %q after the command were never drawn: %q", tc.name, i, missed, out.String())
			}
		}
	}
}
