package settings

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

func items() []Item {
	return Items(fixture.Checks, fixture.Settings(), func(id string) (bool, string) {
		if id == "ray_query" {
			return false, "the device has no VK_KHR_ray_query"
		}
		return true, ""
	})
}

func TestRender(t *testing.T) {
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), items(), 1, true, true, 70, 14)))
}

// A saved session cannot run again: the pane says so, wrapped.
func TestRenderSaved(t *testing.T) {
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), items(), 0, false, false, 40, 16)))
}

// A click selects and switches a row; an unavailable check stays off.
func TestClick(t *testing.T) {
	m := New(fixture.Common(), true)
	m.Reset(fixture.Checks, fixture.Settings(), nil)
	m.SetSize(70, 14)
	m.Update(tea.MouseClickMsg{X: 3, Y: 2, Button: tea.MouseLeft}) // row 2: descriptor_uninitialized
	if m.Selected() != 1 || !m.Settings().Checks["descriptor_uninitialized"] || !m.Changed() {
		t.Fatalf("click: selected %d, settings %+v", m.Selected(), m.Settings())
	}
	m.Update(tea.MouseClickMsg{X: 3, Y: 7, Button: tea.MouseLeft}) // under "Options": reserve_slot
	if m.Selected() != 4 || !m.Settings().ReserveSlot {
		t.Fatalf("click on reserve_slot: selected %d", m.Selected())
	}
}

// TestOnErrorChoice: space on on_error moves to the next behaviour
// (skip → clamp → execute → skip); the robust-only mode holds it at
// clamp; a run recorded before the setting starts at skip.
func TestOnErrorChoice(t *testing.T) {
	const onErrorRow, robustRow = 5, 6 // after the fixture's 4 checks and reserve_slot
	for _, tc := range []struct {
		name         string
		from         string
		robust       bool
		onError      int // presses on on_error
		switchRobust bool
		want         string
		wantRobust   bool
		changed      bool
		row          string
	}{
		{"unchanged", "skip", false, 0, false, "skip", false, false, "[skip] clamp  execute   failed access: skip the access"},
		{"older session", "", false, 0, false, "skip", false, false, "[skip] clamp  execute"},
		{"clamp", "skip", false, 1, false, "clamp", false, true, " skip [clamp] execute   failed access: clamp into range"},
		{"execute", "skip", false, 2, false, "execute", false, true, " skip  clamp [execute]  failed access: let it execute"},
		{"round", "skip", false, 3, false, "skip", false, false, "[skip] clamp  execute"},
		{"from execute", "execute", false, 1, false, "skip", false, true, "[skip]"},
		{"robust on", "execute", false, 0, true, "clamp", true, true, "      [clamp]           the robust-only mode clamps"},
		{"robust holds clamp", "clamp", true, 2, false, "clamp", true, false, "      [clamp]           the robust-only mode clamps"},
		{"robust off", "clamp", true, 1, true, "execute", false, true, " skip  clamp [execute]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(fixture.Common(), true)
			set := fixture.Settings()
			set.OnError, set.Robust = tc.from, tc.robust
			m.Reset(fixture.Checks, set, nil)
			m.SetSize(100, 14)
			if it := m.Items()[onErrorRow]; it.ID != OnError || m.Items()[robustRow].ID != Robust {
				t.Fatalf("rows %+v", m.Items())
			}
			if tc.switchRobust {
				m.sel = robustRow
				m.Toggle()
			}
			m.sel = onErrorRow
			for range tc.onError {
				m.Toggle()
			}
			got := m.Settings()
			if got.OnError != tc.want || got.Robust != tc.wantRobust || m.Changed() != tc.changed {
				t.Errorf("on_error %q robust %v changed %v, want %q %v %v", got.OnError, got.Robust, m.Changed(), tc.want, tc.wantRobust, tc.changed)
			}
			if v := fixture.ASCII(m.View()); !strings.Contains(v, "on_error                  "+tc.row) {
				t.Errorf("view lacks %q:\n%s", tc.row, v)
			}
		})
	}
}

