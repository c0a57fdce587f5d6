package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/internal/golden"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// fullRun feeds a whole run into c: launcher and layer frames.
func fullRun(t *testing.T, c *Collector) {
	t.Helper()
	feedPreamble(t, c)
	record(t, c, wire.KindAppOutput, &wire.AppOutput{Stream: "stdout", Text: "demo: dispatching"})
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{
		computeRecord(0), computeRecord(1), computeRecord(2), computeRecord(3)}})
	frag := wire.Record{Check: "descriptor_index_oob", Code: 1, ShaderID: 2, Instruction: 40, Stage: 4,
		StageWords: [3]uint32{0x3f000000, 0x3fc00000, 0}, ActionIndex: 1, Action: "vkCmdDraw", Pipeline: 0x88,
		Labels: []string{"frame 0", "main pass"}, Params: []uint32{0, 1, 7, 4}, Count: 12}
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 2, CommandBuffer: 0x66, Records: []wire.Record{frag}})
	record(t, c, wire.KindLog, &wire.Log{Level: "warning", Text: "pipeline 0x99 keeps its original shaders"})
	record(t, c, wire.KindBye, &wire.Bye{Submits: 2})
	record(t, c, wire.KindAppOutput, &wire.AppOutput{Stream: "stderr", Text: "demo: done"})
	record(t, c, wire.KindAppExited, &wire.AppExited{Code: 0, State: "exited", Time: t0})
}

func TestReportGolden(t *testing.T) {
	c := newTestCollector()
	fullRun(t, c)
	var buf bytes.Buffer
	if err := WriteReport(&buf, c.Snapshot()); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, filepath.Join("testdata", "report.golden.json"), buf.Bytes())
	want := buf.Bytes()
	// The report opens again as the same session, minus what it does not carry.
	s, err := Parse(want)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := WriteReport(&again, s); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), want) {
		t.Fatalf("report does not round-trip:\n%s", again.String())
	}
}

