package session

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// craftedFile is a session file of n Errors frames of one submit and one
// command buffer, each a record of its own action (shape "actions") or of
// its own group in one action (shape "groups"), every CRC right.
func craftedFile(t testing.TB, n int, shape string) []byte {
	var b bytes.Buffer
	b.WriteString(FileHeader)
	for i := 0; i < n; i++ {
		r := computeRecord(0)
		switch shape {
		case "actions":
			r.ActionIndex = uint32(i)
		case "groups":
			r.Instruction = uint32(1000 + i)
		}
		e := &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{r}}
		if shape == "reversed" {
			e.Submit = uint64(n - i) // submits in reverse order
		}
		b.Write(AppendFileFrame(nil, wire.KindErrorsPacked, wire.AppendPackedErrors(nil, e)))
	}
	return b.Bytes()
}

// TestOpenCraftedLinear: a file that passes every CRC but piles 40,000
// error frames on one submit and command buffer (each of its own action,
// or each of its own group in one action, or 40,000 submits in reverse
// order) opens in time linear in its size: 8 times the frames take at
// most 24 times as long (the best of a few opens, on a machine shared
// with other work; a quadratic open takes 64 times: 10,000 frames of their
// own actions took 20 s and 40,000 took 565 s on the 2-core machine).
func TestOpenCraftedLinear(t *testing.T) {
	const small, large = 5000, 40000
	for _, shape := range []string{"actions", "groups", "reversed"} {
		took := map[int]time.Duration{}
		for _, n := range []int{small, large} {
			data := craftedFile(t, n, shape)
			for range 3 {
				start := time.Now()
				s, err := Parse(data)
				if d := time.Since(start); took[n] == 0 || d < took[n] {
					took[n] = d
				}
				if err != nil {
					t.Fatal(err)
				}
				if shape == "reversed" {
					if len(s.Timeline) != n || s.Timeline[0].Submit != 1 || s.Timeline[n-1].Submit != uint64(n) || s.Groups[0].Count != n {
						t.Fatalf("%s %d: %d submits from %d", shape, n, len(s.Timeline), s.Timeline[0].Submit)
					}
					continue
				}
				if got := s.Timeline[0].CommandBuffers[0]; len(s.Timeline) != 1 || len(s.Groups) != n ||
					len(got.Actions) != map[string]int{"actions": n, "groups": 1}[shape] {
					t.Fatalf("%s %d: %d submits, %d groups, %d actions", shape, n, len(s.Timeline), len(s.Groups), len(got.Actions))
				}
			}
		}
		t.Logf("%s: %d frames %v, %d frames %v", shape, small, took[small], large, took[large])
		if took[large] > 24*took[small]+time.Second || took[large] > 20*time.Second {
			t.Errorf("%s: %d frames %v, %d frames %v: not linear", shape, small, took[small], large, took[large])
		}
	}
}

// packedPayload is a packed errors payload written by hand: the header of
// submit 1, command buffer 0x55, then body.
func packedPayload(body func(b []byte) []byte) []byte {
	b := []byte{wire.PackedVersion}
	// submit, queue, command buffer, dropped, primary, primary action, first
	// submit, command buffer serial, primary serial
	for range 9 {
		b = binary.AppendUvarint(b, 1)
	}
	return body(b)
}

