package gpuav

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav/printf"
	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// printfShaders are the e2e printf apps' shaders and the formatter's site
// test shader, compiled for two target environments.
var printfShaders = []struct{ dir, name, env string }{
	{"../e2e/testdata/checks", "printf_specifiers.comp", "vulkan1.2"},
	{"../e2e/testdata/checks", "printf_loop.comp", "vulkan1.0"},
	{"../e2e/testdata/checks", "printf_grid.comp", "vulkan1.3"},
	{"../e2e/testdata/checks", "printf.vert", "vulkan1.2"},
	{"../e2e/testdata/checks", "printf.frag", "vulkan1.2"},
	{"../e2e/testdata/checks", "printf.frag", "vulkan1.0"},
	{"printf/testdata", "sites.comp", "vulkan1.2"},
}

// TestPrintfPass: with printf on, every call becomes a site whose word
// count is what its format reads, the module validates and keeps no
// DebugPrintf; with printf off, the calls go with a warning and the module
// validates too.
func TestPrintfPass(t *testing.T) {
	for _, tc := range printfShaders {
		t.Run(tc.name+"_"+tc.env, func(t *testing.T) {
			words := shadertest.Compile(t, tc.dir, tc.name, "-g", "--target-env", tc.env)
			calls, err := printf.Sites(words)
			if err != nil || len(calls) == 0 {
				t.Fatalf("printf.Sites: %d calls, %v", len(calls), err)
			}
			opt := Options{ShaderID: 7, DescriptorSet: 3, Checks: map[string]bool{}, Printf: true, Int64: true}
			res, err := Instrument(words, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Instrumented || len(res.Printf) != len(calls) || res.ChecksAdded != 0 {
				t.Fatalf("instrumented %v, %d printf sites for %d calls, %d checks", res.Instrumented, len(res.Printf),
					len(calls), res.ChecksAdded)
			}
			for i, s := range res.Printf {
				want := PrintfSite{ID: i, Instruction: calls[i].Instruction, Words: printf.Parse(calls[i].Format).Words()}
				if s != want {
					t.Errorf("site %d = %+v, want %+v (format %q)", i, s, want, calls[i].Format)
				}
			}
			checkNoPrintf(t, res.Words, tc.env)

			opt.Printf = false
			off, err := Instrument(words, opt)
			if err != nil {
				t.Fatal(err)
			}
			want := "printf is off: " + strconv.Itoa(len(calls)) + " debugPrintfEXT call(s) removed"
			if off.Instrumented || len(off.Printf) != 0 || !slices.ContainsFunc(off.Notes, func(w string) bool {
				return strings.HasPrefix(w, want)
			}) {
				t.Errorf("printf off: instrumented %v, %d sites, notes %q (want %q)", off.Instrumented, len(off.Printf),
					off.Notes, want)
			}
			checkNoPrintf(t, off.Words, tc.env)
		})
	}
}

// checkNoPrintf fails when a module does not validate or still imports
// NonSemantic.DebugPrintf.
func checkNoPrintf(t *testing.T, words []uint32, env string) {
	t.Helper()
	shadertest.Validate(t, words, env)
	m, err := spirv.Parse(words)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range m.Sections[spirv.SectionExtInstImport] {
		if name := m.ExtInstSetName(in.Words[1]); name == printf.ImportName {
			t.Errorf("the module still imports %s", name)
		}
	}
	if calls, _ := printf.Sites(words); len(calls) != 0 {
		t.Errorf("%d DebugPrintf calls left", len(calls))
	}
}

// TestPrintfPassKeepsOtherChecks: the printf pass and the checks share a
// module: a printf shader with every check on still validates and has both.
func TestPrintfPassKeepsOtherChecks(t *testing.T) {
	words := shadertest.Compile(t, "../e2e/testdata/checks", "printf_loop.comp", "-g", "--target-env", "vulkan1.2")
	res, err := Instrument(words, Options{ShaderID: 1, DescriptorSet: 2, Printf: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Printf) == 0 {
		t.Fatal("no printf site")
	}
	checkNoPrintf(t, res.Words, "vulkan1.2")
}

// TestDecodePrintf decodes hand-made buffers: lines of several sizes, a
// full buffer whose first line past the end marked it, and a line whose
// size runs past the words written.
func TestDecodePrintf(t *testing.T) {
	line := func(shader, site, action uint32, args ...uint32) []uint32 {
		return append([]uint32{uint32(PrintfLineHeaderWords + len(args)), shader, site, action, 5, 1, 2, 3}, args...)
	}
	cat := func(parts ...[]uint32) []uint32 { return slices.Concat(parts...) }
	a, b := line(3, 0, 1, 10, 11), line(3, 1, 2)
	tests := []struct {
		name    string
		buf     []uint32
		want    [][]uint32 // each line's shader, site, action, then args
		lost    uint32
		skipped int
	}{
		{"empty", []uint32{0, 0, 0, 0}, nil, 0, 0},
		{"short", []uint32{5}, nil, 0, 0},
		{"two", cat([]uint32{uint32(len(a) + len(b)), 0}, a, b, []uint32{9, 9}), [][]uint32{{3, 0, 1, 10, 11}, {3, 1, 2}}, 0, 0},
		// capacity 14: a (10) fits, b (8) claimed 10..18 and wrote 0 at 10.
		{"full", cat([]uint32{uint32(len(a) + len(b) + 9), 2}, a, []uint32{0, 7, 7, 7}), [][]uint32{{3, 0, 1, 10, 11}}, 2, 0},
		{"past written", cat([]uint32{12, 0}, a, []uint32{50, 1}), [][]uint32{{3, 0, 1, 10, 11}}, 0, 2},
		{"too small", cat([]uint32{10, 0}, []uint32{3, 0, 0, 0, 0, 0, 0, 0, 0, 0}), nil, 0, 10},
	}
	for _, tc := range tests {
		var got [][]uint32
		out := DecodePrintf(tc.buf, func(l *PrintfLine) {
			if l.Stage != 5 || l.StageWords != [3]uint32{1, 2, 3} {
				t.Errorf("%s: stage %d %v", tc.name, l.Stage, l.StageWords)
			}
			got = append(got, append([]uint32{l.ShaderID, l.Site, l.ActionIndex}, l.Args...))
		})
		if !slices.EqualFunc(got, tc.want, slices.Equal) || out.Lines != len(got) || out.Lost != tc.lost ||
			out.Skipped != tc.skipped {
			t.Errorf("%s: lines %v lost %d skipped %d, want %v lost %d skipped %d", tc.name, got, out.Lost, out.Skipped,
				tc.want, tc.lost, tc.skipped)
		}
	}
}

// FuzzDecodePrintf: any buffer decodes without panicking, into lines that
// lie inside it.
func FuzzDecodePrintf(f *testing.F) {
	f.Add([]byte{20, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		buf := make([]uint32, len(b)/4)
		for i := range buf {
			buf[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
		}
		n := 0
		out := DecodePrintf(buf, func(l *PrintfLine) { n += PrintfLineHeaderWords + len(l.Args) })
		if n+out.Skipped > max(len(buf)-PrintfHeaderWords, 0) {
			t.Fatalf("%d words of lines and %d skipped in a buffer of %d", n, out.Skipped, len(buf))
		}
	})
}
