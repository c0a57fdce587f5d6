package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The test shaders say where their errors are: a source line that a test
// expects an error group at carries a comment
//
//	result.v[0] = data[pc.index].v[0] + 1u; // EXPECT descriptor_index_oob+descriptor_uninitialized
//
// naming, joined with '+', the checks whose errors point at it, then
// optional words that tell two such lines of one file apart (read, write)
// and key=value pairs the test compares with the report (size=4). A test
// asks for the line with expectAt and compares the report's file, line and
// source text with it: the line number is the comment's position and the
// text is the file's line, never a copy in the Go source.

// shaderExpect is one EXPECT line of a test shader.
type shaderExpect struct {
	file string // the file name as the report names it
	line int
	text string // the whole source line, as the report shows it
	// checks are the check ids the line expects; words its other words
	// and values its key=value pairs.
	checks []string
	words  []string
	values map[string]string
}

var expectComment = regexp.MustCompile(`//\s*EXPECT\s+(.*)$`)

// shaderExpects reads the EXPECT lines of testdata/checks/<file>.
func shaderExpects(t testing.TB, file string) []shaderExpect {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "checks", file))
	if err != nil {
		t.Fatal(err)
	}
	var out []shaderExpect
	for i, text := range strings.Split(string(b), "\n") {
		m := expectComment.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		f := strings.Fields(m[1])
		e := shaderExpect{file: file, line: i + 1, text: text, checks: strings.Split(f[0], "+"), values: map[string]string{}}
		for _, w := range f[1:] {
			if k, v, ok := strings.Cut(w, "="); ok {
				e.values[k] = v
			} else {
				e.words = append(e.words, w)
			}
		}
		out = append(out, e)
	}
	return out
}

// expectAt returns the EXPECT line of testdata/checks/<file> that names
// check and every one of words; the test fails unless there is exactly
// one.
func expectAt(t testing.TB, file, check string, words ...string) shaderExpect {
	t.Helper()
	var found []shaderExpect
	for _, e := range shaderExpects(t, file) {
		if slices.Contains(e.checks, check) && !slices.ContainsFunc(words, func(w string) bool { return !slices.Contains(e.words, w) }) {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s: %d EXPECT lines for %s %v, want 1", file, len(found), check, words)
	}
	return found[0]
}

// lineOf returns the number of the one line of testdata/checks/<file>
// that contains code.
func lineOf(t testing.TB, file, code string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "checks", file))
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, text := range strings.Split(string(b), "\n") {
		if strings.Contains(text, code) {
			if line != 0 {
				t.Fatalf("%s: %q on lines %d and %d", file, code, line, i+1)
			}
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatalf("%s: no line with %q", file, code)
	}
	return line
}

// matches reports whether a report's source is this line: the same file,
// line and text.
func (e shaderExpect) matches(file string, line int, text string) bool {
	return file == e.file && line == e.line && text == e.text
}

// TestExpectAt: the helper finds lines by check and word, and reads their
// values.
func TestExpectAt(t *testing.T) {
	r := expectAt(t, "bda.comp", "bda_oob", "read")
	w := expectAt(t, "bda.comp", "bda_oob", "write")
	if r.line == w.line || r.line == 0 || !strings.Contains(r.text, "// EXPECT bda_oob") || r.values["size"] != "4" {
		t.Errorf("read %+v write %+v", r, w)
	}
}
