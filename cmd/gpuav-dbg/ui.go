package main

import (
	"context"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui"
)

// uiOptions are the TUI's options from the flags.
func uiOptions(theme string, noColor bool) tui.Options {
	return tui.Options{Theme: theme, NoColor: noColor}
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
	opts := uiOptions(theme, noColor)
	if rr != nil {
		opts.Rerun = func(set session.Settings) (tui.Source, error) {
			r, err := rr.rerun(set)
			if r == nil {
				return nil, err
			}
			// A run whose app failed to start is shown too (it says so).
			return liveSource{col: r.col, updates: r.updates}, nil
		}
	}
	return tui.Run(ctx, liveSource{col: col, updates: updates}, opts)
}

// showUI runs the TUI on a saved session.
func (c *cli) showUI(s *session.Session, theme string, noColor bool) error {
	return tui.Run(context.Background(), tui.Static(s), uiOptions(theme, noColor))
}
