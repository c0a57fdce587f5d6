package launcher

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// Reruns are the runs the TUI starts again (r) after the first, each with
// its own settings and session file next to the first's: ".2", ".3"...
// before the extension.
type Reruns struct {
	first *Run
	opts  Options

	mu   sync.Mutex
	runs []*Run
}

// NewReruns prepares re-runs of first. The re-runs keep its app, layer and
// search path, and pass no output through (the UI shows it from the
// session).
func NewReruns(first *Run) *Reruns {
	o := first.opts
	o.Stdin, o.Stdout, o.Stderr = nil, nil, nil
	return &Reruns{first: first, opts: o}
}

// RerunPath is the session file of the nth run (n ≥ 2) of the run whose
// session file is first.
func RerunPath(first string, n int) string {
	ext := filepath.Ext(first)
	return fmt.Sprintf("%s.%d%s", first[:len(first)-len(ext)], n, ext)
}

// Rerun starts the app again with set. As Start, it returns the run with
// the error when the app failed to start, and nil when nothing started.
// A set without a printf filter keeps the first run's (--printf-at: the
// TUI's settings pane has none).
func (rr *Reruns) Rerun(set session.Settings) (*Run, error) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	o := rr.opts
	if set.PrintfAt == "" {
		set.PrintfAt = rr.opts.Settings.PrintfAt
	}
	o.Settings = set
	o.SessionPath = RerunPath(rr.opts.SessionPath, len(rr.runs)+2)
	o.Started = time.Now()
	r, err := Start(o)
	if r != nil {
		rr.runs = append(rr.runs, r)
	}
	if err != nil {
		return r, fmt.Errorf("re-run: %w", err)
	}
	return r, nil
}

// Latest is the run started last: the first run until a re-run starts.
func (rr *Reruns) Latest() *Run {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if n := len(rr.runs); n > 0 {
		return rr.runs[n-1]
	}
	return rr.first
}

// Runs returns the re-runs started so far, in order (run 2 first).
func (rr *Reruns) Runs() []*Run {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return slices.Clone(rr.runs)
}
