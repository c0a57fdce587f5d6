package wire

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func packedSample() *Errors {
	return &Errors{Submit: 7, Queue: 0x1234, CommandBuffer: 0xdeadbeefcafe, Dropped: 3, Primary: 0xabcdef01, PrimaryAction: 300, FirstSubmit: 5,
		CommandBufferSerial: 12, PrimarySerial: 300, Records: []Record{
			{Check: "descriptor_index_oob", Code: 1, ShaderID: 2, Instruction: 79, Stage: 5, StageWords: [3]uint32{1, 2, 3},
				ActionIndex: 4, Action: "vkCmdDispatch", Pipeline: 0x77, PipelineSerial: 4, Params: []uint32{0, 1, 3, 2, 0, 0, 0}, Count: 1},
			{Check: "descriptor_index_oob", Code: 1, ShaderID: 2, Instruction: 40, Stage: 4, StageWords: [3]uint32{0x3f000000, 0x3fc00000, 0},
				ActionIndex: 5, Action: "vkCmdDraw", Pipeline: 0x88, Labels: []string{"frame 0", "main pass"}, Params: []uint32{0, 1, 7, 4}, Count: 12, Loop: 9},
			{Check: "", Code: 0xffffffff, ShaderID: 0xffffffff, Instruction: 0, Stage: 5364, StageWords: [3]uint32{0xffffffff, 0, 0},
				ActionIndex: 0, Action: "", Labels: []string{"main pass"}, Params: []uint32{}, Count: -5},
			{Check: "bda_oob", Action: "vkCmdDraw", Labels: []string{"frame 0", "main pass"}, Params: []uint32{9}},
		}}
}

func TestPackedRoundTrip(t *testing.T) {
	in := packedSample()
	frame, err := Encode(KindErrorsPacked, in)
	if err != nil {
		t.Fatal(err)
	}
	k, payload, err := ReadFrame(bytes.NewReader(frame))
	if err != nil || k != KindErrorsPacked {
		t.Fatalf("read: %v %v", k, err)
	}
	msg, err := Decode(k, payload)
	if err != nil {
		t.Fatal(err)
	}
	got := msg.(*Errors)
	// An empty params list comes back empty, not nil: compare by value.
	in.Records[2].Params = []uint32{}
	if !reflect.DeepEqual(got, in) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, in)
	}
	// Records share one label path.
	if &got.Records[1].Labels[0] != &got.Records[3].Labels[0] {
		t.Errorf("label paths are not shared")
	}
	if len(payload) >= 210 {
		t.Errorf("packed payload of 4 records is %d bytes", len(payload))
	}
	// A value encodes like a pointer; another message type is refused.
	if f2, err := Encode(KindErrorsPacked, *in); err != nil || !bytes.Equal(f2, frame) {
		t.Errorf("value: %v", err)
	}
	if _, err := Encode(KindErrorsPacked, &Log{}); !errors.Is(err, ErrMismatch) {
		t.Errorf("log as packed: %v", err)
	}
	// Empty message.
	f3, _ := Encode(KindErrorsPacked, &Errors{})
	if m, err := Decode(KindErrorsPacked, f3[HeaderSize:]); err != nil || len(m.(*Errors).Records) != 0 {
		t.Errorf("empty: %v %v", m, err)
	}
}

// TestPackedOlderVersions: payloads of the first format (no primary in
// the header), the second (no first submit), the third (no record's loop
// count) and the fourth (no serials), as session files written before
// hold them, still read.
func TestPackedOlderVersions(t *testing.T) {
	if v5 := AppendPackedErrors(nil, packedSample()); v5[0] != 5 {
		t.Fatalf("writes version %d, want 5", v5[0])
	}
	v4 := appendPacked(nil, packedSample(), 4)
	v3 := appendPacked(nil, packedSample(), 3)
	// Version 3's header: version, submit 7, queue 0x1234 (2 bytes), the
	// command buffer (7 bytes), dropped 3, primary 0xabcdef01 (5 bytes),
	// primary action 300 (2 bytes), first submit 5. Version 2 is the same
	// without the first submit, version 1 without the primary either.
	hdr := 1 + 1 + 2 + 7 + 1
	v2 := append([]byte{2}, v3[1:hdr+5+2]...)
	v2 = append(v2, v3[hdr+5+2+1:]...)
	v1 := append([]byte{1}, v3[1:hdr]...)
	v1 = append(v1, v3[hdr+5+2+1:]...)
	for _, c := range []struct {
		name    string
		payload []byte
		clear   func(*Errors)
	}{
		{"version 4", v4, func(e *Errors) { e.Records[1].Loop = 9 }},
		{"version 3", v3, func(*Errors) {}},
		{"version 2", v2, func(e *Errors) { e.FirstSubmit = 0 }},
		{"version 1", v1, func(e *Errors) { e.FirstSubmit, e.Primary, e.PrimaryAction = 0, 0, 0 }},
	} {
		got, err := DecodePackedErrors(c.payload)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := packedSample()
		want.Records[1].Loop = 0
		want.CommandBufferSerial, want.PrimarySerial = 0, 0
		for i := range want.Records {
			want.Records[i].PipelineSerial = 0
		}
		c.clear(want)
		want.Records[2].Params = []uint32{}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", c.name, got, want)
		}
	}
	// The same bytes marked with a later version do not decode: the
	// header is short.
	v1[0], v2[0] = 2, 3
	if _, err := DecodePackedErrors(v1); err == nil {
		t.Fatal("a version 1 body decoded as version 2")
	}
	if _, err := DecodePackedErrors(v2); err == nil {
		t.Fatal("a version 2 body decoded as version 3")
	}
}

