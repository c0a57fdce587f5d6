package main

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestHangTextAsSession: the layer's message of a hang (stderr, the app's
// messengers) says what the session's does (the headless output), word
// for word, names included: one renderer, gpuav.HangMessage; regions too
// (breadcrumbs per pass: the note, "in region"; a render pass running
// under breadcrumbs per action); a lost device's fault too.
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
		{Reason: wire.HangDeviceLost, Call: "vkQueueSubmit", WatchdogSeconds: 10, Fault: &wire.HangFault{
			Description: "page fault", AddressesTotal: 3, VendorsTotal: 2, VendorBinarySize: 64,
			Addresses: []wire.FaultAddress{
				{Type: "write_invalid", Address: 0x2040, Precision: 1, Low: 0x2040, High: 0x2040, BuffersTotal: 2,
					Buffers: []wire.FaultBuffer{{Handle: 0xb1, Name: "live \"buf\"", Address: 0x2000, Size: 4096, Live: true},
						{Handle: 0xb2, Name: "gone", Address: 0x2000, Size: 256, CreatedAfter: 1, DestroyedAfter: 3}}},
				{Type: "instruction_pointer_unknown", Address: 0x5000, Precision: 64, Low: 0x5000, High: 0x503f},
			},
			Vendors: []wire.FaultVendor{{Description: "mmu", Code: 0x12, Data: 0x34}}}},
		{Reason: wire.HangDeviceLost, Call: "vkQueueSubmit", Fault: &wire.HangFault{Error: "VK_ERROR_OUT_OF_HOST_MEMORY"}},
		{Reason: wire.HangWatchdog, WatchdogSeconds: 2, Granularity: wire.BreadcrumbsPasses, Submits: []wire.HangSubmit{{
			Queue: 0x10, Submit: 8, PendingSeconds: 2.1,
			CommandBuffers: []wire.HangCB{{Handle: 0xc0, Actions: 999, Markers: true, Completed: 3, RunningFrom: 3, RunningTo: 998,
				Region: true, Begun: 2, Ended: 1, Shown: []wire.HangAction{
					{Index: 2, Command: "vkCmdDispatch", State: wire.ActionCompleted},
					{Index: 3, Command: "vkCmdDispatch", Pipeline: 0x99, State: wire.ActionRunning},
					{Index: 4, Command: "vkCmdDispatch", State: wire.ActionRunning},
					{Index: 998, Command: "vkCmdDraw", State: wire.ActionNotStarted},
				}}},
		}}},
		{Reason: wire.HangWatchdog, WatchdogSeconds: 2, Granularity: wire.BreadcrumbsActions, Submits: []wire.HangSubmit{{
			Queue: 0x10, Submit: 9, PendingSeconds: 2.1,
			CommandBuffers: []wire.HangCB{{Handle: 0xc0, Actions: 4, Markers: true, Completed: 1, RunningFrom: 1, RunningTo: 3,
				Region: true, Begun: 2, Ended: 1, Shown: []wire.HangAction{
					{Index: 1, Command: "vkCmdDraw", State: wire.ActionRunning},
					{Index: 2, Command: "vkCmdDraw", State: wire.ActionRunning},
				}}},
		}}},
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
		want := c.Snapshot().Hangs[0].Text()
		if h.Granularity != "" && (!strings.Contains(want, "in region   #") ||
			!strings.Contains(want, map[string]string{wire.BreadcrumbsPasses: "breadcrumbs per region",
				wire.BreadcrumbsActions: "a render pass is marked as a whole"}[h.Granularity])) {
			t.Errorf("the region's words are not in the session's message\n%s", want)
		}
		if got != want {
			t.Errorf("the layer's hang message\n%s\nthe session's\n%s", got, want)
		}
		if h.Fault != nil && !strings.Contains(want, "device fault") {
			t.Errorf("the fault is not in the session's message\n%s", want)
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
