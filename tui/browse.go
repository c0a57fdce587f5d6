package tui

import (
	"errors"
	"fmt"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/sourcemap"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/detail"
	"github.com/gpuav-dbg/gpuav-dbg/tui/editor"
	"github.com/gpuav-dbg/gpuav-dbg/tui/source"
	"github.com/gpuav-dbg/gpuav-dbg/tui/status"
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
	line := 0
	if g != nil {
		if dis, _ := m.disassembly(g.Shader.ID); dis != nil {
			line = dis.Line(g.Instruction)
		}
	}
	m.detail.SetGroup(g, line, changed)
	m.source.SetDoc(m.docFor(g), changed)
	m.shown = sel
}

// disassembly returns shader id's disassembly, made once per run.
func (m *Model) disassembly(id uint32) (*session.Disassembly, error) {
	r := m.runs[m.cur]
	if dis := r.disasm[id]; dis != nil {
		return dis, nil
	}
	dis, err := m.s.Disassemble(id)
	if err != nil {
		return nil, err
	}
	if r.disasm == nil {
		r.disasm = map[uint32]*session.Disassembly{}
	}
	r.disasm[id] = dis
	return dis, nil
}

// noSource is the banner over a disassembly shown because the shader's
// source text is not in the session: why, and the one thing that fixes it.
func noSource(g *session.ErrorGroup) string {
	if s := g.Source; s != nil && s.File != "" {
		return fmt.Sprintf("No source text for %s: add its directory with --source-path DIR.", common.Clean(path.Base(s.File)))
	}
	return "No line information: compile the shader with -g (glslangValidator -g, dxc -Zi) to see its source."
}

// docFor is the source pane's doc for g: its source; or, when the user
// asked for it (d), the whole module's SPIR-V disassembly; or, when the
// session has no source text for it, the disassembly of the function
// holding the instruction, under a banner saying how to get the source.
func (m *Model) docFor(g *session.ErrorGroup) source.Doc {
	d := source.DocFor(m.s, g)
	noText := g != nil && (d.Empty() || (g.Source != nil && g.Source.Language == sourcemap.LanguageSPIRV))
	if g == nil || (!m.spirv && !noText) {
		return d
	}
	dis, err := m.disassembly(g.Shader.ID)
	if err != nil {
		if m.spirv || d.Empty() {
			return source.Doc{Note: err.Error()}
		}
		return d
	}
	doc := source.Doc{
		File:        fmt.Sprintf("shader-%d.spvasm", g.Shader.ID),
		Lines:       dis.Lines,
		First:       1,
		Mark:        dis.Line(g.Instruction),
		SPIRV:       true,
		Instruction: g.Instruction,
		Toggled:     m.spirv && !noText,
	}
	if noText && !m.spirv {
		doc.Banner = noSource(g)
		if first, last, ok := source.FunctionSpan(dis.Lines, doc.Mark); ok {
			doc.Lines, doc.First = dis.Lines[first-1:last], first
		}
	}
	return doc
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
	case key.Matches(msg, k.SortCount):
		m.tree.SortByCount(!m.tree.ByCount())
		m.sync(false)
	case key.Matches(msg, k.CollapseAll):
		m.tree.CollapseAll(true)
		m.sync(false)
	case key.Matches(msg, k.ExpandAll):
		m.tree.CollapseAll(false)
		m.sync(false)
	case key.Matches(msg, k.Mute):
		if g := m.group(); g != nil {
			m.mute(g.Check)
		}
	case key.Matches(msg, k.MuteVUID):
		switch g := m.group(); {
		case g == nil:
		case g.VUID == "":
			m.flash = "this error has no VUID: m mutes its check"
		default:
			m.mute(g.VUID)
		}
	case key.Matches(msg, k.Unmute):
		if len(m.muted) > 0 {
			m.muted = nil
			m.applyFilter(m.filter)
			m.sync(false)
			m.flash = "nothing muted"
		}
	case key.Matches(msg, k.Edit):
		return m.edit()
	case key.Matches(msg, k.Copy):
		return m.copySummary()
	}
	return nil
}

// mainKeys are the main screen's keys for the footer.
func (m *Model) mainKeys() []key.Binding {
	k, short := m.c.Keys, common.WithHelp
	var out []key.Binding
	if m.focus != PaneSource && !handles(m.focused(), tea.KeyPressMsg{Code: tea.KeyEnter}) {
		out = append(out, short(k.Open, "source"))
	}
	return append(out, short(k.NextPane, "pane"), short(k.Filter, "filter"), short(k.NextMatch, "next"),
		short(k.Grouping, "group"), short(k.Edit, "edit"), short(k.Copy, "copy"), short(k.SPIRV, "SPIR-V"),
		short(k.Log, "log"), short(k.Settings, "settings"))
}

