package gpuav

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// compile builds a GLSL file from testdata/shaders with debug info.
func compile(t *testing.T, name, env string) []uint32 {
	return shadertest.Compile(t, "testdata/shaders", name, "-g", "--target-env", env)
}

// validate runs spirv-val on a module for a target environment.
func validate(t *testing.T, words []uint32, env string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "inst.spv")
	if err := os.WriteFile(p, spirv.BytesFromWords(words), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("spirv-val", "--target-env", env, p).CombinedOutput(); err != nil {
		dis, _ := exec.Command("spirv-dis", p).CombinedOutput()
		t.Fatalf("spirv-val --target-env %s: %v\n%s\n%s", env, err, b, dis)
	}
}

func TestInstrumentDescriptorIndexValid(t *testing.T) {
	tests := []struct {
		shader string
		env    string
		checks int // guarded accesses
	}{
		{"oob_compute.comp", "vulkan1.1", 1},
		{"oob_compute.comp", "vulkan1.0", 1},
		{"oob_compute.comp", "vulkan1.2", 1},
		{"oob_compute.comp", "vulkan1.3", 1},
		{"oob_fragment.frag", "vulkan1.1", 1},
		{"oob_fragment.frag", "vulkan1.3", 1},
		{"indexed_vertex.vert", "vulkan1.1", 2},
		{"const_index.comp", "vulkan1.1", 1},
		{"loop_sampler.frag", "vulkan1.2", 2},
	}
	for _, tt := range tests {
		t.Run(tt.shader+"/"+tt.env, func(t *testing.T) {
			w := compile(t, tt.shader, tt.env)
			res, err := Instrument(w, Options{ShaderID: 7, DescriptorSet: 7})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			if res.ChecksAdded != tt.checks {
				t.Errorf("ChecksAdded = %d, want %d", res.ChecksAdded, tt.checks)
			}
			if !res.Instrumented {
				t.Fatal("not instrumented")
			}
			validate(t, res.Words, tt.env)
		})
	}
}
