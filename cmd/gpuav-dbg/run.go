package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/launcher"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/tui"
)

// runCmd is `run` and `demo`: flags, the app and the layer, then launch.
func (c *cli) runCmd(name string, args []string) int {
	f, rest, err := parseRunFlags(name, args, c.stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return c.fail("%s: %v", name, err)
	}
	if name == "demo" && len(rest) > 0 {
		return c.fail("demo takes no app (got %q); use gpuav-dbg run", rest[0])
	}
	if err := c.uiOptions(f.theme, f.noColor).Validate(); err != nil {
		return c.fail("%s: --theme: %v", name, err)
	}
	if len(rest) == 0 {
		dir, err := c.exeDir()
		if err != nil {
			return c.fail("%s: %v", name, err)
		}
		demo := filepath.Join(dir, "demo")
		if _, err := os.Stat(demo); err != nil {
			return c.fail("%s: %s: no such file (build the demo with make)", name, demo)
		}
		rest = []string{demo}
		// In a build tree, the demo's shader sources are known.
		if src := filepath.Join(dir, "..", "examples", "demo", "shaders"); isDir(src) {
			f.sourcePath = append(f.sourcePath, filepath.Clean(src))
		}
	}
	app, err := launcher.ResolveApp(rest[0])
	if err != nil {
		return c.fail("%s: %v", name, err)
	}
	exeDir, _ := c.exeDir()
	layer, err := launcher.FindLayer(c.getenv, exeDir)
	if err != nil {
		return c.fail("%v", err)
	}
	if !f.headless && !c.isTerminal() {
		f.headless = true
	}
	c.sourcePath = f.sourcePath
	c.printfAt = f.printfAt.f
	if c.mute, err = c.muted(f.mute); err != nil {
		return c.fail("%s: %v", name, err)
	}
	c.reportMode = os.FileMode(f.reportMode)
	set, err := f.settings()
	if err != nil {
		return c.fail("%s: %v", name, err)
	}
	// The device probe (a child process: docs/BENCHMARKS.md, the
	// launcher's start) runs beside the app, not before it: its warnings
	// come once it answers, and the session records its answer.
	var warnOnce sync.Once
	warned := func(ctx context.Context) *wire.Capabilities {
		caps := c.capabilities(ctx)
		if caps != nil {
			warnOnce.Do(func() { c.warnUnavailable(caps, set.Checks) })
		}
		return caps
	}
	o := launcher.Options{App: app, Shown: rest[0], Args: rest[1:], LayerDir: layer.Dir, Settings: set,
		SessionPath: f.sessionPath, Started: time.Now(), CapabilitiesFunc: warned}
	// Headless, a stop at the first error ends the run there: a CI
	// user's report holds that error, and nobody is there to continue a
	// stop the app's own settings asked for (docs/decisions/stop-on-error.md).
	o.StopAtPause = f.headless
	var pruned func()
	if o.SessionPath == "" {
		if o.SessionPath, err = session.DefaultPath(app, o.Started); err != nil {
			return c.fail("%s: %v (use --session FILE)", name, err)
		}
		// The saved runs stay within their caps: the oldest go first
		// (a run saved elsewhere, --session, is the user's to keep). It
		// reads every saved run, so it runs beside the app, keeping this
		// run's file, and says what it pruned when the run is over.
		if _, err := session.RetentionFrom(c.getenv); err != nil {
			return c.fail("%s: %v", name, err)
		}
		pruned = c.pruneBeside(&session.History{Dir: filepath.Dir(o.SessionPath)}, o.Started, o.SessionPath)
	}
	if pruned != nil {
		defer pruned()
	}
	o.Dir, o.SourcePath = c.sourceSearch()
	o.SourceExt = c.sourceExt(f.sourceExt)
	if f.headless {
		// The app's output passes through; to stderr when stdout carries
		// a report.
		o.Stdin, o.Stdout, o.Stderr = c.stdin, c.stdout, c.stderr
		if f.jsonOut == "-" || f.sarifOut == "-" {
			o.Stdout = c.stderr
		}
	}
	return c.launch(name, o, f)
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// fail prints one error line and returns the launcher's exit status.
func (c *cli) fail(format string, args ...any) int {
	// One line, every control escaped: the arguments hold paths and
	// names the user or the app gave (an app path with escapes).
	fmt.Fprintf(c.stderr, "gpuav-dbg: %s\n", sanitize.Text(fmt.Sprintf(format, args...)))
	return exitLauncher
}

// launch runs the app under the layer (the UI on it unless headless) and
// returns the exit status.
func (c *cli) launch(name string, o launcher.Options, f *runFlags) int {
	// While the app runs, the launcher survives the terminal's Ctrl-C (the
	// app gets it too, and the report must still be written) and passes
	// SIGTERM and SIGHUP on.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)

	r, err := launcher.Start(o)
	if r == nil {
		return c.fail("%s: %v", name, err)
	}
	if err != nil {
		_ = r.Close()
		return c.fail("%s: %v", name, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go forwardSignals(done, sigs, r, cancel)

	var uiErr error
	if f.headless {
		<-r.Exited()
	} else {
		rr := launcher.NewReruns(r)
		uiErr = c.runUI(ctx, r, rr, f.theme, f.noColor)
		r.Stop() // the user quit while the app runs
		defer c.finishReruns(rr)
	}
	return c.finishRun(r, f, uiErr)
}

// forwardSignals passes the signals the launcher gets on to the app (its
// own process group, which the terminal does not signal) until it has
// exited; all but SIGINT end the UI. Once the app has exited, SIGHUP and
// SIGTERM still end the UI (its terminal closed), so it is never left
// running without one.
func forwardSignals(done <-chan struct{}, sigs <-chan os.Signal, r *launcher.Run, cancel func()) {
	exited := r.Exited()
	for {
		select {
		case s := <-sigs:
			if exited != nil {
				r.Signal(s)
			}
			if s != syscall.SIGINT {
				cancel()
			}
		case <-exited:
			exited = nil
		case <-done:
			return
		}
	}
}

// finishRun writes the reports of a finished run, closes its session and
// returns the exit status.
func (c *cli) finishRun(r *launcher.Run, f *runFlags, uiErr error) int {
	snap := r.Collector.Snapshot()
	if !snap.App.LayerLoaded {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s\n", sanitize.Text(r.NotLoaded))
	}
	if uiErr != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: ui: %v\n", uiErr)
	}
	if f.headless {
		printHangs(c.stderr, snap)
		printGroups(c.stderr, snap, c.mute)
		printPrintf(c.stderr, snap, f.printfAt.f)
		printCoverage(c.stderr, snap)
	}
	status := c.report(snap, f.jsonOut, f.sarifOut, f.allowUnchecked)
	if err := r.Close(); err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
	}
	fmt.Fprintf(c.stderr, "gpuav-dbg: %s; session saved to %s\n", countLine(snap), sanitize.Text(r.SessionPath()))
	return status
}

// report writes the JSON and SARIF reports that were asked for, says what
// went unchecked, and returns the exit status of the session.
func (c *cli) report(s *session.Session, jsonOut, sarifOut string, allowUnchecked bool) int {
	status := exitStatus(s, allowUnchecked)
	if jsonOut != "" {
		if err := writeReport(jsonOut, c.stdout, s, c.reportMode); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
			status = exitLauncher
		}
	}
	if sarifOut != "" {
		if err := c.writeSARIF(sarifOut, s); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
			status = exitLauncher
		}
	}
	printUnchecked(c.stderr, s, status, allowUnchecked)
	return status
}

