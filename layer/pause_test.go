package main

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/internal/referee"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// pausedHold is how long the launcher of these tests keeps the app paused
// before it answers: long enough for three lavapipe submits of vkapp.
const pausedHold = 1500 * time.Millisecond

// runPlayingLauncher runs vkapp under the layer with stop_on_error and a
// socket on which the test plays the launcher: it reads the layer's
// messages and, when one says Paused, calls answer with the connection
// and the messages so far, while the app waits. exited is closed when the
// app has exited.
func runPlayingLauncher(t *testing.T, args []string, answer func(conn net.Conn, sofar []any, exited <-chan struct{})) result {
	t.Helper()
	xdg := t.TempDir()
	sockDir, err := os.MkdirTemp("", "gv")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockDir)
	sock := filepath.Join(sockDir, "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	env := append(cleanEnv(), "VK_ADD_LAYER_PATH="+fixture.dir, "VK_INSTANCE_LAYERS="+layerName, "XDG_RUNTIME_DIR="+xdg,
		"XDG_CACHE_HOME="+filepath.Join(xdg, "cache"), options.WatchdogSeconds.Env+"=120",
		options.StopOnError.Env+"=1", options.Socket.Env+"="+sock)
	cmd := exec.Command(fixture.app, args...)
	cmd.Env = env
	if referee.Enabled() && referee.SkipFor(filepath.Base(fixture.app), args) == nil {
		run, full, err := referee.Start(t.TempDir(), cmd.Env)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Env = full
		defer run.Check(fixture.app, args, t.Errorf)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()

	var res result
	res.pid = cmd.Process.Pid
	read := make(chan []any, 1)
	go func() {
		var msgs []any
		defer func() { read <- msgs }()
		conn, err := ln.Accept()
		if err != nil {
			msgs = append(msgs, err)
			return
		}
		var mu sync.Mutex
		defer conn.Close()
		for {
			k, payload, err := wire.ReadFrame(conn)
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
					msgs = append(msgs, err)
				}
				return
			}
			m, err := wire.Decode(k, payload)
			if err != nil {
				msgs = append(msgs, err)
				continue
			}
			mu.Lock()
			msgs = append(msgs, m)
			sofar := append([]any(nil), msgs...)
			mu.Unlock()
			if _, ok := m.(*wire.Paused); ok {
				answer(conn, sofar, exited)
			}
		}
	}()
	select {
	case <-exited:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatal("the app did not finish: left paused?")
	}
	select {
	case res.msgs = <-read:
	case <-time.After(10 * time.Second):
		t.Fatal("the layer's connection did not close")
	}
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		res.exit = ee.ExitCode()
	} else if waitErr != nil {
		t.Fatal(waitErr)
	}
	res.stdout, res.stderr = stdout.String(), stderr.String()
	if res.exit != 0 {
		t.Fatalf("vkapp exited %d\nstdout:\n%s\nstderr:\n%s", res.exit, res.stdout, res.stderr)
	}
	for _, m := range res.msgs {
		if err, ok := m.(error); ok {
			t.Errorf("bad frame from the layer: %v", err)
		}
	}
	return res
}

// TestStopOnErrorContinue: with stop_on_error, the app that makes an
// error in each of three submits is paused when the layer reads back the
// first: it says Paused after that submit's Errors, and the app makes no
// progress (no later submit's records, no exit) until the launcher says
// Continue; then it runs to its end and the later errors are reported.
// Only the first error pauses.
func TestStopOnErrorContinue(t *testing.T) {
	setup(t)
	answered := false
	r := runPlayingLauncher(t, []string{"--shader", fixture.shader, "--index", "3", "--submits", "3"},
		func(conn net.Conn, sofar []any, exited <-chan struct{}) {
			answered = true
			if n := len(all[wire.Errors](result{msgs: sofar})); n != 1 {
				t.Errorf("paused after %d Errors messages, want 1 (the first submit's)", n)
			}
			select {
			case <-exited:
				t.Error("the app exited while paused")
			case <-time.After(pausedHold):
			}
			if err := wire.WriteFrame(conn, wire.KindContinue, &wire.Continue{}); err != nil {
				t.Errorf("continue: %v", err)
			}
		})
	if !answered {
		t.Fatalf("the layer never said Paused: %s", dump(r.msgs))
	}
	checkOOB(t, r, 3)
	p := one[wire.Paused](t, r)
	if *p != (wire.Paused{PID: r.pid, Submit: 1, Queue: all[wire.Errors](r)[0].Queue, Records: 4}) {
		t.Errorf("paused %+v, want pid %d, submit 1, 4 records", *p, r.pid)
	}
	// Paused comes right after the first submit's Errors.
	for i, m := range r.msgs {
		if _, ok := m.(*wire.Paused); ok {
			if e, ok := r.msgs[i-1].(*wire.Errors); !ok || e.Submit != 1 {
				t.Errorf("Paused follows %T, want the first submit's Errors", r.msgs[i-1])
			}
		}
	}
	if !strings.Contains(r.stdout, "vkapp: done") {
		t.Errorf("the app did not run to its end:\n%s", r.stdout)
	}
}

// TestStopOnErrorLauncherGone: a paused app whose launcher goes away (the
// connection closes) continues at once and runs to its end.
func TestStopOnErrorLauncherGone(t *testing.T) {
	setup(t)
	start := time.Now()
	var closed time.Time
	r := runPlayingLauncher(t, []string{"--shader", fixture.shader, "--index", "3", "--submits", "3"},
		func(conn net.Conn, sofar []any, exited <-chan struct{}) {
			closed = time.Now()
			conn.Close()
		})
	if closed.IsZero() {
		t.Fatalf("the layer never said Paused: %s", dump(r.msgs))
	}
	if !strings.Contains(r.stdout, "vkapp: done") {
		t.Errorf("the app did not run to its end:\n%s", r.stdout)
	}
	if len(all[wire.Errors](r)) != 1 {
		t.Errorf("Errors messages before the launcher went: %d, want 1", len(all[wire.Errors](r)))
	}
	t.Logf("paused after %v, ran on after the close", closed.Sub(start))
}

// TestStopOnErrorWithoutLauncher: without a launcher listening the app
// never pauses; a warning says the setting does nothing.
func TestStopOnErrorWithoutLauncher(t *testing.T) {
	setup(t)
	r := runApp(t, false, []string{options.StopOnError.Env + "=1"}, fixture.app,
		"--shader", fixture.shader, "--index", "3", "--submits", "3")
	want := "gpuav-dbg: WARNING: " + options.StopOnError.Env + " (stop_on_error) is set, but gpuav-dbg is not listening: " +
		"the app does not pause at its first error"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	if !strings.Contains(r.stdout, "vkapp: done") {
		t.Errorf("the app did not run to its end:\n%s", r.stdout)
	}
}
