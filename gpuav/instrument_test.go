package gpuav

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// compile builds a GLSL file from testdata/shaders with debug info.
func compile(t testing.TB, name, env string) []uint32 {
	return shadertest.Compile(t, "testdata/shaders", name, "-g", "--target-env", env)
}

// validate runs spirv-val on a module for a target environment. A Slang
// module's OpSource language (11) is given to it as Unknown: Debian's
// SPIRV-Tools 2023.1 predates Slang's enumerant and refuses it.
func validate(t *testing.T, words []uint32, env string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "inst.spv")
	if err := os.WriteFile(p, spirv.BytesFromWords(unslang(words)), 0o644); err != nil {
		t.Fatal(err)
	}
	val := "spirv-val"
	if v := os.Getenv("GPUAVDBG_SPIRV_VAL"); v != "" {
		val = v
	}
	if b, err := exec.Command(val, "--target-env", env, p).CombinedOutput(); err != nil {
		if val == "spirv-val" && declaresCapability(words, capabilityCooperativeMatrixKHR) &&
			strings.Contains(string(b), fmt.Sprintf("Invalid capability operand: %d", capabilityCooperativeMatrixKHR)) {
			t.Logf("spirv-val here predates SPV_KHR_cooperative_matrix, module not validated: set GPUAVDBG_SPIRV_VAL to a newer spirv-val (%s)", strings.TrimSpace(string(b)))
			return
		}
		dis, _ := exec.Command("spirv-dis", p).CombinedOutput()
		t.Fatalf("spirv-val --target-env %s: %v\n%s\n%s", env, err, b, dis)
	}
}

// capabilityCooperativeMatrixKHR is the capability Debian 12's SPIRV-Tools
// 2023.1 does not know: it refuses every module that declares it.
const capabilityCooperativeMatrixKHR = spirv.CapabilityCooperativeMatrixKHR

// declaresCapability reports whether a module has OpCapability c.
func declaresCapability(words []uint32, c spirv.Capability) bool {
	for i := spirv.HeaderWords; i+1 < len(words) && words[i]>>16 != 0; i += int(words[i] >> 16) {
		if spirv.Opcode(words[i]&0xffff) == spirv.OpCapability && spirv.Capability(words[i+1]) == c {
			return true
		}
	}
	return false
}

// sourceLanguageSlang is SourceLanguage Slang, which SPIRV-Tools 2023.1
// does not know.
const sourceLanguageSlang = 11

// unslang returns words with a Slang OpSource's language made Unknown (a
// copy when it changes).
func unslang(words []uint32) []uint32 {
	out := words
	for i := spirv.HeaderWords; i < len(out) && out[i]>>16 != 0; i += int(out[i] >> 16) {
		if spirv.Opcode(out[i]&0xffff) == spirv.OpSource && i+1 < len(out) && out[i+1] == sourceLanguageSlang {
			if &out[0] == &words[0] {
				out = slices.Clone(words)
			}
			out[i+1] = uint32(spirv.SourceLanguageUnknown)
		}
	}
	return out
}

// TestInstrumentSlang instruments the Slang-compiled modules of
// testdata/slang (Sascha Willems' Vulkan samples: README.md there) under
// each check alone and all of them, with and without the descriptor-state
// checks of sized arrays, skipping and clamping, and runs spirv-val on both
// variants. Slang names its OpImage and OpSampledImage results: the
// descriptor pass moved those under its guards and left the names of ids
// no longer defined (spirv-val: "forward referenced IDs have not been
// defined"), in 8 of the samples' 992 modules.
func TestInstrumentSlang(t *testing.T) {
	files, err := filepath.Glob("testdata/slang/*.spv")
	if err != nil || len(files) < 9 {
		t.Fatalf("%d Slang modules (%v)", len(files), err)
	}
	var sets []map[string]bool
	for i := range Checks {
		if Checks[i].pass != nil {
			sets = append(sets, map[string]bool{})
			for j := range Checks {
				sets[len(sets)-1][Checks[j].ID] = i == j
			}
		}
	}
	sets = append(sets, nil) // every check
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			w, err := spirv.WordsFromBytes(b)
			if err != nil {
				t.Fatal(err)
			}
			env := targetEnv(t, w)
			instrumented := 0
			for _, checks := range sets {
				for _, sized := range []bool{false, true} {
					for _, onError := range []OnError{OnErrorSkip, OnErrorClamp} {
						res, err := Instrument(w, Options{ShaderID: 9, DescriptorSet: 7, Printf: true, Checks: checks,
							SizedElementChecks: sized, OnError: onError})
						if err != nil {
							t.Fatalf("instrument: %v", err)
						}
						if !res.Instrumented {
							continue
						}
						instrumented++
						validate(t, res.Words, env)
						if res.Precise != nil {
							validate(t, res.Precise.FastWords, env)
						}
					}
				}
			}
			if instrumented == 0 {
				t.Errorf("never instrumented")
			}
		})
	}
}

// targetEnv is the Vulkan environment of a module's SPIR-V version.
func targetEnv(t *testing.T, w []uint32) string {
	major, minor := spirv.Header{Version: w[1]}.VersionMajorMinor()
	env := map[string]string{"1.0": "vulkan1.0", "1.1": "vulkan1.1", "1.2": "vulkan1.1", "1.3": "vulkan1.1",
		"1.4": "vulkan1.2", "1.5": "vulkan1.2", "1.6": "vulkan1.3"}[fmt.Sprintf("%d.%d", major, minor)]
	if env == "" {
		t.Fatalf("SPIR-V version %d.%d", major, minor)
	}
	return env
}

