package session

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// hangMessage is a watchdog's hang of one command buffer of 5 actions:
// 0-1 completed, 2 running, 3-4 not started.
func hangMessage() *wire.Hang {
	return &wire.Hang{Reason: wire.HangWatchdog, WatchdogSeconds: 2, Submits: []wire.HangSubmit{{
		Queue: 0x10, Submit: 7, PendingSeconds: 2.5,
		CommandBuffers: []wire.HangCB{{Handle: 0xc0, Actions: 5, Markers: true, Completed: 2, RunningFrom: 2, RunningTo: 3,
			Begun: 3, Ended: 2, Records: 4, Shown: []wire.HangAction{
				{Index: 1, Command: "vkCmdDispatch", Pipeline: 0x99, Labels: []string{"setup"}, State: wire.ActionCompleted},
				{Index: 2, Command: "vkCmdDispatch", Pipeline: 0x99, Labels: []string{"frame", "spin"}, State: wire.ActionRunning},
				{Index: 3, Command: "vkCmdDispatch", State: wire.ActionNotStarted},
			}}},
	}}}
}

// TestCollectorHang: a hang group is kept with the command buffer's name,
// what its breadcrumbs say in a line, and an error notice; its lines
// name each action with its state and label path; Short is the status
// bar's.
func TestCollectorHang(t *testing.T) {
	c := newTestCollector()
	if err := c.Record(wire.KindName, &wire.Name{Handle: 0xc0, ObjectType: "command_buffer", Name: "frame-cb"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Record(wire.KindHang, hangMessage()); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	if len(s.Hangs) != 1 {
		t.Fatalf("%d hangs", len(s.Hangs))
	}
	h := s.Hangs[0]
	want := []string{
		"GPU hang (no progress for the watchdog's 2 s)",
		"  submit 7 on queue 0x10, pending 2.5 s",
		`    command buffer 0xc0 ("frame-cb"): actions 0-1 completed, 2 running, 3-4 not started`,
		`      completed   #1 vkCmdDispatch in "setup" pipeline 0x99`,
		`      running     #2 vkCmdDispatch in "frame > spin" pipeline 0x99`,
		"      not started #3 vkCmdDispatch",
		"      4 records of its completed actions reached memory (in the errors)",
	}
	if got := h.Lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := h.Short(), "GPU HANG: #2 vkCmdDispatch frame > spin running"; got != want {
		t.Errorf("Short %q, want %q", got, want)
	}
	n := s.Notices[len(s.Notices)-1]
	if n.Level != "error" || !strings.Contains(n.Text, `submit 7, command buffer 0xc0 ("frame-cb"): actions 0-1 completed, 2 running`) {
		t.Errorf("notice %+v", n)
	}
	if got := (Hang{Reason: wire.HangDeviceLost, Call: "vkQueueSubmit"}).Title(); got != "device lost (vkQueueSubmit returned VK_ERROR_DEVICE_LOST)" {
		t.Errorf("title %q", got)
	}
}

// TestValidateHang: a hang whose numbers do not add up, or whose reason
// or state is unknown, is rejected.
func TestValidateHang(t *testing.T) {
	if err := validate(hangMessage()); err != nil {
		t.Fatalf("valid hang: %v", err)
	}
	for name, edit := range map[string]func(h *wire.Hang){
		"reason":    func(h *wire.Hang) { h.Reason = "nap" },
		"completed": func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].Completed = 6 },
		"running":   func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].RunningFrom = 4 },
		"past":      func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].RunningTo = 9 },
		"state":     func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].Shown[0].State = "asleep" },
		"records":   func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].Records = -1 },
		"submit":    func(h *wire.Hang) { h.Submits[0].Submit = MaxSubmit + 1 },
	} {
		h := hangMessage()
		edit(h)
		if validate(h) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
