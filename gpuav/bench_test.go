package gpuav

import (
	"testing"
)

// BenchmarkInstrument instruments test shaders; the throughput is in bytes
// of input SPIR-V (the target is 10 KB per ms, i.e. 10 MB/s).
func BenchmarkInstrument(b *testing.B) {
	for _, name := range []string{"oob_fragment.frag", "loop_sampler.frag", "indexed_vertex.vert"} {
		w := compile(b, name, "vulkan1.2")
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(4 * len(w)))
			for i := 0; i < b.N; i++ {
				res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7})
				if err != nil || !res.Instrumented {
					b.Fatal(err)
				}
			}
		})
	}
}
