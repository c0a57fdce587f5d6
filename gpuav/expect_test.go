package gpuav

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/golden"
	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Expectations live in the test shaders, next to the code they are about,
// as comments (as go/parser's tests put /* ERROR "rx" */ in their sources):
//
//	// INSTRUMENT checks=descriptor_index_oob env=vulkan1.1 -Os
//
// is one way to compile and instrument the file: checks= the check ids
// (comma-separated; "all" for every check, -id to leave one out, as in
// checks=all,-buffer_oob), env= the target environment (default
// vulkan1.1), flags starting with '-' go to glslangValidator (always with
// -g), and the words sized, robust and int64 set Options.SizedElementChecks,
// Robust and Int64; fast makes the run's module (its golden) the fast
// variant (Result.Precise.FastWords; both variants pass spirv-val). A file may have several INSTRUMENT lines; every
// expectation holds for each. On a source line,
//
//	bufs[i].v[0] = 1u; // EXPECT descriptor_index_oob buffer_oob
//
// lists the guards the passes add for that line's instructions, one item
// per guard: the check ids the guard reports, joined with '+'
// (descriptor_index_oob+descriptor_uninitialized), "reuse" for a guard that
// reuses an earlier one's result and reports nothing, "unchecked" for a
// site left unchecked with a warning; a guard's item ends in "@loop" when
// its site is inside a loop and reports once after it (Site.Loop,
// docs/decisions/loop-failures-folded.md); item*N stands for N of them. "none"
// says the line gets nothing. A guard or warning on a line without EXPECT
// fails the test, as does an EXPECT without its guard. The harness finds
// the lines through the module's OpLine debug info.
//
// The word prebuilt takes the module from <file>.<env>.spv next to the
// source instead of compiling it: for sources that Debian 12's glslang 12
// cannot compile (GL_KHR_cooperative_matrix). The .spv is compiled with -g
// by a newer glslang (the source says how), and the test fails when the
// source text it embeds is not the file's.
//
// testdata/passes holds one shader per pass; each also has a golden
// disassembly, <name>.golden, of the module its first INSTRUMENT line makes
// (go test -update rewrites it).

// instrumentLine is one INSTRUMENT directive.
type instrumentLine struct {
	text  string
	env   string
	flags []string
	opt   Options
	fast  bool
	// prebuilt: the module is <file>.<env>.spv, not compiled here.
	prebuilt bool
}

var (
	instrumentRE = regexp.MustCompile(`//\s*INSTRUMENT\b(.*)$`)
	expectRE     = regexp.MustCompile(`//\s*EXPECT\b(.*)$`)
	expectFileRE = regexp.MustCompile(`(?m)//\s*EXPECT\b`)
)

// parseInstrument reads an INSTRUMENT directive's words.
func parseInstrument(text string) (instrumentLine, error) {
	d := instrumentLine{text: strings.TrimSpace(text), env: "vulkan1.1", opt: Options{ShaderID: 5, DescriptorSet: 7}}
	for _, w := range strings.Fields(text) {
		switch k, v, _ := strings.Cut(w, "="); {
		case k == "checks":
			d.opt.Checks = map[string]bool{}
			for _, id := range strings.Split(v, ",") {
				on := !strings.HasPrefix(id, "-")
				id = strings.TrimPrefix(id, "-")
				switch {
				case id == "all":
					for _, c := range AllChecks {
						d.opt.Checks[c] = on
					}
				case CheckByID(id) == nil:
					return d, fmt.Errorf("unknown check %q", id)
				default:
					d.opt.Checks[id] = on
				}
			}
		case k == "env":
			d.env = v
		case w == "sized":
			d.opt.SizedElementChecks = true
		case w == "robust":
			d.opt.Robust = true
		case w == "int64":
			d.opt.Int64 = true
		case w == "fast":
			d.fast = true
		case w == "prebuilt":
			d.prebuilt = true
		case strings.HasPrefix(w, "-"):
			d.flags = append(d.flags, w)
		default:
			return d, fmt.Errorf("INSTRUMENT: unknown word %q", w)
		}
	}
	return d, nil
}

