package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// samples has one filled-in message of every kind.
func samples() map[Kind]any {
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	return map[Kind]any{
		KindHello: &Hello{Protocol: ProtocolVersion, RecordFormat: 1, LayerVersion: "0.1.0", App: "/bin/demo",
			Args: []string{"-x"}, PID: 42, Settings: Settings{Checks: map[string]bool{"descriptor_index_oob": true, "bda_oob": false}, ReserveSlot: true, OnError: "skip"}},
		KindDevice: &Device{Handle: 0x55, Name: "llvmpipe", APIVersion: "1.4.305", DriverVersion: 7, VendorID: 0x10005,
			DeviceID: 1, MaxBoundDescriptorSets: 8, DescriptorSlot: 7, Instrumenting: true, Reason: "r"},
		KindShader: &Shader{ID: 1, Module: 0xabc, SPIRV: []byte{3, 2, 0x23, 7, 0, 1, 2, 3}, Instrumented: true, Warning: "w", InstrumentMicros: 12},
		KindPipeline: &Pipeline{Handle: 9, Layout: 10, BindPoint: "compute", Instrumented: true, Warning: "x",
			Stages: []PipelineRef{{Stage: "compute", ShaderID: 1, Module: 0xabc, Entry: "main"}}},
		KindName: &Name{Handle: 0x55, ObjectType: "command_buffer", Name: "compute-cmd"},
		KindErrors: &Errors{Submit: 3, Queue: 4, CommandBuffer: 0x55, Dropped: 2, Records: []Record{{
			Check: "descriptor_index_oob", Code: 1, ShaderID: 1, Instruction: 79, Stage: 5, StageWords: [3]uint32{1, 2, 3},
			ActionIndex: 0, Action: "vkCmdDispatch", Pipeline: 9, Labels: []string{"a", "b"}, Params: []uint32{0, 0, 3, 2}, Count: 4}}},
		KindErrorsPacked: &Errors{Submit: 3, Queue: 4, CommandBuffer: 0x55, Dropped: 2, Records: []Record{{
			Check: "descriptor_index_oob", Code: 1, ShaderID: 1, Instruction: 79, Stage: 5, StageWords: [3]uint32{1, 2, 3},
			ActionIndex: 0, Action: "vkCmdDispatch", Pipeline: 9, Labels: []string{"a", "b"}, Params: []uint32{0, 0, 3, 2}, Count: 4}}},
		KindHang: &Hang{Reason: HangWatchdog, WatchdogSeconds: 2, Submits: []HangSubmit{{Queue: 4, Submit: 3, PendingSeconds: 2.5,
			CommandBuffers: []HangCB{{Handle: 0x55, Actions: 3, Markers: true, Completed: 1, RunningFrom: 1, RunningTo: 2,
				Begun: 2, Ended: 1, Records: 4, Shown: []HangAction{{Index: 1, Command: "vkCmdDispatch", Pipeline: 9,
					Labels: []string{"spin"}, State: ActionRunning}}}}}}},
		KindHangFinished: &HangFinished{Queue: 4, Submit: 3, Seconds: 11.25},
		KindBusy:         &Busy{Queue: 4, Submit: 3, Seconds: 3.5, WatchdogSeconds: 10},
		KindLog:          &Log{Level: "warning", Text: "hi", Unchecked: true, Kind: LogUncheckedRecords, Count: 2},
		KindBye:          &Bye{Submits: 5},
		KindLabel:        &Label{CommandBuffer: 0x55, Op: "begin", Name: "frame"},
		KindPrintf: &Printf{Submit: 3, Queue: 4, CommandBuffer: 0x55, Primary: 0x56, PrimaryAction: 2, Lost: 7, Sites: []PrintfSite{{
			ActionIndex: 1, Action: "vkCmdDispatch", Pipeline: 9, Labels: []string{"a"}, ShaderID: 1, Instruction: 40, Stage: 5,
			Args: 1, Lines: []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}}}},
		KindLost: &Lost{Records: 12, Groups: []LostGroup{{Code: 1, Check: "descriptor_index_oob", ShaderID: 2, Instruction: 79, Count: 10}},
			Messages: map[string]uint64{"shader": 1}},
		KindPaused:         &Paused{PID: 7, Submit: 3, Queue: 4, Records: 2},
		KindContinue:       &Continue{Stopped: true},
		KindAppStarted:     &AppStarted{Path: "/bin/demo", Args: []string{"a"}, PID: 7, Time: t0, Settings: Settings{ReserveSlot: true}, Session: "/s.gvs"},
		KindAppOutput:      &AppOutput{Stream: "stderr", Text: "oops"},
		KindAppExited:      &AppExited{Code: 139, Signal: "SIGSEGV", State: "crashed", Time: t0},
		KindNotice:         &Notice{Level: "error", Text: "n", Time: t0},
		KindTime:           &Time{Time: t0},
		KindSourceFile:     &SourceFile{Name: "a.comp", Path: "/src/a.comp", Lines: []string{"void main()", "{}"}},
		KindStreamCut:      &StreamCut{Connection: 2},
		KindAppOutputBlock: &AppOutputBlock{Stream: "stderr", Text: "one\n\nthree \xff\x00 bytes"},
		KindCapabilities: &Capabilities{Devices: []DeviceCapabilities{{Device: "llvmpipe", Driver: "llvmpipe 0.0.1", APIVersion: "1.4.305",
			VendorID: 0x10005, MaxBoundDescriptorSets: 8, DescriptorSlot: 7,
			Checks: map[string]CheckSupport{"descriptor_index_oob": {Available: true, Note: "n"}, "ray_query": {Reason: "r"}}}}, Error: "e"},
	}
}

