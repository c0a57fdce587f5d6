package settings

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

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

// The printf row shows the buffer size and switches printf; the size is
// kept for the next run, and switching printf counts as a change.
func TestPrintfRow(t *testing.T) {
	s := fixture.Settings()
	s.PrintfBufferBytes = 4096
	m := New(fixture.Common(), true)
	m.Reset(fixture.Checks, s, nil)
	last := len(m.Items()) - 1
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
