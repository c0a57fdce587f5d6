package compare

import (
	"maps"
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

// TestCompareNoLongerChecked: a group run 2 lacks because run 2 turned its
// check off, or crashed, is "unchecked" with the reason, never "fixed".
func TestCompareNoLongerChecked(t *testing.T) {
	a, b := runs()
	for _, c := range []struct {
		name   string
		change func(s *session.Session)
		status Status
		reason string
	}{
		{"fixed", func(*session.Session) {}, StatusFixed, ""},
		{"check off", func(s *session.Session) { s.Settings.Checks["descriptor_index_oob"] = false }, StatusUnchecked,
			"check descriptor_index_oob was off"},
		{"crashed", func(s *session.Session) { s.App.State, s.App.Signal = session.AppCrashed, "SIGSEGV" }, StatusUnchecked,
			"the app crashed (SIGSEGV) before it finished"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := *b.S
			s.Settings.Checks = maps.Clone(b.S.Settings.Checks)
			c.change(&s)
			rows := Compare(a.S, &s)
			var gone []Row
			for _, r := range rows {
				if r.B == 0 {
					gone = append(gone, r)
				}
			}
			if len(gone) == 0 {
				t.Fatal("no group gone from run 2")
			}
			for _, r := range gone {
				if r.Status != c.status || r.Reason != c.reason {
					t.Errorf("%s: %s %q, want %s %q", r.Location, r.Status, r.Reason, c.status, c.reason)
				}
			}
			if c.status == StatusUnchecked {
				fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), rows, a, Run{"run 2", &s}, fixture.Checks, 0, 1, 170, 9)))
			}
		})
	}
}
