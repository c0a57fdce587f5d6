package session

import (
	"math"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// PrintfFilter picks printf lines by the coordinates of the invocation
// that printed them: "pixel=120,45", "invocation=3,0,0", "vertex=5", or
// several terms separated by spaces or ';'. A term applies to the stage
// whose coordinates it names: a line of that stage is kept when the term
// matches it, and a line of a stage no term names is kept. The zero
// filter keeps everything. It is gpuav.PrintfAt, which the layer applies
// before the lines are written; the session applies it to what arrived.
type PrintfFilter struct {
	gpuav.PrintfAt
}

// PrintfFilterNames are the names a filter term takes, for usage texts.
const PrintfFilterNames = gpuav.PrintfAtNames

// ParsePrintfFilter parses a filter ("" is the zero filter).
func ParsePrintfFilter(s string) (PrintfFilter, error) {
	at, err := gpuav.ParsePrintfAt(s)
	return PrintfFilter{at}, err
}

// Match reports whether the filter keeps a line with coordinates c.
func (f PrintfFilter) Match(c Coords) bool {
	for _, t := range f.Terms {
		vals, n, ok := coordValues(c, t.Key)
		if !ok {
			continue
		}
		if n != len(t.Vals) {
			return false
		}
		for i, x := range vals[:n] {
			if t.Floor {
				x = math.Floor(x)
			}
			if x != t.Vals[i] {
				return false
			}
		}
	}
	return true
}

// LinesAt are the group's kept lines the filter keeps.
func (g *PrintfGroup) LinesAt(f PrintfFilter) []PrintfLine {
	if f.IsZero() {
		return g.Lines
	}
	var out []PrintfLine
	for _, l := range g.Lines {
		if f.Match(l.Coords) {
			out = append(out, l)
		}
	}
	return out
}
