package session

import (
	"fmt"
	"strings"
)

// Report limits of printf groups.
const (
	// ReportPrintfLines is how many lines of each printf group the JSON
	// report lists; lines_omitted counts the others.
	ReportPrintfLines = 10000
	// SummaryPrintfValues is how many distinct texts the headless output
	// shows per group.
	SummaryPrintfValues = 8
)

// reportPrintf is the printf groups as the JSON report writes them: each
// group's first ReportPrintfLines lines, the others counted.
func reportPrintf(groups []*PrintfGroup) []*PrintfGroup {
	out := make([]*PrintfGroup, len(groups))
	for i, g := range groups {
		if len(g.Lines) <= ReportPrintfLines {
			out[i] = g
			continue
		}
		cp := *g
		cp.Lines = g.Lines[:ReportPrintfLines]
		cp.LinesOmitted += len(g.Lines) - ReportPrintfLines
		out[i] = &cp
	}
	return out
}

// Summary is the group in one line, as the headless output prints it:
//
//	printf ×6 compute printf.comp:8 "i=%u n=%u" — vkCmdDispatch #0 cmd 0x55 ("printf-cb")
func (g *PrintfGroup) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "printf ×%d %s", g.Count, g.Stage)
	writeLocation(&b, g.Source, g.Shader.ID, g.Instruction)
	fmt.Fprintf(&b, " %q", g.Format)
	writeAction(&b, g.Action, g.ActionIndex, g.CommandBuffer)
	if g.Problem != "" {
		fmt.Fprintf(&b, " (%s)", g.Problem)
	}
	return b.String()
}

// writeLocation writes " file:line" (without the column), or " shader N
// instruction M" when the source is unknown: where a summary's group is.
func writeLocation(b *strings.Builder, src *Source, shader, instruction uint32) {
	loc := src.Location()
	switch {
	case loc == "":
		fmt.Fprintf(b, " %s", where(shader, instruction))
		return
	case src.Column > 0:
		loc = fmt.Sprintf("%s:%d", src.File, src.Line)
	}
	fmt.Fprintf(b, " %s", loc)
}

// writeAction writes " — vkCmdDispatch #0 cmd 0x55 ("name")": a summary's
// action.
func writeAction(b *strings.Builder, action string, index uint32, cmd Handle) {
	if action == "" {
		action = "action"
	}
	fmt.Fprintf(b, " — %s #%d cmd %s", action, index, cmd)
}

// ValueLines are the group's distinct texts with their counts, the first
// n of them, then a line that counts the rest: "×3 i=1 n=4".
func (g *PrintfGroup) ValueLines(n int) []string {
	var out []string
	for i, v := range g.Values {
		if i == n {
			rest := 0
			for _, o := range g.Values[n:] {
				rest += o.Count
			}
			out = append(out, fmt.Sprintf("… %d more distinct texts in %d lines", len(g.Values)-n, rest))
			break
		}
		out = append(out, fmt.Sprintf("×%d %s", v.Count, oneLine(v.Text)))
	}
	if g.OtherValues > 0 {
		out = append(out, fmt.Sprintf("… %d lines with texts past the first %d distinct", g.OtherValues, MaxPrintfValues))
	}
	return out
}

// LineText is one line as the headless output prints it: its coordinates
// and text, "(3,0,0) i=3 n=4".
func (l PrintfLine) LineText() string {
	return l.Coords.Values() + " " + oneLine(l.Text)
}

// oneLine shows a text's newlines as \n (a format often ends in one).
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", `\n`) }
