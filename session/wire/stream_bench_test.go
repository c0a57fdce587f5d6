package wire

import (
	"bufio"
	"net"
	"path/filepath"
	"testing"
)

// BenchmarkStreamErrors streams Errors messages of 4096 records each (one
// full output buffer, every record distinct) from a Client over a unix
// socket to a reader that decodes every frame, as the launcher does. It
// reports records/s end to end, with up to 4 messages in flight (less than
// ClientBuffer: the client never coalesces, which would merge the
// repeated message's records and flatter the figure; the benchmark fails
// if it did).
func BenchmarkStreamErrors(b *testing.B) {
	const perMsg = 4096
	path := filepath.Join(b.TempDir(), "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	msg := &Errors{Submit: 1, Queue: 0x10, CommandBuffer: 0x20}
	for i := 0; i < perMsg; i++ {
		msg.Records = append(msg.Records, Record{
			Check: "descriptor_index_oob", Code: 1, ShaderID: 1, Instruction: uint32(100 + i%7), Stage: 5,
			StageWords: [3]uint32{uint32(i), 0, 0}, ActionIndex: uint32(i / 64), Action: "vkCmdDispatch",
			Pipeline: 0x30, Params: []uint32{0, 0, 4, 4, 0, 0, 0}, Count: 1,
		})
	}
	got := make(chan int, 1)
	ack := make(chan struct{}, 1024) // one per message read
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			got <- -1
			return
		}
		defer conn.Close()
		r := bufio.NewReaderSize(conn, 1<<16)
		n := 0
		for {
			k, p, err := ReadFrame(r)
			if err != nil {
				got <- n
				return
			}
			m, err := Decode(k, p)
			if err != nil {
				got <- -1
				return
			}
			n += len(m.(*Errors).Records)
			ack <- struct{}{}
		}
	}()
	c, err := Dial(path)
	if err != nil {
		b.Fatal(err)
	}
	// At most window messages in flight, so the timing is the pipeline's
	// steady rate.
	const window = 4
	inflight := 0
	b.ReportAllocs()
	for b.Loop() {
		c.Send(KindErrors, msg)
		for inflight++; inflight > window; inflight-- {
			<-ack
		}
	}
	for ; inflight > 0; inflight-- {
		<-ack
	}
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}
	n := <-got
	if l := c.Lost(); l.Records != 0 || n != perMsg*b.N || c.Coalesced() != 0 {
		b.Fatalf("reader got %d records of %d, client lost %d, coalesced %d", n, perMsg*b.N, l.Records, c.Coalesced())
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
}