func TestPackedBad(t *testing.T) {
	good := AppendPackedErrors(nil, packedSample())
	for _, c := range []struct {
		name string
		p    []byte
		want string
	}{
		{"empty", nil, "empty"},
		{"version", append([]byte{9}, good[1:]...), "version 9, this reader reads 1 to 5"},
		{"cut", good[:len(good)-1], "pipeline serial at byte"},
		{"trailing", append(bytes.Clone(good), 0), "1 bytes after the last record"},
		{"huge count", []byte{1, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}, "larger than the payload"},
		{"string index", []byte{1, 0, 0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "check string 5 of 0"},
	} {
		_, err := DecodePackedErrors(c.p)
		if err == nil || !errors.Is(err, ErrPacked) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// Every cut of a good payload is an error, never a panic.
	for i := range len(good) {
		if _, err := DecodePackedErrors(good[:i]); err == nil {
			t.Fatalf("cut at %d decoded", i)
		}
	}
}

// FuzzPackedErrors: any payload decodes or fails cleanly, and what decodes
// encodes back to a payload that decodes to the same message.
func FuzzPackedErrors(f *testing.F) {
	f.Add(AppendPackedErrors(nil, packedSample()))
	f.Add(AppendPackedErrors(nil, &Errors{}))
	f.Add([]byte{1})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, p []byte) {
		e, err := DecodePackedErrors(p)
		if err != nil {
			return
		}
		again, err := DecodePackedErrors(AppendPackedErrors(nil, e))
		if err != nil {
			t.Fatalf("re-encoded payload: %v", err)
		}
		for i := range e.Records {
			if len(e.Records[i].Labels) == 0 {
				e.Records[i].Labels = nil
			}
		}
		if !reflect.DeepEqual(again, e) {
			t.Fatalf("re-encode differs:\n%+v\n%+v", again, e)
		}
	})
}

// TestPackedDecoderReuse: one decoder, messages one after the other; a
// message of many records costs its strings, not an allocation per record.
func TestPackedDecoderReuse(t *testing.T) {
	big := &Errors{Submit: 1, CommandBuffer: 2}
	for i := range 1000 {
		big.Records = append(big.Records, Record{Check: "descriptor_index_oob", Code: 1, ShaderID: uint32(i % 3), Action: "vkCmdDraw",
			StageWords: [3]uint32{uint32(i), 0, 0}, Labels: []string{"a"}, Params: []uint32{1, 2, 3, 4, 0, 0, 0}, Count: 1})
	}
	small := packedSample()
	pb, ps := AppendPackedErrors(nil, big), AppendPackedErrors(nil, small)
	var d PackedDecoder
	for range 2 {
		got, err := d.Decode(pb)
		if err != nil || len(got.Records) != 1000 || got.Records[999].StageWords[0] != 999 || got.Records[999].Params[3] != 4 {
			t.Fatalf("big: %v", err)
		}
		got, err = d.Decode(ps)
		small.Records[2].Params = []uint32{}
		if err != nil || !reflect.DeepEqual(got, small) {
			t.Fatalf("small after big:\n got %+v\nwant %+v (%v)", got, small, err)
		}
	}
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := d.Decode(pb); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 10 {
		t.Fatalf("%v allocations to decode 1000 records", allocs)
	}
	if _, err := d.Decode([]byte{7}); err == nil {
		t.Fatal("bad version decoded")
	}
}

// benchErrors is one errors message of 4000 distinct records.
func benchErrors() *Errors {
	e := &Errors{Submit: 1, CommandBuffer: 0x55}
	for i := range 4000 {
		e.Records = append(e.Records, Record{Check: "descriptor_index_oob", Code: 1, ShaderID: uint32(i % 10), Instruction: uint32(100 + i%100),
			Stage: 5, StageWords: [3]uint32{uint32(i), 0, 0}, ActionIndex: uint32(i % 100), Action: "vkCmdDispatch", Pipeline: 0x77,
			Labels: []string{"frame", "pass"}, Params: []uint32{0, 1, 9, 8, 0, 0, 0}, Count: 1})
	}
	return e
}

// BenchmarkDecodeErrors compares decoding an errors message of 4000
// records as the layer sends it (JSON) and as session files keep it
// (packed).
func BenchmarkDecodeErrors(b *testing.B) {
	e := benchErrors()
	for _, c := range []struct {
		name string
		kind Kind
	}{{"json", KindErrors}, {"packed", KindErrorsPacked}} {
		b.Run(c.name, func(b *testing.B) {
			frame, err := Encode(c.kind, e)
			if err != nil {
				b.Fatal(err)
			}
			payload := frame[HeaderSize:]
			var d PackedDecoder
			b.SetBytes(int64(len(payload)))
			b.ReportAllocs()
			for b.Loop() {
				if c.kind == KindErrorsPacked {
					_, err = d.Decode(payload)
				} else {
					_, err = Decode(c.kind, payload)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4000, "ns/record")
		})
	}
}
