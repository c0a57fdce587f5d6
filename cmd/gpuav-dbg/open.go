package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// openCmd is `open FILE [--json OUT] [--sarif OUT] [--headless]
// [--source-path DIRS] [--allow-unchecked]`: the TUI on a saved session
// (or JSON report), or its reports; headless, the session's exit status as
// run gives it. `open --list [APP]` lists the saved runs. A truncated
// session opens as far as it is readable, with one line saying where it
// stopped.
func (c *cli) openCmd(args []string) int {
	f, pos, err := parseOpenFlags(args, c.stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return c.fail("open: %v", err)
	}
	if f.list && f.prune {
		return c.fail("open: --list and --prune are two commands: give one")
	}
	if f.list {
		return c.listRuns(pos)
	}
	if f.prune {
		if len(pos) > 0 {
			return c.fail("open --prune takes no argument (it prunes every app's runs), got %q", pos[0])
		}
		return c.pruneRuns()
	}
	if len(pos) != 1 {
		return c.fail("open: want one session file, got %d arguments", len(pos))
	}
	if err := c.uiOptions(f.theme, f.noColor).Validate(); err != nil {
		return c.fail("open: --theme: %v", err)
	}
	c.reportMode = os.FileMode(f.reportMode)
	if c.mute, err = c.muted(f.mute); err != nil {
		return c.fail("open: %v", err)
	}
	var dirs []string
	for _, d := range f.sourcePath {
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		dirs = append(dirs, d)
	}
	s, err := session.OpenWith(pos[0], session.OpenOptions{SourcePath: dirs, SourceExt: c.sourceExt(f.sourceExt)})
	if err != nil {
		var te *session.TruncatedError
		if !errors.As(err, &te) {
			return c.fail("%s", sanitize.Text(err.Error()))
		}
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s; showing what was read\n", sanitize.Text(err.Error()))
		s.Notices = append(s.Notices, session.Notice{Level: "warning", Text: err.Error()})
		s.Unchecked = append(s.Unchecked, session.Unchecked{Kind: session.UncheckedRecords,
			Reason: fmt.Sprintf("the session file stops at byte %d: what the run sent after it is missing", te.Offset)})
	}
	reports := f.jsonOut != "" || f.sarifOut != ""
	headless := f.headless || (!reports && !c.isTerminal())
	if !headless && !reports {
		c.sourcePath = f.sourcePath // where e may open source files
		c.printfAt = f.printfAt.f
		if err := c.showUI(s, f.theme, f.noColor); err != nil {
			return c.fail("ui: %v", err)
		}
		return exitOK
	}
	if headless {
		printHangs(c.stderr, s)
		printGroups(c.stderr, s, c.mute)
		printPrintf(c.stderr, s, f.printfAt.f)
		printCoverage(c.stderr, s)
	}
	status := c.report(s, f.jsonOut, f.sarifOut, f.allowUnchecked)
	if headless {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %s\n", countLine(s))
		return status
	}
	// Reports alone are a conversion: the status says whether they were
	// written.
	if status == exitLauncher {
		return status
	}
	return exitOK
}
