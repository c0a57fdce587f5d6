package status

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// TestRenderLostRecords: records the layer could not deliver are counted
// on the bar, even at the narrowest width; an end nobody recorded says so.
func TestRenderLostRecords(t *testing.T) {
	s := fixture.Session()
	s.LostRecords = 7
	for _, w := range []int{60, 120} {
		if got := render(s, w); !strings.Contains(got, "7 records lost") {
			t.Errorf("width %d: %q", w, got)
		}
	}
	if got := StateText(session.App{State: session.AppUnknown}); got != "end not recorded" {
		t.Errorf("StateText(unknown) = %q", got)
	}
}

// TestRenderHang: a hang group is on the bar, never shed, with the action
// that was running.
func TestRenderHang(t *testing.T) {
	s := fixture.Session()
	s.Hangs = []session.Hang{{Reason: "watchdog", WatchdogSeconds: 2, Submits: []session.HangSubmit{{Submit: 3,
		CommandBuffers: []session.HangCommandBuffer{{Actions: 3, Markers: true, Completed: 1, RunningFrom: 1, RunningTo: 2,
			Shown: []session.HangAction{{Index: 1, State: "running", Command: "vkCmdDispatch", Labels: []string{"spin"}}}}}}}}}
	for w, want := range map[int]string{60: "GPU HANG: #1", 120: "GPU HANG: #1 vkCmdDispatch spin running"} {
		if got := render(s, w); !strings.Contains(got, want) {
			t.Errorf("width %d: %q, want %q in it", w, got, want)
		}
	}
	// Breadcrumbs per pass: the region running, not one of its actions.
	s.Hangs[0].Granularity = "passes"
	s.Hangs[0].Submits[0].CommandBuffers[0] = session.HangCommandBuffer{Actions: 3, Markers: true, RunningTo: 3, Region: true,
		Shown: []session.HangAction{{Index: 0, State: "running", Command: "vkCmdDispatch", Labels: []string{"setup"}}}}
	for w, want := range map[int]string{60: "GPU HANG: region #0-#2", 120: "GPU HANG: region #0-#2 running"} {
		if got := render(s, w); !strings.Contains(got, want) {
			t.Errorf("passes, width %d: %q, want %q in it", w, got, want)
		}
	}
}

// TestRenderSlowHang: a hang whose submission finished after all is a
// slow submission on the bar, never "GPU HANG".
func TestRenderSlowHang(t *testing.T) {
	s := fixture.Session()
	s.Hangs = []session.Hang{{Reason: "watchdog", WatchdogSeconds: 2, Finished: true, Seconds: 11.25,
		Submits: []session.HangSubmit{{Submit: 3, Finished: true, Seconds: 11.25,
			CommandBuffers: []session.HangCommandBuffer{{Actions: 3, Markers: true, Completed: 1, RunningFrom: 1, RunningTo: 2,
				Shown: []session.HangAction{{Index: 1, State: "running", Command: "vkCmdDispatch", Labels: []string{"spin"}}}}}}}}}
	if got := render(s, 160); !strings.Contains(got, "slow submit 3: 11.2 s") || strings.Contains(got, "HANG") {
		t.Errorf("%q, want \"slow submit 3: 11.2 s\" in it and no HANG", got)
	}
	if got := render(s, 60); strings.Contains(got, "HANG") {
		t.Errorf("width 60: %q", got)
	}
}

// TestRenderBusy: a submission pending past the countdown's start shows
// the watchdog counting, from the time it has been pending to the limit;
// the oldest of two is the one counted; once the app is gone, nothing.
func TestRenderBusy(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 14, 0, 0, 0, time.UTC)
	defer func(now func() time.Time) { Now = now }(Now)
	Now = func() time.Time { return t0 }
	s := fixture.Session()
	s.Busy = []session.BusySubmit{{Submit: 4, Since: t0.Add(-3 * time.Second), WatchdogSeconds: 10},
		{Submit: 3, Since: t0.Add(-6500 * time.Millisecond), WatchdogSeconds: 10}}
	got := render(s, 120)
	fixture.Golden(t, got)
	if !strings.Contains(got, "GPU busy 6 s — hang reported at 10 s") {
		t.Errorf("%q, want the countdown of submit 3", got)
	}
	if narrow := render(s, 60); !strings.Contains(narrow, "GPU busy 6 s") {
		t.Errorf("width 60: %q, want the countdown kept", narrow)
	}
	s.App.State = session.AppExited
	if got := render(s, 120); strings.Contains(got, "GPU busy") {
		t.Errorf("the app exited: %q", got)
	}
}
