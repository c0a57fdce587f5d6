package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// printfReport is the part of the JSON report the printf tests read.
type printfReport struct {
	Printf  []printfGroup `json:"printf"`
	Lost    uint64        `json:"printf_lines_lost"`
	Notices []struct {
		Level string `json:"level"`
		Text  string `json:"text"`
	} `json:"notices"`
}

// printfGroup is one printf group of the JSON report.
type printfGroup struct {
	Format        string `json:"format"`
	Count         int    `json:"count"`
	Stage         string `json:"stage"`
	Action        string `json:"action"`
	ActionIndex   int    `json:"action_index"`
	CommandBuffer named  `json:"command_buffer"`
	Pipeline      named  `json:"pipeline"`
	Problem       string `json:"problem"`
	Lines         []struct {
		Coords map[string][]float64 `json:"coords"`
		Text   string               `json:"text"`
	} `json:"lines"`
	Source *struct {
		File string `json:"file"`
		Line int    `json:"line"`
	} `json:"source"`
}

// named is a handle of the report: its name.
type named struct {
	Name string `json:"name"`
}

// printfLines runs printfapp under the launcher (flags of run, app args)
// and returns the report, failing the test when it does not exit 0.
func printfLines(t *testing.T, flags []string, args ...string) printfReport {
	t.Helper()
	var r printfReport
	code, out := printfApp.runInto(t, &r, nil, flags, args...)
	if code != 0 {
		t.Fatalf("printfapp %v: exit %d\n%s", args, code, out)
	}
	return r
}

// coordText prints a line's coordinates as "key=[a b c]" in key order.
func coordText(c map[string][]float64) string {
	var parts []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range c {
			if !yield(k) {
				return
			}
		}
	}) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, c[k]))
	}
	return strings.Join(parts, " ")
}

// TestPrintfThroughLayerAsKhronos: printfapp's cases run under gpuav-dbg
// print exactly the lines the Khronos layer's Debug Printf prints for the
// same app (as multisets: invocations run in any order), each attributed to
// its call's source line, with the coordinates of the invocation whose
// values it shows.
func TestPrintfThroughLayerAsKhronos(t *testing.T) {
	// coords says, from a line's text, the coordinates its invocation has.
	cases := []struct {
		name, shader string
		args         []string
		coords       func(text string) string
	}{
		{"specifiers", "printf_specifiers.comp", []string{"--case", "specifiers"},
			func(string) string { return "global_invocation_id=[0 0 0]" }},
		{"loop", "printf_loop.comp", []string{"--case", "loop", "--n", "7"},
			func(string) string { return "global_invocation_id=[0 0 0]" }},
		{"compute", "printf_grid.comp", []string{"--case", "grid"}, func(text string) string {
			var x, y int
			fmt.Sscanf(text, "invocation %d, %d", &x, &y)
			return fmt.Sprintf("global_invocation_id=[%d %d 0]", x, y)
		}},
		{"vertex", "printf.vert", []string{"--case", "vertex"}, func(text string) string {
			var v int
			fmt.Sscanf(text[strings.Index(text, "vertex ")+len("vertex "):], "%d", &v)
			return fmt.Sprintf("instance_index=[0] vertex_index=[%d]", v)
		}},
		{"fragment", "printf.frag", []string{"--case", "fragment", "--size", "4"}, func(text string) string {
			var x, y float64
			fmt.Sscanf(text, "pixel %f, %f", &x, &y)
			return fmt.Sprintf("frag_coord=[%v %v]", x, y)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls := printfCalls(t, tc.shader)
			theirs := printfApp.khronosPrintf(t, tc.args...)
			r := printfLines(t, nil, tc.args...)
			var ours []string
			for _, g := range r.Printf {
				if g.Problem != "" {
					t.Errorf("%q: problem %s", g.Format, g.Problem)
				}
				k := slices.IndexFunc(calls, func(c printfCall) bool { return c.format == g.Format })
				if k < 0 || g.Source == nil || g.Source.Line != calls[k].line || g.Source.File != tc.shader {
					t.Errorf("%q: source %+v, want %s line of call %d", g.Format, g.Source, tc.shader, k)
				}
				if g.Count != len(g.Lines) {
					t.Errorf("%q: count %d, %d lines", g.Format, g.Count, len(g.Lines))
				}
				for _, l := range g.Lines {
					ours = append(ours, l.Text)
					if got, want := coordText(l.Coords), tc.coords(l.Text); got != want {
						t.Errorf("line %q at %s, want %s", l.Text, got, want)
					}
				}
			}
			if tc.name == "specifiers" {
				// One invocation: the lines in call order are the calls in
				// source order, as the Khronos layer prints them.
				if !slices.Equal(ours, theirs) {
					t.Errorf("ours:\n%s\nKhronos:\n%s", strings.Join(ours, "\n"), strings.Join(theirs, "\n"))
				}
				return
			}
			slices.Sort(ours)
			slices.Sort(theirs)
			if !slices.Equal(ours, theirs) || len(ours) == 0 {
				t.Errorf("ours:\n%s\nKhronos:\n%s", strings.Join(ours, "\n"), strings.Join(theirs, "\n"))
			}
		})
	}
}

