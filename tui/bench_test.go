package tui

import (
	"fmt"
	"testing"

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
	b.ResetTimer()
	for range b.N {
		m.Update(UpdatedMsg{})
		_ = m.View()
	}
}
