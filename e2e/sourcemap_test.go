package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// The six source-map cases (docs/decisions/source-without-text.md,
// line-directive-arithmetic.md, source-text-from-disk.md), end to end: a C app (the layer
// tests' vkapp, which runs the compute shader file it is given with an
// out-of-bounds descriptor index) under `gpuav-dbg run --headless --json`
// on lavapipe, and the report's `source` checked field by field.

const smShaders = "testdata/sourcemap"

var (
	vkappOnce sync.Once
	vkappPath string
	vkappErr  error
)

// vkapp builds layer/testdata/vkapp.c once.
func vkapp(t *testing.T) string {
	t.Helper()
	vkappOnce.Do(func() {
		if p := os.Getenv(envPrebuilt); p != "" {
			vkappPath = filepath.Join(p, "vkapp")
			return
		}
		dir, err := os.MkdirTemp("", "e2e-vkapp")
		if err != nil {
			vkappErr = err
			return
		}
		vkappPath = filepath.Join(dir, "vkapp")
		vkappErr = buildVkapp(vkappPath)
	})
	if vkappErr != nil {
		t.Fatal(vkappErr)
	}
	return vkappPath
}

// buildVkapp compiles layer/testdata/vkapp.c to path.
func buildVkapp(path string) error {
	return cbuild.App(path, filepath.Join(root, "layer/testdata/vkapp.c"))
}

// smSource is the report's source object.
type smSource struct {
	File      string    `json:"file"`
	Line      int       `json:"line"`
	Column    int       `json:"column"`
	Text      string    `json:"text"`
	Language  string    `json:"language"`
	Note      string    `json:"note"`
	Function  string    `json:"function"`
	InlinedAt []smFrame `json:"inlined_at"`
	Context   []string  `json:"context"`
	ContextLn int       `json:"context_line"`
}

type smFrame struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Text     string `json:"text"`
}

type smReport struct {
	Errors []struct {
		Check       string   `json:"check"`
		Count       int      `json:"count"`
		Instruction int      `json:"instruction"`
		Source      smSource `json:"source"`
	} `json:"errors"`
}

// runSPV writes the module to a temporary file and runs vkapp on it with
// index 3 (of 2) under gpuav-dbg, in directory dir, with extra launcher
// flags and environment.
func runSPV(t *testing.T, words []uint32, dir string, flags, env []string) smReport {
	t.Helper()
	tmp := t.TempDir()
	spv := filepath.Join(tmp, "shader.spv")
	if err := os.WriteFile(spv, spirv.BytesFromWords(words), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out.json")
	args := append([]string{"run", "--headless", "--json", out, "--session", filepath.Join(tmp, "s.gvs")}, flags...)
	args = append(args, "--", vkapp(t), "--shader", spv, "--index", "3")
	cmd := exec.Command(bin("gpuav-dbg"), args...)
	cmd.Dir = dir
	var judge func()
	cmd.Env, judge = refereeEnv(t, env, vkapp(t), args)
	defer judge()
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("gpuav-dbg: %v, want exit code 1\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r smReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	if len(r.Errors) != 1 || r.Errors[0].Check != "descriptor_index_oob" || r.Errors[0].Count != 4 {
		t.Fatalf("want one descriptor_index_oob group of 4 records, got %s\n%s", b, stderr.String())
	}
	return r
}

// outsStore is the index of the OpStore through the variable "outs" in
// the function fn: the access the check reports.
func outsStore(t *testing.T, words []uint32, fn string) int {
	t.Helper()
	_, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		t.Fatal(err)
	}
	names := map[uint32]string{}
	chains := map[uint32]uint32{}
	inFn := false
	for i, in := range insts {
		w := in.Words
		switch in.Opcode() {
		case spirv.OpName:
			names[w[1]], _ = spirv.DecodeString(w[2:])
		case spirv.OpFunction:
			name, _, _ := strings.Cut(names[w[2]], "(")
			inFn = name == fn
		case spirv.OpAccessChain:
			chains[w[2]] = w[3]
		case spirv.OpStore:
			if inFn && names[chains[w[1]]] == "outs" {
				return i
			}
		}
	}
	t.Fatalf("no store through outs in %s", fn)
	return -1
}

// spirvDis returns spirv-dis's line for instruction i (0 = the first after
// the header), unaligned: the reference for the SPIR-V fallback text.
func spirvDis(t *testing.T, words []uint32, i int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "d.spv")
	os.WriteFile(p, spirv.BytesFromWords(words), 0o644)
	out, err := exec.Command("spirv-dis", "--no-header", "--no-indent", p).Output()
	if err != nil {
		t.Fatalf("spirv-dis: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if i >= len(lines) {
		t.Fatalf("spirv-dis printed %d lines, want instruction %d", len(lines), i)
	}
	return lines[i]
}

func compileSM(t *testing.T, name string, flags ...string) []uint32 {
	return shadertest.Compile(t, smShaders, name, append(flags, "--target-env", "vulkan1.1")...)
}

var plainContext = []string{"", "void main() {", "    uint i = gl_GlobalInvocationID.x;", "    outs[pc.idx].v[i] = i * 3u;", "}"}

