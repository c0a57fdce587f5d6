package gpuav

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestSanitizerSites counts, over every .spv module under the directories
// GPUAVDBG_SANITIZER_SITES names (colon-separated; skipped when unset),
// the operations each sanitizer check looks at and the sites it keeps
// after the analyses prove the rest safe, and validates each instrumented
// module (docs/decisions/shader-sanitizer.md has the figures for the
// repository's shaders and Sascha Willems' samples):
//
//	GPUAVDBG_SANITIZER_SITES=/path/to/Vulkan/shaders/glsl go test ./gpuav -run TestSanitizerSites -v
func TestSanitizerSites(t *testing.T) {
	dirs := os.Getenv("GPUAVDBG_SANITIZER_SITES")
	if dirs == "" {
		t.Skip("GPUAVDBG_SANITIZER_SITES names no directory")
	}
	checks := []string{CheckSanitizerDivide, CheckSanitizerPow, CheckSanitizerAtan2, CheckSanitizerMinMax, CheckSanitizerGather}
	sites := map[string]int{}
	ops := map[string]int{}
	modules, withSites := 0, 0
	var lines []string
	for _, dir := range strings.Split(dirs, ":") {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".spv" {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			w, err := spirv.WordsFromBytes(b)
			if err != nil {
				t.Logf("%s: %v", p, err)
				return nil
			}
			m, err := spirv.Parse(append([]uint32(nil), w...))
			if err != nil {
				t.Logf("%s: %v", p, err)
				return nil
			}
			modules++
			for k, v := range sanitizerOperations(m) {
				ops[k] += v
			}
			opt := Options{ShaderID: 9, DescriptorSet: 7, Checks: map[string]bool{}}
			for _, c := range checks {
				opt.Checks[c] = true
			}
			res, err := Instrument(w, opt)
			if err != nil {
				t.Errorf("%s: %v", p, err)
				return nil
			}
			if len(res.Sites) > 0 {
				withSites++
			}
			for _, s := range res.Sites {
				for _, c := range s.Checks {
					sites[c]++
					lines = append(lines, fmt.Sprintf("%s %s instruction %d", c, p, s.Instruction))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(lines)
	for _, l := range lines {
		t.Log(l)
	}
	t.Logf("%d modules, %d with a sanitizer site", modules, withSites)
	for _, k := range []string{"int_divide", "float_divide", "pow", "atan2", "fmin_fmax_fclamp", "gather"} {
		t.Logf("operations %-18s %d", k, ops[k])
	}
	for _, c := range checks {
		t.Logf("sites %-18s %d", c, sites[c])
	}
}

// sanitizerOperations counts the operations the sanitizer looks at in m,
// before any analysis.
func sanitizerOperations(m *spirv.Module) map[string]int {
	out := map[string]int{}
	glsl := glslImport(m)
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				switch in.Opcode() {
				case spirv.OpUDiv, spirv.OpSDiv, spirv.OpUMod, spirv.OpSMod, spirv.OpSRem:
					out["int_divide"]++
				case spirv.OpFMod, spirv.OpFRem:
					out["float_divide"]++
				case spirv.OpImageGather, spirv.OpImageSparseGather:
					out["gather"]++
				case spirv.OpExtInst:
					if glsl == 0 || in.Words[3] != glsl {
						continue
					}
					switch in.Words[4] {
					case glslPow:
						out["pow"]++
					case glslAtan2:
						out["atan2"]++
					case glslFMin, glslFMax, glslFClamp:
						out["fmin_fmax_fclamp"]++
					}
				}
			}
		}
	}
	return out
}
