package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Launcher names the layer and the loader know.
const (
	// LayerName is the layer's name in its manifest.
	LayerName = "VK_LAYER_GPUAVDBG_validation"
	// ManifestName is the layer's manifest file.
	ManifestName = "VkLayer_gpuav_dbg.json"
	// EnvLayerPath overrides the directory holding the manifest.
	EnvLayerPath = "GPUAV_DBG_LAYER_PATH"

	envSocket      = "VK_LAYER_GPUAV_DBG_SOCKET"
	envCheckPrefix = gpuav.EnvCheckPrefix
	envReserveSlot = "VK_LAYER_GPUAV_DBG_RESERVE_SLOT"
)

// Timing of the end of a run.
const (
	// layerGrace is how long the launcher waits, once the app has exited,
	// for the layer's connections to say bye or close.
	layerGrace = time.Second
	// killGrace is how long an app gets between SIGTERM and SIGKILL when
	// the user quits the UI while it runs.
	killGrace = 2 * time.Second
	// outputDelay bounds the wait for the app's output pipes after it
	// exited (a child it left behind may hold them open).
	outputDelay = time.Second
)

// runCmd is `run` and `demo`.
func (c *cli) runCmd(name string, args []string) int {
	f, rest, err := parseRunFlags(name, args, c.stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s: %v\n", name, err)
		return exitLauncher
	}
	if name == "demo" && len(rest) > 0 {
		fmt.Fprintf(c.stderr, "gpuav-dbg: demo takes no app (got %q); use gpuav-dbg run\n", rest[0])
		return exitLauncher
	}
	if len(rest) == 0 {
		dir, err := c.exeDir()
		if err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %s: %v\n", name, err)
			return exitLauncher
		}
		demo := filepath.Join(dir, "demo")
		if _, err := os.Stat(demo); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %s: %s: no such file (build the demo with make)\n", name, demo)
			return exitLauncher
		}
		rest = []string{demo}
	}
	app, err := resolveApp(rest[0])
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s: %v\n", name, err)
		return exitLauncher
	}
	layerDir, err := c.findLayer()
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		return exitLauncher
	}
	if !f.headless && !c.isTerminal() {
		f.headless = true
	}
	c.sourcePath = f.sourcePath
	c.warnUnavailable(c.capabilities(), f.settingsChecks())
	if !f.headless {
		if err := uiOptions(f.theme, f.noColor).Validate(); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %s: --theme: %v\n", name, err)
			return exitLauncher
		}
	}
	return c.launch(name, app, rest[0], rest[1:], layerDir, f)
}

// resolveApp finds the app the way a shell would: a name with a slash is a
// path, a bare name is looked up in $PATH. It says "no such file" or "not
// executable" in one line.
func resolveApp(app string) (string, error) {
	if !strings.Contains(app, "/") {
		p, err := exec.LookPath(app)
		if err != nil {
			return "", fmt.Errorf("%s: not found in $PATH", app)
		}
		return p, nil
	}
	fi, err := os.Stat(app)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s: no such file", app)
	case err != nil:
		return "", fmt.Errorf("%s: %w", app, errors.Unwrap(err))
	case fi.IsDir():
		return "", fmt.Errorf("%s: not executable (a directory)", app)
	case fi.Mode().Perm()&0o111 == 0 || syscall.Access(app, 1) != nil:
		return "", fmt.Errorf("%s: not executable", app)
	}
	return app, nil
}

// findLayer returns the directory holding the layer manifest:
// $GPUAV_DBG_LAYER_PATH, or the executable's own directory (bin/).
func (c *cli) findLayer() (string, error) {
	dir := c.getenv(EnvLayerPath)
	how := "$" + EnvLayerPath
	if dir == "" {
		d, err := c.exeDir()
		if err != nil {
			return "", err
		}
		dir, how = d, "next to gpuav-dbg"
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		dir = abs
	}
	manifest := filepath.Join(dir, ManifestName)
	if fi, err := os.Stat(manifest); err != nil || fi.IsDir() {
		return "", fmt.Errorf("layer manifest not found: looked for %s (%s); build it with make or set %s", manifest, how, EnvLayerPath)
	}
	return dir, nil
}

// appEnv is the app's environment: the parent's plus the loader variables
// that add our layer, the socket and the settings.
func appEnv(parent []string, layerDir, socket string, checks map[string]bool, reserveSlot bool) []string {
	set := map[string]string{}
	var order []string
	for _, kv := range parent {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if _, seen := set[k]; !seen {
			order = append(order, k)
		}
		set[k] = v
	}
	put := func(k, v string) {
		if _, seen := set[k]; !seen {
			order = append(order, k)
		}
		set[k] = v
	}
	prepend := func(k, v string) {
		if old := set[k]; old != "" {
			v = v + ":" + old
		}
		put(k, v)
	}
	appendList := func(k, v string) {
		old := set[k]
		for _, e := range strings.Split(old, ":") {
			if e == v {
				return
			}
		}
		if old != "" {
			v = old + ":" + v
		}
		put(k, v)
	}
	prepend("VK_ADD_LAYER_PATH", layerDir)
	appendList("VK_INSTANCE_LAYERS", LayerName)
	put(envSocket, socket)
	for _, id := range gpuav.AllChecks {
		put(envCheckPrefix+strings.ToUpper(id), bool01(checks[id]))
	}
	put(envReserveSlot, bool01(reserveSlot))
	env := make([]string, 0, len(order))
	for _, k := range order {
		env = append(env, k+"="+set[k])
	}
	return env
}

