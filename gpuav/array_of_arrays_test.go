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

// TestInstrumentArrayOfArrays: bufs[pc.i][pc.j] into
// `buffer B {...} bufs[3][4]` is checked with the flattened index
// pc.i*4 + pc.j (pc.j, an int, bitcast) against the length 12, as the
// binding's descriptorCount counts the elements; bufs[2][3] (flattened 11)
// needs no check. Vulkan forbids arrays of arrays of descriptors
// (spirv-val --target-env vulkan1.1 rejects the input with
// VUID-StandaloneSpirv-Uniform-06807, though glslang compiles it), so the
// result is validated against the SPIR-V 1.3 universal rules, also with the
// element checks on.
func TestInstrumentArrayOfArrays(t *testing.T) {
	const env = "vulkan1.1"
	// testdata/invalid: the corpus test (spirv-val on every shader's
	// instrumented module for its Vulkan environment) must not take it.
	w := shadertest.Compile(t, "testdata/invalid", "array_of_arrays.glsl", "-S", "comp", "-g", "--target-env", env)
	in := filepath.Join(t.TempDir(), "in.spv")
	if err := os.WriteFile(in, spirv.BytesFromWords(w), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("spirv-val", "--target-env", env, in).CombinedOutput(); err == nil ||
		!strings.Contains(string(b), "VUID-StandaloneSpirv-Uniform-06807") {
		t.Errorf("spirv-val --target-env %s on the input: %v, want VUID-StandaloneSpirv-Uniform-06807:\n%s", env, err, b)
	}
	for _, tc := range []struct {
		name   string
		checks map[string]bool
		sized  bool
		report string
	}{
		{"oob", map[string]bool{CheckDescriptorIndexOOB: true}, false, "gpuav_report_descriptor_index("},
		{"all", allBut(CheckBufferOOB), true, "gpuav_report_descriptor("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Instrument(w, Options{ShaderID: 7, DescriptorSet: 7, Checks: tc.checks, SizedElementChecks: tc.sized})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			wantChecks := 1
			if tc.sized {
				wantChecks = 2 // bufs[2][3] keeps its element check
			}
			if res.ChecksAdded != wantChecks {
				t.Errorf("ChecksAdded = %d, want %d", res.ChecksAdded, wantChecks)
			}
			validate(t, res.Words, "spv1.3")
			m, err := spirv.Parse(res.Words)
			if err != nil {
				t.Fatal(err)
			}
			var calls []*spirv.Instruction
			for _, f := range m.Functions {
				for _, b := range f.Blocks {
					for _, in := range b.Insts {
						if in.Opcode() == spirv.OpFunctionCall && strings.HasPrefix(m.Name(in.Words[3]), tc.report) {
							calls = append(calls, in)
						}
					}
				}
			}
			if len(calls) != wantChecks {
				t.Fatalf("%d calls of %s, want %d", len(calls), tc.report, wantChecks)
			}
			call := calls[len(calls)-1] // the dynamic access
			n := len(call.Words)
			if tc.sized {
				n-- // gpuav_report_descriptor's last argument: what a clamp found
			}
			if !tc.sized {
				if l, ok := m.ConstantValue(call.Words[n-1]); !ok || l != 12 {
					t.Errorf("reported length %d (constant %v), want 12", l, ok)
				}
			}
			// idx = IAdd(IMul(i, 4), Bitcast(j)).
			add := m.Def(call.Words[n-2])
			if add == nil || add.Opcode() != spirv.OpIAdd {
				t.Fatalf("reported index is %v, want OpIAdd", add)
			}
			mul, j := m.Def(add.Words[3]), m.Def(add.Words[4])
			if mul == nil || mul.Opcode() != spirv.OpIMul {
				t.Fatalf("flattened index's first term is %v, want OpIMul", mul)
			}
			if d, ok := m.ConstantValue(mul.Words[4]); !ok || d != 4 {
				t.Errorf("outer index multiplied by %d (constant %v), want 4", d, ok)
			}
			if i := m.Def(mul.Words[3]); i == nil || i.Opcode() != spirv.OpLoad {
				t.Errorf("outer index is %v, want the load of pc.i", i)
			}
			if j == nil || j.Opcode() != spirv.OpBitcast {
				t.Errorf("inner index is %v, want the bitcast of the int pc.j", j)
			}
		})
	}
}
