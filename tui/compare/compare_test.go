package compare

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

func runs() (Run, Run) {
	b := fixture.SecondRun()
	b.App.State = session.AppExited
	return Run{"run 1", fixture.Session()}, Run{"run 2", b}
}

func TestRender(t *testing.T) {
	a, b := runs()
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), Compare(a.S, b.S), a, b, fixture.Checks, 0, 1, 90, 9)))
}

func TestRunText(t *testing.T) {
	a, b := runs()
	for _, tc := range []struct {
		r    Run
		want string
	}{
		{a, "run 1  running · checks: descriptor_index_oob · on error: skip"},
		{b, "run 2  exited 0 · checks: descriptor_index_oob, buffer_oob · on error: skip"},
		{Run{"run 3", &session.Session{Settings: session.Settings{ReserveSlot: true}}}, "run 3  starting · every check off · on error: skip · reserve slot"},
		{Run{"run 4", &session.Session{Settings: session.Settings{OnError: "clamp", Robust: true}}}, "run 4  starting · every check off · robust only"},
	} {
		if got := RunText(tc.r, fixture.Checks); got != tc.want {
			t.Errorf("RunText = %q, want %q", got, tc.want)
		}
	}
}