// The printf row shows the buffer size and switches printf; the size is
// kept for the next run, and switching printf counts as a change.
func TestPrintfRow(t *testing.T) {
	s := fixture.Settings()
	s.PrintfBufferBytes = 4096
	m := New(fixture.Common(), true)
	m.Reset(fixture.Checks, s, nil)
	last := slices.IndexFunc(m.Items(), func(it Item) bool { return it.ID == Printf })
	if last < 0 {
		t.Fatalf("no printf row: %+v", m.Items())
	}
	it := m.Items()[last]
	if it.ID != Printf || !it.On || it.Bytes != 4096 || !strings.Contains(printfNote(it), "4096 bytes") {
		t.Fatalf("printf row %+v, note %q", it, printfNote(it))
	}
	if m.Changed() {
		t.Fatal("changed before any switch")
	}
	m.sel = last
	m.Toggle()
	if got := m.Settings(); !got.PrintfOff || got.PrintfBufferBytes != 4096 || !m.Changed() {
		t.Fatalf("after switching printf: %+v, changed %v", got, m.Changed())
	}
}

// TestPaneReadsTheTable: a row added to the options table for the pane is
// one of its rows, with the row's note; switching it reaches the next
// run's settings and counts as a change, and what the pane does not show
// (the loop budget) is kept from the run.
func TestPaneReadsTheTable(t *testing.T) {
	defer options.WithExtra(&options.Option{Key: "test_row", Env: "VK_LAYER_GPUAV_DBG_TEST_ROW", Kind: options.Bool, Default: "0",
		Help: "a row of the test", Pane: "the test row's note", Where: options.Pane | options.Hello | options.Passed})()
	s := fixture.Settings()
	s.LoopBudget = 4096
	m := New(fixture.Common(), true)
	m.Reset(fixture.Checks, s, nil)
	m.SetSize(100, 20)
	last := len(m.Items()) - 1
	if it := m.Items()[last]; it.ID != "test_row" || it.On || !strings.Contains(fixture.ASCII(m.View()), "test_row") ||
		!strings.Contains(fixture.ASCII(m.View()), "the test row's note") {
		t.Fatalf("rows %+v\n%s", m.Items(), fixture.ASCII(m.View()))
	}
	if m.Changed() {
		t.Fatal("changed before any switch")
	}
	m.sel = last
	m.Toggle()
	if got := m.Settings(); got.Options["test_row"] != "1" || got.LoopBudget != 4096 || !m.Changed() {
		t.Errorf("after switching: %+v, changed %v", got, m.Changed())
	}
}

// TestScopeRow: a run with a scope has a scope row saying what it
// instruments; switched off, the next run's settings have no scope (and
// the pane says it changed); a run without one has no row.
func TestScopeRow(t *testing.T) {
	if it := items(); it[len(it)-1].ID == Scope {
		t.Fatal("a scope row without a scope")
	}
	set := fixture.Settings()
	v := options.Values{Settings: set}
	v.Options = map[string]string{}
	options.ScopeInclude.Set(&v, "pipeline:blur")
	options.ScopeExclude.Set(&v, "module:x*")
	m := New(fixture.Common(), true)
	m.Reset(fixture.Checks, v.Settings, nil)
	m.SetSize(100, 16)
	last := len(m.Items()) - 1
	if it := m.Items()[last]; it.ID != Scope || !it.On {
		t.Fatalf("last row %+v", it)
	}
	const row = `[x] scope                     instrument only "pipeline:blur"; not "module:x*"`
	if out := fixture.ASCII(m.View()); !strings.Contains(out, row) {
		t.Fatalf("no %q in\n%s", row, out)
	}
	if m.Changed() || m.Settings().Options[options.ScopeInclude.Key] != "pipeline:blur" {
		t.Fatalf("changed %v before the switch, settings %v", m.Changed(), m.Settings().Options)
	}
	for range last {
		m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	}
	m.Toggle()
	s := m.Settings()
	if _, inc := s.Options[options.ScopeInclude.Key]; inc || !m.Changed() {
		t.Fatalf("switched off: changed %v, options %v", m.Changed(), s.Options)
	}
	if _, exc := s.Options[options.ScopeExclude.Key]; exc {
		t.Fatalf("switched off: options %v", s.Options)
	}
	if out := fixture.ASCII(m.View()); !strings.Contains(out, `[ ] scope`) || !strings.Contains(out, "instrument every pipeline") {
		t.Fatalf("switched off row:\n%s", out)
	}
}
