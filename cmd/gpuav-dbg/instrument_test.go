package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// corpus returns every module the project has: the committed .spv files and
// every GLSL test shader compiled with -g, -gVS and no debug info.
func corpus(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	spvs, _ := filepath.Glob("../../spirv/testdata/print/*.spv")
	for _, p := range spvs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = b
	}
	dirs := []string{"../../examples/demo/shaders", "../../gpuav/testdata/shaders", "../../sourcemap/testdata", "../../e2e/testdata/sourcemap"}
	for _, d := range dirs {
		for _, ext := range []string{"comp", "frag", "vert", "rgen"} {
			files, _ := filepath.Glob(filepath.Join(d, "*."+ext))
			for _, f := range files {
				for _, flags := range [][]string{{"-g"}, {"-gVS"}, {}} {
					w := shadertest.Compile(t, d, filepath.Base(f), append(flags, "--target-env", "vulkan1.2")...)
					out[f+strings.Join(flags, "")] = spirv.BytesFromWords(w)
				}
			}
		}
	}
	// HLSL (glslang's HLSL front end), calls inlined by spirv-opt with
	// their DebugInlinedAt chains, and source text stripped.
	for _, flags := range [][]string{{"-g"}, {"-gVS"}, {}} {
		w := shadertest.Compile(t, "../../sourcemap/testdata", "oob_buffer.hlsl", append([]string{"-D", "-e", "main", "-V", "-S", "comp"}, flags...)...)
		out["oob_buffer.hlsl"+strings.Join(flags, "")] = spirv.BytesFromWords(w)
	}
	inl := shadertest.Inline(t, shadertest.Compile(t, "../../sourcemap/testdata", "inline.comp", "-gVS", "--target-env", "vulkan1.2"), "vulkan1.2")
	out["inline.comp-gVS-inlined"] = spirv.BytesFromWords(inl)
	out["oob_compute.comp-g-stripped"] = spirv.BytesFromWords(shadertest.StripSourceText(t, shadertest.Compile(t, "../../sourcemap/testdata", "oob_compute.comp", "-g", "--target-env", "vulkan1.2")))
	if len(out) < 20 {
		t.Fatalf("corpus has %d modules", len(out))
	}
	return out
}

func TestInstrumentNoneIsByteIdentical(t *testing.T) {
	for name, b := range corpus(t) {
		tc := newTestCLI(t)
		in := filepath.Join(tc.dir, "in.spv")
		out := filepath.Join(tc.dir, "out.spv")
		if err := os.WriteFile(in, b, 0o644); err != nil {
			t.Fatal(err)
		}
		tc.run(t, exitOK, "instrument", "--checks", "none", "-o", out, in)
		got, _ := os.ReadFile(out)
		if !bytes.Equal(got, b) {
			t.Errorf("%s: instrument --checks none changed the module", name)
		}
	}
}

func TestInstrumentAllIsValid(t *testing.T) {
	for name, b := range corpus(t) {
		if strings.Contains(name, "print/") {
			continue // hand-written edge cases, not all valid Vulkan SPIR-V
		}
		tc := newTestCLI(t)
		in := filepath.Join(tc.dir, "in.spv")
		out := filepath.Join(tc.dir, "out.spv")
		if err := os.WriteFile(in, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := exec.Command("spirv-val", "--target-env", "vulkan1.2", in).Run(); err != nil {
			// glslang 12's -gVS output for GL_EXT_buffer_reference, and
			// for arrays sized by a specialization constant (its
			// DebugTypeArray takes the constant), is invalid before any
			// instrumentation; nothing else may be.
			if strings.HasSuffix(name, "-gVS") && (strings.Contains(name, "bda") || strings.Contains(name, "spec_length")) {
				continue
			}
			t.Errorf("%s: the module is invalid before instrumentation", name)
			continue
		}
		tc.run(t, exitOK, "instrument", "--checks", "all", "-o", out, in)
		if msg, err := exec.Command("spirv-val", "--target-env", "vulkan1.2", out).CombinedOutput(); err != nil {
			t.Errorf("%s: instrumented module is invalid: %v\n%s", name, err, msg)
		}
	}
}

func TestInstrumentByteSwapped(t *testing.T) {
	w := shadertest.Compile(t, "../../examples/demo/shaders", "oob_compute.comp", "-g", "--target-env", "vulkan1.1")
	swapped := append([]uint32(nil), w...)
	spirv.SwapWords(swapped)
	b := spirv.BytesFromWords(swapped) // big-endian bytes
	tc := newTestCLI(t)
	in, out := filepath.Join(tc.dir, "be.spv"), filepath.Join(tc.dir, "out.spv")
	os.WriteFile(in, b, 0o644)
	tc.run(t, exitOK, "instrument", "--checks", "none", "-o", out, in)
	if got, _ := os.ReadFile(out); !bytes.Equal(got, b) {
		t.Error("a big-endian module did not round-trip byte-identically")
	}
}

func TestInstrumentBadFiles(t *testing.T) {
	w := shadertest.Compile(t, "../../examples/demo/shaders", "oob_compute.comp", "-g", "--target-env", "vulkan1.1")
	good := spirv.BytesFromWords(w)
	pastEnd := append([]byte(nil), good...)
	// The last instruction claims more words than remain.
	last := len(w) - 1
	for i := spirv.HeaderWords; i < len(w); i += int(w[i] >> 16) {
		last = i
	}
	pastEnd[4*last+3] = 0x7f
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "shorter than the 20-byte header"},
		{"bad magic", append([]byte("not spir-v at all!!!"), good[20:]...), "bad magic"},
		{"odd length", good[:len(good)-2], "not a whole number of 32-bit words"},
		{"truncated at an instruction", good[:len(good)-8], "no OpFunctionEnd"},
		{"word count past the end", pastEnd, "past the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc := newTestCLI(t)
			in := filepath.Join(tc.dir, "in.spv")
			os.WriteFile(in, tt.data, 0o644)
			tc.run(t, exitLauncher, "instrument", "--checks", "none", "-o", filepath.Join(tc.dir, "o.spv"), in)
			lines := strings.Split(strings.TrimSpace(tc.err.String()), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tt.want) || !strings.Contains(lines[0], in) {
				t.Errorf("stderr %q, want one line naming the file and %q", tc.err.String(), tt.want)
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		tc := newTestCLI(t)
		tc.run(t, exitLauncher, "instrument", "--checks", "none", "-o", filepath.Join(tc.dir, "o.spv"), filepath.Join(tc.dir, "nope.spv"))
	})
}
