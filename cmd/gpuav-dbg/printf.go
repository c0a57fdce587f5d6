package main

import (
	"fmt"
	"io"

	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// printfFilterFlag is --printf-at: which invocations' printf lines to show
// (session.PrintfFilter).
type printfFilterFlag struct{ f session.PrintfFilter }

// String prints the filter.
func (p *printfFilterFlag) String() string { return p.f.String() }

// Set parses a filter; a second --printf-at adds its terms.
func (p *printfFilterFlag) Set(s string) error {
	f, err := session.ParsePrintfFilter(p.f.String() + " " + s)
	if err != nil {
		return err
	}
	p.f = f
	return nil
}

// onOffFlag is a flag whose value is on or off (--printf).
type onOffFlag bool

func (o *onOffFlag) String() string {
	if *o {
		return "on"
	}
	return "off"
}

func (o *onOffFlag) Set(s string) error {
	switch s {
	case "on":
		*o = true
	case "off":
		*o = false
	default:
		return fmt.Errorf("%q is not on or off", s)
	}
	return nil
}

// printPrintf prints each printf group: its summary, then its distinct
// texts, or with a filter the lines it keeps.
func printPrintf(w io.Writer, s *session.Session, f session.PrintfFilter) {
	for _, g := range s.Printf {
		fmt.Fprintf(w, "gpuav-dbg: %s\n", sanitize.Text(g.Summary()))
		if f.IsZero() {
			for _, v := range g.ValueLines(session.SummaryPrintfValues) {
				fmt.Fprintf(w, "gpuav-dbg:   %s\n", sanitize.Text(v))
			}
			continue
		}
		lines := g.LinesAt(f)
		fmt.Fprintf(w, "gpuav-dbg:   %d of %d kept lines at %s\n", len(lines), len(g.Lines), f)
		for _, l := range lines {
			fmt.Fprintf(w, "gpuav-dbg:   %s\n", sanitize.Text(l.LineText()))
		}
	}
}

// printfCount says how many printf lines a run printed, lost and did not
// keep: ", 6 printf lines (5 lost)"; "" when none.
func printfCount(s *session.Session) string {
	n := s.PrintfLines()
	if n == 0 && s.PrintfLost == 0 {
		return ""
	}
	out := fmt.Sprintf(", %d printf %s", n, plural(n, "line", "lines"))
	switch {
	case s.PrintfLost > 0 && s.PrintfNotKept > 0:
		out += fmt.Sprintf(" (%d lost, %d not kept)", s.PrintfLost, s.PrintfNotKept)
	case s.PrintfLost > 0:
		out += fmt.Sprintf(" (%d lost)", s.PrintfLost)
	case s.PrintfNotKept > 0:
		out += fmt.Sprintf(" (%d not kept)", s.PrintfNotKept)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