// finishReruns stops the re-runs' apps, closes their sessions, and says
// where each was saved.
func (c *cli) finishReruns(rr *launcher.Reruns) {
	for i, r := range rr.Runs() {
		r.Stop()
		if err := r.Close(); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		}
		fmt.Fprintf(c.stderr, "gpuav-dbg: run %d: %s; session saved to %s\n", i+2, countLine(r.Collector.Snapshot()),
			sanitize.Text(r.SessionPath()))
	}
}

// exitStatus is a run's exit status from its session: a hang that never
// finished (or a lost device) first, then validation errors, then an app
// that failed, then a run that did not check everything (unless allowed).
// A slow submission (a hang that finished) is a warning.
func exitStatus(s *session.Session, allowUnchecked bool) int {
	if s.Hung() {
		return exitHang
	}
	errors := 0
	for _, g := range s.Groups {
		if !g.IsWarning() { // warnings (robustBufferAccess) do not fail a run
			errors++
		}
	}
	switch {
	case errors > 0:
		return exitErrors
	case s.App.State == session.AppCrashed || s.App.State == session.AppFailed ||
		s.App.State != session.AppStopped && s.App.ExitCode != 0:
		return exitApp
	case !allowUnchecked && len(s.UncheckedAll()) > 0:
		return exitUnchecked
	}
	return exitOK
}

// printUnchecked says what the run left unchecked, one line per cause,
// and what that did to the exit status (status, the one the process
// exits with).
func printUnchecked(w io.Writer, s *session.Session, status int, allowed bool) {
	u := s.UncheckedAll()
	if len(u) == 0 {
		return
	}
	var how string
	switch status {
	case exitUnchecked:
		how = fmt.Sprintf("exit %d; --allow-unchecked accepts it", exitUnchecked)
	case exitErrors:
		how = fmt.Sprintf("exit %d: validation errors found", exitErrors)
	case exitApp:
		how = fmt.Sprintf("exit %d: the app failed", exitApp)
	case exitLauncher:
		how = fmt.Sprintf("exit %d: a report could not be written", exitLauncher)
	default:
		how = fmt.Sprintf("exit %d", status)
		if allowed {
			how += ": accepted by --allow-unchecked"
		}
	}
	fmt.Fprintf(w, "gpuav-dbg: not everything was checked (%s):\n", how)
	for _, x := range u {
		fmt.Fprintf(w, "gpuav-dbg:   %s\n", sanitize.Text(x.String()))
	}
}