// parseExpect reads an EXPECT comment's items into the sorted list of
// what the line gets ("none" is the empty list).
func parseExpect(text string) ([]string, error) {
	var items []string
	for _, w := range strings.Fields(text) {
		if w == "none" {
			continue
		}
		n := 1
		if base, count, ok := strings.Cut(w, "*"); ok {
			var err error
			if n, err = strconv.Atoi(count); err != nil || n < 1 {
				return nil, fmt.Errorf("EXPECT: bad count in %q", w)
			}
			w = base
		}
		if w != "reuse" && w != "unchecked" {
			for _, id := range strings.Split(strings.TrimSuffix(w, "@loop"), "+") {
				if CheckByID(id) == nil {
					return nil, fmt.Errorf("EXPECT: unknown check %q", id)
				}
			}
		}
		for range n {
			items = append(items, w)
		}
	}
	slices.Sort(items)
	return items, nil
}

// shaderExpectations reads a test shader's directives and expectations
// (by 1-based line).
func shaderExpectations(src string) ([]instrumentLine, map[int][]string, error) {
	var runs []instrumentLine
	want := map[int][]string{}
	for i, line := range strings.Split(src, "\n") {
		if m := instrumentRE.FindStringSubmatch(line); m != nil {
			d, err := parseInstrument(m[1])
			if err != nil {
				return nil, nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			runs = append(runs, d)
		}
		if m := expectRE.FindStringSubmatch(line); m != nil {
			items, err := parseExpect(m[1])
			if err != nil {
				return nil, nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			want[i+1] = items
		}
	}
	return runs, want, nil
}

// instructionLines maps each instruction index of a module to the line of
// the OpLine in effect there (0: none), as package sourcemap finds it.
func instructionLines(t testing.TB, words []uint32) []int {
	t.Helper()
	_, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		t.Fatal(err)
	}
	lines := make([]int, len(insts))
	cur := 0
	for i, in := range insts {
		switch in.Opcode() {
		case spirv.OpLine:
			cur = int(in.Words[2])
		case spirv.OpNoLine, spirv.OpFunction, spirv.OpFunctionEnd:
			cur = 0 // as package sourcemap: a line holds across labels
		}
		lines[i] = cur
	}
	return lines
}

var warningRE = regexp.MustCompile(`^instruction (\d+): `)

// gotByLine is what a result put on each source line: its guards and the
// sites it left unchecked, as EXPECT spells them.
func gotByLine(t *testing.T, orig []uint32, res Result) map[int][]string {
	lines := instructionLines(t, orig)
	got := map[int][]string{}
	lineOf := func(inst int) int {
		if inst < 0 || inst >= len(lines) {
			return 0
		}
		return lines[inst]
	}
	for _, s := range res.Sites {
		item := "reuse"
		if len(s.Checks) > 0 {
			item = strings.Join(s.Checks, "+")
		}
		if s.Loop {
			item += "@loop"
		}
		l := lineOf(s.Instruction)
		got[l] = append(got[l], item)
	}
	for _, w := range res.Warnings {
		m := warningRE.FindStringSubmatch(w)
		if m == nil {
			t.Errorf("warning not about an instruction: %s", w)
			continue
		}
		inst, _ := strconv.Atoi(m[1])
		l := lineOf(inst)
		got[l] = append(got[l], "unchecked")
	}
	for _, items := range got {
		slices.Sort(items)
	}
	return got
}

// checkExpectations runs one test shader: every INSTRUMENT line, each
// checked against every EXPECT line and spirv-val. It returns the first
// run's instrumented module.
func checkExpectations(t *testing.T, path string) []uint32 {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	runs, want, err := shaderExpectations(string(src))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(runs) == 0 || len(want) == 0 {
		t.Fatalf("%s: no INSTRUMENT or no EXPECT line", path)
	}
	srcLines := strings.Split(string(src), "\n")
	var first []uint32
	for _, run := range runs {
		var w []uint32
		if run.prebuilt {
			w = prebuiltModule(t, path, run.env, string(src))
		} else {
			w = shadertest.Compile(t, filepath.Dir(path), filepath.Base(path), append([]string{"-g", "--target-env", run.env}, run.flags...)...)
		}
		res, err := Instrument(w, run.opt)
		if err != nil {
			t.Fatalf("INSTRUMENT %s: %v", run.text, err)
		}
		got := gotByLine(t, w, res)
		for l := range got {
			if _, ok := want[l]; !ok {
				t.Errorf("INSTRUMENT %s: line %d (%s): got %v, no EXPECT", run.text, l, strings.TrimSpace(srcLines[max(l-1, 0)]), got[l])
			}
		}
		for l, items := range want {
			if !slices.Equal(got[l], items) {
				t.Errorf("INSTRUMENT %s: line %d (%s): got %v, want %v", run.text, l, strings.TrimSpace(srcLines[l-1]), got[l], items)
			}
		}
		if run.fast {
			if res.Precise == nil {
				t.Fatalf("INSTRUMENT %s: no fast variant", run.text)
			}
			validate(t, res.Words, run.env)
			res.Words = res.Precise.FastWords
		}
		if res.Instrumented {
			validate(t, res.Words, run.env)
		} else if !slices.Equal(res.Words, w) {
			t.Errorf("INSTRUMENT %s: not instrumented, but the module changed", run.text)
		}
		if first == nil {
			first = res.Words
		}
	}
	return first
}

// prebuiltModule reads the module an INSTRUMENT line with the word
// prebuilt names, <path>.<env>.spv, and fails the test when the source
// text its OpSource holds is not src (the .spv is stale).
func prebuiltModule(t *testing.T, path, env, src string) []uint32 {
	t.Helper()
	b, err := os.ReadFile(path + "." + env + ".spv")
	if err != nil {
		t.Fatalf("prebuilt module: %v", err)
	}
	w, err := spirv.WordsFromBytes(b)
	if err != nil {
		t.Fatalf("prebuilt module: %v", err)
	}
	m, err := spirv.Parse(w)
	if err != nil {
		t.Fatalf("prebuilt module: %v", err)
	}
	var text strings.Builder
	for _, in := range m.Sections[spirv.SectionDebug] {
		switch {
		case in.Opcode() == spirv.OpSource && len(in.Words) > 4:
			s, _ := spirv.DecodeString(in.Words[4:])
			text.WriteString(s)
		case in.Opcode() == spirv.OpSourceContinued:
			s, _ := spirv.DecodeString(in.Words[1:])
			text.WriteString(s)
		}
	}
	if text.String() != src {
		t.Fatalf("%s.%s.spv is stale: its source text is not %s's; rebuild it as %s says", path, env, path, path)
	}
	return w
}

// TestExpectations checks the EXPECT comments of every test shader that
// has them.
func TestExpectations(t *testing.T) {
	var files []string
	for _, dir := range []string{"testdata/shaders", "testdata/passes"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(p, ".golden") && !strings.HasSuffix(p, ".spv") && expectFileRE.Match(b) {
				files = append(files, p)
			}
		}
	}
	if len(files) < 6 {
		t.Fatalf("only %d test shaders with expectations", len(files))
	}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			words := checkExpectations(t, p)
			if filepath.Base(filepath.Dir(p)) != "passes" {
				return
			}
			dis, err := spirv.Disassemble(words)
			if err != nil {
				t.Fatal(err)
			}
			golden.AssertString(t, strings.TrimSuffix(p, filepath.Ext(p))+".golden", dis)
		})
	}
}

