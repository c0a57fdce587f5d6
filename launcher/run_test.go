package launcher

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// TestRunStopAndRerun starts a real process, stops it as the user would
// (it is "stopped", not crashed), runs it again with other settings next
// to the first session, and stops that one: what the TUI's r does while
// an app runs.
func TestRunStopAndRerun(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", dir)
	out := &syncBuffer{}
	o := Options{App: "/bin/sh", Shown: "sh", Args: []string{"-c", "echo up; exec sleep 30"}, LayerDir: dir,
		Settings:    session.Settings{Checks: map[string]bool{"descriptor_index_oob": true}, OnError: "skip", PrintfAt: "pixel=1,2"},
		SessionPath: filepath.Join(dir, "app-20250101-100000.gvs"), Started: time.Now(), Stdout: out}
	r, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	rr := NewReruns(r)
	if rr.Latest() != r || !r.Running() {
		t.Fatal("the first run is not the latest, or not running")
	}
	waitFor(t, func() bool { return out.contains("up\n") })
	r.Stop()
	if r.Running() {
		t.Fatal("running after Stop")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(o.SessionPath)
	if err != nil {
		t.Fatal(err)
	}
	if a := s.App; a.State != session.AppStopped || a.Signal != "SIGTERM" || a.ExitCode != 143 {
		t.Fatalf("stopped app: %+v", a)
	}

	set := session.Settings{Checks: map[string]bool{"buffer_oob": true}, ReserveSlot: true, OnError: "skip"}
	r2, err := rr.Rerun(set)
	if err != nil {
		t.Fatal(err)
	}
	if rr.Latest() != r2 || !r2.Running() || r2.SessionPath() != filepath.Join(dir, "app-20250101-100000.2.gvs") {
		t.Fatalf("re-run: latest %v, running %v, session %s", rr.Latest() == r2, r2.Running(), r2.SessionPath())
	}
	r2.Stop()
	if err := r2.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := session.Open(r2.SessionPath())
	if err != nil {
		t.Fatal(err)
	}
	if !s2.Settings.ReserveSlot || !s2.Settings.Checks["buffer_oob"] || s2.Settings.PrintfAt != "pixel=1,2" ||
		s2.App.State != session.AppStopped {
		t.Fatalf("re-run session: settings %+v, app %+v", s2.Settings, s2.App)
	}
	if len(rr.Runs()) != 1 {
		t.Fatalf("%d re-runs", len(rr.Runs()))
	}
}

// TestRunAppFailsToStart: an app that cannot start is a run with the
// error, its session saying so.
func TestRunAppFailsToStart(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", dir)
	bad := filepath.Join(dir, "garbage")
	if err := os.WriteFile(bad, []byte("\x00\x01garbage"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := Start(Options{App: bad, Shown: "garbage", LayerDir: dir, SessionPath: filepath.Join(dir, "s.gvs"), Started: time.Now()})
	if r == nil || err == nil || err.Error() != "garbage: exec format error" {
		t.Fatalf("Start = %v, %v", r, err)
	}
	if r.Running() {
		t.Fatal("a run that never started is running")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err := session.Open(filepath.Join(dir, "s.gvs")); err != nil || s.App.State != session.AppFailed {
		t.Fatalf("session %+v, %v", s, err)
	}
}

// syncBuffer is a buffer the app's output goroutine writes while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) contains(x string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Contains(s.b.Bytes(), []byte(x))
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("timed out")
}
