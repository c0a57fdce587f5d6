package status

import (
	"strings"
	"testing"

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
}
