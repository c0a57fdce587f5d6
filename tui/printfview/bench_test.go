package printfview

import (
	"fmt"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// millionLines is a call that printed in each of 1024×1024 invocations.
func millionLines() *session.Session {
	g := fixture.Printf()[0]
	g.Lines = make([]session.PrintfLine, 0, 1<<20)
	for i := range 1 << 20 {
		c := session.CoordsOf(map[string][]float64{"global_invocation_id": {float64(i % 1024), float64(i / 1024), 0}})
		g.Lines = append(g.Lines, session.PrintfLine{Submit: 1, Coords: c, Text: fmt.Sprintf("i=%d n=4", i)})
	}
	g.Count = len(g.Lines)
	return &session.Session{Printf: []*session.PrintfGroup{g}}
}

// BenchmarkScreenMillionLines: a snapshot of a 1M-line call shown on the
// printf screen, without a filter and with one that keeps one line (the
// filter reads every line's coordinates).
func BenchmarkScreenMillionLines(b *testing.B) {
	s := millionLines()
	for _, at := range []string{"", "invocation=1000,1000,0"} {
		b.Run("at="+at, func(b *testing.B) {
			f, err := session.ParsePrintfFilter(at)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				m := New(fixture.Common(), f)
				m.SetSize(200, 48)
				m.SetSession(s)
				if out := m.View(); len(out) == 0 {
					b.Fatal("empty view")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(1<<20), "ns/line")
		})
	}
}
