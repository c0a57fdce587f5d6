package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Shape of the benchmark session: 1,000,000 records of 10,000 groups (10
// command buffers × 100 actions × 10 shaders), 4,000 records per errors
// message (the layer's buffer holds 4,096 per command buffer), so 250
// messages over 25 submits; every record has its own coordinates.
const (
	benchRecords    = 1_000_000
	benchCmdBufs    = 10
	benchActions    = 100
	benchShaders    = 10
	benchPerMessage = 4000
)

var (
	benchOnce sync.Once
	benchData []byte
)

// benchSession returns the bytes of the benchmark's session file.
func benchSession(tb testing.TB) []byte {
	benchOnce.Do(func() {
		var buf bytes.Buffer
		buf.WriteString(FileHeader)
		put := func(k wire.Kind, m any) {
			if err := wire.WriteFrame(&buf, k, m); err != nil {
				panic(err)
			}
		}
		checks := map[string]bool{"descriptor_index_oob": true}
		put(wire.KindAppStarted, &wire.AppStarted{Path: "/bin/app", PID: 7, Time: t0, Settings: wire.Settings{Checks: checks}})
		put(wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: gpuav.RecordFormatVersion, App: "/bin/app", PID: 7, Settings: wire.Settings{Checks: checks}})
		put(wire.KindDevice, &wire.Device{Handle: 1, Name: "llvmpipe", APIVersion: "1.4.305", MaxBoundDescriptorSets: 8, DescriptorSlot: 7, Instrumenting: true})
		for sh := uint32(1); sh <= benchShaders; sh++ {
			put(wire.KindShader, &wire.Shader{ID: sh, Module: 0x1000 + uint64(sh), SPIRV: spirvBytes(0x07230203, 0x00010300, 0, 10, 0), Instrumented: true})
			put(wire.KindPipeline, &wire.Pipeline{Handle: 0x2000 + uint64(sh), BindPoint: "compute", Instrumented: true,
				Stages: []wire.PipelineRef{{Stage: "compute", ShaderID: sh, Module: 0x1000 + uint64(sh), Entry: "main"}}})
		}
		for cb := range benchCmdBufs {
			put(wire.KindName, &wire.Name{Handle: 0x3000 + uint64(cb), ObjectType: "command_buffer", Name: fmt.Sprintf("cmd-%d", cb)})
		}
		perCB := benchActions * benchShaders
		for m := range benchRecords / benchPerMessage {
			cb := m % benchCmdBufs
			e := &wire.Errors{Submit: uint64(m/benchCmdBufs + 1), CommandBuffer: 0x3000 + uint64(cb), Records: make([]wire.Record, benchPerMessage)}
			for j := range e.Records {
				g := j % perCB
				action, sh := uint32(g/benchShaders), uint32(g%benchShaders)+1
				x := uint32(m*benchPerMessage + j)
				e.Records[j] = wire.Record{Check: "descriptor_index_oob", Code: 1, ShaderID: sh, Instruction: 100 + action, Stage: 5,
					StageWords: [3]uint32{x % 4096, x / 4096, 0}, ActionIndex: action, Action: "vkCmdDispatch", Pipeline: 0x2000 + uint64(sh),
					Labels: []string{"frame", fmt.Sprintf("pass %d", action%4)}, Params: []uint32{0, sh, 8 + action, 8, 0, 0, 0}, Count: 1}
			}
			put(wire.KindErrorsPacked, e)
		}
		put(wire.KindBye, &wire.Bye{Submits: benchRecords / benchPerMessage / benchCmdBufs})
		put(wire.KindAppExited, &wire.AppExited{State: "exited", Time: t0.Add(time.Minute)})
		benchData = buf.Bytes()
	})
	return benchData
}

// checkBench checks the opened benchmark session, so that a reader that
// drops records fails the benchmark rather than speeding it up.
func checkBench(tb testing.TB, s *Session) {
	total := 0
	for _, g := range s.Groups {
		total += g.Count
	}
	if len(s.Groups) != benchCmdBufs*benchActions*benchShaders || total != benchRecords || len(s.Timeline) != 25 {
		tb.Fatalf("opened %d groups, %d records, %d submits", len(s.Groups), total, len(s.Timeline))
	}
	if g := s.Groups[0]; len(g.Samples) != MaxSamples || g.LastCoords == nil || g.LastSubmit != 25 {
		tb.Fatalf("group 0: %d samples, last %v, last submit %d", len(g.Samples), g.LastCoords, g.LastSubmit)
	}
}

// BenchmarkOpen1M opens a saved session of 1,000,000 error records
// (target: under a second).
func BenchmarkOpen1M(b *testing.B) {
	data := benchSession(b)
	path := filepath.Join(b.TempDir(), "big.gvs")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var s *Session
	cpu0 := cpuTime()
	for b.Loop() {
		var err error
		if s, err = Open(path); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time of the process (every thread, the GC's included) per open:
	// what the open costs when the machine is shared.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	checkBench(b, s)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchRecords, "ns/record")
	b.ReportMetric(float64(len(data))/benchRecords, "file-B/record")
}

// BenchmarkMemoryPerRecord reports the heap an opened 1M-record session
// keeps per record (target: at most 200 bytes), and fails above that.
func BenchmarkMemoryPerRecord(b *testing.B) {
	data := benchSession(b)
	var perRecord float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		checkBench(b, s)
		perRecord = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / benchRecords
		runtime.KeepAlive(s)
	}
	b.ReportMetric(perRecord, "B/record")
	if perRecord > 200 {
		b.Fatalf("%.1f bytes per record retained, want at most 200", perRecord)
	}
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
