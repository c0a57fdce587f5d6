package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// writeSARIF writes the SARIF log to path, or to standard output for "-";
// relative source paths are relative to the current directory.
func (c *cli) writeSARIF(path string, s *session.Session) error {
	opt := session.SARIFOptions{ToolVersion: version, Mode: c.reportMode, Warn: func(w string) {
		fmt.Fprintf(c.stderr, "gpuav-dbg: SARIF: %s\n", sanitize.Text(w))
	}}
	if path == "-" {
		return session.WriteSARIFWith(c.stdout, s, opt)
	}
	return session.WriteSARIFFile(path, s, opt)
}

// listRuns is `open --list [APP]`: the saved runs (of APP, or of every
// app), oldest first, one line each: time, app, what the run found, path.
func (c *cli) listRuns(pos []string) int {
	if len(pos) > 1 {
		fmt.Fprintf(c.stderr, "gpuav-dbg: open --list: want at most one app, got %d arguments\n", len(pos))
		return exitLauncher
	}
	app := ""
	if len(pos) == 1 {
		app = pos[0]
	}
	h, err := session.DefaultHistory()
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		return exitLauncher
	}
	runs, err := h.Saved(app)
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		return exitLauncher
	}
	if len(runs) == 0 {
		what := "no saved runs"
		if app != "" {
			what += " of " + session.AppName(app)
		}
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s in %s\n", what, h.Dir)
		return exitOK
	}
	var total int64
	for _, r := range runs {
		app := r.App
		if r.Rerun > 0 {
			app += fmt.Sprintf(" (re-run %d)", r.Rerun)
		}
		total += r.Size
		fmt.Fprintf(c.stdout, "%s  %s  %s  %s  %s\n", r.Time.Format("2006-01-02 15:04:05"), sanitize.Text(app), runSummary(r.Path),
			session.FormatBytes(r.Size), sanitize.Text(r.Path))
	}
	ret, err := session.RetentionFrom(c.getenv)
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		return exitLauncher
	}
	fmt.Fprintf(c.stderr, "gpuav-dbg: %d %s, %s (kept: %s; open --prune applies it)\n", len(runs),
		map[bool]string{true: "run", false: "runs"}[len(runs) == 1], session.FormatBytes(total), ret)
	return exitOK
}

// pruneRuns is `open --prune`: the saved runs past the retention caps
// (GPUAV_DBG_KEEP_SIZE, GPUAV_DBG_KEEP_AGE) are deleted, one line each.
func (c *cli) pruneRuns() int {
	h, err := session.DefaultHistory()
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		return exitLauncher
	}
	if !c.prune(h, time.Now()) {
		return exitLauncher
	}
	saved, err := h.Saved("")
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		return exitLauncher
	}
	var total int64
	for _, r := range saved {
		total += r.Size
	}
	fmt.Fprintf(c.stderr, "gpuav-dbg: %d %s kept, %s, in %s\n", len(saved), map[bool]string{true: "run", false: "runs"}[len(saved) == 1],
		session.FormatBytes(total), sanitize.Text(h.Dir))
	return exitOK
}

// pruneBeside runs prune on a goroutine, its lines held back; the function
// it returns waits for it and prints them.
func (c *cli) pruneBeside(h *session.History, now time.Time, keep ...string) func() {
	var out bytes.Buffer
	cc := *c
	cc.stderr = &out
	done := make(chan struct{})
	go func() {
		defer close(done)
		cc.prune(h, now, keep...)
	}()
	return func() {
		<-done
		_, _ = c.stderr.Write(out.Bytes())
	}
}

// prune deletes the runs of h past the retention caps, but for keep, and
// says what it deleted; false when it could not do it all.
func (c *cli) prune(h *session.History, now time.Time, keep ...string) bool {
	ret, err := session.RetentionFrom(c.getenv)
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		return false
	}
	pruned, err := h.Prune(ret, now, keep...)
	var freed int64
	for _, p := range pruned {
		freed += p.Size
		fmt.Fprintf(c.stderr, "gpuav-dbg: pruned %s (%s): %s\n", sanitize.Text(filepath.Base(p.Path)), session.FormatBytes(p.Size), p.Reason)
	}
	if len(pruned) > 0 {
		fmt.Fprintf(c.stderr, "gpuav-dbg: pruned %d saved %s, %s (kept: %s)\n", len(pruned),
			map[bool]string{true: "run", false: "runs"}[len(pruned) == 1], session.FormatBytes(freed), ret)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s\n", sanitize.Text(err.Error()))
		return false
	}
	return true
}

// runSummary opens a saved run and says what it found, or why it cannot.
func runSummary(path string) string {
	s, err := session.Open(path)
	var te *session.TruncatedError
	switch {
	case err == nil:
		return countLine(s)
	case errors.As(err, &te):
		return fmt.Sprintf("%s (stopped at byte %d)", countLine(s), te.Offset)
	}
	return sanitize.Text(fmt.Sprintf("unreadable: %v", err))
}
