package session

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// PrintfFilter picks printf lines by the coordinates of the invocation
// that printed them: "pixel=120,45", "invocation=3,0,0", "vertex=5", or
// several terms separated by spaces or ';'. A term applies to the stage
// whose coordinates it names: a line of that stage is kept when the term
// matches it, and a line of a stage no term names is kept. The zero
// filter keeps everything.
type PrintfFilter struct {
	terms []printfTerm
}

// printfTerm is one name=values term.
type printfTerm struct {
	name string // as the user wrote it: pixel, invocation...
	key  string // the coordinate key it reads
	vals []float64
	// floor: compare the integer part (a pixel of frag_coord, whose
	// values are the pixel's centre).
	floor bool
}

// printfTermNames maps a filter's names to coordinate keys; the keys
// themselves are names too.
var printfTermNames = map[string]string{
	"pixel":      "frag_coord",
	"invocation": "global_invocation_id",
	"vertex":     "vertex_index",
	"instance":   "instance_index",
	"launch":     "launch_id",
	"primitive":  "primitive_id",
}

// coordArity is how many values each coordinate key has.
var coordArity = map[string]int{
	"global_invocation_id": 3, "launch_id": 3, "frag_coord": 2, "tess_coord": 2,
	"vertex_index": 1, "instance_index": 1, "primitive_id": 1, "invocation_id": 1,
}

// PrintfFilterNames are the names a filter term takes, for usage texts.
const PrintfFilterNames = "pixel=X,Y invocation=X,Y,Z vertex=N instance=N launch=X,Y,Z primitive=N"

// ParsePrintfFilter parses a filter ("" is the zero filter).
func ParsePrintfFilter(s string) (PrintfFilter, error) {
	var f PrintfFilter
	for _, field := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ' ' || r == '\t' }) {
		name, list, ok := strings.Cut(field, "=")
		if !ok {
			return PrintfFilter{}, fmt.Errorf("printf filter %q: want NAME=VALUES (%s)", field, PrintfFilterNames)
		}
		t := printfTerm{name: name, key: printfTermNames[name], floor: name == "pixel"}
		if t.key == "" {
			if _, ok := coordArity[name]; !ok {
				return PrintfFilter{}, fmt.Errorf("printf filter %q: unknown name %q (%s)", field, name, PrintfFilterNames)
			}
			t.key = name
		}
		list = strings.TrimSuffix(strings.TrimPrefix(list, "("), ")")
		for _, v := range strings.Split(list, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return PrintfFilter{}, fmt.Errorf("printf filter %q: %q is not a number", field, v)
			}
			t.vals = append(t.vals, x)
		}
		if n, ok := coordArity[t.key]; ok && len(t.vals) != n {
			return PrintfFilter{}, fmt.Errorf("printf filter %q: %s takes %d %s", field, name, n, plural(n, "value", "values"))
		}
		f.terms = append(f.terms, t)
	}
	return f, nil
}

// IsZero reports whether the filter keeps everything.
func (f PrintfFilter) IsZero() bool { return len(f.terms) == 0 }

// String is the filter as ParsePrintfFilter reads it.
func (f PrintfFilter) String() string {
	parts := make([]string, len(f.terms))
	for i, t := range f.terms {
		vals := make([]string, len(t.vals))
		for k, v := range t.vals {
			vals[k] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		parts[i] = t.name + "=" + strings.Join(vals, ",")
	}
	return strings.Join(parts, " ")
}

// Match reports whether the filter keeps a line with coordinates c.
func (f PrintfFilter) Match(c Coords) bool {
	for _, t := range f.terms {
		vals, n, ok := coordValues(c, t.key)
		if !ok {
			continue
		}
		if n != len(t.vals) {
			return false
		}
		for i, x := range vals[:n] {
			if t.floor {
				x = math.Floor(x)
			}
			if x != t.vals[i] {
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
