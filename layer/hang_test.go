package main

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestHangTextAsSession: the layer's message of a hang (stderr, the app's
// messengers) says what the session's does (the headless output), word
// for word, names included: one renderer, gpuav.HangMessage.
func TestHangTextAsSession(t *testing.T) {
	for _, h := range []wire.Hang{
		{Reason: wire.HangWatchdog, WatchdogSeconds: 2, Submits: []wire.HangSubmit{{
			Queue: 0x10, Submit: 7, PendingSeconds: 2.5,
			CommandBuffers: []wire.HangCB{{Handle: 0xc0, Actions: 5, Markers: true, Completed: 2, RunningFrom: 2, RunningTo: 3,
				Begun: 3, Ended: 2, Records: 4, Shown: []wire.HangAction{
					{Index: 1, Command: "vkCmdDispatch", Pipeline: 0x99, Labels: []string{"setup"}, State: wire.ActionCompleted},
					{Index: 2, Command: "vkCmdDispatch", Pipeline: 0x99, Labels: []string{"frame", "spin"}, State: wire.ActionRunning},
					{Index: 3, Command: "vkCmdDispatch", State: wire.ActionNotStarted},
				}}, {Handle: 0xc1, Actions: 2}},
		}}},
		{Reason: wire.HangDeviceLost, Call: "vkWaitForFences", WatchdogSeconds: 10, Submits: []wire.HangSubmit{{
			Queue: 0x10, Submit: 3, Finished: true,
			CommandBuffers: []wire.HangCB{{Handle: 0xc0, Actions: 1, Markers: true, Completed: 1, Shown: []wire.HangAction{
				{Index: 0, Command: "vkCmdDispatch", State: wire.ActionCompleted}}}}}}},
		{Reason: wire.HangWatchdog, WatchdogSeconds: 0.5},
	} {
		c := session.NewCollector()
		for _, n := range []wire.Name{{Handle: 0xc0, ObjectType: "command_buffer", Name: "hang-cb"},
			{Handle: 0x99, ObjectType: "pipeline", Name: "spin \"pipe\""}} {
			if err := c.Record(wire.KindName, &n); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Record(wire.KindHang, &h); err != nil {
			t.Fatal(err)
		}
		var got string
		withLock(func() {
			state.names[0xc0], state.names[0x99] = "hang-cb", "spin \"pipe\""
			got = hangText(h)
			delete(state.names, 0xc0)
			delete(state.names, 0x99)
		})
		if want := c.Snapshot().Hangs[0].Text(); got != want {
			t.Errorf("the layer's hang message\n%s\nthe session's\n%s", got, want)
		}
	}
}

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
