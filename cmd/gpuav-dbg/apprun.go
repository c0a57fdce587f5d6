package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// envSafeMode switches the layer's safe mode (skip a faulty access).
const envSafeMode = "VK_LAYER_GPUAV_DBG_SAFE_MODE"

// appRun is one run of the app under the layer: its collector, socket
// server and process. launch starts the first; the TUI's re-run starts more.
type appRun struct {
	col     *session.Collector
	srv     *session.Server
	cmd     *exec.Cmd
	updates chan struct{}
	// exited is closed once the app exited and the layer's connections
	// finished (or the grace time passed).
	exited    chan struct{}
	notLoaded string
}

// startApp starts app with args under the layer with settings set,
// writing the session to file. It returns the run (nil when the socket
// could not be opened) and an error naming what failed; a run whose app
// could not start is returned with the error, its session recording the
// failure.
func (c *cli) startApp(app, shown string, args []string, layerDir string, set session.Settings, file io.Writer,
	sessionPath string, started time.Time, headless bool) (*appRun, error) {
	col := session.NewCollector()
	col.SetFile(file)
	r := &appRun{col: col, updates: make(chan struct{}, 1), exited: make(chan struct{})}
	col.OnChange = func() {
		select {
		case r.updates <- struct{}{}:
		default:
		}
	}
	srv, err := session.Listen("", col)
	if err != nil {
		return nil, err
	}
	r.srv = srv

	absApp, _ := filepath.Abs(app)
	cmd := exec.Command(app, args...)
	cmd.Env = append(appEnv(os.Environ(), layerDir, srv.SocketPath(), set.Checks, set.ReserveSlot),
		envSafeMode+"="+bool01(set.SafeMode))
	cmd.WaitDelay = outputDelay
	var passOut, passErr io.Writer
	if headless {
		cmd.Stdin = c.stdin
		passOut, passErr = c.stdout, c.stderr
	}
	stdout := &lineWriter{col: col, stream: "stdout", pass: passOut}
	stderr := &lineWriter{col: col, stream: "stderr", pass: passErr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	r.cmd = cmd

	startedMsg := &wire.AppStarted{Path: absApp, Args: append([]string{}, args...), Time: started,
		Settings: wire.Settings{Checks: set.Checks, ReserveSlot: set.ReserveSlot, SafeMode: set.SafeMode}, Session: sessionPath}
	startedMsg.Dir, startedMsg.SourcePath = c.sourceSearch()
	if err := cmd.Start(); err != nil {
		_ = col.Record(wire.KindAppStarted, startedMsg)
		_ = col.Record(wire.KindAppExited, &wire.AppExited{Code: -1, State: string(session.AppFailed), Time: time.Now()})
		close(r.exited)
		return r, fmt.Errorf("%s: %w", shown, unwrapExec(err))
	}
	startedMsg.PID = cmd.Process.Pid
	_ = col.Record(wire.KindAppStarted, startedMsg)
	_ = col.Record(wire.KindCapabilities, c.capabilities())

	// When the app exits: record how, give the layer a moment to finish
	// (bye or EOF on every connection), and say so if it never loaded, so
	// that the UI shows the final state.
	r.notLoaded = fmt.Sprintf("the layer was not loaded by %s (is it a Vulkan app? run with VK_LOADER_DEBUG=layer to see why)", shown)
	go func() {
		waitErr := cmd.Wait()
		stdout.Flush()
		stderr.Flush()
		_ = col.Record(wire.KindAppExited, exitMsg(cmd.ProcessState, waitErr))
		srv.Drain(layerGrace)
		if !col.Snapshot().App.LayerLoaded {
			col.Notice("warning", r.notLoaded)
		}
		close(r.exited)
		// One more notice, so that a UI shows the final state.
		select {
		case r.updates <- struct{}{}:
		default:
		}
	}()
	return r, nil
}

// stop ends a run's app if it still runs: SIGTERM, then SIGKILL after
// killGrace; it returns once the run is over.
func (r *appRun) stop() {
	select {
	case <-r.exited:
		return
	default:
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(killGrace):
		_ = r.cmd.Process.Kill()
		<-r.exited
	}
}

// reruns are the runs the TUI started again (r), after the first.
type reruns struct {
	c        *cli
	app      string
	shown    string
	args     []string
	layerDir string
	// sessionPath is the first run's session file; re-runs write next to
	// it with ".2", ".3"... before the extension.
	sessionPath string
	// first is the first run, which a re-run stops while it still runs.
	first *appRun

	mu    sync.Mutex
	runs  []*appRun
	files []*os.File
	paths []string
}

// rerun starts the app again with set; it is the TUI's Options.Rerun.
func (rr *reruns) rerun(set session.Settings) (*appRun, error) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	n := len(rr.runs) + 2
	ext := filepath.Ext(rr.sessionPath)
	path := fmt.Sprintf("%s.%d%s", rr.sessionPath[:len(rr.sessionPath)-len(ext)], n, ext)
	file, err := session.CreateFile(path)
	if err != nil {
		return nil, fmt.Errorf("re-run: %w", err)
	}
	r, err := rr.c.startApp(rr.app, rr.shown, rr.args, rr.layerDir, set, file, path, time.Now(), false)
	if r == nil {
		file.Close()
		return nil, fmt.Errorf("re-run: %w", err)
	}
	rr.runs = append(rr.runs, r)
	rr.files = append(rr.files, file)
	rr.paths = append(rr.paths, path)
	if err != nil {
		return r, fmt.Errorf("re-run: %w", err)
	}
	return r, nil
}

// finish stops the re-runs' apps, closes their sockets and files, and
// says where each session was saved.
func (rr *reruns) finish(w io.Writer) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for i, r := range rr.runs {
		r.stop()
		r.srv.Close()
		if err := r.col.FileErr(); err != nil {
			fmt.Fprintf(w, "gpuav-dbg: %v\n", err)
		} else if err := rr.files[i].Close(); err != nil {
			fmt.Fprintf(w, "gpuav-dbg: session %s: %v\n", rr.paths[i], err)
		}
		fmt.Fprintf(w, "gpuav-dbg: run %d: %s; session saved to %s\n", i+2, countLine(r.col.Snapshot()), rr.paths[i])
	}
}
