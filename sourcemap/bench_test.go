package sourcemap

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// BenchmarkIndex is the one-time cost per module.
func BenchmarkIndex(b *testing.B) {
	w := compile(b, "with_include.frag", "-gVS")
	b.SetBytes(int64(4 * len(w)))
	for i := 0; i < b.N; i++ {
		New(w)
	}
}

// BenchmarkLookup maps an instruction to its line after the index is built
// (the target is 10 µs).
func BenchmarkLookup(b *testing.B) {
	w := compile(b, "with_include.frag", "-g")
	m := New(w)
	inst := nthOp(b, w, spirv.OpImageSampleImplicitLod, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m.Lookup(inst).Line == 0 {
			b.Fatal("no line")
		}
	}
}
