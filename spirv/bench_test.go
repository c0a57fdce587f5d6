package spirv

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseEncode parses every testdata module into the model and
// encodes it back; the throughput is in bytes of SPIR-V.
func BenchmarkParseEncode(b *testing.B) {
	files, _ := filepath.Glob("testdata/print/*.spv")
	var mods [][]uint32
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		w, err := WordsFromBytes(data)
		if err != nil {
			b.Fatal(err)
		}
		mods = append(mods, w)
		total += len(data)
	}
	b.SetBytes(int64(total))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, w := range mods {
			m, err := Parse(w)
			if err != nil {
				b.Fatal(err)
			}
			_ = m.Encode()
		}
	}
}
