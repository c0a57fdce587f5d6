package e2e

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav/printf"
)

// printfApp prints from compute, vertex and fragment shaders
// (testdata/checks/printfapp.c).
var printfApp = newCheckApp("printfapp", "printf_specifiers.comp", "printf_loop.comp", "printf_grid.comp",
	"printf.vert", "printf.frag", "printf_fullscreen.vert", "printf_plain.frag")

// printfCall is one debugPrintfEXT call of a test shader: its format
// string and, when its line says (// WORDS ...), the argument words the
// shader writes for it.
type printfCall struct {
	line   int
	format string
	words  []uint32
}

var (
	printfCallRe = regexp.MustCompile(`debugPrintfEXT\("((?:[^"\\]|\\.)*)"`)
	wordsRe      = regexp.MustCompile(`// WORDS(.*)$`)
)

// printfCalls reads the debugPrintfEXT calls of testdata/checks/NAME in
// source order.
func printfCalls(t *testing.T, name string) []printfCall {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "e2e", "testdata", "checks", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls []printfCall
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		m := printfCallRe.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		c := printfCall{line: n, format: unescapeGLSL(m[1])}
		if w := wordsRe.FindStringSubmatch(sc.Text()); w != nil {
			if c.words, err = parseWords(w[1]); err != nil {
				t.Fatalf("%s:%d: %v", name, n, err)
			}
		}
		calls = append(calls, c)
	}
	if len(calls) == 0 {
		t.Fatalf("%s has no debugPrintfEXT call", name)
	}
	return calls
}

