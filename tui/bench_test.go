package tui

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// bigSession has n error groups over 1000 command buffers, 10 actions each.
func bigSession(n int) *session.Session {
	s := fixture.Session()
	s.Groups = make([]*session.ErrorGroup, n)
	for i := range n {
		g := fixture.Compute()
		if i%2 == 1 {
			g = fixture.Fragment()
		}
		g.CommandBuffer.Handle = fmt.Sprintf("0x%x", 0x1000+i%1000)
		g.ActionIndex = uint32(i / 1000 % 10)
		g.Instruction = uint32(i)
		g.Source.Line = 1 + i%10
		s.Groups[i] = g
	}
	return s
}

// BenchmarkKeyPress is one key press (j in the error tree: a new
// selection, the detail and source panes follow) and the redraw, with
// 100,000 error groups loaded. The target is < 16 ms.
func BenchmarkKeyPress(b *testing.B) {
	m := newModel(bigSession(100000), 200, 60)
	settle(m)
	down := tea.KeyPressMsg{Code: 'j', Text: "j"}
	b.ResetTimer()
	for range b.N {
		m.Update(down)
		_ = m.View()
	}
}

// BenchmarkSnapshot is a live update with 100,000 groups: a new snapshot
// rebuilds the tree (not per key press; once per burst of records).
func BenchmarkSnapshot(b *testing.B) {
	m := newModel(bigSession(100000), 200, 60)
	settle(m)
	b.ResetTimer()
	for range b.N {
		m.Update(UpdatedMsg{})
		_ = m.View()
	}
}

// settle places every group still waiting, as the program's placeMsg
// chain would.
func settle(m *Model) {
	for m.tree.Pending() {
		m.Update(placeMsg{})
	}
}

// BenchmarkOpenLarge is the TUI's side of opening a large session: 250,000
// groups (1,000,000 records) from a snapshot to the first whole screen,
// every group placed in the tree. It reports the CPU time (every thread)
// and the memory the UI keeps beyond the session.
func BenchmarkOpenLarge(b *testing.B) {
	s := bigSession(250_000)
	for i, g := range s.Groups {
		g.Count = 4
		g.Instruction = uint32(i % 997)
	}
	var cpu time.Duration
	var live uint64
	for range b.N {
		b.StopTimer()
		before := fixture.HeapInUse()
		b.StartTimer()
		c0 := fixture.CPUTime()
		m := New(Static(s), Options{Theme: "dark", NoColor: true, Checks: fixture.Checks})
		m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
		settle(m)
		_ = m.View()
		b.StopTimer()
		cpu += fixture.CPUTime() - c0
		live = max(live, fixture.HeapInUse()-before)
		if m.Tree().Total() != 250_000 || m.Tree().Records() != 1_000_000 {
			b.Fatalf("%d groups, %d records", m.Tree().Total(), m.Tree().Records())
		}
		runtime.KeepAlive(m)
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(live)/(1<<20), "live-MB")
}
