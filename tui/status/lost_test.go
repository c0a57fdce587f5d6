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
