package errlist

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

func TestRowOf(t *testing.T) {
	got := RowOf(fixture.Fragment())
	want := Row{Check: "descriptor_index_oob", Count: "×64", Stage: "fragment", Location: "oob_fragment.frag:9", Action: "vkCmdDraw #0"}
	if got != want {
		t.Fatalf("RowOf = %+v, want %+v", got, want)
	}
	g := fixture.Compute()
	g.Source, g.Action, g.ActionIndex = nil, "", 3
	got = RowOf(g)
	if got.Location != "instr 57" || got.Action != "action #3" {
		t.Fatalf("RowOf without source/action = %+v", got)
	}
}

func render(sel, offset int, focused bool, w, h int) string {
	s := fixture.Session()
	return fixture.ASCII(Render(fixture.Styles(), s.Groups, sel, offset, focused, w, h))
}

// Wide enough for every column.
func TestRenderWide(t *testing.T) { golden.RequireEqual(t, render(0, 0, true, 72, 5)) }

// The second group selected while another pane has focus.
func TestRenderBlurred(t *testing.T) { golden.RequireEqual(t, render(1, 0, false, 72, 5)) }

// 40% of a 120-column terminal: the action column goes.
func TestRenderMedium(t *testing.T) { golden.RequireEqual(t, render(0, 0, true, 46, 4)) }

// 40% of the 60-column minimum: stage goes, the check is cut.
func TestRenderNarrow(t *testing.T) { golden.RequireEqual(t, render(1, 0, true, 22, 4)) }

func TestFollow(t *testing.T) {
	for _, tc := range []struct{ offset, sel, n, vis, want int }{
		{0, 0, 10, 3, 0},
		{0, 3, 10, 3, 1},
		{5, 2, 10, 3, 2},
		{8, 9, 10, 3, 7},
		{7, 9, 10, 5, 5}, // no blank rows at the bottom
		{0, 0, 0, 3, 0},
	} {
		if got := Follow(tc.offset, tc.sel, tc.n, tc.vis); got != tc.want {
			t.Errorf("Follow(%d, %d, %d, %d) = %d, want %d", tc.offset, tc.sel, tc.n, tc.vis, got, tc.want)
		}
	}
}

func TestModelKeys(t *testing.T) {
	c := fixture.Common()
	m := New(c)
	var groups []*session.ErrorGroup
	for range 10 {
		groups = append(groups, fixture.Compute())
	}
	m.SetGroups(groups)
	m.SetSize(40, 4) // header + 3 rows
	press := func(s string) {
		r := []rune(s)
		m.Update(tea.KeyPressMsg{Code: r[0], Text: s})
	}
	press("j")
	press("j")
	press("j")
	if m.Selected() != 3 || m.offset != 1 {
		t.Fatalf("after jjj: selected %d offset %d, want 3 1", m.Selected(), m.offset)
	}
	press("G")
	if m.Selected() != 9 || m.offset != 7 {
		t.Fatalf("after G: selected %d offset %d, want 9 7", m.Selected(), m.offset)
	}
	press("k")
	if m.Selected() != 8 {
		t.Fatalf("after k: selected %d, want 8", m.Selected())
	}
	press("g")
	if m.Selected() != 0 || m.offset != 0 {
		t.Fatalf("after g: selected %d offset %d, want 0 0", m.Selected(), m.offset)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if m.Selected() != 1 {
		t.Fatalf("after down: selected %d, want 1", m.Selected())
	}
	if !m.SelectRow(3) || m.Selected() != 2 {
		t.Fatalf("SelectRow(3): selected %d, want 2", m.Selected())
	}
	if m.SelectRow(0) {
		t.Fatal("SelectRow(0) selected the header")
	}
	// New snapshot with fewer groups (cannot happen live, but a reopened
	// session may): the selection is clamped.
	m.SetGroups(groups[:2])
	if m.Selected() != 1 {
		t.Fatalf("after shrinking: selected %d, want 1", m.Selected())
	}
}
