package main

import (
	"context"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui"
)

// uiOptions are the TUI's options from the flags; e may open source files
// in the directories the session may read (the working directory,
// --source-path, GPUAV_DBG_SOURCE_PATH).
func (c *cli) uiOptions(theme string, noColor bool) tui.Options {
	return tui.Options{Theme: theme, NoColor: noColor, SourceDirs: session.SourceDirs(c.sourceSearch()), Getenv: c.getenv}
}

// liveSource is a tui.Source over a running collector: snapshots on
// demand, one coalesced notice per burst of changes.
type liveSource struct {
	col     *session.Collector
	updates chan struct{}
}

// Snapshot returns a copy of the session as it is now.
func (s liveSource) Snapshot() *session.Session { return s.col.Snapshot() }

// Updates is the collector's change channel (buffer of one).
func (s liveSource) Updates() <-chan struct{} { return s.updates }

// runUI runs the TUI on a live collector until the user quits or ctx is
// done. When the app exits, the UI gets one more notice so it shows the
// final state; it stays open for the user to browse.
//
// rr, when not nil, lets the UI run the app again with other settings (r).
func (c *cli) runUI(ctx context.Context, col *session.Collector, updates chan struct{}, exited <-chan struct{}, theme string, noColor bool, rr *reruns) error {
	var once sync.Once
	go func() {
		select {
		case <-exited:
			once.Do(func() {
				select {
				case updates <- struct{}{}:
				default:
				}
			})
		case <-ctx.Done():
		}
	}()
	opts := c.uiOptions(theme, noColor)
	if rr != nil {
		opts.Rerun = rerunner{rr}
	}
	return tui.Run(ctx, liveSource{col: col, updates: updates}, opts)
}

// rerunner is the TUI's tui.Rerunner over the launcher's runs.
type rerunner struct{ rr *reruns }

// Rerun starts the app again; a run whose app failed to start is shown
// too (it says so).
func (r rerunner) Rerun(set session.Settings) (tui.Source, error) {
	run, err := r.rr.rerun(set)
	if run == nil {
		return nil, err
	}
	return liveSource{col: run.col, updates: run.updates}, nil
}

// Running reports whether the first run's app or a re-run's still runs.
func (r rerunner) Running() bool {
	r.rr.mu.Lock()
	defer r.rr.mu.Unlock()
	for _, run := range append([]*appRun{r.rr.first}, r.rr.runs...) {
		if run == nil {
			continue
		}
		select {
		case <-run.exited:
		default:
			return true
		}
	}
	return false
}

// Stop stops every app that still runs and waits for them.
func (r rerunner) Stop() error {
	r.rr.mu.Lock()
	runs := append([]*appRun{r.rr.first}, r.rr.runs...)
	r.rr.mu.Unlock()
	for _, run := range runs {
		if run != nil {
			run.stop()
		}
	}
	return nil
}

// showUI runs the TUI on a saved session.
func (c *cli) showUI(s *session.Session, theme string, noColor bool) error {
	return tui.Run(context.Background(), tui.Static(s), c.uiOptions(theme, noColor))
}
