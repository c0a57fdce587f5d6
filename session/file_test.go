package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
	if !bytes.HasPrefix(data, []byte("gpuav-dbg session 3\n")) {
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
	for _, f := range fileFrames(t, data) {
		off = f.next
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
	// The app's exit was in the part cut off: its end is unknown, and
	// the session says so (not "exited 0", not "running").
	if len(s.Groups) != 2 || s.App.State != AppUnknown || !strings.HasPrefix(s.Notices[len(s.Notices)-1].Text, EndNotRecorded) {
		t.Fatalf("partial session: %d groups, state %s, notices %+v", len(s.Groups), s.App.State, s.Notices)
	}
	if u := s.UncheckedAll(); len(u) == 0 || u[len(u)-1].Kind != UncheckedEnd || !strings.HasPrefix(u[len(u)-1].Reason, EndNotRecorded) {
		t.Fatalf("unchecked %+v", u)
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
	// A byte changed in a payload: its checksum says so.
	bad = bytes.Clone(data)
	bad[frameStart+FileFrameHeader+3]++
	if _, err := replay(t, bad); !errors.As(err, &te) || te.Offset != int64(frameStart) || !errors.Is(err, ErrChecksum) ||
		err.Error() != fmt.Sprintf("session corrupt at byte %d: errors_packed payload: checksum mismatch", frameStart) {
		t.Fatalf("changed payload: %v", err)
	}
	// Well-framed payloads (checksums made for them) that do not decode:
	// a packed payload of another version, bad JSON.
	bad = reframe(t, data, frameStart, func(p []byte) { p[0] = 9 })
	if _, err := replay(t, bad); !errors.As(err, &te) || te.Offset != int64(frameStart) || !strings.Contains(err.Error(), "decode errors_packed") {
		t.Fatalf("bad packed payload: %v", err)
	}
	i := bytes.Index(data, []byte(`"demo: dispatching"`))
	at := frameAt(t, data, i)
	bad = reframe(t, data, at, func(p []byte) { p[i-at-FileFrameHeader] = ';' })
	if _, err := replay(t, bad); !errors.As(err, &te) || te.Offset != int64(at) || !strings.Contains(err.Error(), "decode app_output") {
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
		{"future version", "gpuav-dbg session 4\nGV", "unsupported session file version"},
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

// TestOpenOlderVersions converts a session file back to version 2 (wire
// frames without checksums) and version 1 (JSON errors frames too) and
// opens them: the same session.
func TestOpenOlderVersions(t *testing.T) {
	_, data, _ := writeSession(t)
	v2 := []byte(fileHeaderV2)
	v1 := []byte(fileHeaderV1)
	packed := 0
	for _, f := range fileFrames(t, data) {
		frame, _ := wire.EncodeRaw(f.k, f.payload)
		v2 = append(v2, frame...)
		if f.k == wire.KindErrorsPacked {
			packed++
			msg, err := wire.Decode(f.k, f.payload)
			if err != nil {
				t.Fatal(err)
			}
			if frame, err = wire.Encode(wire.KindErrors, msg); err != nil {
				t.Fatal(err)
			}
		}
		v1 = append(v1, frame...)
	}
	if packed != 2 || bytes.Contains(data, []byte(`"records"`)) {
		t.Fatalf("version 3 file: %d packed frames, JSON records %v", packed, bytes.Contains(data, []byte(`"records"`)))
	}
	want, err := replay(t, data)
	if err != nil {
		t.Fatal(err)
	}
	for name, old := range map[string][]byte{"version 2": v2, "version 1": v1} {
		got, err := replay(t, old)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s file opens differently:\n got %+v\nwant %+v", name, got, want)
		}
	}
}

// fileFrame is one frame of a version 3 session file.
type fileFrame struct {
	off, next int
	k         wire.Kind
	payload   []byte
}

// fileFrames lists the frames of a version 3 session file.
func fileFrames(t *testing.T, data []byte) []fileFrame {
	t.Helper()
	var out []fileFrame
	fr := &frameReader{r: bufio.NewReader(bytes.NewReader(data[len(FileHeader):])), header: FileHeader, off: int64(len(FileHeader))}
	for {
		off := int(fr.off)
		k, p, err := fr.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("frame at %d: %v", off, err)
		}
		out = append(out, fileFrame{off, int(fr.off), k, bytes.Clone(p)})
	}
}

// frameAt returns the start of the frame holding byte i.
func frameAt(t *testing.T, data []byte, i int) int {
	t.Helper()
	for _, f := range fileFrames(t, data) {
		if i >= f.off && i < f.next {
			return f.off
		}
	}
	t.Fatalf("byte %d is in no frame", i)
	return 0
}

// reframe returns data with the frame at off given a payload changed by
// change, and checksums made for it: a well-framed bad payload.
func reframe(t *testing.T, data []byte, off int, change func([]byte)) []byte {
	t.Helper()
	var k wire.Kind
	var p []byte
	next := -1
	for _, f := range fileFrames(t, data) {
		if f.off == off {
			k, p, next = f.k, f.payload, f.next
		}
	}
	if next < 0 {
		t.Fatalf("no frame at %d", off)
	}
	p = bytes.Clone(p)
	change(p)
	out := AppendFileFrame(bytes.Clone(data[:off]), k, p)
	return append(out, data[next:]...)
}

// TestOpenFindsEveryChangedByte: every one-byte change anywhere in a
// session file is found: the file does not open as it was, and what does
// open is exactly the session of the frames before the damaged one (no
// group that never existed).
func TestOpenFindsEveryChangedByte(t *testing.T) {
	_, data, _ := writeSession(t)
	frames := fileFrames(t, data)
	// prefix[i]: the session of the first i frames.
	prefix := make([]*Session, len(frames)+1)
	for i := range prefix {
		end := len(FileHeader)
		if i > 0 {
			end = frames[i-1].next
		}
		s, err := replay(t, data[:end])
		if err != nil {
			t.Fatal(err)
		}
		prefix[i] = s
	}
	for pos := 0; pos < len(data); pos++ {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(data)
			bad[pos] ^= x
			s, err := replay(t, bad)
			if err == nil {
				t.Fatalf("byte %d ^ %#x: opened without an error", pos, x)
			}
			if pos < len(FileHeader) {
				if s != nil && len(s.Groups) > 0 {
					t.Fatalf("byte %d ^ %#x (the header line): a session with groups (%v)", pos, x, err)
				}
				continue
			}
			var te *TruncatedError
			if !errors.As(err, &te) {
				t.Fatalf("byte %d ^ %#x: %v, want a *TruncatedError", pos, x, err)
			}
			i := slices.IndexFunc(frames, func(f fileFrame) bool { return pos >= f.off && pos < f.next })
			if te.Offset != int64(frames[i].off) {
				t.Fatalf("byte %d ^ %#x: stopped at %d, want the frame at %d (%v)", pos, x, te.Offset, frames[i].off, err)
			}
			if !reflect.DeepEqual(s.Groups, prefix[i].Groups) {
				t.Fatalf("byte %d ^ %#x: groups differ from the frames before the damaged one", pos, x)
			}
		}
	}
}

// TestOpenOlderFile opens a session file written before the wire and
// session types were merged (testdata/before-one-type.gvs: a capabilities
// frame whose devices say "name", unchecked shaders and pipelines, dropped
// records, settings with safe_mode and no on_error, which read on_error
// skip) and compares its report with the golden file.
func TestOpenOlderFile(t *testing.T) {
	s, err := Open(filepath.Join("testdata", "before-one-type.gvs"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteReport(&buf, s); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, filepath.Join("testdata", "before-one-type.golden.json"), buf.Bytes())
	if s.Capabilities == nil || len(s.Capabilities.Devices) != 2 || s.Capabilities.Devices[1].Device != "NVIDIA H200" {
		t.Fatalf("capabilities %+v", s.Capabilities)
	}
}