func TestRoundTripEveryKind(t *testing.T) {
	all := samples()
	if len(all) != len(kinds) {
		t.Fatalf("samples cover %d kinds, the table has %d", len(all), len(kinds))
	}
	var stream bytes.Buffer
	var order []Kind
	for k := Kind(0); k < 255; k++ {
		msg, ok := all[k]
		if !ok {
			continue
		}
		t.Run(k.String(), func(t *testing.T) {
			want := k
			if k == KindErrorsPacked {
				want = KindErrors // the same message, packed
			}
			if got, ok := KindOf(msg); !ok || got != want {
				t.Fatalf("KindOf = %v, %v; want %v", got, ok, k)
			}
			var buf bytes.Buffer
			if err := WriteFrame(&buf, k, msg); err != nil {
				t.Fatal(err)
			}
			raw := buf.Bytes()
			if raw[0] != 'G' || raw[1] != 'V' || Kind(raw[2]) != k || raw[3] != 0 {
				t.Fatalf("header % x", raw[:4])
			}
			if n := binary.LittleEndian.Uint32(raw[4:8]); int(n) != len(raw)-HeaderSize {
				t.Fatalf("length %d, payload %d", n, len(raw)-HeaderSize)
			}
			gk, payload, err := ReadFrame(&buf)
			if err != nil || gk != k {
				t.Fatalf("ReadFrame = %v, %v", gk, err)
			}
			got, err := Decode(gk, payload)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, msg) {
				t.Fatalf("round trip:\n got %#v\nwant %#v", got, msg)
			}
			if _, _, err := ReadFrame(&buf); err != io.EOF {
				t.Fatalf("after the frame: %v, want io.EOF", err)
			}
		})
		if err := WriteFrame(&stream, k, msg); err != nil {
			t.Fatal(err)
		}
		order = append(order, k)
	}
	// All kinds back to back in one stream.
	for i, want := range order {
		k, payload, err := ReadFrame(&stream)
		if err != nil || k != want {
			t.Fatalf("frame %d: %v, %v; want %v", i, k, err, want)
		}
		if _, err := Decode(k, payload); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
	}
}

