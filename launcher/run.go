package launcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Timing of the end of a run.
const (
	// LayerGrace is how long a run waits, once the app has exited, for a
	// layer's connection that makes no progress to say bye or close.
	LayerGrace = time.Second
	// DrainLimit is the longest a run reads the layer's connections after
	// the app exited while they still make progress (a launcher that was
	// stopped or slow has a backlog to read); then they are cut, and
	// counted.
	DrainLimit = 2 * time.Minute
	// KillGrace is how long an app gets between SIGTERM and SIGKILL when
	// the run is stopped.
	KillGrace = 2 * time.Second
	// followPoll is the longest the launcher waits between two reads of
	// the app's output files.
	followPoll = 50 * time.Millisecond
	// stdinDelay bounds the wait, once the app exited, for the copy of a
	// standard input that is not a file (a reader that never ends).
	stdinDelay = time.Second
	// stopGrace is how long a run whose app died of an interrupt or
	// termination signal waits to learn that the user sent it: Ctrl-C
	// reaches the app and the launcher at once, in no set order.
	stopGrace = 500 * time.Millisecond
)

// Options say what to run and how.
type Options struct {
	// App is the app's path (ResolveApp's answer); Shown is how the user
	// named it, for messages; Args its arguments.
	App, Shown string
	Args       []string
	// LayerDir holds the layer's manifest (FindLayer).
	LayerDir string
	// Settings are the checks and options the layer is asked for.
	Settings session.Settings
	// SessionPath is the session file to create.
	SessionPath string
	// Started is when the run started (the session's time).
	Started time.Time
	// Stdin is the app's standard input (nil: none). Stdout and Stderr,
	// when set, receive the app's output as it comes, besides the session
	// (headless runs; the UI shows it from the session).
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Dir is the app's working directory and SourcePath the user's source
	// search path, recorded so that the session finds source files.
	Dir        string
	SourcePath []string
	// SourceExt are the file name extensions the user added to those
	// read as shader sources (--source-ext, GPUAV_DBG_SOURCE_EXT).
	SourceExt []string
	// Capabilities is the device probe's answer, recorded in the session
	// (nil: none).
	Capabilities *wire.Capabilities
	// CapabilitiesFunc, when Capabilities is nil, gives them: called once
	// the app has started, on a goroutine of its own (the device probe
	// then runs beside the app instead of before it), and recorded before
	// the app's end is. Its context is cancelled when the app exits
	// without having loaded the layer (nothing to probe for: /bin/true).
	// It may be called for each run of these options.
	CapabilitiesFunc func(context.Context) *wire.Capabilities
	// StopAtPause ends the app where the layer paused it at its first
	// error (stop_on_error), instead of waiting for Continue: a headless
	// run ends there, whoever asked for the stop (the flag, the app's own
	// settings), since nobody is there to continue it.
	StopAtPause bool
}

// Run is one run of the app under the layer: its session file, collector,
// socket server and process.
type Run struct {
	opts Options
	// Collector builds the run's session.
	Collector *session.Collector
	// NotLoaded is the line that says the layer never loaded.
	NotLoaded string

	file    *os.File
	srv     *session.Server
	cmd     *exec.Cmd
	out     *appOutput
	updates chan struct{}
	// exited is closed once the app exited and the layer's connections
	// finished (or the grace time passed).
	exited chan struct{}
	// capsDone is closed once the capabilities are recorded (or there are
	// none).
	capsDone chan struct{}
	// cancelCaps cancels CapabilitiesFunc's context (nil: none).
	cancelCaps context.CancelFunc
	// userStop: the user asked the app to stop (Ctrl-C, a signal to the
	// launcher, quitting the UI, Stop); stopAsked is closed then.
	userStop  atomic.Bool
	stopOnce  sync.Once
	stopAsked chan struct{}
	// reaped: the app was waited for. Its pid, and so its process group
	// id, may then belong to another process: no signal goes to it.
	reaped atomic.Bool
	// pauseStop ends the app once, at the first stop (StopAtPause).
	pauseStop sync.Once
}

