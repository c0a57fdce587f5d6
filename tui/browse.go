package tui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/source"
	"github.com/gpuav-dbg/gpuav-dbg/tui/tree"
)

// This file is the main screen: the tree, the detail and source panes of
// the selected group, and the keys that work on all three (filter,
// grouping, jumps, the SPIR-V view).

// group returns the selected group, nil when none.
func (m *Model) group() *session.ErrorGroup {
	i := m.tree.Selected()
	if i < 0 || i >= len(m.s.Groups) {
		return nil
	}
	return m.s.Groups[i]
}

// sync shows the selected group in the detail and source panes. A new
// selection resets their scroll; the same group again (from a new snapshot,
// with force) only refreshes what they show.
func (m *Model) sync(force bool) {
	sel := m.tree.Selected()
	changed := sel != m.shown
	if !changed && !force {
		return
	}
	g := m.group()
	m.detail.SetGroup(g, changed)
	m.source.SetDoc(m.docFor(g), changed)
	m.shown = sel
}

// docFor is the source pane's doc for g: its source, or the SPIR-V
// disassembly when the user asked for it or there is no source text.
func (m *Model) docFor(g *session.ErrorGroup) source.Doc {
	d := source.DocFor(m.s, g)
	if g == nil || (!m.spirv && !d.Empty()) {
		return d
	}
	r := m.runs[m.cur]
	dis := r.disasm[g.Shader.ID]
	if dis == nil {
		var err error
		dis, err = m.s.Disassemble(g.Shader.ID)
		if err != nil {
			if m.spirv {
				return source.Doc{Note: err.Error()}
			}
			return d
		}
		if r.disasm == nil {
			r.disasm = map[uint32]*session.Disassembly{}
		}
		r.disasm[g.Shader.ID] = dis
	}
	return source.Doc{
		File:  fmt.Sprintf("shader-%d.spvasm", g.Shader.ID),
		Lines: dis.Lines,
		First: 1,
		Mark:  dis.Line(g.Instruction),
		SPIRV: true,
	}
}

// mainKey handles a key of the main screen that the focused pane did not
// take: focus moves, the filter, grouping, jumps, the SPIR-V view.
func (m *Model) mainKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.NextPane):
		m.setFocus(m.focus + 1)
	case key.Matches(msg, k.PrevPane):
		m.setFocus(m.focus - 1)
	case key.Matches(msg, k.Right):
		m.setFocus(min(m.focus+1, PaneSource))
	case key.Matches(msg, k.Left):
		m.setFocus(max(m.focus-1, PaneList))
	case key.Matches(msg, k.Open):
		m.setFocus(PaneSource)
	case key.Matches(msg, k.Back):
		if m.filter != "" && m.focus == PaneList {
			m.applyFilter("")
			m.sync(false)
			return nil
		}
		m.setFocus(PaneList)
	case key.Matches(msg, k.Filter):
		m.filtering = true
		m.prompt.SetValue(m.filter)
		m.prompt.CursorEnd()
		return m.prompt.Focus()
	case key.Matches(msg, k.NextMatch):
		m.tree.NextLeaf(1)
		m.sync(false)
	case key.Matches(msg, k.PrevMatch):
		m.tree.NextLeaf(-1)
		m.sync(false)
	case key.Matches(msg, k.Grouping):
		m.tree.SetGrouping(m.tree.Grouping() + 1)
	case key.Matches(msg, k.Group1):
		m.tree.SetGrouping(tree.ByCommandBuffer)
	case key.Matches(msg, k.Group2):
		m.tree.SetGrouping(tree.ByPipeline)
	case key.Matches(msg, k.Group3):
		m.tree.SetGrouping(tree.BySource)
	case key.Matches(msg, k.Group4):
		m.tree.SetGrouping(tree.ByCheck)
	case key.Matches(msg, k.NextInShader):
		m.jumpInShader(1)
	case key.Matches(msg, k.PrevInShader):
		m.jumpInShader(-1)
	case key.Matches(msg, k.SPIRV):
		m.spirv = !m.spirv
		m.source.SetDoc(m.docFor(m.group()), true)
	}
	return nil
}

// newPrompt is the filter prompt: bubbles' text input after a "/", its
// cursor steady (no blink ticks while the app streams records).
func newPrompt(st *common.Styles) textinput.Model {
	p := textinput.New()
	p.Prompt = "/"
	return restyle(p, st)
}

// restyle gives the prompt the theme's styles.
func restyle(p textinput.Model, st *common.Styles) textinput.Model {
	s := p.Styles()
	s.Focused.Prompt, s.Focused.Text = st.Bold, st.Bold
	s.Blurred.Prompt, s.Blurred.Text = st.Bold, st.Bold
	s.Cursor.Blink = false
	s.Cursor.Color = st.Theme.Accent
	p.SetStyles(s)
	return p
}

// filterKey handles a key while the filter prompt is open: enter keeps the
// filter, esc drops it, the rest edits it (bubbles' text input keys); the
// filter applies as it is typed.
func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	switch msg.String() {
	case "enter":
		m.filtering = false
		m.prompt.Blur()
		return nil
	case "esc", "ctrl+c":
		m.filtering = false
		m.prompt.Blur()
		m.prompt.SetValue("")
	default:
		m.prompt, cmd = m.prompt.Update(msg)
	}
	if q := m.prompt.Value(); q != m.filter {
		m.applyFilter(q)
		m.sync(false)
	}
	return cmd
}

// Match reports whether group g matches filter q: a case-insensitive
// substring of its message, source file, check, action or debug labels.
func Match(g *session.ErrorGroup, q string) bool {
	q = strings.ToLower(q)
	has := func(s string) bool { return strings.Contains(strings.ToLower(s), q) }
	if has(g.Message) || has(g.Check) || has(g.Action) || has(tree.ActionText(g)) {
		return true
	}
	if g.Source != nil && has(g.Source.File) {
		return true
	}
	for _, l := range g.Labels {
		if has(l) {
			return true
		}
	}
	return false
}

// applyFilter puts filter q in force ("" for none).
func (m *Model) applyFilter(q string) {
	m.filter = q
	if q == "" {
		m.tree.SetFilter(nil, "")
		return
	}
	groups := m.s.Groups
	m.tree.SetFilter(func(i int) bool { return Match(groups[i], q) }, q)
}

// jumpInShader selects the d-th next (±1) error group of the selected
// group's shader, in source order (line, column, instruction), wrapping.
func (m *Model) jumpInShader(d int) {
	g := m.group()
	if g == nil {
		return
	}
	cur := m.tree.Selected()
	var same []int
	for i, o := range m.s.Groups {
		if o.Shader.ID == g.Shader.ID && (m.filter == "" || Match(o, m.filter)) {
			same = append(same, i)
		}
	}
	pos := func(i int) [4]int {
		o := m.s.Groups[i]
		p := [4]int{0, 0, int(o.Instruction), i}
		if o.Source != nil {
			p[0], p[1] = o.Source.Line, o.Source.Column
		}
		return p
	}
	sort.Slice(same, func(a, b int) bool {
		pa, pb := pos(same[a]), pos(same[b])
		for k := range pa {
			if pa[k] != pb[k] {
				return pa[k] < pb[k]
			}
		}
		return false
	})
	at := 0
	for k, i := range same {
		if i == cur {
			at = k
		}
	}
	if len(same) < 2 {
		m.flash = "no other error in this shader"
		return
	}
	next := same[((at+d)%len(same)+len(same))%len(same)]
	m.tree.SelectGroup(next)
	m.sync(false)
}