func TestDecodeIgnoresUnknownFields(t *testing.T) {
	got, err := Decode(KindLog, []byte(`{"level":"info","text":"x","future":{"a":[1,2]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if l := got.(*Log); l.Level != "info" || l.Text != "x" {
		t.Fatalf("got %+v", l)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name    string
		kind    Kind
		payload string
		want    error
		substr  string
	}{
		{"malformed json", KindLog, `{"level":`, nil, "decode log"},
		{"wrong type", KindBye, `{"submits":"many"}`, nil, "decode bye"},
		{"not an object", KindErrors, `[1,2]`, nil, "decode errors"},
		{"unknown kind", Kind(200), `{}`, ErrUnknownKind, "unknown message kind 200"},
		{"old protocol", KindHello, `{"protocol":0}`, ErrProtocol, "protocol 0"},
		{"future protocol", KindHello, `{"protocol":3,"pid":1}`, ErrProtocol, "protocol 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.kind, []byte(c.payload))
			if err == nil {
				t.Fatal("no error")
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.substr) {
				t.Fatalf("error %q does not say %q", err, c.substr)
			}
		})
	}
}

// header builds a frame header.
func header(m0, m1 byte, k Kind, reserved byte, n uint32) []byte {
	h := []byte{m0, m1, byte(k), reserved, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(h[4:], n)
	return h
}

func TestReadFrameGarbage(t *testing.T) {
	good, err := Encode(KindLog, &Log{Level: "info", Text: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"bad magic", append([]byte("XV"), good[2:]...), ErrBadMagic},
		{"text", []byte("hello, world\n"), ErrBadMagic},
		{"reserved", header('G', 'V', KindLog, 1, 2), ErrReserved},
		{"unknown kind 0", header('G', 'V', 0, 0, 2), ErrUnknownKind},
		{"unknown kind 63", header('G', 'V', 63, 0, 2), ErrUnknownKind},
		{"too large", header('G', 'V', KindLog, 0, MaxPayload+1), ErrTooLarge},
		{"huge", header('G', 'V', KindShader, 0, 0xffffffff), ErrTooLarge},
		{"header cut", good[:5], ErrTruncated},
		{"payload cut", good[:len(good)-1], ErrTruncated},
		{"empty payload promised 10", header('G', 'V', KindBye, 0, 10), ErrTruncated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ReadFrame(bytes.NewReader(c.in))
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
		})
	}
	// Exactly MaxPayload is allowed by the header check.
	if _, n, err := ParseHeader([HeaderSize]byte(header('G', 'V', KindShader, 0, MaxPayload))); err != nil || n != MaxPayload {
		t.Fatalf("max payload: %d, %v", n, err)
	}
}

func TestTruncatedAtEveryOffset(t *testing.T) {
	var buf bytes.Buffer
	for _, m := range []any{&Log{Level: "info", Text: "a"}, &Bye{Submits: 1}} {
		k, _ := KindOf(m)
		if err := WriteFrame(&buf, k, m); err != nil {
			t.Fatal(err)
		}
	}
	full := buf.Bytes()
	first, _ := Encode(KindLog, &Log{Level: "info", Text: "a"})
	for cut := 0; cut < len(full); cut++ {
		r := bytes.NewReader(full[:cut])
		var frames int
		var err error
		for {
			if _, _, err = ReadFrame(r); err != nil {
				break
			}
			frames++
		}
		wantFrames := 0
		if cut >= len(first) {
			wantFrames = 1
		}
		if frames != wantFrames {
			t.Fatalf("cut %d: %d frames, want %d", cut, frames, wantFrames)
		}
		if cut == 0 || cut == len(first) {
			if err != io.EOF {
				t.Fatalf("cut %d at a frame boundary: %v, want io.EOF", cut, err)
			}
		} else if !errors.Is(err, ErrTruncated) {
			t.Fatalf("cut %d: %v, want ErrTruncated", cut, err)
		}
	}
}

func TestEncodeRefusals(t *testing.T) {
	if _, err := Encode(KindLog, &Bye{}); !errors.Is(err, ErrMismatch) {
		t.Fatalf("mismatch: %v", err)
	}
	if _, err := Encode(Kind(99), &Log{}); !errors.Is(err, ErrUnknownKind) {
		t.Fatalf("unknown kind: %v", err)
	}
	if _, err := EncodeRaw(KindShader, make([]byte, MaxPayload+1)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("too large: %v", err)
	}
	if _, err := Encode(KindLog, map[string]any{"x": func() {}}); err == nil {
		t.Fatal("unencodable message accepted")
	}
	// A plain map is allowed for any kind (no type of its own).
	if _, err := Encode(KindLog, map[string]string{"level": "info"}); err != nil {
		t.Fatal(err)
	}
}

func TestKindNames(t *testing.T) {
	if KindHello.String() != "hello" || KindAppExited.String() != "app_exited" || Kind(250).String() != "kind(250)" {
		t.Fatal(KindHello.String(), KindAppExited.String(), Kind(250).String())
	}
	if KindHello.LauncherOnly() || !KindAppOutput.LauncherOnly() || !KindNotice.LauncherOnly() {
		t.Fatal("LauncherOnly")
	}
}

// FuzzReadFrame feeds arbitrary bytes to ReadFrame and Decode: they must
// never panic, and every frame they accept must encode back to the same
// bytes.
func FuzzReadFrame(f *testing.F) {
	for k, m := range samples() {
		b, err := Encode(k, m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte("GV"))
	f.Add(header('G', 'V', KindHello, 0, 2))
	f.Add(append(header('G', 'V', KindHello, 0, 2), '{', '}'))
	f.Add(append(header('G', 'V', KindErrors, 0, 4), "null"...))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		for {
			k, payload, err := ReadFrame(r)
			if err != nil {
				return
			}
			raw, err := EncodeRaw(k, payload)
			if err != nil {
				t.Fatalf("accepted frame does not re-encode: %v", err)
			}
			if len(raw) != HeaderSize+len(payload) {
				t.Fatal("re-encoded length")
			}
			_, _ = Decode(k, payload)
		}
	})
}

// TestDecodeDenseJSON: a JSON payload dense with objects is refused
// before it is decoded; braces inside strings (an app's output, a label)
// are text and count for nothing.
func TestDecodeDenseJSON(t *testing.T) {
	for _, c := range []struct {
		k       Kind
		payload string
		dense   bool
	}{
		{KindErrors, `{"records":[` + strings.Repeat(`{},`, 1000) + `{}]}`, true},
		{KindErrors, `{"records":[` + strings.Repeat(`{"count":1,"action":"vkCmdDispatch"},`, 100) + `{}]}`, false},
		{KindAppOutput, `{"stream":"stdout","text":"` + strings.Repeat("{", 10000) + `"}`, false},
		{KindAppOutput, `{"stream":"stdout","text":"\"` + strings.Repeat("{", 1000) + `\\"}`, false},
		{KindLog, `{"level":"info","text":"{{{\"}}}"}`, false},
	} {
		_, err := Decode(c.k, []byte(c.payload))
		if got := errors.Is(err, ErrTooDense); got != c.dense {
			t.Errorf("%v %.40q: error %v, want dense %v", c.k, c.payload, err, c.dense)
		}
	}
}