// TestInstrumentBadInput: a module the passes cannot read or do not handle
// comes back untouched, with an error or a warning that says why.
func TestInstrumentBadInput(t *testing.T) {
	good := compile(t, "oob_compute.comp", "vulkan1.1")
	truncated := append([]uint32(nil), good[:len(good)-3]...)
	badMagic := append([]uint32{0xdeadbeef}, good[1:]...)
	noShaderCap := append([]uint32(nil), good...)
	// Turn OpCapability Shader into OpCapability Kernel (6).
	for i := spirv.HeaderWords; i < len(noShaderCap); i += int(noShaderCap[i] >> 16) {
		if spirv.Opcode(noShaderCap[i]&0xffff) == spirv.OpCapability && noShaderCap[i+1] == uint32(spirv.CapabilityShader) {
			noShaderCap[i+1] = uint32(spirv.CapabilityKernel)
			break
		}
	}
	tests := []struct {
		name    string
		words   []uint32
		wantErr string
		warning string
	}{
		{"truncated", truncated, "past the end", ""},
		{"bad magic", badMagic, "bad magic", ""},
		{"empty", nil, "shorter than the 5-word header", ""},
		{"kernel", noShaderCap, "", "no Shader capability"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Instrument(tt.words, Options{ShaderID: 1, DescriptorSet: 7})
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
			if tt.wantErr == "" && err != nil {
				t.Errorf("unexpected error %v", err)
			}
			if tt.warning != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tt.warning)) {
				t.Errorf("warnings %q, want %q", res.Warnings, tt.warning)
			}
			if res.Instrumented || !slices.Equal(res.Words, tt.words) {
				t.Errorf("module changed: instrumented=%v", res.Instrumented)
			}
		})
	}
}

// TestInstrumentChecksOff: with the check off nothing changes.
func TestInstrumentChecksOff(t *testing.T) {
	w := compile(t, "oob_compute.comp", "vulkan1.1")
	res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7, Checks: map[string]bool{CheckDescriptorIndexOOB: false}})
	if err != nil || res.Instrumented || !slices.Equal(res.Words, w) {
		t.Fatalf("err %v instrumented %v", err, res.Instrumented)
	}
}

func FuzzInstrument(f *testing.F) {
	for _, s := range []string{"oob_compute.comp", "oob_fragment.frag", "loop_sampler.frag", "ray_query.comp", "ray_query.rgen", "element_checks.frag"} {
		f.Add(spirv.BytesFromWords(compile(f, s, "vulkan1.2")))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := spirv.WordsFromBytes(b)
		if err != nil {
			return
		}
		res, err := instrumentWithinBudget(t, w)
		if err != nil && !slices.Equal(res.Words, w) {
			t.Fatalf("error %v but the module was changed", err)
		}
	})
}

// FuzzInstrumentAbsurdIDs changes one id word of a module (the at'th, of
// those the grammar finds) to an id at or past the module's bound (the
// bound plus past): the module comes back untouched with an id bound
// error, within the budget of time and memory of every input.
func FuzzInstrumentAbsurdIDs(f *testing.F) {
	for i, s := range []string{"oob_compute.comp", "oob_fragment.frag", "loop_sampler.frag", "ray_query.comp", "element_checks.frag"} {
		f.Add(spirv.BytesFromWords(compile(f, s, "vulkan1.2")), uint16(17*i), []uint32{0, 1, 0x10000000, 0xFFFFFFF0, 1 << 20}[i])
	}
	f.Fuzz(func(t *testing.T, b []byte, at uint16, past uint32) {
		w, err := spirv.WordsFromBytes(b)
		if err != nil {
			return
		}
		m, err := spirv.Parse(slices.Clone(w))
		if err != nil {
			return
		}
		var ids []int
		off := spirv.HeaderWords
		m.Walk(func(in *spirv.Instruction) {
			_ = spirv.ForEachID(in.Words, m, func(i int) { ids = append(ids, off+i) })
			off += len(in.Words)
		})
		if len(ids) == 0 {
			return
		}
		id := m.Header.Bound + past
		if id < m.Header.Bound {
			id = 0xFFFFFFFF
		}
		w[ids[int(at)%len(ids)]] = id
		res, err := instrumentWithinBudget(t, w)
		if !errors.Is(err, spirv.ErrIDBound) || res.Instrumented || !slices.Equal(res.Words, w) {
			t.Fatalf("id %#x at word %d: instrumented %v, error %v; want the module untouched and an id bound error", id, ids[int(at)%len(ids)], res.Instrumented, err)
		}
	})
}

// instrumentWithinBudget instruments w and fails t when that took more
// than 5 s or allocated more than 256 MiB: an id bound of SPIR-V's
// largest (4,194,303) costs tens of MiB of tables, and nothing costs more
// with the input's ids (a table grown to an id near 2^32 was 16 GiB).
func instrumentWithinBudget(t *testing.T, w []uint32) (Result, error) {
	t.Helper()
	res, err, took, alloc := instrumentMeasured(w)
	if took > 5*time.Second || alloc > 256<<20 {
		t.Fatalf("instrumenting a %d-word module took %v and allocated %d bytes, past the budget of 5 s and 256 MiB", len(w), took, alloc)
	}
	return res, err
}

// compileFlags builds a GLSL file from testdata/shaders with the given
// debug flag (-g or -gVS) and other flags.
func compileFlags(t testing.TB, name, debug string, flags ...string) []uint32 {
	return shadertest.Compile(t, "testdata/shaders", name, append([]string{debug}, flags...)...)
}
