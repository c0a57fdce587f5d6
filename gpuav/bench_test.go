package gpuav

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav/internal/largeshader"
	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
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

// largeShader writes largeshader.Source(n) as large.comp into a temporary
// directory and returns it.
func largeShader(b *testing.B, n int) string {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "large.comp"), []byte(largeshader.Source(n)), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkInstrumentLarge instruments generated compute shaders of about
// 10 KB to 300 KB of SPIR-V (the target is 1 ms per 10 KB, i.e. 10 MB/s).
func BenchmarkInstrumentLarge(b *testing.B) {
	for _, n := range []int{4, 40, 400} {
		dir := largeShader(b, n)
		w := shadertest.Compile(b, dir, "large.comp", "--target-env", "vulkan1.2")
		b.Run(fmt.Sprintf("%dKB", 4*len(w)/1000), func(b *testing.B) {
			b.SetBytes(int64(4 * len(w)))
			for i := 0; i < b.N; i++ {
				res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7})
				if err != nil || !res.Instrumented || res.ChecksAdded < n {
					b.Fatalf("err %v instrumented %v checks %d warnings %v", err, res.Instrumented, res.ChecksAdded, res.Warnings)
				}
			}
		})
	}
}

// corpusModules compiles the pipeline scene's shader corpus (bench/corpus,
// as `make bench-apps` does: -g, Vulkan 1.1).
func corpusModules(b *testing.B) [][]uint32 {
	dir := filepath.Join("..", "bench", "corpus")
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var mods [][]uint32
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".comp", ".vert", ".frag":
			mods = append(mods, shadertest.Compile(b, dir, e.Name(), "-g", "--target-env", "vulkan1.1"))
		}
	}
	if len(mods) != 55 {
		b.Fatalf("%d corpus modules, want the pipeline scene's 55", len(mods))
	}
	return mods
}

// BenchmarkInstrumentCorpus instruments the pipeline scene's 55 modules
// once per iteration, with every check on and the options the layer gives
// on lavapipe (sized element checks, Int64,
// printf): the layer's own share of pipeline creation.
func BenchmarkInstrumentCorpus(b *testing.B) {
	mods := corpusModules(b)
	checks := map[string]bool{}
	for _, id := range AllChecks {
		checks[id] = true
	}
	b.ResetTimer()
	cpu0 := processCPU(b)
	for i := 0; i < b.N; i++ {
		for j, w := range mods {
			res, err := Instrument(w, Options{ShaderID: uint32(j + 1), DescriptorSet: 7, Checks: checks,
				SizedElementChecks: true, Int64: true, Printf: true})
			if err != nil || !res.Instrumented {
				b.Fatalf("module %d: err %v instrumented %v", j, err, res.Instrumented)
			}
		}
	}
	b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// processCPU is the process's user and system CPU time so far, in
// nanoseconds, GC workers included: on a loaded machine it moves less
// than wall time.
func processCPU(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
