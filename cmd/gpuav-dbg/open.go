package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// openCmd is `open FILE [--json OUT] [--sarif OUT] [--headless]
// [--source-path DIRS]`: the TUI
// on a saved session (or JSON report), or its reports; `open --list [APP]`
// lists the saved runs. A truncated session opens as far as it is
// readable, with one line saying where it stopped.
func (c *cli) openCmd(args []string) int {
	f, pos, err := parseOpenFlags(args, c.stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(c.stderr, "gpuav-dbg: open: %v\n", err)
		return exitLauncher
	}
	if f.list {
		return c.listRuns(pos)
	}
	if len(pos) != 1 {
		fmt.Fprintf(c.stderr, "gpuav-dbg: open: want one session file, got %d arguments\n", len(pos))
		return exitLauncher
	}
	var dirs []string
	for _, d := range f.sourcePath {
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		dirs = append(dirs, d)
	}
	s, err := session.OpenWith(pos[0], session.OpenOptions{SourcePath: dirs})
	if err != nil {
		var te *session.TruncatedError
		if !errors.As(err, &te) {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
			return exitLauncher
		}
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v; showing what was read\n", err)
		s.Notices = append(s.Notices, session.Notice{Level: "warning", Text: err.Error()})
	}
	if f.jsonOut != "" {
		if err := writeReport(f.jsonOut, c.stdout, s); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
			return exitLauncher
		}
	}
	if f.sarifOut != "" {
		if err := c.writeSARIF(f.sarifOut, s); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
			return exitLauncher
		}
	}
	reports := f.jsonOut != "" || f.sarifOut != ""
	switch {
	case f.headless || (!reports && !c.isTerminal()):
		printGroups(c.stderr, s)
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s\n", countLine(s))
	case !reports:
		c.sourcePath = f.sourcePath // where e may open source files
		if err := c.showUI(s, f.theme, f.noColor); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: ui: %v\n", err)
			return exitLauncher
		}
	}
	return exitOK
}