// printCoverage prints what the run looked at (session.Coverage), one
// line each, the app's strings in them escaped.
func printCoverage(w io.Writer, s *session.Session) {
	if !s.App.LayerLoaded && len(s.Shaders) == 0 && s.CoverageReport == nil {
		fmt.Fprintf(w, "gpuav-dbg: checked: nothing (the layer was not loaded)\n")
		return
	}
	for _, l := range s.Coverage().Lines() {
		fmt.Fprintf(w, "gpuav-dbg: %s\n", sanitize.Text(l))
	}
}

// printHangs prints each hang group: where the GPU was when it hung (for a
// slow submission, when it was reported), its first line saying which.
func printHangs(w io.Writer, s *session.Session) {
	for _, h := range s.Hangs {
		for _, l := range h.Lines() {
			fmt.Fprintf(w, "gpuav-dbg: %s\n", sanitize.Text(l))
		}
	}
}

// printGroups prints one line per error group, the app's strings in it
// escaped (a file name or a debug name cannot drive the terminal); the
// groups muted are counted in one line instead.
func printGroups(w io.Writer, s *session.Session, mute []string) {
	muted, records := 0, 0
	for _, g := range s.Groups {
		if tui.Muted(g, mute) {
			muted++
			records += g.Count
			continue
		}
		fmt.Fprintf(w, "gpuav-dbg: %s\n", sanitize.Text(g.Summary()))
	}
	if muted > 0 {
		fmt.Fprintf(w, "gpuav-dbg: %d error %s (%d records) muted (%s): not listed; the reports and the exit status count them\n",
			muted, map[bool]string{true: "group", false: "groups"}[muted == 1], records, sanitize.Text(strings.Join(mute, ", ")))
	}
}

// muted is the mute list: GPUAV_DBG_MUTE's, then the flags'.
func (c *cli) muted(flags muteFlag) ([]string, error) {
	var m muteFlag
	if c.getenv != nil {
		if err := m.Set(c.getenv(options.Mute.Env)); err != nil {
			return nil, fmt.Errorf("%s: %v", options.Mute.Env, err)
		}
	}
	for _, id := range flags {
		if err := m.Set(id); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// countLine summarises the run: "2 error groups (16 records)", the app's
// end, and what was lost on the way; the app's strings in it escaped.
func countLine(s *session.Session) string { return sanitize.Text(countText(s)) }

func countText(s *session.Session) string {
	records := 0
	for _, g := range s.Groups {
		records += g.Count
	}
	var b strings.Builder
	// Never "no validation errors" for a run that checked nothing, or
	// not everything.
	verdict, _ := s.Verdict()
	switch {
	case len(s.Groups) == 0 && verdict == session.VerdictNone:
		b.WriteString("not checked")
	case len(s.Groups) == 0 && verdict == session.VerdictPartly:
		b.WriteString("no validation errors in what was checked")
	case len(s.Groups) == 0:
		b.WriteString("no validation errors")
	case len(s.Groups) == 1:
		fmt.Fprintf(&b, "1 error group (%d records)", records)
	default:
		fmt.Fprintf(&b, "%d error groups (%d records)", len(s.Groups), records)
	}
	if len(s.Groups) > 0 && verdict == session.VerdictPartly {
		b.WriteString(", not everything checked")
	}
	if s.Dropped > 0 {
		fmt.Fprintf(&b, ", %d records dropped", s.Dropped)
	}
	for _, h := range s.Hangs {
		fmt.Fprintf(&b, ", %s", h.Title())
	}
	if s.LostRecords > 0 {
		fmt.Fprintf(&b, ", %d records lost on the way", s.LostRecords)
	}
	b.WriteString(printfCount(s))
	switch s.App.State {
	case session.AppCrashed:
		fmt.Fprintf(&b, "; app killed by %s", s.App.Signal)
	case session.AppStopped:
		if s.StoppedAtFirstError {
			b.WriteString("; app stopped at the first error")
			break
		}
		b.WriteString("; app stopped by you")
		if s.App.Signal != "" {
			fmt.Fprintf(&b, " (%s)", s.App.Signal)
		}
	case session.AppFailed:
		b.WriteString("; app failed to start")
	case session.AppExited:
		fmt.Fprintf(&b, "; app exited %d", s.App.ExitCode)
	default:
		// Never "exited 0" for an end nobody saw.
		b.WriteString("; " + session.EndNotRecorded)
	}
	return b.String()
}

// writeReport writes the JSON report to path (with mode; 0: the session
// file's), or to w for "-".
func writeReport(path string, w io.Writer, s *session.Session, mode os.FileMode) error {
	if path == "-" {
		return session.WriteReport(w, s)
	}
	if mode == 0 {
		mode = session.ReportMode
	}
	return session.WriteReportFileMode(path, s, mode)
}
