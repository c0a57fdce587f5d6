package gpuav

import (
	"errors"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestInstrumentIDBound: a module whose id bound is 0xFFFFFFFF (or too
// small for its ids) is left as it is, with an error saying why; it never
// comes back with ids that wrapped around onto ids in use.
func TestInstrumentIDBound(t *testing.T) {
	words := shadertest.Compile(t, "../examples/demo/shaders", "oob_compute.comp", "-g", "--target-env", "vulkan1.1")
	for _, bound := range []uint32{0xFFFFFFFF, spirv.MaxIDBound + 1, 3} {
		w := slices.Clone(words)
		w[3] = bound
		res, err := Instrument(w, Options{ShaderID: 1})
		if !errors.Is(err, spirv.ErrIDBound) || res.Instrumented || !slices.Equal(res.Words, w) {
			t.Errorf("bound %#x: instrumented %v, error %v; want the module untouched and an id bound error", bound, res.Instrumented, err)
		}
	}
}

// TestInstrumentAbsurdIDs: a module with one id operand changed to an id
// at or far past its bound (every id word of every instruction, one at a
// time) is passed through untouched with an error wrapping ErrIDBound,
// within a budget of time and memory per module: no analysis grows a
// table to the id (at 0x10000000 the same-value analysis took 12 s and
// 1 GiB; at 0xFFFFFFF0, Go's out-of-memory abort took the app down).
func TestInstrumentAbsurdIDs(t *testing.T) {
	words := shadertest.Compile(t, "../examples/demo/shaders", "oob_compute.comp", "-g", "--target-env", "vulkan1.1")
	m, err := spirv.Parse(slices.Clone(words))
	if err != nil {
		t.Fatal(err)
	}
	bound := m.Header.Bound
	// The offset of every id word of the module.
	var at []int
	off := spirv.HeaderWords
	m.Walk(func(in *spirv.Instruction) {
		_ = spirv.ForEachID(in.Words, m, func(i int) { at = append(at, off+i) })
		off += len(in.Words)
	})
	if len(at) < 100 {
		t.Fatalf("only %d id words", len(at))
	}
	cases := 0
	for _, id := range []uint32{bound, bound + 1, 0x10000000, 0xFFFFFFF0} {
		for _, o := range at {
			w := slices.Clone(words)
			w[o] = id
			res, err, took, alloc := instrumentMeasured(w)
			if !errors.Is(err, spirv.ErrIDBound) || res.Instrumented || !slices.Equal(res.Words, w) {
				t.Fatalf("id %#x at word %d: instrumented %v, error %v; want the module untouched and an id bound error", id, o, res.Instrumented, err)
			}
			if took > 250*time.Millisecond || alloc > 1<<20 {
				t.Fatalf("id %#x at word %d: %v and %d bytes allocated, past the budget of 250 ms and 1 MiB", id, o, took, alloc)
			}
			cases++
		}
	}
	t.Logf("%d modules", cases)
}

// instrumentMeasured instruments w and says how long it took and how many
// bytes it allocated.
func instrumentMeasured(w []uint32) (Result, error, time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7})
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	return res, err, took, after.TotalAlloc - before.TotalAlloc
}