// unescapeGLSL undoes a string literal's escapes (\n, \t, \\, \").
func unescapeGLSL(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\"`, `"`).Replace(s)
}

// parseWords reads "i:-135 u:256 u:0x7f800000 f:3.1415 u64:0x2000000000000001"
// into the words the shader writes: one per int, uint or float, two (low
// first) per 64-bit value.
func parseWords(s string) ([]uint32, error) {
	var w []uint32
	for _, tok := range strings.Fields(s) {
		kind, v, ok := strings.Cut(tok, ":")
		if !ok {
			return nil, fmt.Errorf("word %q: want KIND:VALUE", tok)
		}
		switch kind {
		case "i":
			n, err := strconv.ParseInt(v, 0, 32)
			if err != nil {
				return nil, err
			}
			w = append(w, uint32(int32(n)))
		case "u":
			n, err := strconv.ParseUint(v, 0, 32)
			if err != nil {
				return nil, err
			}
			w = append(w, uint32(n))
		case "f":
			x, err := strconv.ParseFloat(v, 32)
			if err != nil {
				return nil, err
			}
			w = append(w, math.Float32bits(float32(x)))
		case "u64":
			n, err := strconv.ParseUint(v, 0, 64)
			if err != nil {
				return nil, err
			}
			w = append(w, uint32(n), uint32(n>>32))
		default:
			return nil, fmt.Errorf("word %q: kind %q is none of i, u, f, u64", tok, kind)
		}
	}
	return w, nil
}

// khronosPrintfEnv runs an app under the Khronos validation layer with
// Debug Printf (and a printf buffer of 1 MiB) instead of GPU-AV.
func khronosPrintfEnv(t *testing.T) []string {
	t.Helper()
	requireKhronos(t)
	dir := t.TempDir()
	settings := filepath.Join(dir, "vk_layer_settings.txt")
	if err := os.WriteFile(settings, []byte("khronos_validation.printf_buffer_size = 1048576\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(),
		"VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation",
		"VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_DEBUG_PRINTF_EXT",
		"VK_LAYER_SETTINGS_PATH="+settings)
}

// khronosPrintf runs the app (printfapp, or stageapp --case printf: their
// messenger prints "printf: TEXT", printf_messenger.h) under the Khronos
// layer's Debug Printf and returns the printf lines it heard, in order; the
// test fails when the app fails or the layer reports a problem.
func (a *checkApp) khronosPrintf(t *testing.T, args ...string) []string {
	t.Helper()
	dir := a.dir(t)
	cmd := exec.Command(filepath.Join(dir, a.name), append([]string{"--shaders", dir}, args...)...)
	cmd.Env = khronosPrintfEnv(t)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("%s %v under Khronos Debug Printf: %v\n%s%s", a.name, args, err, out, stderr.String())
	}
	return heardPrintf(string(out))
}

// heardPrintf are the printf lines an app's messenger printed to out
// ("printf: TEXT", TEXT escaped; printf_messenger.h), in order.
func heardPrintf(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if text, ok := strings.CutPrefix(l, "printf: "); ok {
			lines = append(lines, strings.NewReplacer(`\\`, `\`, `\n`, "\n").Replace(text))
		}
	}
	return lines
}

// TestPrintfSpecifiersAsKhronos: each call of printf_specifiers.comp (every
// conversion, flags, widths, precisions, vectors, 64-bit values, a double,
// a bool, long and short conversions of 32-bit values) printed by the
// Khronos layer 1.3.239 on lavapipe is what gpuav/printf makes of the
// same format and the words the call's comment lists.
func TestPrintfSpecifiersAsKhronos(t *testing.T) {
	calls := printfCalls(t, "printf_specifiers.comp")
	theirs := printfApp.khronosPrintf(t, "--case", "specifiers")
	if len(theirs) != len(calls) {
		t.Fatalf("Khronos printed %d lines, the shader has %d calls:\n%s", len(theirs), len(calls), strings.Join(theirs, "\n"))
	}
	for k, c := range calls {
		ours, prob := printf.Sprint(c.format, c.words)
		if prob != 0 {
			t.Errorf("line %d: %q with %#x: %v", c.line, c.format, c.words, prob)
		}
		if ours != theirs[k] {
			t.Errorf("line %d: %q with %#x:\n ours   %q\n theirs %q", c.line, c.format, c.words, ours, theirs[k])
		}
	}
}

// printfInvocations are the per-invocation cases of printfapp: the shader
// with the one call, the app's arguments, and the words each invocation
// writes (in no particular order).
var printfInvocations = []struct {
	name   string
	shader string
	args   []string
	words  func() [][]uint32
}{
	{"loop", "printf_loop.comp", []string{"--case", "loop", "--n", "7"}, func() (w [][]uint32) {
		for i := uint32(0); i < 7; i++ {
			w = append(w, []uint32{i, 7, i * i})
		}
		return w
	}},
	{"compute", "printf_grid.comp", []string{"--case", "grid"}, func() (w [][]uint32) {
		for y := uint32(0); y < 2; y++ {
			for x := uint32(0); x < 4; x++ {
				w = append(w, []uint32{x, y, 0, x % 2, x / 2, y, 0})
			}
		}
		return w
	}},
	{"vertex", "printf.vert", []string{"--case", "vertex"}, func() (w [][]uint32) {
		for v := uint32(0); v < 3; v++ {
			w = append(w, []uint32{v, 0, math.Float32bits(-0.5 + 0.5*float32(v)), math.Float32bits(0.25), 0, math.Float32bits(1)})
		}
		return w
	}},
	{"fragment", "printf.frag", []string{"--case", "fragment", "--size", "4"}, func() (w [][]uint32) {
		for y := uint32(0); y < 4; y++ {
			for x := uint32(0); x < 4; x++ {
				w = append(w, []uint32{math.Float32bits(float32(x) + 0.5), math.Float32bits(float32(y) + 0.5), y*4 + x})
			}
		}
		return w
	}},
}

// TestPrintfInvocationsAsKhronos: a loop printing 7 times, every invocation
// of a compute dispatch, every vertex of a draw and every pixel of a 4x4
// target print, under the Khronos layer, the lines gpuav/printf makes of
// each invocation's words (as sets: invocations run in any order).
func TestPrintfInvocationsAsKhronos(t *testing.T) {
	for _, tc := range printfInvocations {
		t.Run(tc.name, func(t *testing.T) {
			calls := printfCalls(t, tc.shader)
			var want []string
			for _, w := range tc.words() {
				line, prob := printf.Sprint(calls[0].format, w)
				if prob != 0 {
					t.Fatalf("%q with %#x: %v", calls[0].format, w, prob)
				}
				want = append(want, line)
			}
			got := printfApp.khronosPrintf(t, tc.args...)
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("Khronos printed:\n%s\ngpuav/printf makes:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