// TestExpectationSyntax: what the harness reads from comments.
func TestExpectationSyntax(t *testing.T) {
	src := "// INSTRUMENT checks=buffer_oob,bda_oob sized robust int64 fast env=vulkan1.2 -Os\n" +
		"// INSTRUMENT checks=all,-ray_query\n" +
		"x = 1; // EXPECT none\n" +
		"y = b[i]; // EXPECT buffer_oob reuse descriptor_index_oob+descriptor_uninitialized*2\n"
	runs, want, err := shaderExpectations(src)
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	if len(runs[1].opt.Checks) != len(AllChecks) || runs[1].opt.Checks[CheckRayQuery] || !runs[1].opt.Checks[CheckBufferOOB] {
		t.Errorf("INSTRUMENT all but one: %v", runs[1].opt.Checks)
	}
	if len(runs) != 2 || r.env != "vulkan1.2" || !slices.Equal(r.flags, []string{"-Os"}) || !r.opt.SizedElementChecks ||
		!r.opt.Robust || !r.opt.Int64 || !r.fast || runs[1].fast || len(r.opt.Checks) != 2 || !r.opt.Checks[CheckBufferOOB] || !r.opt.Checks[CheckBDAOOB] {
		t.Errorf("INSTRUMENT: %+v", runs)
	}
	wantItems := []string{"buffer_oob", "descriptor_index_oob+descriptor_uninitialized", "descriptor_index_oob+descriptor_uninitialized", "reuse"}
	if _, ok := want[3]; len(want) != 2 || !ok || len(want[3]) != 0 || !slices.Equal(want[4], wantItems) {
		t.Errorf("EXPECT: %v", want)
	}
	for _, bad := range []string{"// EXPECT no_such_check", "// EXPECT buffer_oob*0", "// INSTRUMENT checks=nope", "// INSTRUMENT slow"} {
		if _, _, err := shaderExpectations(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
