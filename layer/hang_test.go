package main

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestHungSubmitsOrder: a hung submission's finish is sent after its hang
// whatever order the C half's two calls come in (it marks the submission
// reported before goHang runs, outside its lock), and once.
func TestHungSubmitsOrder(t *testing.T) {
	m := hungSubmits{}
	f := wire.HangFinished{Queue: 1, Submit: 7, Seconds: 11}

	// The hang first, then the finish: sent at the finish.
	if early := m.reported(7, 2); early != nil {
		t.Fatalf("a finish before any: %+v", early)
	}
	if w, now := m.finished(f); !now || w != 2 {
		t.Fatalf("finished after the hang: now %v, watchdog %g; want now, 2", now, w)
	}
	if len(m) != 0 {
		t.Fatalf("%d left", len(m))
	}

	// The finish first: held, and sent when the hang is.
	if _, now := m.finished(f); now {
		t.Fatal("a finish before its hang was sent at once")
	}
	if early := m.reported(7, 2); early == nil || *early != f {
		t.Fatalf("the hang did not release its finish: %+v", early)
	}
	if len(m) != 0 {
		t.Fatalf("%d left", len(m))
	}
}
