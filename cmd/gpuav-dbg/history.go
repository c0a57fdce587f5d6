package main

import (
	"errors"
	"fmt"

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
	runs, err := h.Runs(app)
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
	for _, r := range runs {
		app := r.App
		if r.Rerun > 0 {
			app += fmt.Sprintf(" (re-run %d)", r.Rerun)
		}
		fmt.Fprintf(c.stdout, "%s  %s  %s  %s\n", r.Time.Format("2006-01-02 15:04:05"), sanitize.Text(app), runSummary(r.Path),
			sanitize.Text(r.Path))
	}
	return exitOK
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
