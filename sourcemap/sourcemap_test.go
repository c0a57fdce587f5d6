package sourcemap

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

var hlslFlags = []string{"-D", "-e", "main", "-V", "-S", "comp"}

// module builds a test module: compile, then transform.
type module struct {
	shader string
	flags  []string
	// inline runs spirv-opt's inliner; strip removes the source text.
	inline, strip bool
}

func (m module) build(t testing.TB) []uint32 {
	w := compile(t, m.shader, m.flags...)
	if m.inline {
		w = shadertest.Inline(t, w, "vulkan1.1")
	}
	if m.strip {
		w = shadertest.StripSourceText(t, w)
	}
	return w
}

// at picks the instruction a test looks up.
type at func(t testing.TB, w []uint32) int

func op(o spirv.Opcode, n int) at {
	return func(t testing.TB, w []uint32) int { return nthOp(t, w, o, n) }
}

func store(fn, base string) at {
	return func(t testing.TB, w []uint32) int { return storeThrough(t, w, fn, base) }
}

var computeContext = []string{
	"",
	"void main() {",
	"    uint i = gl_GlobalInvocationID.x;",
	"    outs[pc.idx].v[i] = i * 3u;",
	"}",
}

var commonContext = []string{
	"// helper included by with_include.frag",
	"vec4 fetch(uint i) {",
	"    return texture(tex[i], vec2(0.5));",
	"}",
}

