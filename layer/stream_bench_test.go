package main

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// streamBuffer is a full output buffer of records that the layer cannot
// group: each its own action (of 64 actions) and site (of shader 1's 64,
// which it registers), with its own index; the buffer's last record is the
// sink.
func streamBuffer(tb testing.TB) ([]uint32, []Action) {
	const n = 4096
	sites := map[uint32][4]uint32{}
	buf := make([]uint32, gpuav.OutputHeaderWords, gpuav.OutputHeaderWords+(n+1)*gpuav.RecordWords)
	for i := uint32(0); i < n; i++ {
		sites[i%64] = [4]uint32{100 + i%64, gpuav.ModelGLCompute, 0, 0}
		buf = append(buf, record(1, i%64, [3]uint32{i, 0, 0}, i/64, gpuav.CodeDescriptorIndexOOB, 2+i, 2)...)
	}
	withShaderSites(tb, 1, sites)
	buf = append(buf, make([]uint32, gpuav.RecordWords)...)
	buf[gpuav.OutputWrittenWord] = n
	actions := make([]Action, 64)
	for a := range actions {
		actions[a] = Action{Index: uint32(a), Command: "vkCmdDispatch", Pipeline: 0x30, Labels: []string{"frame", "compute"}}
	}
	return buf, actions
}

// countingFile is the session file, counting the errors frames written
// (the collector writes each frame in one Write).
type countingFile struct {
	f      *os.File
	errors atomic.Int64
}

func (c *countingFile) Write(p []byte) (int, error) {
	if len(p) > 2 && wire.Kind(p[2]) == wire.KindErrorsPacked {
		c.errors.Add(1)
	}
	return c.f.Write(p)
}

// BenchmarkRecordsToSessionFile is the stream's whole path for records:
// a full output buffer of 4096 records the layer cannot group, decoded and
// grouped (Builder.Build, as goSubmitDone does), sent by the layer's client over a unix socket to
// the launcher's server, validated, folded into the session's groups and
// appended to the session file (with its checksums). At most 8 buffers
// are in flight, so that the client never needs to coalesce (it would
// merge records and flatter the figure: the benchmark fails if it did).
// It reports records/s from buffer to file.
func BenchmarkRecordsToSessionFile(b *testing.B) {
	words, actions := streamBuffer(b)
	dir := b.TempDir()
	f, err := session.CreateFile(filepath.Join(dir, "bench.gvs"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	file := &countingFile{f: f}
	col := session.NewCollector()
	col.SetFile(file)
	srv, err := session.Listen(dir, col)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	c, err := wire.Dial(srv.SocketPath())
	if err != nil {
		b.Fatal(err)
	}
	c.Send(wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, PID: 1})
	c.Send(wire.KindShader, &wire.Shader{ID: 1, Module: 0x40, SPIRV: []byte{3, 2, 0x23, 7}, Instrumented: true})
	cb := SubmittedCB{Handle: 0x20, Words: words, Actions: actions}
	const window = 8
	var builder Builder
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg, _, _ := builder.Build(uint64(i+1), 0x10, cb)
		c.SendErrors(&msg)
		for int64(i+1)-file.errors.Load() > window {
			time.Sleep(20 * time.Microsecond)
		}
	}
	for file.errors.Load() < int64(b.N) {
		time.Sleep(20 * time.Microsecond)
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	n := 0
	for _, g := range col.Snapshot().Groups {
		n += g.Count
	}
	if want := 4096 * b.N; n != want || c.Coalesced() != 0 || c.Lost().Records != 0 {
		b.Fatalf("session has %d records, want %d (coalesced %d, lost %d)", n, want, c.Coalesced(), c.Lost().Records)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
	// The process's CPU time per record, both ends together: what the
	// path costs whatever else the machine runs.
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/record")
	c.Close()
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
