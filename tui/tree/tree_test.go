package tree

import (
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// groups is the fixture's two groups plus a third in the compute command
// buffer: another dispatch, same pipeline, another check.
func groups() []*session.ErrorGroup {
	g := fixture.Compute()
	g.Check, g.ActionIndex, g.Count, g.Labels = "buffer_oob", 2, 7, nil
	g.Source = &session.Source{File: fixture.ComputeFile, Line: 7, Column: 14}
	return append(fixture.Session().Groups, g)
}

func render(t *testing.T, by Grouping, collapse ...int) string {
	t.Helper()
	m := New(fixture.Common())
	m.SetSize(50, 12)
	m.SetFocused(true)
	m.SetGroups(groups())
	m.SetGrouping(by)
	for _, r := range collapse {
		m.Select(r)
		m.SetCollapsed(true)
	}
	out := fixture.ASCII(m.View())
	if lines := strings.Split(out, "\n"); len(lines) != 12 || ansi.StringWidth(lines[0]) != 50 {
		t.Fatalf("view is %d lines of %d cells", len(lines), ansi.StringWidth(lines[0]))
	}
	return out
}

func TestRenderByCommandBuffer(t *testing.T) { fixture.Golden(t, render(t, ByCommandBuffer)) }
func TestRenderByPipeline(t *testing.T)      { fixture.Golden(t, render(t, ByPipeline)) }
func TestRenderBySource(t *testing.T)        { fixture.Golden(t, render(t, BySource)) }
func TestRenderByCheck(t *testing.T)         { fixture.Golden(t, render(t, ByCheck)) }

// The second command buffer collapsed: its rows go, its count stays.
func TestRenderCollapsed(t *testing.T) { fixture.Golden(t, render(t, ByCommandBuffer, 7)) }

func labels(rows []*Node) []string {
	out := make([]string, len(rows))
	for i, n := range rows {
		out[i] = fmt.Sprintf("%d:%s ×%d/%d", n.Depth, n.Label, n.Records, n.Groups)
	}
	return out
}

func TestBuild(t *testing.T) {
	got := labels(Flatten(Build(groups(), nil, ByCommandBuffer), nil))
	want := []string{
		`0:cmdbuf "compute cb" ×11/2`,
		`1:#0 vkCmdDispatch — frame 0 › oob pass ×4/1`,
		`2:pipeline "oob pipeline" ×4/1`,
		`3:descriptor_index_oob oob_compute.comp:9 compute ×4/1`,
		`1:#2 vkCmdDispatch ×7/1`,
		`2:pipeline "oob pipeline" ×7/1`,
		`3:buffer_oob oob_compute.comp:7 compute ×7/1`,
		`0:cmdbuf 0x000055d5c3a1c9e0 ×64/1`,
		`1:#0 vkCmdDraw ×64/1`,
		`2:pipeline 0x0000000000000043 ×64/1`,
		`3:descriptor_index_oob oob_fragment.frag:9 fragment ×64/1`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The filter keeps only what it accepts; a group without debug info is
	// placed by shader and instruction.
	gs := groups()
	gs[1].Source = nil
	got = labels(Flatten(Build(gs, func(i int) bool { return i != 0 }, BySource), nil))
	want = []string{
		"0:shader 2 instr 112 ×64/1",
		"1:descriptor_index_oob ×64/1",
		"2:#0 vkCmdDraw · cmdbuf 0x000055d5c3a1c9e0 ×64/1",
		"0:oob_compute.comp:7 ×7/1",
		"1:buffer_oob ×7/1",
		`2:#2 vkCmdDispatch · cmdbuf "compute cb" ×7/1`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("by source, filtered:\n%s", strings.Join(got, "\n"))
	}
}

// manyActions is one check at one source line in fifty dispatches of two
// command buffers, two of them at two instructions of the same line.
func manyActions() []*session.ErrorGroup {
	var gs []*session.ErrorGroup
	for i := range 50 {
		g := fixture.Compute()
		g.ActionIndex = uint32(i / 2)
		g.CommandBuffer = session.Handle{Handle: fmt.Sprintf("0x%x", 0x100+i%2), Name: fmt.Sprintf("cmd-%d", i%2)}
		g.Labels = nil
		gs = append(gs, g)
	}
	g := fixture.Compute()
	g.ActionIndex, g.Instruction = 0, 58
	g.CommandBuffer, g.Labels = gs[0].CommandBuffer, nil
	return append(gs, g)
}

// No grouping lists two rows that read the same: the rows say what tells
// the groups apart (action, command buffer; shader and instruction when
// those are the same).
func TestNoIdenticalRows(t *testing.T) {
	gs := manyActions()
	for by := range NumGroupings {
		rows := Flatten(Build(gs, nil, by), nil)
		seen := map[string]bool{}
		leaves := 0
		for _, n := range rows {
			text := n.Label // with its ancestors': the row as it reads in place
			for p := n.Parent; p != nil; p = p.Parent {
				text = p.Label + " / " + text
			}
			if n.Leaf() {
				leaves++
				if seen[text] {
					t.Errorf("%s: two rows read %q", by, text)
				}
				seen[text] = true
			}
		}
		if leaves != len(gs) {
			t.Errorf("%s: %d leaves for %d groups", by, leaves, len(gs))
		}
	}
	got := labels(Flatten(Build(gs, nil, BySource), nil))
	want := []string{
		"0:oob_compute.comp:9 ×204/51",
		"1:descriptor_index_oob ×204/51",
		`2:#0 vkCmdDispatch · cmdbuf "cmd-0" · shader 1 instr 57 ×4/1`,
		`2:#0 vkCmdDispatch · cmdbuf "cmd-1" ×4/1`,
		`2:#1 vkCmdDispatch · cmdbuf "cmd-0" ×4/1`,
	}
	if strings.Join(got[:5], "\n") != strings.Join(want, "\n") || got[len(got)-1] != `2:#0 vkCmdDispatch · cmdbuf "cmd-0" · shader 1 instr 58 ×4/1` {
		t.Fatalf("by source:\n%s", strings.Join(got, "\n"))
	}
}

func press(s string) tea.KeyPressMsg {
	switch s {
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	return tea.KeyPressMsg{Code: []rune(s)[0], Text: s}
}

func TestModel(t *testing.T) {
	m := New(fixture.Common())
	m.SetSize(50, 5)
	gs := groups()
	m.SetGroups(gs[:1])
	// The first selection is the first group, not its command buffer.
	if m.Cursor() != 3 || m.Selected() != 0 {
		t.Fatalf("first selection: row %d group %d", m.Cursor(), m.Selected())
	}
	// Live: new groups arrive; the selection stays on the same node.
	m.Update(press("k")) // the pipeline row
	m.SetGroups(gs)
	if n := m.SelectedNode(); n.Label != `pipeline "oob pipeline"` || m.Cursor() != 2 || m.Selected() != 0 {
		t.Fatalf("after an update: row %d %q", m.Cursor(), n.Label)
	}
	if m.Title() != "Errors by command buffer (3 groups)" {
		t.Fatalf("title %q", m.Title())
	}
	// space collapses and expands.
	m.Update(press("space"))
	if !m.IsCollapsed() || len(m.Rows()) != 10 {
		t.Fatalf("collapse: %v, %d rows", m.IsCollapsed(), len(m.Rows()))
	}
	// n (NextLeaf) from a collapsed node expands the way to the next group.
	if !m.NextLeaf(1) || m.Selected() != 0 || m.IsCollapsed() || len(m.Rows()) != 11 {
		t.Fatalf("next leaf: group %d, %d rows", m.Selected(), len(m.Rows()))
	}
	m.NextLeaf(1)
	if m.Selected() != 2 || m.Cursor() != 6 {
		t.Fatalf("next leaf: group %d row %d", m.Selected(), m.Cursor())
	}
	m.NextLeaf(1)
	m.NextLeaf(1) // wraps around
	if m.Selected() != 0 {
		t.Fatalf("wrap: group %d", m.Selected())
	}
	m.NextLeaf(-1)
	if m.Selected() != 1 {
		t.Fatalf("previous from the first: group %d", m.Selected())
	}
	// Left: a group goes to its parent, an expanded node collapses.
	m.Left()
	if m.SelectedNode().Label != "pipeline 0x0000000000000043" {
		t.Fatalf("left: %q", m.SelectedNode().Label)
	}
	m.Left()
	if !m.IsCollapsed() {
		t.Fatal("left did not collapse")
	}
	// Regrouping keeps the selected group.
	m.SelectGroup(2)
	m.SetGrouping(ByCheck)
	if m.Selected() != 2 || !m.SelectedNode().Leaf() || m.Cursor() != 7 {
		t.Fatalf("regroup: group %d row %d", m.Selected(), m.Cursor())
	}
	// G and g, and the scroll window follows.
	m.Update(press("G"))
	if m.Cursor() != len(m.Rows())-1 {
		t.Fatalf("G: row %d of %d", m.Cursor(), len(m.Rows()))
	}
	m.Update(press("g"))
	if m.Cursor() != 0 {
		t.Fatalf("g: row %d", m.Cursor())
	}
	// A click on a row selects it.
	if !m.SelectRow(1) || m.Cursor() != 1 || m.SelectRow(40) {
		t.Fatal("SelectRow")
	}
	// An empty tree selects nothing.
	m.SetGroups(nil)
	if m.Selected() != -1 || m.SelectedNode() != nil || m.NextLeaf(1) {
		t.Fatal("empty tree has a selection")
	}
}

// Only the visible window is drawn: 100,000 groups render as fast as ten.
func BenchmarkRender(b *testing.B) {
	gs := make([]*session.ErrorGroup, 100000)
	for i := range gs {
		g := fixture.Compute()
		g.ActionIndex = uint32(i)
		gs[i] = g
	}
	m := New(fixture.Common())
	m.SetSize(48, 40)
	m.SetGroups(gs)
	b.ResetTimer()
	for range b.N {
		m.Update(press("j"))
		_ = m.View()
	}
}

// largeGroups is a large session's groups: n groups over 100 command
// buffers, 10 pipelines and 50 source lines, one dispatch each.
func largeGroups(n int) []*session.ErrorGroup {
	gs := make([]*session.ErrorGroup, n)
	for i := range gs {
		g := fixture.Compute()
		g.CommandBuffer = session.Handle{Handle: fmt.Sprintf("0x%x", 0x3000+i%100), Name: fmt.Sprintf("cmd-%d", i%100)}
		g.ActionIndex = uint32(i / 100)
		g.Pipeline = session.Handle{Handle: fmt.Sprintf("0x%x", 0x2000+i%10)}
		g.Instruction = uint32(100 + i%50)
		g.Source = &session.Source{File: fixture.ComputeFile, Line: 1 + i%50, Column: 5}
		g.Labels = []string{"frame", fmt.Sprintf("pass %d", i%4)}
		gs[i] = g
	}
	return gs
}

// BenchmarkBuildLarge builds the tree of a large session (250,000 groups)
// under each grouping: what opening it costs the TUI.
func BenchmarkBuildLarge(b *testing.B) {
	gs := largeGroups(250_000)
	for by := range NumGroupings {
		b.Run(by.String(), func(b *testing.B) {
			b.ReportAllocs()
			var live uint64
			var cpu time.Duration
			for range b.N {
				b.StopTimer()
				before := fixture.HeapInUse()
				b.StartTimer()
				c0 := fixture.CPUTime()
				m := New(fixture.Common())
				m.SetSize(60, 40)
				m.SetGrouping(by)
				m.SetGroups(gs)
				for m.Pending() {
					m.Continue()
				}
				if m.Total() != len(gs) {
					b.Fatalf("%d groups in the tree", m.Total())
				}
				b.StopTimer()
				cpu += fixture.CPUTime() - c0
				live = max(live, fixture.HeapInUse()-before)
				runtime.KeepAlive(m)
				b.StartTimer()
			}
			b.ReportMetric(float64(live)/(1<<20), "live-MB")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// A large snapshot is placed a step at a time: a step stops at its
// deadline (after a multiple of 64 groups), the next goes on from there,
// and the counts are those of the groups placed.
func TestSteps(t *testing.T) {
	gs := largeGroups(200)
	b := newBuilder(ByCommandBuffer)
	past := time.Now().Add(-time.Second)
	for _, want := range []int{64, 128, 192, 200} {
		b.add(gs, nil, past)
		if b.done != want || b.total != want {
			t.Fatalf("step: %d groups looked at, %d placed; want %d", b.done, b.total, want)
		}
	}
	// The model says how much it has read while it places, and places it
	// all.
	gs = largeGroups(100_000)
	m := New(fixture.Common())
	m.SetSize(60, 20)
	m.SetGroups(gs)
	read := regexp.MustCompile(`^Errors by command buffer \(\d+ groups, \d+% read\)$`)
	for m.Pending() {
		if !read.MatchString(m.Title()) {
			t.Fatalf("title while placing: %q", m.Title())
		}
		m.Continue()
	}
	recs := 0
	for _, g := range gs {
		recs += g.Count
	}
	if m.Total() != len(gs) || m.Records() != recs || m.Title() != "Errors by command buffer (100000 groups)" {
		t.Fatalf("placed: %d groups, %d records, %q", m.Total(), m.Records(), m.Title())
	}
}

// TestSortAndFold: # lists siblings by their records, most first, and
// back; - collapses every top-level node, + expands everything; the
// selection stays on its node, or on the row it folded into.
func TestSortAndFold(t *testing.T) {
	m := New(fixture.Common())
	m.SetSize(60, 20)
	m.SetFocused(true)
	m.SetGroups(groups())
	m.SetGrouping(ByCheck)
	top := func() []string {
		var out []string
		for _, n := range m.Rows() {
			if n.Depth == 0 {
				out = append(out, fmt.Sprintf("%s ×%d", n.Label, n.Records))
			}
		}
		return out
	}
	arrival := top()
	if strings.Join(arrival, ", ") != "descriptor_index_oob ×68, buffer_oob ×7" {
		t.Fatalf("arrival order %q", arrival)
	}
	m.Update(press("4")) // not the tree's: nothing changes
	fixture.Golden(t, fixture.ASCII(m.View()))
	sel := m.SelectedNode()
	m.Update(press("#"))
	if !m.ByCount() || m.SelectedNode() != sel || !strings.Contains(m.Title(), ", by count") {
		t.Fatalf("# sorted %v, selection %v → %v, title %q", m.ByCount(), sel.Label, m.SelectedNode().Label, m.Title())
	}
	// Under descriptor_index_oob, the fragment group (×64) before the
	// compute one (×4).
	var leaves []int
	for _, n := range m.Rows() {
		if n.Leaf() {
			leaves = append(leaves, n.Records)
		}
	}
	if fmt.Sprint(leaves) != "[64 4 7]" || m.Rows()[1].Label != "oob_fragment.frag:9" {
		t.Fatalf("by count: leaves %v", leaves)
	}
	m.Update(press("#"))
	if m.ByCount() {
		t.Fatal("# did not switch back")
	}

	m.Update(press("-"))
	if len(m.Rows()) != 2 || m.SelectedNode().Depth != 0 || m.SelectedNode().Label != "descriptor_index_oob" {
		t.Fatalf("- : %d rows, selection %q", len(m.Rows()), m.SelectedNode().Label)
	}
	m.Update(press("+"))
	if len(m.Rows()) != 8 {
		t.Fatalf("+ : %d rows", len(m.Rows()))
	}
}
