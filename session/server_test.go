package session

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

func TestPrivateDirMode(t *testing.T) {
	base := t.TempDir()
	old := setUmask(0)
	dir, err := PrivateDir(base)
	setUmask(old)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 || filepath.Dir(dir) != base || !strings.HasPrefix(filepath.Base(dir), "gpuav-dbg-") {
		t.Fatalf("%s: %v", dir, fi.Mode())
	}
	// The check refuses anything looser.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkPrivate(dir); err == nil || !strings.Contains(err.Error(), "mode 0755, want 0700") {
		t.Fatalf("checkPrivate(0755) = %v", err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if err := checkPrivate(link); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("checkPrivate(symlink) = %v", err)
	}
}

func TestListenUsesRuntimeDir(t *testing.T) {
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	srv, err := Listen("", NewCollector())
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(srv.Dir()) != rt || srv.SocketPath() != filepath.Join(srv.Dir(), SocketName) {
		t.Fatalf("dir %s socket %s", srv.Dir(), srv.SocketPath())
	}
	fi, err := os.Stat(srv.Dir())
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	if fi, err := os.Stat(srv.SocketPath()); err != nil || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("socket %v %v", fi, err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(srv.Dir()); !os.IsNotExist(err) {
		t.Fatalf("directory left behind: %v", err)
	}
	// A base too deep for a socket address is refused clearly.
	deep := filepath.Join(t.TempDir(), strings.Repeat("d", 100))
	if err := os.Mkdir(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(deep, NewCollector()); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("deep base: %v", err)
	}
}

// startServer listens in a temp dir.
func startServer(t *testing.T) (*Server, *Collector) {
	t.Helper()
	c := newTestCollector()
	srv, err := Listen(t.TempDir(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, c
}

func hello(pid int) *wire.Hello {
	return &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: gpuav.RecordFormatVersion, PID: pid, App: "/bin/demo"}
}

func TestServerSeveralConnections(t *testing.T) {
	srv, c := startServer(t)
	var clients []*wire.Client
	for i := 0; i < 3; i++ {
		cl, err := wire.Dial(srv.SocketPath())
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, cl)
		cl.Send(wire.KindHello, hello(100))
		cl.Send(wire.KindShader, &wire.Shader{ID: uint32(i + 1), Module: uint64(0x100 + i), Instrumented: true})
	}
	for i, cl := range clients {
		r := computeRecord(uint32(i))
		r.ShaderID = uint32(i + 1)
		cl.Send(wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{r, r}})
		cl.Send(wire.KindBye, &wire.Bye{Submits: 1})
	}
	// The app is still running: no bye from the last connection yet is fine.
	for _, cl := range clients {
		if err := cl.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if !srv.Drain(2*time.Second, time.Minute) {
		t.Fatal("connections did not finish")
	}
	s := c.Snapshot()
	if srv.Connections() != 3 || len(s.Groups) != 3 || !s.App.LayerLoaded {
		t.Fatalf("%d connections, %d groups", srv.Connections(), len(s.Groups))
	}
	for _, g := range s.Groups {
		if g.Count != 2 {
			t.Fatalf("group %+v", g)
		}
	}
	for _, n := range s.Notices {
		if n.Level != "info" {
			t.Fatalf("unexpected notice %+v", n)
		}
	}
}

// rawConn dials the server and writes bytes.
func rawConn(t *testing.T, srv *Server, frames ...[]byte) net.Conn {
	t.Helper()
	conn, err := net.Dial("unix", srv.SocketPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if _, err := conn.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

func frame(t *testing.T, k wire.Kind, m any) []byte {
	t.Helper()
	b, err := wire.Encode(k, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// waitNotice waits for a notice containing substr.
func waitNotice(t *testing.T, c *Collector, substr string) Notice {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		for _, n := range c.Snapshot().Notices {
			if strings.Contains(n.Text, substr) {
				return n
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no notice %q in %+v", substr, c.Snapshot().Notices)
	return Notice{}
}

func TestServerGarbage(t *testing.T) {
	srv, c := startServer(t)
	good := rawConn(t, srv, frame(t, wire.KindHello, hello(1)))
	defer good.Close()

	h := frame(t, wire.KindHello, hello(2))
	cases := []struct {
		name   string
		frames [][]byte
		notice string
	}{
		{"text", [][]byte{[]byte("GET / HTTP/1.1\r\n\r\n")}, "bad frame at byte 0: bad frame magic"},
		{"garbage after hello", [][]byte{h, []byte("GVz\x00\x00\x00\x00\x00")}, "bad frame at byte " + itoa(len(h)) + ": unknown message kind 122"},
		{"not hello first", [][]byte{frame(t, wire.KindBye, &wire.Bye{})}, "first frame is bye, want hello"},
		{"launcher kind", [][]byte{h, frame(t, wire.KindAppExited, &wire.AppExited{Code: 9})}, "a app_exited frame at byte " + itoa(len(h)) + " is the launcher's"},
		{"bad json", [][]byte{h, append([]byte("GV\x06\x00\x03\x00\x00\x00"), "{x}"...)}, "bad errors frame at byte " + itoa(len(h))},
		{"old protocol", [][]byte{frame(t, wire.KindHello, &wire.Hello{Protocol: 0})}, "layer speaks protocol 0"},
		{"huge", [][]byte{h, []byte("GV\x06\x00\xff\xff\xff\xff")}, "frame too large"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn := rawConn(t, srv, tc.frames...)
			defer conn.Close()
			n := waitNotice(t, c, tc.notice)
			if n.Level != "error" || !strings.Contains(n.Text, "connection closed") {
				t.Fatalf("notice %+v", n)
			}
			// The server closed the connection.
			_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
			if _, err := conn.Read(make([]byte, 1)); err == nil {
				t.Fatal("connection still open")
			}
		})
	}
	// A stream cut inside a frame is a warning, not an error.
	cut := frame(t, wire.KindLog, &wire.Log{Text: "x"})
	conn := rawConn(t, srv, h, cut[:len(cut)-2])
	conn.Close()
	if n := waitNotice(t, c, "ended inside a frame"); n.Level != "warning" {
		t.Fatalf("notice %+v", n)
	}
	// The good connection still works.
	if _, err := good.Write(frame(t, wire.KindLog, &wire.Log{Level: "info", Text: "still here"})); err != nil {
		t.Fatal(err)
	}
	waitNotice(t, c, "still here")
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestServerDrainTimesOut(t *testing.T) {
	srv, _ := startServer(t)
	conn := rawConn(t, srv, frame(t, wire.KindHello, hello(1)))
	defer conn.Close()
	deadline := time.Now().Add(2 * time.Second)
	for srv.Connections() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	if srv.Drain(300*time.Millisecond, time.Minute) {
		t.Fatal("Drain says done with a silent open connection")
	}
	if d := time.Since(start); d < 250*time.Millisecond || d > 2*time.Second {
		t.Fatalf("Drain took %v", d)
	}
}

func TestServerDrainAcceptsQueued(t *testing.T) {
	srv, c := startServer(t)
	// Connect and finish before the server gets around to it: Drain must
	// still read it.
	conn := rawConn(t, srv, frame(t, wire.KindHello, hello(1)),
		frame(t, wire.KindErrors, &wire.Errors{CommandBuffer: 1, Records: []wire.Record{computeRecord(0)}}),
		frame(t, wire.KindBye, &wire.Bye{Submits: 1}))
	conn.Close()
	if !srv.Drain(time.Second, time.Minute) {
		t.Fatal("not drained")
	}
	if s := c.Snapshot(); len(s.Groups) != 1 || s.Submits != 1 {
		t.Fatalf("%d groups", len(s.Groups))
	}
	// After Drain the server accepts nothing more.
	if cl, err := net.Dial("unix", srv.SocketPath()); err == nil {
		cl.Write(frame(t, wire.KindHello, hello(2)))
		cl.Close()
		time.Sleep(50 * time.Millisecond)
		if srv.Connections() != 1 {
			t.Fatalf("%d connections after Drain", srv.Connections())
		}
	}
}

// TestServerDrainWhileProgress: a connection that still delivers frames
// after the app exited is read to its end however long that takes past
// the idle time (a launcher that was stopped has a backlog), and one that
// makes no progress is cut after idle; Close counts it as a stream cut
// before it returns, so that a report written after it says so.
func TestServerDrainWhileProgress(t *testing.T) {
	srv, c := startServer(t)
	slow := rawConn(t, srv, frame(t, wire.KindHello, hello(1)))
	defer slow.Close()
	silent := rawConn(t, srv, frame(t, wire.KindHello, hello(2)))
	defer silent.Close()
	deadline := time.Now().Add(2 * time.Second)
	for srv.Connections() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	const frames, every = 12, 60 * time.Millisecond
	go func() {
		for i := 0; i < frames; i++ {
			time.Sleep(every)
			slow.Write(frame(t, wire.KindErrors, &wire.Errors{Submit: uint64(i + 1), CommandBuffer: 1, Records: []wire.Record{computeRecord(0)}}))
		}
		slow.Write(frame(t, wire.KindBye, &wire.Bye{Submits: frames}))
	}()
	start := time.Now()
	// The silent connection keeps Drain from finishing; the slow one's
	// progress keeps it reading for 720 ms, past the idle time of 250 ms.
	if srv.Drain(250*time.Millisecond, time.Minute) {
		t.Fatal("Drain says done with a silent open connection")
	}
	if d := time.Since(start); d < frames*every {
		t.Errorf("Drain returned after %v, before the slow connection's %v of frames", d, frames*every)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	if s.Groups[0].Count != frames || s.StreamsCut != 1 {
		t.Fatalf("%d records, %d streams cut; want %d and 1", s.Groups[0].Count, s.StreamsCut, frames)
	}
}

// TestServerReadsLostFiles: the counts a layer's client left in the
// socket's directory when the launcher read nothing for its close timeout
// reach the session (and so the JSON) when the server closes, before the
// directory goes; a file that does not decode is said, not trusted.
func TestServerReadsLostFiles(t *testing.T) {
	srv, c := startServer(t)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(srv.Dir(), name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("lost-1.json", `{"records":126888,"groups":[{"code":1,"check":"descriptor_index_oob","shader_id":1,"instruction":40,"count":126888}],"printf_lines":1184768}`)
	write("lost-2.json", `{"records":12,"messages":{"shader":1}}`)
	write("lost-3.json", `{"records":-1}`)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	if s.LostRecords != 126900 || s.LostMessages != 1 || s.PrintfLost != 1184768 || len(s.LostGroups) != 1 || s.LostGroups[0].Count != 126888 {
		t.Errorf("lost %d records, %d messages, %d printf lines, groups %+v", s.LostRecords, s.LostMessages, s.PrintfLost, s.LostGroups)
	}
	bad := 0
	for _, n := range s.Notices {
		if strings.Contains(n.Text, "lost-3.json") {
			bad++
		}
	}
	if bad != 1 {
		t.Errorf("notices %+v, want one of lost-3.json", s.Notices)
	}
	if _, err := os.Stat(srv.Dir()); !os.IsNotExist(err) {
		t.Errorf("the directory is left: %v", err)
	}
}

// TestStreamCutPersisted: a connection that ended without its bye is in
// the session file, so that open says what the live run said: streams_cut,
// the notice and the unchecked entry (exit 4), not a clean session.
func TestStreamCutPersisted(t *testing.T) {
	srv, c := startServer(t)
	var file bytes.Buffer
	file.WriteString(FileHeader)
	c.SetFile(&file)
	conn := rawConn(t, srv, frame(t, wire.KindHello, hello(1)),
		frame(t, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 1, Records: []wire.Record{computeRecord(0)}}))
	conn.Close() // no bye: the app crashed
	if srv.Drain(time.Second, time.Minute) != true {
		t.Fatal("not drained")
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	live := c.Snapshot()
	opened, err := Parse(file.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Session{"live": live, "opened": opened} {
		var unchecked []string
		for _, u := range s.UncheckedAll() {
			if u.Kind == UncheckedRecords {
				unchecked = append(unchecked, u.Reason)
			}
		}
		want := []string{"1 connection of the layer ended without its last message: records it had not sent yet are missing"}
		if s.StreamsCut != 1 || !slices.Equal(unchecked, want) {
			t.Errorf("%s: %d streams cut, unchecked %q; want 1 and %q", name, s.StreamsCut, unchecked, want)
		}
	}
}

// TestStaleSocketDirsRemoved: the socket directories a killed launcher
// left behind are removed by the next one (only the files launchers and
// layers put there, then the directory when that emptied it); a live
// launcher's, one without a pid file and one with a file of the user's
// stay.
func TestStaleSocketDirsRemoved(t *testing.T) {
	base := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPID := strconv.Itoa(dead.Process.Pid)
	mk := func(name string, files map[string]string) string {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for f, text := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	stale := mk("gpuav-dbg-stale", map[string]string{"launcher.pid": deadPID, "layer.sock": "", "lost-1.json": "{}"})
	live := mk("gpuav-dbg-live", map[string]string{"launcher.pid": strconv.Itoa(os.Getppid()), "layer.sock": ""})
	old := mk("gpuav-dbg-old", map[string]string{"layer.sock": ""})
	mixed := mk("gpuav-dbg-mixed", map[string]string{"launcher.pid": deadPID, "layer.sock": "", "notes.txt": "mine"})
	other := mk("other-stale", map[string]string{"launcher.pid": deadPID})
	srv, err := Listen(base, newTestCollector())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	for p, want := range map[string]bool{stale: false, live: true, old: true, mixed: true, other: true,
		filepath.Join(mixed, "notes.txt"): true, filepath.Join(mixed, "layer.sock"): false} {
		if exists(p) != want {
			t.Errorf("%s exists %v, want %v", p, exists(p), want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(srv.Dir(), "launcher.pid")); err != nil || string(b) != strconv.Itoa(os.Getpid()) {
		t.Errorf("pid file %q %v", b, err)
	}
}
