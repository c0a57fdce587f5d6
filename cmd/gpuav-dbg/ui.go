package main

import (
	"context"

	"github.com/gpuav-dbg/gpuav-dbg/launcher"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui"
)

// uiOptions are the TUI's options from the flags; e may open source files
// in the directories the session may read (the working directory,
// --source-path, GPUAV_DBG_SOURCE_PATH).
func (c *cli) uiOptions(theme string, noColor bool) tui.Options {
	return tui.Options{Theme: theme, NoColor: noColor, SourceDirs: session.SourceDirs(c.sourceSearch()), Getenv: c.getenv,
		PrintfAt: c.printfAt, Mute: c.mute}
}

// liveSource is a tui.Source over a running app: snapshots on demand, one
// coalesced notice per burst of changes.
type liveSource struct{ r *launcher.Run }

// Snapshot returns a copy of the session as it is now.
func (s liveSource) Snapshot() *session.Session { return s.r.Collector.Snapshot() }

// Updates is the run's change channel (buffer of one).
func (s liveSource) Updates() <-chan struct{} { return s.r.Updates() }

// rerunner is what the TUI's r needs of the launcher: whether the app it
// started last still runs, a way to stop it, and another run with other
// settings.
type rerunner struct{ rr *launcher.Reruns }

// Rerun starts the app again with set. A run whose app failed to start is
// shown too (it says so).
func (x rerunner) Rerun(set session.Settings) (tui.Source, error) {
	r, err := x.rr.Rerun(set)
	if r == nil {
		return nil, err
	}
	return liveSource{r}, nil
}

// Running reports whether the latest run's app still runs.
func (x rerunner) Running() bool { return x.rr.Latest().Running() }

// Stop stops the latest run's app (SIGTERM, then SIGKILL) and returns
// once it has ended.
func (x rerunner) Stop() error {
	x.rr.Latest().Stop()
	return nil
}

// runUI runs the TUI on a live run until the user quits or ctx is done.
// When the app exits the UI gets one more notice, so it shows the final
// state, and stays open for the user to browse. rr lets the UI run the
// app again with other settings (r).
func (c *cli) runUI(ctx context.Context, r *launcher.Run, rr *launcher.Reruns, theme string, noColor bool) error {
	opts := c.uiOptions(theme, noColor)
	opts.Rerun = rerunner{rr}
	// c lets the app paused at its first error (--stop-on-error)
	// continue: the latest run's, the only one still running.
	opts.Continue = func() bool { return rr.Latest().Continue() }
	return tui.Run(ctx, liveSource{r}, opts)
}

// showUI runs the TUI on a saved session.
func (c *cli) showUI(s *session.Session, theme string, noColor bool) error {
	return tui.Run(context.Background(), tui.Static(s), c.uiOptions(theme, noColor))
}
