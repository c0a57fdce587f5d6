package gpuav

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestSafeIndex instruments shaders whose descriptor indices are provably
// in range (no check) next to look-alikes that are not (checked), counts
// the checks and the calls to the report function in the instrumented
// module, and runs spirv-val on every instrumented module.
func TestSafeIndex(t *testing.T) {
	tests := []struct {
		shader   string
		optimize bool // -Os: SSA form (phis, one load of a push constant)
		checks   int
	}{
		{"safe_and.comp", false, 0},
		{"unsafe_and7.comp", false, 1},
		{"safe_umod.comp", false, 0},
		{"unsafe_umod5.comp", false, 1},
		{"safe_umin.comp", false, 0},
		{"unsafe_umin4.comp", false, 1},
		{"safe_uclamp.comp", false, 0},
		{"safe_sclamp.comp", false, 0},
		{"unsafe_sclamp_neg.comp", false, 1},
		{"safe_int_and.comp", false, 0},
		{"unsafe_smin.comp", false, 1},
		{"safe_smod.comp", false, 0},
		{"unsafe_smod.comp", false, 1},
		{"unsafe_smod_neg.comp", false, 1},
		{"safe_shift.comp", false, 0},
		{"unsafe_shift.comp", false, 1},
		{"unsafe_shift32.comp", false, 1},
		{"unsafe_spec.comp", false, 1},
		{"safe_spec_and.comp", false, 0},
		{"safe_select.comp", false, 0},
		{"unsafe_select.comp", false, 1},
		{"safe_add.comp", false, 0},
		{"unsafe_add.comp", false, 1},
		{"safe_convert.comp", false, 0},
		{"safe_local.comp", false, 0},
		{"unsafe_local.comp", false, 1},
		{"unsafe_local_uninit.comp", false, 1},
		{"unsafe_local_passed.comp", false, 1},
		{"safe_texture.frag", false, 1}, // texs[x & 3u] unchecked, texs[x & 7u] checked
		{"safe_loop.comp", true, 0},
		{"unsafe_loop.comp", true, 2}, // the load and the store of bufs[n].v[0] += 1u
		{"safe_guarded.comp", true, 0},
		{"unsafe_guarded.comp", true, 1},
		{"unsafe_guarded_join.comp", true, 1}, // x < 4u on one of two edges into the access
		{"safe_early_return.comp", true, 0},
		{"unsafe_signed_guard.comp", true, 1},
		// Loops unoptimized: the counter is a function variable.
		{"safe_loop.comp", false, 0},
		{"unsafe_loop.comp", false, 2},
		{"safe_loop_uint.comp", false, 0},
		{"unsafe_loop_modified.comp", false, 2},
		{"unsafe_loop_modified_uint.comp", false, 2},
		{"unsafe_loop_store_between.comp", false, 2},
		{"unsafe_loop_wrap.comp", false, 2},
		{"unsafe_loop_wrap.comp", true, 2},
		{"safe_loop_uint.comp", true, 0},
		{"unsafe_loop_modified.comp", true, 2},
		// The same patterns optimized: what is provable stays so.
		{"safe_and.comp", true, 0},
		{"unsafe_and7.comp", true, 1},
		{"safe_local.comp", true, 0},
		{"unsafe_local.comp", true, 1},
	}
	for _, tt := range tests {
		name := tt.shader
		flags := []string{"--target-env", "vulkan1.1"}
		if tt.optimize {
			name += "/Os"
			flags = append(flags, "-Os")
		}
		t.Run(name, func(t *testing.T) {
			w := compileFlags(t, tt.shader, "-g", flags...)
			res, err := Instrument(w, Options{ShaderID: 5, DescriptorSet: 7, Checks: indexOnly})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			if res.ChecksAdded != tt.checks {
				t.Errorf("ChecksAdded = %d, want %d", res.ChecksAdded, tt.checks)
			}
			// The load and the store of bufs[n].v[0] += 1u use the same
			// index id in one block: both are guarded, the store by the
			// load's result, and only the load reports.
			reports := tt.checks
			if strings.HasPrefix(tt.shader, "unsafe_loop") && reports == 2 {
				reports = 1
			}
			if got := reportCalls(t, res.Words, "gpuav_report_descriptor_index"); got != reports {
				t.Errorf("%d calls to the report function, want %d", got, reports)
			}
			if tt.checks == 0 {
				if res.Instrumented || len(res.Words) != len(w) {
					t.Errorf("module changed without checks: instrumented=%v", res.Instrumented)
				}
				return
			}
			validate(t, res.Words, "vulkan1.1")
		})
	}
}