// editedMsg is the editor's exit.
type editedMsg struct{ err error }

// edit opens the selected error's source file in $EDITOR at its line.
func (m *Model) edit() tea.Cmd {
	cmd, err := m.editCommand()
	if err != nil {
		m.flash = "e: " + common.Clean(err.Error())
		return nil
	}
	return editor.Exec(cmd, func(err error) tea.Msg { return editedMsg{err} })
}

// editCommand is the editor's command for the selected error: its file
// found under the directories the session may read (never the path the
// module names as it is), at its line.
func (m *Model) editCommand() (*exec.Cmd, error) {
	g := m.group()
	switch {
	case g == nil:
		return nil, errors.New("no error is selected")
	case g.Shader.ID == 0 && (g.Source == nil || g.Source.File == ""):
		return nil, fmt.Errorf("%s is checked by the layer: no source file", g.Check)
	case g.Source == nil || g.Source.File == "":
		return nil, errors.New("the selected error has no source file (compile the shader with -g)")
	}
	p, err := editor.Find(g.Source.File, m.opts.SourceDirs)
	if err != nil {
		return nil, err
	}
	return editor.Command(editor.Editor(m.opts.Getenv), p, g.Source.Line)
}

// copySummary copies the selected error's one-line summary to the
// terminal's clipboard (OSC 52).
func (m *Model) copySummary() tea.Cmd {
	g := m.group()
	if g == nil {
		return nil
	}
	sum := detail.Summary(g)
	m.flash = "copied: " + sum
	return tea.SetClipboard(sum)
}

// promptLine is the filter prompt: the text input, how many groups match,
// and what enter and esc do.
func (m *Model) promptLine() string {
	st := m.c.Styles
	n, total := m.tree.Total(), len(m.s.Groups)
	group := "groups match"
	if total == 1 {
		group = "group matches"
	}
	count := fmt.Sprintf("  %d of %d %s · enter keeps · esc clears", n, total, group)
	return common.Fit(m.prompt.View()+st.Muted.Render(count), m.c.Width)
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
	has := func(s string) bool { return containsLower(s, q) }
	if has(g.Message()) || has(g.Check) || has(g.Action) || has(tree.ActionText(g)) {
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

// containsLower reports whether strings.ToLower(s) contains q (lower
// case), without making the lower-case copy when s is ASCII: a filter
// reads every group's message at each key.
func containsLower(s, q string) bool {
	if len(q) == 0 {
		return true
	}
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), q)
		}
	}
	for i := 0; i+len(q) <= len(s); i++ {
		j := 0
		for j < len(q) && lowerASCII(s[i+j]) == q[j] {
			j++
		}
		if j == len(q) {
			return true
		}
	}
	return false
}

// lowerASCII is an ASCII byte in lower case.
func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// applyFilter puts filter q in force ("" for none), with the mutes.
func (m *Model) applyFilter(q string) {
	m.filter = q
	if q == "" && len(m.muted) == 0 {
		m.tree.SetFilter(nil, "")
	} else {
		// The session's groups of the moment: later snapshots add groups
		// that the tree asks about too.
		muted := m.muted
		m.tree.SetFilter(func(i int) bool {
			g := m.s.Groups[i]
			return !Muted(g, muted) && (q == "" || Match(g, q))
		}, q)
	}
	m.setCounts()
}

// Muted reports whether g is muted: its check or its VUID is in muted.
func Muted(g *session.ErrorGroup, muted []string) bool {
	for _, x := range muted {
		if g.Check == x || g.VUID != "" && g.VUID == x {
			return true
		}
	}
	return false
}

// mute hides the groups of a check or a VUID for this session, and says
// how many.
func (m *Model) mute(what string) {
	if !slices.Contains(m.muted, what) {
		m.muted = append(slices.Clone(m.muted), what)
	}
	m.applyFilter(m.filter)
	m.sync(false)
	n := 0
	for _, g := range m.s.Groups {
		if Muted(g, []string{what}) {
			n++
		}
	}
	m.flash = fmt.Sprintf("muted %s: %d %s hidden (u unmutes)", common.Clean(what), n, plural(n, "group", "groups"))
}

// setCounts gives the status bar the counts of the run and, under a
// filter, of the groups it keeps, and the groups muted.
func (m *Model) setCounts() {
	muted, mutedRecords := 0, 0
	if len(m.muted) > 0 {
		for _, g := range m.s.Groups {
			if Muted(g, m.muted) {
				muted++
				mutedRecords += g.Count
			}
		}
	}
	m.status.SetCounts(status.Counts{Groups: len(m.s.Groups), Records: m.records, Filtered: m.filter != "",
		ShownGroups: m.tree.Total(), ShownRecords: m.tree.Records(), PrintfLines: m.s.PrintfLines(),
		Muted: muted, MutedRecords: mutedRecords})
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
