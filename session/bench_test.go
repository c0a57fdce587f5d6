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

// benchShape is a benchmark session: Records error records in groups of
// CmdBufs command buffers × Actions actions × Shaders shaders (one group
// each), PerMessage records per errors message (one command buffer each),
// every record with its own coordinates.
type benchShape struct {
	name                               string
	Records, CmdBufs, Actions, Shaders int
	PerMessage                         int
	once                               sync.Once
	data                               []byte
}

// Groups is the number of groups the shape makes.
func (b *benchShape) Groups() int { return b.CmdBufs * b.Actions * b.Shaders }

// Submits is the number of submits: one message per command buffer each.
func (b *benchShape) Submits() int { return b.Records / b.PerMessage / b.CmdBufs }

var (
	// bench1M: 1,000,000 records of 10,000 groups (10 command buffers ×
	// 100 actions × 10 shaders), 4,000 records per message (the layer's
	// buffer holds 4,096 per command buffer), so 250 messages over 25
	// submits.
	bench1M = &benchShape{name: "1M", Records: 1_000_000, CmdBufs: 10, Actions: 100, Shaders: 10, PerMessage: 4000}
	// bench250k: 1,000,000 records of 250,000 distinct groups (100 command
	// buffers × 250 actions × 10 shaders), 2,500 records per message (one
	// per group of its command buffer), so 400 messages over 4 submits:
	// four records per group.
	bench250k = &benchShape{name: "250k-groups", Records: 1_000_000, CmdBufs: 100, Actions: 250, Shaders: 10, PerMessage: 2500}
	// bench1Group: 1,000,000 records of one group, 4,000 per message, 250
	// submits.
	bench1Group = &benchShape{name: "1-group", Records: 1_000_000, CmdBufs: 1, Actions: 1, Shaders: 1, PerMessage: 4000}
)

// file returns the bytes of the shape's session file.
func (b *benchShape) file() []byte {
	b.once.Do(func() {
		var buf bytes.Buffer
		buf.WriteString(FileHeader)
		put := func(k wire.Kind, m any) {
			if err := WriteFileFrame(&buf, k, m); err != nil {
				panic(err)
			}
		}
		checks := map[string]bool{"descriptor_index_oob": true}
		put(wire.KindAppStarted, &wire.AppStarted{Path: "/bin/app", PID: 7, Time: t0, Settings: wire.Settings{Checks: checks}})
		put(wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: gpuav.RecordFormatVersion, App: "/bin/app", PID: 7, Settings: wire.Settings{Checks: checks}})
		put(wire.KindDevice, &wire.Device{Handle: 1, Name: "llvmpipe", APIVersion: "1.4.305", MaxBoundDescriptorSets: 8, DescriptorSlot: 7, Instrumenting: true})
		for sh := uint32(1); sh <= uint32(b.Shaders); sh++ {
			put(wire.KindShader, &wire.Shader{ID: sh, Module: 0x1000 + uint64(sh), SPIRV: spirvBytes(0x07230203, 0x00010300, 0, 10, 0), Instrumented: true})
			put(wire.KindPipeline, &wire.Pipeline{Handle: 0x2000 + uint64(sh), BindPoint: "compute", Instrumented: true,
				Stages: []wire.PipelineRef{{Stage: "compute", ShaderID: sh, Module: 0x1000 + uint64(sh), Entry: "main"}}})
		}
		for cb := range b.CmdBufs {
			put(wire.KindName, &wire.Name{Handle: 0x3000 + uint64(cb), ObjectType: "command_buffer", Name: fmt.Sprintf("cmd-%d", cb)})
		}
		perCB := b.Actions * b.Shaders
		for m := range b.Records / b.PerMessage {
			cb := m % b.CmdBufs
			e := &wire.Errors{Submit: uint64(m/b.CmdBufs + 1), CommandBuffer: 0x3000 + uint64(cb), Records: make([]wire.Record, b.PerMessage)}
			for j := range e.Records {
				g := j % perCB
				action, sh := uint32(g/b.Shaders), uint32(g%b.Shaders)+1
				x := uint32(m*b.PerMessage + j)
				e.Records[j] = wire.Record{Check: "descriptor_index_oob", Code: 1, ShaderID: sh, Instruction: 100 + action, Stage: 5,
					StageWords: [3]uint32{x % 4096, x / 4096, 0}, ActionIndex: action, Action: "vkCmdDispatch", Pipeline: 0x2000 + uint64(sh),
					Labels: []string{"frame", fmt.Sprintf("pass %d", action%4)}, Params: []uint32{0, sh, 8 + action, 8, 0, 0, 0}, Count: 1}
			}
			put(wire.KindErrorsPacked, e)
		}
		put(wire.KindBye, &wire.Bye{Submits: uint64(b.Submits())})
		put(wire.KindAppExited, &wire.AppExited{State: "exited", Time: t0.Add(time.Minute)})
		b.data = buf.Bytes()
	})
	return b.data
}

