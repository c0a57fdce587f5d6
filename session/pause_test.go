package session

import (
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestServerContinue plays two layers over the real socket: the one that
// said Paused gets the launcher's Continue (the other, not paused, gets
// nothing), the session shows the stop while the app waits and marks it
// continued after; a layer may not send Continue itself (it is the
// launcher's).
func TestServerContinue(t *testing.T) {
	srv, c := startServer(t)
	paused := make(chan struct{}, 1)
	srv.OnPaused = func() { paused <- struct{}{} }
	dial := func() *wire.Client {
		cl, err := wire.Dial(srv.SocketPath())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cl.Close() })
		cl.Send(wire.KindHello, hello(100))
		return cl
	}
	a, b := dial(), dial()
	r := computeRecord(1)
	a.Send(wire.KindShader, &wire.Shader{ID: 1, Module: 0x100, Instrumented: true})
	a.Send(wire.KindErrors, &wire.Errors{Submit: 1, Queue: 0x9, CommandBuffer: 0x55, Records: []wire.Record{r}})
	a.Send(wire.KindPaused, &wire.Paused{PID: 100, Submit: 1, Queue: 0x9, Records: 1})
	select {
	case <-paused:
	case <-time.After(5 * time.Second):
		t.Fatal("OnPaused was not called")
	}
	s := c.Snapshot()
	p := s.Paused()
	if p == nil || p.PID != 100 || p.Submit != 1 || p.Queue.Handle != "0x9" || p.Records != 1 || p.State != PausePaused ||
		len(s.Groups) != 1 {
		t.Fatalf("paused %+v, %d groups", p, len(s.Groups))
	}
	if n := srv.Continue(); n != 1 {
		t.Fatalf("Continue reached %d layers, want 1", n)
	}
	if !a.WaitContinue(5 * time.Second) {
		t.Fatal("the paused layer got no Continue")
	}
	if b.WaitContinue(200 * time.Millisecond) {
		t.Fatal("a layer that did not pause got a Continue")
	}
	s = c.Snapshot()
	if s.Paused() != nil || len(s.Pauses) != 1 || s.Pauses[0].State != PauseContinued || s.StoppedAtFirstError {
		t.Fatalf("after continue: %+v, stopped %v", s.Pauses, s.StoppedAtFirstError)
	}
	// A second Continue reaches nobody.
	if n := srv.Continue(); n != 0 {
		t.Fatalf("a second Continue reached %d layers", n)
	}
	// The launcher's kind from a layer closes its connection.
	b.Send(wire.KindContinue, &wire.Continue{})
	waitNotice(t, c, "is the launcher's, not the layer's")
}

// TestPauseStates: a stop the launcher ended the app at is "stopped" (the
// session says the run stopped at the first error, and what that left
// unchecked); one still waiting when the app exited is "ended".
func TestPauseStates(t *testing.T) {
	c := newTestCollector()
	record := func(k wire.Kind, m any) {
		t.Helper()
		if err := c.Record(k, m); err != nil {
			t.Fatal(err)
		}
	}
	record(wire.KindHello, hello(7))
	record(wire.KindPaused, &wire.Paused{PID: 7, Submit: 3, Records: 2})
	record(wire.KindContinue, &wire.Continue{Stopped: true})
	record(wire.KindAppExited, &wire.AppExited{Code: 143, Signal: "SIGTERM", State: string(AppStopped)})
	s := c.Snapshot()
	if len(s.Pauses) != 1 || s.Pauses[0].State != PauseStopped || !s.StoppedAtFirstError {
		t.Fatalf("pauses %+v, stopped %v", s.Pauses, s.StoppedAtFirstError)
	}
	u := s.UncheckedAll()
	if i := len(u) - 1; i < 0 || u[i].Kind != UncheckedStopped || u[i].Reason != StoppedAtFirstErrorText {
		t.Fatalf("unchecked %+v, want the stop last", u)
	}
	if got := s.NotCheckedFor("buffer_oob"); got != StoppedAtFirstErrorText {
		t.Fatalf("NotCheckedFor = %q", got)
	}

	c = newTestCollector()
	record(wire.KindHello, hello(8))
	record(wire.KindPaused, &wire.Paused{PID: 8, Submit: 1, Records: 1})
	record(wire.KindAppExited, &wire.AppExited{Code: 0, State: string(AppExited)})
	if s := c.Snapshot(); len(s.Pauses) != 1 || s.Pauses[0].State != PauseEnded || s.StoppedAtFirstError {
		t.Fatalf("pauses %+v", s.Pauses)
	}
}