func bool01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// launch runs the app under the layer and returns the exit status.
func (c *cli) launch(name, app, shown string, args []string, layerDir string, f *runFlags) int {
	started := time.Now()
	sessionPath := f.sessionPath
	if sessionPath == "" {
		p, err := session.DefaultPath(app, started)
		if err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %s: %v (use --session FILE)\n", name, err)
			return exitLauncher
		}
		sessionPath = p
	}
	file, err := session.CreateFile(sessionPath)
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s: %v\n", name, err)
		return exitLauncher
	}
	defer file.Close()

	// While the app runs, the launcher survives the terminal's Ctrl-C (the
	// app gets it too, and the report must still be written) and passes
	// SIGTERM and SIGHUP on.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)

	set := session.Settings{Checks: f.settingsChecks(), ReserveSlot: f.reserveSlot, SafeMode: true}
	r, err := c.startApp(app, shown, args, layerDir, set, file, sessionPath, started, f.headless)
	if r != nil {
		defer r.srv.Close()
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s: %v\n", name, err)
		return exitLauncher
	}
	col, cmd, exited, updates := r.col, r.cmd, r.exited, r.updates
	notLoaded := r.notLoaded

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			select {
			case s := <-sigs:
				if s != syscall.SIGINT || !f.headless {
					_ = cmd.Process.Signal(s)
				}
				if s != syscall.SIGINT {
					cancel()
				}
			case <-exited:
				return
			}
		}
	}()

	var uiErr error
	if f.headless {
		<-exited
	} else {
		rr := &reruns{c: c, app: app, shown: shown, args: args, layerDir: layerDir, sessionPath: sessionPath}
		uiErr = c.runUI(ctx, col, updates, exited, f.theme, f.noColor, rr)
		defer rr.finish(c.stderr)
		select {
		case <-exited:
		default:
			// The user quit while the app runs: stop it.
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(killGrace):
				_ = cmd.Process.Kill()
				<-exited
			}
		}
	}
	snap := col.Snapshot()
	if !snap.App.LayerLoaded {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s\n", notLoaded)
	}
	if uiErr != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: ui: %v\n", uiErr)
	}
	if f.headless {
		printGroups(c.stderr, snap)
	}
	status := exitStatus(snap)
	if f.jsonOut != "" {
		if err := writeReport(f.jsonOut, c.stdout, snap); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
			status = exitLauncher
		}
	}
	if f.sarifOut != "" {
		if err := c.writeSARIF(f.sarifOut, snap); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
			status = exitLauncher
		}
	}
	if err := col.FileErr(); err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
	} else if err := file.Close(); err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: session %s: %v\n", sessionPath, err)
	}
	fmt.Fprintf(c.stderr, "gpuav-dbg: %s; session saved to %s\n", countLine(snap), sessionPath)
	return status
}

// unwrapExec drops exec's "fork/exec PATH: " prefix.
func unwrapExec(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// exitMsg describes how the app ended.
func exitMsg(ps *os.ProcessState, err error) *wire.AppExited {
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

// exitStatus is the run's exit status from its session.
func exitStatus(s *session.Session) int {
	errors := 0
	for _, g := range s.Groups {
		if !g.IsWarning() { // warnings (robustBufferAccess) do not fail a run
			errors++
		}
	}
	switch {
	case errors > 0:
		return exitErrors
	case s.App.State == session.AppCrashed || s.App.State == session.AppFailed || s.App.ExitCode != 0:
		return exitApp
	}
	return exitOK
}

// printGroups prints one line per error group.
func printGroups(w io.Writer, s *session.Session) {
	for _, g := range s.Groups {
		fmt.Fprintf(w, "gpuav-dbg: %s\n", g.Summary())
	}
}

// countLine summarises the run: "2 error groups (16 records)", the app's end.
func countLine(s *session.Session) string {
	records := 0
	for _, g := range s.Groups {
		records += g.Count
	}
	var b strings.Builder
	switch len(s.Groups) {
	case 0:
		b.WriteString("no validation errors")
	case 1:
		fmt.Fprintf(&b, "1 error group (%d records)", records)
	default:
		fmt.Fprintf(&b, "%d error groups (%d records)", len(s.Groups), records)
	}
	if s.Dropped > 0 {
		fmt.Fprintf(&b, ", %d records dropped", s.Dropped)
	}
	switch s.App.State {
	case session.AppCrashed:
		fmt.Fprintf(&b, "; app killed by %s", s.App.Signal)
	case session.AppFailed:
		b.WriteString("; app failed to start")
	default:
		fmt.Fprintf(&b, "; app exited %d", s.App.ExitCode)
	}
	return b.String()
}

// writeReport writes the JSON report to path, or to w for "-".
func writeReport(path string, w io.Writer, s *session.Session) error {
	if path == "-" {
		return session.WriteReport(w, s)
	}
	return session.WriteReportFile(path, s)
}

// maxLine is the longest output line kept whole; longer ones are split.
const maxLine = 64 << 10

// lineWriter records the app's output line by line in the session and,
// when pass is set, passes the bytes through as they come.
type lineWriter struct {
	col    *session.Collector
	stream string
	pass   io.Writer
	mu     sync.Mutex
	buf    []byte
}

// Write records every complete line of p.
func (w *lineWriter) Write(p []byte) (int, error) {
	if w.pass != nil {
		_, _ = w.pass.Write(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			if len(w.buf) >= maxLine {
				w.emit(w.buf[:maxLine])
				w.buf = w.buf[maxLine:]
				continue
			}
			break
		}
		w.emit(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}

// Flush records a last line without a newline.
func (w *lineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.emit(w.buf)
		w.buf = nil
	}
}

func (w *lineWriter) emit(line []byte) {
	text := strings.TrimSuffix(string(line), "\r")
	_ = w.col.Record(wire.KindAppOutput, &wire.AppOutput{Stream: w.stream, Text: text})
}