// Start creates the session file, opens the socket and starts the app. A
// run whose app could not be started is returned with the error, its
// session recording the failure; a nil run means nothing was started (the
// session file or the socket failed).
func Start(o Options) (*Run, error) {
	file, err := session.CreateFile(o.SessionPath)
	if err != nil {
		return nil, err
	}
	col := session.NewCollector()
	col.SetFile(file)
	r := &Run{opts: o, Collector: col, file: file, updates: make(chan struct{}, 1), exited: make(chan struct{}),
		stopAsked: make(chan struct{})}
	r.NotLoaded = fmt.Sprintf("the layer was not loaded by %s (is it a Vulkan app? run with VK_LOADER_DEBUG=layer to see why)", o.Shown)
	col.OnChange = r.notify
	srv, err := session.Listen("", col)
	if err != nil {
		file.Close()
		return nil, err
	}
	r.srv = srv
	srv.OnPaused = r.notify
	if o.StopAtPause {
		srv.OnPaused = func() { go r.stopAtPause() }
	}
	r.out, err = newAppOutput(o.SessionPath, col, o.Stdout, o.Stderr)
	if err != nil {
		srv.Close()
		file.Close()
		return nil, err
	}
	r.cmd = exec.Command(o.App, o.Args...)
	r.cmd.Env = Env(os.Environ(), o.LayerDir, srv.SocketPath(), o.Settings)
	// The app and what it starts are a process group of their own, which
	// Stop ends whole; a group in the background must not read the
	// terminal (the kernel would stop it), so a terminal stays the
	// launcher's.
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r.cmd.WaitDelay = stdinDelay
	if !isTerminal(o.Stdin) {
		r.cmd.Stdin = o.Stdin
	}
	r.cmd.Stdout, r.cmd.Stderr = r.out.files()

	absApp, _ := filepath.Abs(o.App)
	started := &wire.AppStarted{Path: absApp, Args: slices.Clone(o.Args), Time: o.Started, Settings: o.Settings,
		Session: o.SessionPath, Dir: o.Dir, SourcePath: o.SourcePath, SourceExt: o.SourceExt, Stdout: r.out.stdout.path, Stderr: r.out.stderr.path}
	if started.Args == nil {
		started.Args = []string{}
	}
	err = r.cmd.Start()
	r.out.started()
	if err != nil {
		_ = col.Record(wire.KindAppStarted, started)
		_ = col.Record(wire.KindAppExited, &wire.AppExited{Code: -1, State: string(session.AppFailed), Time: time.Now()})
		close(r.exited)
		return r, fmt.Errorf("%s: %w", o.Shown, unwrapExec(err))
	}
	started.PID = r.cmd.Process.Pid
	_ = col.Record(wire.KindAppStarted, started)
	r.capsDone = make(chan struct{})
	switch {
	case o.Capabilities != nil:
		_ = col.Record(wire.KindCapabilities, o.Capabilities)
		close(r.capsDone)
	case o.CapabilitiesFunc != nil:
		ctx, cancel := context.WithCancel(context.Background())
		r.cancelCaps = cancel
		go func() {
			defer close(r.capsDone)
			if c := o.CapabilitiesFunc(ctx); c != nil && ctx.Err() == nil {
				_ = col.Record(wire.KindCapabilities, c)
			}
		}()
	default:
		close(r.capsDone)
	}
	go r.wait()
	return r, nil
}

// wait records how the app ended, gives the layer a moment to finish (bye
// or EOF on every connection) and says so if it never loaded, so that the
// UI shows the final state.
func (r *Run) wait() {
	_ = r.cmd.Wait()
	// The probe's answer before the app's end when the layer loaded; when
	// it seems not to have, the connections the app made are accepted
	// first (Drain), and the probe is cancelled only if there were none:
	// not a Vulkan app, no probe to wait for.
	loaded := func() bool { return r.Collector.Snapshot().App.LayerLoaded || r.srv.Connections() > 0 }
	capsLater := r.cancelCaps != nil && !loaded()
	if !capsLater {
		<-r.capsDone
	}
	r.reaped.Store(true)
	r.out.finish()
	if interrupted(r.cmd.ProcessState) && !r.userStop.Load() {
		select {
		case <-r.stopAsked:
		case <-time.After(stopGrace):
		}
	}
	_ = r.Collector.Record(wire.KindAppExited, exitMsg(r.cmd.ProcessState, r.userStop.Load()))
	// Every connection is read to its end (or cut, and counted) before
	// Exited: the report is written from the whole stream.
	r.srv.Drain(LayerGrace, DrainLimit)
	_ = r.srv.Close()
	if capsLater {
		if !loaded() {
			r.cancelCaps()
		}
		<-r.capsDone
	}
	if !r.Collector.Snapshot().App.LayerLoaded {
		r.Collector.Notice("warning", r.NotLoaded)
	}
	close(r.exited)
	// One more notice, so that a UI shows the final state.
	r.notify()
}

// notify wakes the reader of Updates, without blocking.
func (r *Run) notify() {
	select {
	case r.updates <- struct{}{}:
	default:
	}
}

// Updates receives a value after changes to the session (a buffer of one:
// bursts coalesce).
func (r *Run) Updates() <-chan struct{} { return r.updates }

// Exited is closed once the app has exited and the layer has finished.
func (r *Run) Exited() <-chan struct{} { return r.exited }

// SessionPath is the run's session file.
func (r *Run) SessionPath() string { return r.opts.SessionPath }

// OutputFiles are the files the app's standard output and error go to
// (OutputPaths, or the next free names when those were taken).
func (r *Run) OutputFiles() (stdout, stderr string) { return r.out.paths() }

// Running reports whether the app has not exited yet.
func (r *Run) Running() bool {
	select {
	case <-r.exited:
		return false
	default:
		return true
	}
}