// TestPrintfNeverReached: a printf in a loop that runs 0 times prints
// nothing and loses nothing: no group, no lost line, exit 0.
func TestPrintfNeverReached(t *testing.T) {
	r := printfLines(t, nil, "--case", "loop", "--n", "0")
	if len(r.Printf) != 0 || r.Lost != 0 {
		t.Errorf("%d printf groups, %d lost; want none", len(r.Printf), r.Lost)
	}
}

// TestPrintfLost: a buffer of 1 KiB (254 words after its header) holds 23
// of the loop's 100 lines of 11 words (8 of header, 3 arguments): the
// other 77 are counted lost, exactly.
func TestPrintfLost(t *testing.T) {
	r := printfLines(t, []string{"--printf-buffer", "1024"}, "--case", "loop", "--n", "100")
	const fit = (1024/4 - 2) / 11
	if len(r.Printf) != 1 || r.Printf[0].Count != fit || r.Lost != 100-fit {
		n := 0
		if len(r.Printf) > 0 {
			n = r.Printf[0].Count
		}
		t.Fatalf("%d groups, %d lines, %d lost; want 1 group, %d lines, %d lost", len(r.Printf), n, r.Lost, fit, 100-fit)
	}
}

// TestPrintfOff: --printf off removes the calls: nothing printed, and a
// notice says so.
func TestPrintfOff(t *testing.T) {
	r := printfLines(t, []string{"--printf", "off"}, "--case", "loop", "--n", "3")
	if len(r.Printf) != 0 {
		t.Errorf("%d printf groups with printf off", len(r.Printf))
	}
	if !slices.ContainsFunc(r.Notices, func(n struct {
		Level string `json:"level"`
		Text  string `json:"text"`
	}) bool {
		return strings.Contains(n.Text, "printf is off: 1 debugPrintfEXT call(s) removed")
	}) {
		t.Errorf("no notice of the removed call: %+v", r.Notices)
	}
}

// layerAlone runs the app under gpuav-dbg's layer without a launcher
// (extra environment env) and returns its stdout and stderr.
func (a *checkApp) layerAlone(t *testing.T, env []string, args ...string) (string, string) {
	t.Helper()
	dir := a.dir(t)
	cmd := exec.Command(filepath.Join(dir, a.name), append([]string{"--shaders", dir}, args...)...)
	cmd.Env = append(append(os.Environ(), "VK_ADD_LAYER_PATH="+filepath.Join(root, "bin"),
		"VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation", "VK_LAYER_GPUAV_DBG_SOCKET="), env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s%s", a.name, args, err, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// messageLines are printfapp --messages' lines of printf messages, each
// message's handles replaced by 0xH (the device's handle differs between
// runs).
func messageLines(out string) []string {
	handle := regexp.MustCompile(`handle = 0x[0-9a-f]+`)
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "message ") {
			lines = append(lines, handle.ReplaceAllString(l, "handle = 0xH"))
		}
	}
	return lines
}

// TestPrintfMessengersAsKhronos: with no launcher, the layer gives each
// printf line to the app's debug-utils messenger as the Khronos layer's
// Debug Printf does: the same severity (info), type (validation), id name
// and number, object (the device) and message text, line for line (as
// multisets: invocations run in any order; for one invocation, in order).
func TestPrintfMessengersAsKhronos(t *testing.T) {
	for _, args := range [][]string{
		{"--case", "specifiers"},
		{"--case", "loop", "--n", "7"},
		{"--case", "fragment", "--size", "4"},
	} {
		t.Run(args[1], func(t *testing.T) {
			dir := printfApp.dir(t)
			cmd := exec.Command(filepath.Join(dir, printfApp.name), append([]string{"--shaders", dir, "--messages"}, args...)...)
			cmd.Env = khronosPrintfEnv(t)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("under Khronos: %v\n%s", err, out)
			}
			theirs := messageLines(string(out))
			stdout, stderr := printfApp.layerAlone(t, nil, append([]string{"--messages"}, args...)...)
			ours := messageLines(stdout)
			if args[1] != "specifiers" {
				slices.Sort(ours)
				slices.Sort(theirs)
			}
			if !slices.Equal(ours, theirs) || len(ours) == 0 {
				t.Errorf("ours:\n%s\nKhronos:\n%s", strings.Join(ours, "\n"), strings.Join(theirs, "\n"))
			}
			if strings.Contains(stderr, "gpuav-dbg") {
				t.Errorf("with a messenger, the layer printed to stderr:\n%s", stderr)
			}
		})
	}
}