func TestReportEmptyLists(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteReport(&buf, NewCollector().Snapshot()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"errors": []`, `"args": []`, `"checks": {}`, `"version": 1`} {
		if !strings.Contains(buf.String(), want) {
			t.Fatalf("empty report lacks %s:\n%s", want, buf.String())
		}
	}
}

// writeSession runs fullRun into a session file and returns its bytes and
// the live snapshot.
func writeSession(t *testing.T) (string, []byte, *Session) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sub", "demo.gvs")
	f, err := CreateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestCollector()
	c.SetFile(f)
	fullRun(t, c)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if c.FileErr() != nil {
		t.Fatal(c.FileErr())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data, c.Snapshot()
}

// replayed is a session opened from a file with the test's source map (the
// real one would read the SPIR-V).
func replay(t *testing.T, data []byte) (*Session, error) {
	t.Helper()
	return parseWith(data, func(c *Collector) { c.newMap = func([]uint32) sourceMapper { return fakeMap{} } })
}

func TestSessionFileRoundTrip(t *testing.T) {
	path, data, live := writeSession(t)
	if !bytes.HasPrefix(data, []byte("gpuav-dbg session 2\n")) {
		t.Fatalf("header %q", data[:20])
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("session file mode %v %v", fi.Mode(), err)
	}
	got, err := replay(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, live) {
		t.Fatalf("replayed session differs:\n got %+v\nwant %+v", got, live)
	}
	// Open with the real source map: same groups, counts and output.
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Groups) != 2 || s.Groups[0].Count != 4 || s.Groups[1].Count != 12 || len(s.Output) != 2 || s.App.State != AppExited {
		t.Fatalf("opened: %+v", s)
	}
}

func TestSessionFileTruncatedEverywhere(t *testing.T) {
	_, data, live := writeSession(t)
	// Frame boundaries: a file cut there is a complete (shorter) session.
	boundaries := map[int]bool{len(FileHeader): true}
	off := len(FileHeader)
	r := bytes.NewReader(data[off:])
	for {
		_, payload, err := wire.ReadFrame(r)
		if err != nil {
			break
		}
		off += wire.HeaderSize + len(payload)
		boundaries[off] = true
	}
	if off != len(data) {
		t.Fatalf("frames end at %d, file at %d", off, len(data))
	}
	prevGroups := 0
	for cut := 0; cut <= len(data); cut++ {
		s, err := replay(t, data[:cut])
		if s == nil {
			t.Fatalf("cut %d: no session (%v)", cut, err)
		}
		if boundaries[cut] {
			if err != nil {
				t.Fatalf("cut %d at a frame boundary: %v", cut, err)
			}
		} else {
			var te *TruncatedError
			if !errors.As(err, &te) {
				t.Fatalf("cut %d: error %v, want a *TruncatedError", cut, err)
			}
			wantOff := int64(0)
			for b := range boundaries {
				if b < cut && int64(b) > wantOff {
					wantOff = int64(b)
				}
			}
			if te.Offset != wantOff {
				t.Fatalf("cut %d: stopped at %d, want %d", cut, te.Offset, wantOff)
			}
			if !strings.Contains(te.Error(), "truncated at byte") {
				t.Fatalf("message %q", te.Error())
			}
		}
		if len(s.Groups) < prevGroups {
			t.Fatalf("cut %d: %d groups, fewer than a shorter cut's %d", cut, len(s.Groups), prevGroups)
		}
		prevGroups = len(s.Groups)
	}
	if prevGroups != len(live.Groups) {
		t.Fatalf("full file: %d groups, want %d", prevGroups, len(live.Groups))
	}
}

func TestOpenTruncatedFileReportsPath(t *testing.T) {
	path, data, _ := writeSession(t)
	if err := os.WriteFile(path, data[:len(data)-3], 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	var te *TruncatedError
	if !errors.As(err, &te) || s == nil || te.Path != path {
		t.Fatalf("Open = %v, %v", s, err)
	}
	if !strings.HasPrefix(err.Error(), "session "+path+" truncated at byte ") || !strings.Contains(err.Error(), "app_exited payload cut") {
		t.Fatalf("message %q", err)
	}
	if len(s.Groups) != 2 || s.App.State != AppRunning {
		t.Fatalf("partial session: %d groups, state %s", len(s.Groups), s.App.State)
	}
}

func TestOpenCorrupt(t *testing.T) {
	_, data, _ := writeSession(t)
	// A bad magic at the first errors frame (packed): stop there.
	bad := bytes.Clone(data)
	frameStart := bytes.Index(bad, []byte("GV\x50\x00"))
	if frameStart < 0 {
		t.Fatal("no packed errors frame in the session file")
	}
	bad[frameStart] = 'X'
	s, err := replay(t, bad)
	var te *TruncatedError
	if !errors.As(err, &te) || te.Offset != int64(frameStart) || !errors.Is(err, wire.ErrBadMagic) {
		t.Fatalf("corrupt magic: %v", err)
	}
	if len(s.Groups) != 0 || !s.App.LayerLoaded {
		t.Fatalf("prefix: %+v", s)
	}
	if want := fmt.Sprintf("session corrupt at byte %d: bad frame magic: 58 56", frameStart); err.Error() != want {
		t.Fatalf("message %q, want %q", err, want)
	}
	// A packed payload of another version.
	bad = bytes.Clone(data)
	bad[frameStart+wire.HeaderSize] = 9
	if _, err := replay(t, bad); !errors.As(err, &te) || te.Offset != int64(frameStart) || !strings.Contains(err.Error(), "decode errors_packed") {
		t.Fatalf("bad packed payload: %v", err)
	}
	// Bad JSON inside a well-formed frame.
	bad = bytes.Clone(data)
	i := bytes.Index(bad, []byte(`"demo: dispatching"`))
	bad[i] = ';'
	if _, err := replay(t, bad); !errors.As(err, &te) || !strings.Contains(err.Error(), "decode app_output") {
		t.Fatalf("bad json: %v", err)
	}
	// Garbage bytes inserted between two frames: everything before opens,
	// and the one-line error names the byte where the garbage starts.
	second := bytes.Index(data[frameStart+1:], []byte("GV")) + frameStart + 1
	bad = append(append(bytes.Clone(data[:second]), "\x00garbage\xff\xfe"...), data[second:]...)
	s, err = replay(t, bad)
	if !errors.As(err, &te) || te.Offset != int64(second) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("garbage at %d: %v", second, err)
	}
	if len(s.Groups) != 1 || s.Groups[0].Count != 4 {
		t.Fatalf("before the garbage: %d groups", len(s.Groups))
	}

	for _, c := range []struct {
		name string
		data string
		want string
	}{
		{"text", "hello world", "not a gpuav-dbg session file"},
		{"future version", "gpuav-dbg session 3\nGV", "unsupported session file version"},
		{"bad report", "{\"version\": 1, \"errors\": [null]}", "errors[0] is null"},
		{"report version", "{\"version\": 9}", "version 9"},
		{"report json", "{\"version\": ", "read JSON report"},
	} {
		s, err := Parse([]byte(c.data))
		if err == nil || s != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, %v; want %q", c.name, s, err, c.want)
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none.gvs")); err == nil || !strings.Contains(err.Error(), "open session ") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state")
	p, err := DefaultPath("./build/my app", time.Date(2025, 6, 7, 8, 9, 10, 0, time.Local))
	if err != nil || p != "/state/gpuav-dbg/sessions/my_app-20250607-080910.gvs" {
		t.Fatalf("%q %v", p, err)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/u")
	p, _ = DefaultPath("/bin/demo", time.Date(2025, 6, 7, 8, 9, 10, 0, time.Local))
	if p != "/home/u/.local/state/gpuav-dbg/sessions/demo-20250607-080910.gvs" {
		t.Fatalf("%q", p)
	}
}

// FuzzOpen feeds arbitrary bytes to the session reader: it never panics, a
// session comes back with a nil or *TruncatedError, and other errors come
// with no session.
func FuzzOpen(f *testing.F) {
	c := newTestCollector()
	var buf bytes.Buffer
	buf.WriteString(FileHeader)
	c.SetFile(&buf)
	for _, p := range preamble() {
		_ = c.Record(p.k, p.m)
	}
	_ = c.Record(wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{computeRecord(0), computeRecord(1)}})
	f.Add(buf.Bytes())
	f.Add([]byte(FileHeader))
	f.Add([]byte("gpuav-dbg sess"))
	f.Add([]byte(`{"version":1,"errors":[{"check":"x","count":2}]}`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		var te *TruncatedError
		switch {
		case err == nil, errors.As(err, &te):
			if s == nil {
				t.Fatalf("no session with error %v", err)
			}
			var out bytes.Buffer
			if werr := WriteReport(&out, s); werr != nil {
				t.Fatalf("report of a parsed session: %v", werr)
			}
			for _, g := range s.Groups {
				_ = g.Summary()
			}
		default:
			if s != nil {
				t.Fatalf("session with a fatal error %v", err)
			}
		}
	})
}

// TestOpenVersion1 converts a session file back to version 1 (JSON errors
// frames) and opens it: the same session.
func TestOpenVersion1(t *testing.T) {
	_, data, _ := writeSession(t)
	v1 := []byte("gpuav-dbg session 1\n")
	r := bytes.NewReader(data[len(FileHeader):])
	packed := 0
	for {
		k, payload, err := wire.ReadFrame(r)
		if err != nil {
			break
		}
		if k == wire.KindErrorsPacked {
			packed++
			msg, err := wire.Decode(k, payload)
			if err != nil {
				t.Fatal(err)
			}
			frame, err := wire.Encode(wire.KindErrors, msg)
			if err != nil {
				t.Fatal(err)
			}
			v1 = append(v1, frame...)
			continue
		}
		frame, _ := wire.EncodeRaw(k, payload)
		v1 = append(v1, frame...)
	}
	if packed != 2 || bytes.Contains(data, []byte(`"records"`)) {
		t.Fatalf("version 2 file: %d packed frames, JSON records %v", packed, bytes.Contains(data, []byte(`"records"`)))
	}
	want, err := replay(t, data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := replay(t, v1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("version 1 file opens differently:\n got %+v\nwant %+v", got, want)
	}
}