// Stop ends the app and everything it started (its process group), as
// the user's request: SIGTERM, then SIGKILL after KillGrace. It returns
// once the run is over.
func (r *Run) Stop() {
	if r.cmd.Process == nil || !r.Running() {
		return
	}
	r.markStopped()
	pgid := r.cmd.Process.Pid
	_ = r.signalGroup(syscall.SIGTERM)
	deadline := time.Now().Add(KillGrace)
	select {
	case <-r.exited:
	case <-time.After(KillGrace):
	}
	// The app's exit is not the group's: behind a wrapper script that
	// exits at SIGTERM, what ignores it runs on. The group gets the rest
	// of the grace period, then SIGKILL.
	for r.groupRemains(pgid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if r.groupRemains(pgid) {
		r.killGroup(pgid)
	}
	<-r.exited
}

// Continue lets the app the layer paused at its first error
// (stop_on_error) continue; it reports whether a paused app was reached.
func (r *Run) Continue() bool { return r.srv.Continue() > 0 }

// stopAtPause ends the app the layer paused at its first error, once:
// the session records that the run stopped there.
func (r *Run) stopAtPause() {
	r.pauseStop.Do(func() {
		if r.userStop.Load() {
			return // the user stopped it first
		}
		_ = r.Collector.Record(wire.KindContinue, &wire.Continue{Stopped: true})
		r.Stop()
	})
}

// groupRemains reports whether the app's process group still has a
// process: the app itself while it has not been waited for, else another
// member (groupMembers).
func (r *Run) groupRemains(pgid int) bool {
	return !r.reaped.Load() || len(groupMembers(pgid)) > 0
}

// killGroup sends SIGKILL to the app's process group: to the group while
// the app has not been waited for; after, only when the group still has
// members other than its leader, whose pid then cannot have been given to
// another process (the kernel keeps a pid in use while a group has it).
func (r *Run) killGroup(pgid int) {
	if !r.reaped.Load() {
		_ = r.signalGroup(syscall.SIGKILL)
		return
	}
	if len(groupMembers(pgid)) > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// groupMembers lists the processes of process group pgid other than its
// leader (/proc/PID/stat's fifth field).
func groupMembers(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == pgid {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces and ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// signalGroup sends s to the app's process group while the app has not
// been waited for (its pid, the group's id, is then still its own).
func (r *Run) signalGroup(s syscall.Signal) error {
	if r.reaped.Load() {
		return nil
	}
	return syscall.Kill(-r.cmd.Process.Pid, s)
}

// Signal passes a signal the user sent the launcher on to the app's
// process group (the terminal sends it to the launcher only), and
// remembers that the user asked it to stop.
func (r *Run) Signal(s os.Signal) {
	r.markStopped()
	if sig, ok := s.(syscall.Signal); ok && r.cmd.Process != nil {
		_ = r.signalGroup(sig)
	}
}

// markStopped remembers that the user asked the app to stop.
func (r *Run) markStopped() {
	r.userStop.Store(true)
	r.stopOnce.Do(func() { close(r.stopAsked) })
}

// interrupted reports whether the app died of a signal a user sends to
// stop a program: SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGKILL.
func interrupted(ps *os.ProcessState) bool {
	if ps == nil {
		return false
	}
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return false
	}
	switch ws.Signal() {
	case syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGKILL:
		return true
	}
	return false
}

// Close closes the socket and the session file, and removes the app's
// output files when the session holds all they say. Call it once the run
// is over (after Exited, or Stop); it returns the first error writing the
// session file.
func (r *Run) Close() error {
	r.srv.Close()
	if err := r.Collector.FileErr(); err != nil {
		r.file.Close()
		return err
	}
	r.out.remove()
	if err := r.file.Close(); err != nil {
		return fmt.Errorf("session %s: %w", r.opts.SessionPath, err)
	}
	return nil
}

// unwrapExec drops exec's "fork/exec PATH: " prefix.
func unwrapExec(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// exitMsg describes how the app ended; stopped says the user asked it to
// stop, so that an app killed by that signal (or failing after it) is
// "stopped", not "crashed".
func exitMsg(ps *os.ProcessState, stopped bool) *wire.AppExited {
	m := &wire.AppExited{State: string(session.AppExited), Time: time.Now()}
	if ps == nil {
		m.Code, m.State = -1, string(session.AppFailed)
		return m
	}
	m.Code = ps.ExitCode()
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		m.State = string(session.AppCrashed)
		m.Signal = signalName(ws.Signal())
		m.Code = 128 + int(ws.Signal())
	}
	if stopped && m.Code != 0 {
		m.State = string(session.AppStopped)
	}
	return m
}

// signalName names a signal the way users know it: "SIGSEGV".
func signalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{
		syscall.SIGSEGV: "SIGSEGV", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE",
		syscall.SIGILL: "SIGILL", syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT",
		syscall.SIGHUP: "SIGHUP", syscall.SIGPIPE: "SIGPIPE", syscall.SIGQUIT: "SIGQUIT", syscall.SIGTRAP: "SIGTRAP",
	}
	if n, ok := names[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d (%v)", int(s), s)
}