// indexOnly turns on the descriptor-index check alone: the other checks
// (descriptor state, buffer bounds) add their own guards to these shaders.
var indexOnly = map[string]bool{CheckDescriptorIndexOOB: true}

// reportCalls counts OpFunctionCall instructions to a function whose name
// starts with prefix (the library's names are mangled with their
// parameter types).
func reportCalls(t *testing.T, words []uint32, prefix string) int {
	t.Helper()
	m, err := spirv.Parse(append([]uint32(nil), words...))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode() == spirv.OpFunctionCall && strings.HasPrefix(m.Name(in.Words[3]), prefix) {
					n++
				}
			}
		}
	}
	return n
}

// TestSafeIndexBounds checks the bounds themselves on small values: the
// analysis of every integer id of a shader against what the GLSL says.
func TestSafeIndexBounds(t *testing.T) {
	tests := []struct {
		shader string
		length uint32
		safe   bool
	}{
		// x & 3u is below 4 but not below 3.
		{"safe_and.comp", 4, true},
		{"safe_and.comp", 3, false},
		// (x & 1u) + 2u is at most 3.
		{"safe_add.comp", 4, true},
		{"safe_add.comp", 3, false},
		// x >> 30u is at most 3.
		{"safe_shift.comp", 4, true},
		{"safe_shift.comp", 3, false},
		// K & 3u: at most 3.
		{"safe_spec_and.comp", 4, true},
		{"safe_spec_and.comp", 3, false},
	}
	for _, tt := range tests {
		t.Run(tt.shader, func(t *testing.T) {
			m, err := spirv.Parse(compile(t, tt.shader, "vulkan1.1"))
			if err != nil {
				t.Fatal(err)
			}
			sh, warn := newShader(m, Options{ShaderID: 1, DescriptorSet: 7})
			if warn != "" {
				t.Fatal(warn)
			}
			a := newSafeIndex(m)
			sites := 0
			for _, f := range m.Functions {
				for _, b := range f.Blocks {
					for _, in := range b.Insts {
						s, ok := descriptorSite(sh, in)
						if !ok {
							continue
						}
						sites++
						if got := a.inBounds(f, b, s.indexID, tt.length); got != tt.safe {
							t.Errorf("index %%%d below %d: %v, want %v", s.indexID, tt.length, got, tt.safe)
						}
					}
				}
			}
			if sites != 1 {
				t.Fatalf("%d sites, want 1", sites)
			}
		})
	}
}

func TestAllOnes(t *testing.T) {
	for _, tt := range []struct{ in, want uint64 }{{0, 0}, {1, 1}, {2, 3}, {3, 3}, {4, 7}, {1000, 1023}, {1 << 63, 1<<64 - 1}} {
		if got := allOnes(tt.in); got != tt.want {
			t.Errorf("allOnes(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// FuzzSafeIndex asks the analysis about every id at every block of
// arbitrary modules, without the recover that Instrument has: it must not
// panic or loop.
func FuzzSafeIndex(f *testing.F) {
	for _, s := range []string{"safe_local.comp", "safe_spec_and.comp", "unsafe_local_passed.comp"} {
		f.Add(spirv.BytesFromWords(compile(f, s, "vulkan1.1")))
	}
	for _, s := range []string{"safe_loop.comp", "safe_guarded.comp"} {
		f.Add(spirv.BytesFromWords(compileFlags(f, s, "-g", "--target-env", "vulkan1.1", "-Os")))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := spirv.WordsFromBytes(b)
		if err != nil {
			return
		}
		m, err := spirv.Parse(w)
		if err != nil {
			return
		}
		a := newSafeIndex(m)
		for _, fn := range m.Functions {
			for _, blk := range fn.Blocks {
				for _, in := range blk.Insts {
					if r := in.ResultID(); r != 0 {
						a.inBounds(fn, blk, r, 4)
					}
				}
			}
		}
	})
}

// BenchmarkInstrumentBenchCorpus instruments the largest modules of the
// pipeline-creation corpus (bench/corpus) with the descriptor-index check
// alone. Their descriptor indices are
// all x & 3u into arrays of 4: the analysis proves every one in range, so
// the module comes back unchanged; before it, each got a check.
func BenchmarkInstrumentBenchCorpus(b *testing.B) {
	for _, name := range []string{"unrolled09.comp", "fs09.frag", "bindless04.comp"} {
		w := shadertest.Compile(b, "../bench/corpus", name, "-g", "--target-env", "vulkan1.1")
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(4 * len(w)))
			for i := 0; i < b.N; i++ {
				if _, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7, Checks: indexOnly}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
