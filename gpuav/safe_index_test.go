package gpuav

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// The analysis's answers on whole shaders (which accesses keep their
// check, with and without -Os) are the EXPECT comments of
// testdata/shaders/safe_*.comp and unsafe_*.comp (TestExpectations).

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