var hlslContext = []string{
	"[numthreads(4, 1, 1)]",
	"void main(uint3 id : SV_DispatchThreadID) {",
	"    uint i = id.x;",
	"    outs[pc.idx][i] = i * 3;",
	"}",
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name string
		mod  module
		at   at
		want Location
	}{
		{"1: OpSource with #line", module{shader: "with_line.comp", flags: []string{"-g"}}, op(spirv.OpStore, 0),
			Location{File: "with_line.comp", Line: 101, Text: "    outs[pc.idx].v[0] = 7u;", Language: "glsl", Function: "main",
				Context: []string{"void main() {", "    outs[pc.idx].v[0] = 7u;", "}"}, ContextLine: 100}},
		{"2: OpSource without #line", module{shader: "oob_compute.comp", flags: []string{"-g"}}, op(spirv.OpStore, 1),
			Location{File: "oob_compute.comp", Line: 9, Text: "    outs[pc.idx].v[i] = i * 3u;", Language: "glsl", Function: "main",
				Context: computeContext, ContextLine: 6}},
		{"2: fragment sample", module{shader: "oob_fragment.frag", flags: []string{"-g"}}, op(spirv.OpImageSampleImplicitLod, 0),
			Location{File: "oob_fragment.frag", Line: 9, Text: "    uFragColor = light * texture(tex[pc.tex_ind], texcoord.xy);", Language: "glsl", Function: "main",
				Context: []string{"", "void main() {", "    vec4 light = vec4(1.0);",
					"    uFragColor = light * texture(tex[pc.tex_ind], texcoord.xy);", "}"}, ContextLine: 6}},
		{"3: NonSemantic debug info", module{shader: "oob_compute.comp", flags: []string{"-gVS"}}, op(spirv.OpStore, 1),
			Location{File: "oob_compute.comp", Line: 9, Text: "    outs[pc.idx].v[i] = i * 3u;", Language: "glsl", Function: "main",
				Context: computeContext, ContextLine: 6}},
		{"3: NonSemantic, not inlined", module{shader: "inline.comp", flags: []string{"-gVS"}}, store("store", "outs"),
			Location{File: "inline.comp", Line: 7, Text: "    outs[slot].v[i] = value;", Language: "glsl", Function: "store",
				Context: []string{"layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];", "", "void store(uint slot, uint i, uint value) {",
					"    outs[slot].v[i] = value;", "}", "", "void scale(uint i) {"}, ContextLine: 4}},
		{"3: NonSemantic, inlined twice", module{shader: "inline.comp", flags: []string{"-gVS"}, inline: true}, store("main", "outs"),
			Location{File: "inline.comp", Line: 7, Text: "    outs[slot].v[i] = value;", Language: "glsl", Function: "store",
				InlinedAt: []Frame{
					{Function: "scale", File: "inline.comp", Line: 11, Text: "    store(pc.idx, i, i * 3u);"},
					{Function: "main", File: "inline.comp", Line: 16, Text: "    scale(i);"},
				},
				Context: []string{"layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];", "", "void store(uint slot, uint i, uint value) {",
					"    outs[slot].v[i] = value;", "}", "", "void scale(uint i) {"}, ContextLine: 4}},
		{"4: include, OpLine", module{shader: "with_include.frag", flags: []string{"-g"}}, op(spirv.OpImageSampleImplicitLod, 0),
			Location{File: "./common.glsl", Line: 3, Text: "    return texture(tex[i], vec2(0.5));", Language: "glsl", Function: "fetch",
				Context: commonContext, ContextLine: 1}},
		{"4: include, NonSemantic", module{shader: "with_include.frag", flags: []string{"-gVS"}}, op(spirv.OpImageSampleImplicitLod, 0),
			Location{File: "./common.glsl", Line: 3, Text: "    return texture(tex[i], vec2(0.5));", Language: "glsl", Function: "fetch",
				Context: commonContext, ContextLine: 1}},
		{"5: text stripped, OpLine", module{shader: "oob_compute.comp", flags: []string{"-g"}, strip: true}, op(spirv.OpStore, 1),
			Location{File: "oob_compute.comp", Line: 9, Text: "OpStore %36 %34", Language: "spirv", Function: "main",
				Note: "the module carries no source text for oob_compute.comp; showing the SPIR-V instruction"}},
		{"5: text stripped, NonSemantic", module{shader: "oob_compute.comp", flags: []string{"-gVS"}, strip: true}, op(spirv.OpStore, 1),
			Location{File: "oob_compute.comp", Line: 9, Text: "OpStore %81 %79", Language: "spirv", Function: "main",
				Note: "the module carries no source text for oob_compute.comp; showing the SPIR-V instruction"}},
		{"6: no debug info", module{shader: "oob_compute.comp"}, op(spirv.OpStore, 1),
			Location{Text: "OpStore %35 %33", Language: "spirv", Function: "main",
				Note: "no line information for this instruction (compile the shader with -g or -gVS); showing the SPIR-V instruction"}},
		{"6: no debug info, named ids", module{shader: "with_include.frag"}, op(spirv.OpImageSampleImplicitLod, 0),
			Location{Text: "%27 = OpImageSampleImplicitLod %v4float %23 %26", Language: "spirv", Function: "fetch",
				Note: "no line information for this instruction (compile the shader with -g or -gVS); showing the SPIR-V instruction"}},
		{"HLSL, OpLine", module{shader: "oob_buffer.hlsl", flags: append(hlslFlags, "-g")}, op(spirv.OpImageWrite, 0),
			Location{File: "oob_buffer.hlsl", Line: 9, Text: "    outs[pc.idx][i] = i * 3;", Language: "hlsl", Function: "main",
				Context: hlslContext, ContextLine: 6}},
		{"HLSL, NonSemantic", module{shader: "oob_buffer.hlsl", flags: append(hlslFlags, "-gVS")}, op(spirv.OpImageWrite, 0),
			Location{File: "oob_buffer.hlsl", Line: 9, Text: "    outs[pc.idx][i] = i * 3;", Language: "hlsl", Function: "@main",
				Context: hlslContext, ContextLine: 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := tt.mod.build(t)
			got := New(w).Lookup(tt.at(t, w))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Lookup =\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
}

// TestLookupDisk is case 5 with a search path: the text comes from the
// file on disk when one of the directories has it.
func TestLookupDisk(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	stripped := module{shader: "oob_compute.comp", flags: []string{"-g"}, strip: true}.build(t)
	inst := nthOp(t, stripped, spirv.OpStore, 1)
	// A copy whose line 9 does not exist.
	short := t.TempDir()
	if err := os.WriteFile(filepath.Join(short, "oob_compute.comp"), []byte("#version 450\nvoid main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	found := Location{File: "oob_compute.comp", Line: 9, Text: "    outs[pc.idx].v[i] = i * 3u;", Language: "glsl", Function: "main",
		Context: computeContext, ContextLine: 6,
		Note: "source text read from " + filepath.Join(testdata, "oob_compute.comp") + " (the module carries none)"}
	tests := []struct {
		name string
		dirs []string
		hint string
		want Location
	}{
		{"found in the first directory", []string{testdata, empty}, "", found},
		{"found in the second directory", []string{empty, testdata}, "", found},
		{"not found", []string{empty}, "add a directory with --source-path",
			Location{File: "oob_compute.comp", Line: 9, Text: "OpStore %36 %34", Language: "spirv", Function: "main",
				Note: "the module carries no source text for oob_compute.comp, and it was not found in " + empty +
					" (add a directory with --source-path); showing the SPIR-V instruction"}},
		{"no search path", nil, "",
			Location{File: "oob_compute.comp", Line: 9, Text: "OpStore %36 %34", Language: "spirv", Function: "main",
				Note: "the module carries no source text for oob_compute.comp, and it was not found (no search path); showing the SPIR-V instruction"}},
		{"file too short", []string{short}, "",
			Location{File: "oob_compute.comp", Line: 9, Text: "OpStore %36 %34", Language: "spirv", Function: "main",
				Note: "the module carries no source text for oob_compute.comp, and " + filepath.Join(short, "oob_compute.comp") +
					" has 2 lines, not 9; showing the SPIR-V instruction"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDisk(tt.dirs...)
			d.Hint = tt.hint
			m := New(stripped)
			got := m.LookupIn(inst, d)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("LookupIn =\n%#v\nwant\n%#v", got, tt.want)
			}
			if tt.want.Language == "glsl" {
				if lines := m.FileLinesIn("oob_compute.comp", d); len(lines) != 10 || lines[8] != tt.want.Text {
					t.Errorf("FileLinesIn = %q", lines)
				}
			}
		})
	}
	// Text in the module wins over the disk.
	w := compile(t, "oob_compute.comp", "-g")
	if got := New(w).LookupIn(nthOp(t, w, spirv.OpStore, 1), NewDisk(short)); got.Note != "" || got.Line != 9 {
		t.Errorf("module with text, disk with another file: %+v", got)
	}
}

func TestDiskFind(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write := func(dir, name, text string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pa := write(a, "x.comp", "one\r\ntwo\n")
	pb := write(b, "sub/y.comp", "only")
	os.Mkdir(filepath.Join(a, "dir.comp"), 0o755)
	tests := []struct {
		name, file string
		dirs       []string
		path       string
		lines      []string
		err        string
	}{
		{"relative", "x.comp", []string{b, a}, pa, []string{"one", "two"}, ""},
		{"relative with a directory", "sub/y.comp", []string{a, b}, pb, []string{"only"}, ""},
		{"absolute, in the search path", pa, []string{a}, pa, []string{"one", "two"}, ""},
		{"absolute elsewhere: base name in the search path", "/build/machine/x.comp", []string{a}, pa, []string{"one", "two"}, ""},
		{"directory name: base name", "shaders/x.comp", []string{a}, pa, []string{"one", "two"}, ""},
		{"missing", "z.comp", []string{a, b}, "", nil, "not found in " + a + ", " + b},
		{"a directory", "dir.comp", []string{a}, "", nil, filepath.Join(a, "dir.comp") + ": not a regular file"},
		{"no name", "", []string{a}, "", nil, "no file name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, lines, err := NewDisk(tt.dirs...).Find(tt.file)
			if path != tt.path || !reflect.DeepEqual(lines, tt.lines) {
				t.Errorf("Find = %q %q, want %q %q", path, lines, tt.path, tt.lines)
			}
			if (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
}

func TestLanguage(t *testing.T) {
	for v, want := range map[uint32]string{0: "", 1: "glsl", 2: "glsl", 3: "opencl", 4: "cpp", 5: "hlsl", 6: "cpp", 7: "cpp", 11: "slang", 10: "wgsl", 99: ""} {
		if got := languageName(v); got != want {
			t.Errorf("languageName(%d) = %q, want %q", v, got, want)
		}
	}
	for name, want := range map[string]string{"a.comp": "glsl", "a.frag": "glsl", "inc/x.glsl": "glsl", "a.HLSL": "hlsl", "b.hlsli": "hlsl",
		"c.slang": "slang", "d.wgsl": "wgsl", "k.cl": "opencl", "noext": "", "": ""} {
		if got := languageFromName(name); got != want {
			t.Errorf("languageFromName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestBadModule(t *testing.T) {
	m := New([]uint32{1, 2, 3})
	got := m.Lookup(0)
	if got.Line != 0 || !strings.HasPrefix(got.Note, "cannot read the module: ") {
		t.Errorf("Lookup on a broken module = %+v", got)
	}
	w := compile(t, "oob_compute.comp", "-g")
	if got := New(w).Lookup(100000); got.Note != "instruction 100000 is not in the module (73 instructions)" {
		t.Errorf("Lookup past the end = %+v", got)
	}
}

func TestFileLines(t *testing.T) {
	w := compile(t, "with_include.frag", "-g")
	m := New(w)
	if lines := m.FileLines("./common.glsl"); !reflect.DeepEqual(lines, commonContext) {
		t.Errorf("FileLines(common.glsl) = %q", lines)
	}
	if got := len(m.FileLines("with_include.frag")); got != 10 {
		t.Errorf("FileLines(with_include.frag) has %d lines, want 10", got)
	}
	if lines := m.FileLines("nope.glsl"); lines != nil {
		t.Errorf("FileLines(nope.glsl) = %q, want nil", lines)
	}
}

func FuzzLookup(f *testing.F) {
	for _, m := range []module{
		{shader: "oob_compute.comp", flags: []string{"-g"}},
		{shader: "with_include.frag", flags: []string{"-g"}},
		{shader: "with_line.comp", flags: []string{"-g"}},
		{shader: "inline.comp", flags: []string{"-gVS"}, inline: true},
		{shader: "oob_buffer.hlsl", flags: append(hlslFlags, "-gVS")},
	} {
		f.Add(spirv.BytesFromWords(m.build(f)), 20)
	}
	f.Fuzz(func(t *testing.T, b []byte, inst int) {
		w, err := spirv.WordsFromBytes(b)
		if err != nil {
			return
		}
		m := New(w)
		l := m.Lookup(inst)
		if l.Line > 0 && l.Text == "" && l.Note == "" {
			t.Errorf("a line without text or note: %+v", l)
		}
		_ = m.FileLines(l.File)
		_ = m.FileLines("oob_compute.comp")
	})
}