func TestSourceCases(t *testing.T) {
	abs, err := filepath.Abs(smShaders)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir() // a working directory without the sources
	plainText := "    outs[pc.idx].v[i] = i * 3u;"
	storeCtx := []string{"layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];", "", "void store(uint slot, uint i, uint value) {",
		"    outs[slot].v[i] = value;", "}", "", "void scale(uint i) {"}

	plain := compileSM(t, "plain.comp", "-g")
	stripped := shadertest.StripSourceText(t, plain)
	noDebug := compileSM(t, "plain.comp")
	inlined := shadertest.Inline(t, compileSM(t, "inline.comp", "-gVS"), "vulkan1.1")
	fromDisk := smSource{File: "plain.comp", Line: 9, Text: plainText, Language: "glsl", Function: "main",
		Context: plainContext, ContextLn: 6, Note: "source text read from " + filepath.Join(abs, "plain.comp") + " (the module carries none)"}

	tests := []struct {
		name   string
		words  []uint32
		fn     string // the function holding the reported store
		dir    string
		flags  []string
		env    []string
		want   smSource
		disasm bool // want.Text is spirv-dis's line for the instruction
	}{
		{"1 #line directive", compileSM(t, "line.comp", "-g"), "main", abs, nil, nil,
			smSource{File: "line.comp", Line: 201, Text: "    outs[pc.idx].v[gl_GlobalInvocationID.x] = 7u;", Language: "glsl", Function: "main",
				Context: []string{"void main() {", "    outs[pc.idx].v[gl_GlobalInvocationID.x] = 7u;", "}"}, ContextLn: 200}, false},
		{"2 OpSource without #line", plain, "main", elsewhere, nil, nil,
			smSource{File: "plain.comp", Line: 9, Text: plainText, Language: "glsl", Function: "main", Context: plainContext, ContextLn: 6}, false},
		{"3 NonSemantic debug info, inlined function", inlined, "main", elsewhere, nil, nil,
			smSource{File: "inline.comp", Line: 7, Text: "    outs[slot].v[i] = value;", Language: "glsl", Function: "store",
				InlinedAt: []smFrame{
					{Function: "scale", File: "inline.comp", Line: 11, Text: "    store(pc.idx, i, i * 3u);"},
					{Function: "main", File: "inline.comp", Line: 15, Text: "    scale(gl_GlobalInvocationID.x);"},
				}, Context: storeCtx, ContextLn: 4}, false},
		{"4 #include", compileSM(t, "include.comp", "-g"), "put", elsewhere, nil, nil,
			smSource{File: "./put.glsl", Line: 3, Text: "    outs[slot].v[i] = i * 5u;", Language: "glsl", Function: "put",
				Context: []string{"// put writes through the descriptor array; included by include.comp.", "void put(uint slot, uint i) {",
					"    outs[slot].v[i] = i * 5u;", "}"}, ContextLn: 1}, false},
		{"4 #include, NonSemantic", compileSM(t, "include.comp", "-gVS"), "put", elsewhere, nil, nil,
			smSource{File: "./put.glsl", Line: 3, Text: "    outs[slot].v[i] = i * 5u;", Language: "glsl", Function: "put",
				Context: []string{"// put writes through the descriptor array; included by include.comp.", "void put(uint slot, uint i) {",
					"    outs[slot].v[i] = i * 5u;", "}"}, ContextLn: 1}, false},
		{"5 text stripped, file in the working directory", stripped, "main", abs, nil, nil, fromDisk, false},
		{"5 text stripped, file in --source-path", stripped, "main", elsewhere, []string{"--source-path", abs}, nil, fromDisk, false},
		{"5 text stripped, file in GPUAV_DBG_SOURCE_PATH", stripped, "main", elsewhere, nil, []string{"GPUAV_DBG_SOURCE_PATH=/nonexistent:" + abs}, fromDisk, false},
		{"5 text stripped, file nowhere", stripped, "main", elsewhere, nil, nil,
			smSource{File: "plain.comp", Line: 9, Language: "spirv", Function: "main",
				Note: "the module carries no source text for plain.comp, and it was not found in " + elsewhere +
					" (add its directory with --source-path DIR or GPUAV_DBG_SOURCE_PATH); showing the SPIR-V instruction"}, true},
		{"6 no debug info", noDebug, "main", abs, nil, nil,
			smSource{Language: "spirv", Function: "main",
				Note: "no line information for this instruction (compile the shader with -g or -gVS); showing the SPIR-V instruction"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := append([]string{"GPUAV_DBG_SOURCE_PATH="}, tt.env...)
			r := runSPV(t, tt.words, tt.dir, tt.flags, env)
			g := r.Errors[0]
			if want := outsStore(t, tt.words, tt.fn); g.Instruction != want {
				t.Errorf("instruction %d, want %d (the store through outs in %s)", g.Instruction, want, tt.fn)
			}
			want := tt.want
			if tt.disasm {
				want.Text = spirvDis(t, tt.words, g.Instruction)
				if !strings.HasPrefix(want.Text, "OpStore %") {
					t.Fatalf("spirv-dis line %q is not the store", want.Text)
				}
			}
			if !reflect.DeepEqual(g.Source, want) {
				t.Errorf("source\n%+v\nwant\n%+v", g.Source, want)
			}
		})
	}
}