// TestPrintfWithoutLauncher: with no launcher, the lines go to the app's
// messenger, and the lines that did not fit are counted in a warning
// after them; with no messenger either, the layer prints each line to the
// app's stderr, formatted, and the same count.
func TestPrintfWithoutLauncher(t *testing.T) {
	// 23 lines of 11 words fit in 1 KiB (TestPrintfLost); one invocation,
	// in order.
	var want []string
	for i := range 23 {
		want = append(want, fmt.Sprintf("iteration %d of 30, squared %d", i, i*i))
	}
	small := []string{"VK_LAYER_GPUAV_DBG_PRINTF_BUFFER_BYTES=1024"}
	lost := ": 7 printf lines did not fit in the printf buffer (VK_LAYER_GPUAV_DBG_PRINTF_BUFFER_BYTES)"
	t.Run("messenger", func(t *testing.T) {
		stdout, stderr := printfApp.layerAlone(t, small, "--case", "loop", "--n", "30")
		lines := heardPrintf(stdout)
		// printfapp prints the messenger's warnings to stderr.
		if !slices.Equal(lines, want) || !strings.Contains(stderr, "vk: GPUAV-DBG-layer: Validation Warning: [ GPUAV-DBG-layer ] | MessageID = 0x") ||
			!strings.Contains(stderr, lost) || strings.Contains(stderr, "gpuav-dbg: printf") {
			t.Errorf("stdout:\n%s\nstderr:\n%s\nwant the lines\n%s\nand 7 lost in a warning", stdout, stderr, strings.Join(want, "\n"))
		}
	})
	t.Run("stderr", func(t *testing.T) {
		_, stderr := printfApp.layerAlone(t, small, "--case", "loop", "--n", "30", "--no-messenger")
		var lines []string
		for _, l := range strings.Split(stderr, "\n") {
			if text, ok := strings.CutPrefix(l, "gpuav-dbg: printf: "); ok {
				lines = append(lines, text)
			}
		}
		if !slices.Equal(lines, want) || !strings.Contains(stderr, "gpuav-dbg: WARNING command buffer 0x") || !strings.Contains(stderr, lost) {
			t.Errorf("stderr:\n%s\nwant the lines\n%s\nand 7 lost", stderr, strings.Join(want, "\n"))
		}
	})
}

// TestPrintfAtOnTheGPU: --printf-at reaches the layer, whose instrumented
// shaders write only the lines of the invocations asked for: with a 1 KiB
// printf buffer that all the invocations' lines overflow (first run, the
// exact count lost), the filtered run has exactly the one line asked for
// and loses none.
func TestPrintfAtOnTheGPU(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		at     string
		fit    int // lines of the call that fit in 1 KiB: (1024/4 - 2) / words
		all    int // lines printed without the filter
		text   string
		coords string
	}{
		{"fragment", []string{"--case", "fragment", "--size", "16"}, "pixel=12,7", (1024/4 - 2) / 11, 256,
			"pixel 12.500000, 7.500000 index 124", "frag_coord=[12.5 7.5]"},
		{"compute", []string{"--case", "grid", "--groups", "16", "16"}, "invocation=13,5,0", (1024/4 - 2) / 15, 512,
			"invocation 13, 5, 0 local 1 group 6, 5, 0", "global_invocation_id=[13 5 0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			all := printfLines(t, []string{"--printf-buffer", "1024"}, tc.args...)
			if len(all.Printf) != 1 || all.Printf[0].Count != tc.fit || all.Lost != uint64(tc.all-tc.fit) {
				t.Fatalf("without a filter: %d groups, %d lost; want %d lines and %d lost", len(all.Printf), all.Lost,
					tc.fit, tc.all-tc.fit)
			}
			r := printfLines(t, []string{"--printf-buffer", "1024", "--printf-at", tc.at}, tc.args...)
			if r.Lost != 0 || len(r.Printf) != 1 || r.Printf[0].Count != 1 || len(r.Printf[0].Lines) != 1 {
				t.Fatalf("--printf-at %s: %d lost, groups %+v; want one line, none lost", tc.at, r.Lost, r.Printf)
			}
			l := r.Printf[0].Lines[0]
			if l.Text != tc.text || coordText(l.Coords) != tc.coords {
				t.Errorf("--printf-at %s: line %q at %s, want %q at %s", tc.at, l.Text, coordText(l.Coords), tc.text, tc.coords)
			}
		})
	}
}