// check checks an opened benchmark session, so that a reader that drops
// records fails the benchmark rather than speeding it up.
func (b *benchShape) check(tb testing.TB, s *Session) {
	total := 0
	for _, g := range s.Groups {
		total += g.Count
	}
	if len(s.Groups) != b.Groups() || total != b.Records || len(s.Timeline) != b.Submits() {
		tb.Fatalf("opened %d groups, %d records, %d submits", len(s.Groups), total, len(s.Timeline))
	}
	samples := min(MaxSamples, b.Records/b.Groups())
	if g := s.Groups[0]; len(g.Samples) != samples || g.LastCoords.IsZero() || g.LastSubmit != uint64(b.Submits()) {
		tb.Fatalf("group 0: %d samples, last %v, last submit %d", len(g.Samples), g.LastCoords, g.LastSubmit)
	}
}

// BenchmarkOpen1M opens a saved session of 1,000,000 error records in
// 10,000 groups (target: under a second).
func BenchmarkOpen1M(b *testing.B) { benchOpen(b, bench1M) }

// BenchmarkOpen250kGroups opens a saved session of 1,000,000 error records
// in 250,000 distinct groups (target: under 2 s and 500 MB).
func BenchmarkOpen250kGroups(b *testing.B) { benchOpen(b, bench250k) }

// BenchmarkOpen1Group opens a saved session of 1,000,000 error records in
// one group.
func BenchmarkOpen1Group(b *testing.B) { benchOpen(b, bench1Group) }

// benchOpen opens the shape's session file and reports the time, CPU
// time, allocation and retained heap of an open.
func benchOpen(b *testing.B, shape *benchShape) {
	data := shape.file()
	path := filepath.Join(b.TempDir(), "big.gvs")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var s *Session
	var retained uint64
	base := heapAfterGC()
	cpu0 := cpuTime()
	for b.Loop() {
		s = nil
		var err error
		if s, err = Open(path); err != nil {
			b.Fatal(err)
		}
		retained = heapAfterGC()
	}
	// CPU time of the process (every thread, the GC's included) per open:
	// what the open costs when the machine is shared.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	shape.check(b, s)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(shape.Records), "ns/record")
	b.ReportMetric(float64(len(data))/float64(shape.Records), "file-B/record")
	b.ReportMetric(float64(retained-base)/(1<<20), "heap-MiB")
}

// heapAfterGC is the live heap after a collection.
func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkMemoryPerRecord reports the heap an opened 1M-record session
// keeps per record (target: at most 200 bytes), and fails above that.
func BenchmarkMemoryPerRecord(b *testing.B) {
	data := bench1M.file()
	var perRecord float64
	for b.Loop() {
		before := heapAfterGC()
		s, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		after := heapAfterGC()
		bench1M.check(b, s)
		perRecord = float64(int64(after)-int64(before)) / float64(bench1M.Records)
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

// TestWriteBenchFiles writes the benchmarks' session files (1M.gvs,
// 250k-groups.gvs, 1-group.gvs) into the directory GPUAVDBG_BENCH_FILES
// names, for bench/measure/open-large.sh to open with the real binary;
// without it the test is skipped.
func TestWriteBenchFiles(t *testing.T) {
	dir := os.Getenv("GPUAVDBG_BENCH_FILES")
	if dir == "" {
		t.Skip("GPUAVDBG_BENCH_FILES names no directory")
	}
	for _, b := range []*benchShape{bench1M, bench250k, bench1Group} {
		if err := os.WriteFile(filepath.Join(dir, b.name+FileExt), b.file(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
