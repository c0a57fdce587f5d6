package session

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// printfBenchLines is one dispatch of 1024×1024 invocations, each printing
// one line of testdata/printf.comp's "i=%u n=%u".
const printfBenchLines = 1 << 20

// printfBenchFrames are that dispatch's printf messages as frame payloads,
// 65,536 lines each, as the layer would send them.
func printfBenchFrames(b *testing.B, instruction int) [][]byte {
	var frames [][]byte
	const per = 1 << 16
	for first := 0; first < printfBenchLines; first += per {
		site := wire.PrintfSite{Action: "vkCmdDispatch", Pipeline: 0x77, ShaderID: 1, Instruction: uint32(instruction), Stage: 5, Args: 2}
		for i := first; i < first+per; i++ {
			x, y := uint32(i%1024), uint32(i/1024)
			site.AppendLine([3]uint32{x, y, 0}, []uint32{uint32(i), 4})
		}
		f, err := wire.Encode(wire.KindPrintf, &wire.Printf{Submit: 1, CommandBuffer: 0x55, Sites: []wire.PrintfSite{site}})
		if err != nil {
			b.Fatal(err)
		}
		frames = append(frames, f[wire.HeaderSize:])
	}
	return frames
}

// BenchmarkPrintfMillionLines: the launcher's side of printing from every
// invocation of a 1M-invocation dispatch: the frames decoded, every line
// formatted and grouped; lines per second and the heap the session keeps
// per line.
func BenchmarkPrintfMillionLines(b *testing.B) {
	words, sites := printfShader(b)
	frames := printfBenchFrames(b, sites[0].Instruction)
	bytes := 0
	for _, f := range frames {
		bytes += len(f)
	}
	b.SetBytes(int64(bytes))
	var perLine float64
	cpu0 := cpuTime()
	for b.Loop() {
		before := heapAfterGC()
		c := NewCollector()
		record(b, c, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: spirvBytes(words...)})
		for _, f := range frames {
			if err := c.RecordFrame(wire.KindPrintf, f); err != nil {
				b.Fatal(err)
			}
		}
		s := c.finish()
		if len(s.Printf) != 1 || s.Printf[0].Count != printfBenchLines || len(s.Printf[0].Lines) != printfBenchLines ||
			s.Printf[0].Lines[printfBenchLines-1].Text != fmt.Sprintf("i=%d n=4", printfBenchLines-1) {
			b.Fatalf("groups %d", len(s.Printf))
		}
		perLine = float64(heapAfterGC()-before) / printfBenchLines
		runtime.KeepAlive(s)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/printfBenchLines, "ns/line")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/printfBenchLines, "cpu-ns/line")
	b.ReportMetric(perLine, "heap-B/line")
	b.ReportMetric(float64(bytes)/printfBenchLines, "frame-B/line")
}
