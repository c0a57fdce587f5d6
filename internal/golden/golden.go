// Package golden compares test output with golden files, one helper and
// one -update flag for the whole project:
//
//	golden.Assert(t, "testdata/report.golden.json", got)
//
// fails with a line diff when got differs from the file, and with
// `go test ./pkg -update` writes got to the file instead (creating its
// directory). A test package must not define its own -update flag; a
// package that also imports github.com/charmbracelet/x/exp/golden (which
// defines one) shares that flag.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = updateFlag()

// updateFlag returns the -update flag, defining it unless another golden
// package imported before this one already did.
func updateFlag() flag.Getter {
	if f := flag.Lookup("update"); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			return g
		}
	}
	b := new(bool)
	flag.BoolVar(b, "update", false, "rewrite golden files with the output of the tests")
	return flag.Lookup("update").Value.(flag.Getter)
}

// Update reports whether the tests run with -update.
func Update() bool {
	v, _ := update.Get().(bool)
	return v
}

// Assert compares got with the golden file at path, or writes got there
// with -update.
func Assert(t testing.TB, path string, got []byte) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to create it)", err)
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test with -update accepts it):\n%s", path, Diff(string(want), string(got)))
	}
}

// AssertString is Assert for a string.
func AssertString(t testing.TB, path, got string) {
	t.Helper()
	Assert(t, path, []byte(got))
}

// maxDiffLines bounds the lines Diff shows.
const maxDiffLines = 60

// Diff returns the lines that differ between want and got, "-" for want's
// and "+" for got's (each with its line number in its file), with two
// lines of context around each change, or "" when they are equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	ops := diffLines(a, b)
	var out strings.Builder
	shown := 0
	for i, op := range ops {
		if op.kind == ' ' && !nearChange(ops, i, 2) {
			continue
		}
		if shown == maxDiffLines {
			fmt.Fprintf(&out, "... (more differences)\n")
			break
		}
		fmt.Fprintf(&out, "%c %4d | %s\n", op.kind, op.line+1, op.text)
		shown++
	}
	return out.String()
}

// diffOp is one line of a diff: ' ' both, '-' want only, '+' got only;
// line is the line's index in want, for '+' in got.
type diffOp struct {
	kind byte
	line int
	text string
}

// diffLines is a longest-common-subsequence line diff. Inputs of golden
// size (thousands of lines) are fine; past maxLCS lines on both sides it
// reports the differing middle as one change.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{' ', i, a[i]})
	}
	ops = append(ops, lcsDiff(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for i := len(a) - suf; i < len(a); i++ {
		ops = append(ops, diffOp{' ', i, a[i]})
	}
	return ops
}

const maxLCS = 4000

// lcsDiff diffs a and b, which start at line baseA of want and baseB of
// got.
func lcsDiff(a, b []string, baseA, baseB int) []diffOp {
	var ops []diffOp
	if len(a) > maxLCS || len(b) > maxLCS {
		for i, s := range a {
			ops = append(ops, diffOp{'-', baseA + i, s})
		}
		for j, s := range b {
			ops = append(ops, diffOp{'+', baseB + j, s})
		}
		return ops
	}
	// l[i][j] is the LCS length of a[i:] and b[j:].
	l := make([][]int, len(a)+1)
	for i := range l {
		l[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, diffOp{' ', baseA + i, a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || l[i+1][j] >= l[i][j+1]):
			ops = append(ops, diffOp{'-', baseA + i, a[i]})
			i++
		default:
			ops = append(ops, diffOp{'+', baseB + j, b[j]})
			j++
		}
	}
	return ops
}

// nearChange reports whether a change is within n ops of ops[i].
func nearChange(ops []diffOp, i, n int) bool {
	for k := max(0, i-n); k <= min(len(ops)-1, i+n); k++ {
		if ops[k].kind != ' ' {
			return true
		}
	}
	return false
}