// TestOpenCraftedFrameMemory: a frame that passes its CRC but claims
// tens of millions of strings, label paths or labels, or millions of
// records, costs memory bounded by its size with a small factor (12: a
// record takes 16 bytes of a payload and 136 of memory): the
// counts are bounded before anything is made for them (a 60 MB frame
// allocated 1.49 GB), and the frame is refused at its byte when past them.
func TestOpenCraftedFrameMemory(t *testing.T) {
	record := func(b []byte) []byte {
		// check 0, code 1, shader 1, instruction 9, stage 5, 3 stage
		// words, action 0, action string 1, pipeline 1, no labels, no
		// params, count 1 (zigzag 2), loop 0, pipeline serial 1: 16 bytes.
		return append(b, 0, 1, 1, 9, 5, 0, 0, 0, 0, 1, 1, 0, 0, 2, 0, 1)
	}
	oneString := func(b []byte) []byte {
		return append(append(binary.AppendUvarint(binary.AppendUvarint(b, 2), 20), "descriptor_index_oob"...), append([]byte{13}, "vkCmdDispatch"...)...)
	}
	for _, c := range []struct {
		name    string
		payload []byte
		corrupt bool // refused at the frame
	}{
		{"20 M empty strings", packedPayload(func(b []byte) []byte {
			b = binary.AppendUvarint(b, 20<<20)
			return append(b, make([]byte, 20<<20)...)
		}), true},
		{"20 M label paths", packedPayload(func(b []byte) []byte {
			b = binary.AppendUvarint(oneString(b), 20<<20)
			for range 20 << 20 {
				b = append(b, 1, 0)
			}
			return b
		}), true},
		{"65,536 label paths of 256 labels", packedPayload(func(b []byte) []byte {
			b = binary.AppendUvarint(oneString(b), 1<<16)
			for range 1 << 16 {
				b = binary.AppendUvarint(b, 256)
				b = append(b, make([]byte, 256)...)
			}
			return b
		}), true},
		{"4 M records", packedPayload(func(b []byte) []byte {
			b = binary.AppendUvarint(binary.AppendUvarint(oneString(b), 0), 4<<20)
			for range 4 << 20 {
				b = record(b)
			}
			return b
		}), true},
		{"2 M records", packedPayload(func(b []byte) []byte {
			b = binary.AppendUvarint(binary.AppendUvarint(oneString(b), 0), 2<<20)
			for range 2 << 20 {
				b = record(b)
			}
			return b
		}), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := AppendFileFrame([]byte(FileHeader), wire.KindErrorsPacked, c.payload)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Parse(data)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			var te *TruncatedError
			if c.corrupt != errors.As(err, &te) {
				t.Errorf("error %v, want it refused: %v", err, c.corrupt)
			}
			t.Logf("%d MB frame: %d MB allocated (%v)", len(c.payload)>>20, alloc>>20, err)
			if alloc > 12*uint64(len(c.payload))+16<<20 {
				t.Errorf("%d bytes allocated for a frame of %d", alloc, len(c.payload))
			}
		})
	}
}

// TestOpenStreams: opening a session file costs memory for its largest
// frame and the session, not the whole file (a 758 MB session needed
// 1.56 GB, read whole): 24 MB of records of one group allocate less than
// a quarter of the file.
func TestOpenStreams(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(FileHeader)
	e := &wire.Errors{Submit: 1, CommandBuffer: 0x55}
	for i := range 4096 {
		r := computeRecord(uint32(i % 4))
		e.Records = append(e.Records, r)
	}
	frame := AppendFileFrame(nil, wire.KindErrorsPacked, wire.AppendPackedErrors(nil, e))
	for b.Len() < 24<<20 {
		b.Write(frame)
	}
	p := filepath.Join(t.TempDir(), "big.gvs")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	size := b.Len()
	b = bytes.Buffer{}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := Open(p)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d MB file: %d MB allocated, %d records", size>>20, alloc>>20, s.Groups[0].Count)
	if alloc > uint64(size)/4 || len(s.Groups) != 1 {
		t.Errorf("%d bytes allocated to open a file of %d (%d groups)", alloc, size, len(s.Groups))
	}
}

// TestOpenDenseJSON: a JSON errors frame (as version 1 files hold them)
// of empty objects would decode into 136-byte records, 45 times its size:
// it is refused at its frame before it is decoded.
func TestOpenDenseJSON(t *testing.T) {
	payload := append([]byte(`{"records":[`), bytes.Repeat([]byte(`{},`), 1<<20)...)
	payload = append(payload[:len(payload)-1], "]}"...)
	data := AppendFileFrame([]byte(FileHeader), wire.KindErrors, payload)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse(data)
	runtime.ReadMemStats(&after)
	var te *TruncatedError
	if !errors.As(err, &te) || !errors.Is(err, wire.ErrTooDense) || te.Offset != int64(len(FileHeader)) {
		t.Errorf("error %v, want the frame refused as too dense", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(payload)) {
		t.Errorf("%d bytes allocated for a frame of %d", alloc, len(payload))
	}
}
