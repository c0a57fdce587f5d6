// Package tree is the left pane: the error groups as a tree. The default
// grouping nests them the way a Vulkan developer looks for a bug — command
// buffer → action (index, command, debug-label path) → pipeline → error
// groups with their counts; other groupings put the pipeline, the shader
// source location or the check at the top.
//
// Build makes the tree from the groups (first-arrival order at every level),
// Flatten lists the rows that show (expanded nodes' children), and Render
// draws only the rows in the pane's window, so that a key press costs the
// same with ten groups or a hundred thousand. Model keeps the grouping, the
// collapsed nodes and the selection, which stays on the same node (by key)
// when new groups arrive live.
package tree

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// Grouping is the order of the tree's levels.
type Grouping int

// The groupings, in the order the grouping key cycles through them.
const (
	// ByCommandBuffer: command buffer → action → pipeline → group.
	ByCommandBuffer Grouping = iota
	// ByPipeline: pipeline → action → group.
	ByPipeline
	// BySource: file:line (or shader and instruction) → group.
	BySource
	// ByCheck: check → group.
	ByCheck
	// NumGroupings is the number of groupings.
	NumGroupings
)

// String names the grouping as the pane's title shows it.
func (g Grouping) String() string {
	switch g {
	case ByCommandBuffer:
		return "command buffer"
	case ByPipeline:
		return "pipeline"
	case BySource:
		return "source"
	case ByCheck:
		return "check"
	}
	return fmt.Sprintf("Grouping(%d)", int(g))
}

// Node is one row of the tree: an inner node (a command buffer, an action,
// a pipeline, a location, a check) or a leaf (one error group). A large
// session has hundreds of thousands: the fields are kept small.
type Node struct {
	// Label is the row's text without indentation and counts.
	Label string
	// Parent is nil at the top level.
	Parent *Node
	// Children are in first-arrival order.
	Children []*Node
	// Records counts the records below the node.
	Records int
	// Groups counts the groups below the node.
	Groups int32
	// Group is the index in the session's groups of a leaf; -1 for inner
	// nodes.
	Group int32
	// First is the index of the first group below the node (itself for a
	// leaf): what the detail and source panes show while it is selected.
	First int32
	// Depth is 0 for the top level.
	Depth int16
	// labelW is Label's width in cells.
	labelW uint16
}

// Leaf reports whether n is an error group.
func (n *Node) Leaf() bool { return n.Group >= 0 }

func (n *Node) setLabel(l string, w int) {
	n.Label, n.labelW = l, uint16(min(w, 1<<16-1))
}

// textWidth is s's width in cells: quickly for text whose characters are
// all one cell wide (ASCII, Latin, the dashes, quotes, bullets and arrows
// labels use), else as the terminal counts it.
func textWidth(s string) int {
	n := 0
	for _, r := range s {
		narrow := r < 0x1100 || (r >= 0x2010 && r <= 0x205e) || (r >= 0x2190 && r <= 0x21ff)
		if !narrow || unicode.Is(unicode.Mn, r) || r == utf8.RuneError {
			return ansi.StringWidth(s)
		}
		n++
	}
	return n
}

// width is the cells n's row needs: cursor, indentation, glyph, label,
// a space and the count.
func (n *Node) width() int {
	w := 1 + int(n.Depth)*Indent + 2 + int(n.labelW) + 2 + digits(n.Records)
	if n.Groups > 1 {
		w += len(" ·  groups") + digits(int(n.Groups))
	}
	return w
}

func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// Flatten lists the rows that show: every node whose ancestors are all
// expanded (a node is expanded unless collapsed, when not nil, says so).
func Flatten(roots []*Node, collapsed func(*Node) bool) []*Node {
	return flattenInto(nil, roots, collapsed, false)
}

// flattenInto is Flatten appending to out (a slice to reuse); byCount
// lists each node's children by their records, most first (ties in
// arrival order).
func flattenInto(out []*Node, roots []*Node, collapsed func(*Node) bool, byCount bool) []*Node {
	var walk func(ns []*Node)
	walk = func(ns []*Node) {
		for _, n := range ordered(ns, byCount) {
			out = append(out, n)
			if !n.Leaf() && (collapsed == nil || !collapsed(n)) {
				walk(n.Children)
			}
		}
	}
	walk(roots)
	return out
}

// ordered is ns in arrival order, or by records (most first, ties in
// arrival order) in a copy.
func ordered(ns []*Node, byCount bool) []*Node {
	if !byCount || len(ns) < 2 {
		return ns
	}
	s := slices.Clone(ns)
	slices.SortStableFunc(s, func(a, b *Node) int { return b.Records - a.Records })
	return s
}

// Indent is the indentation per level.
const Indent = 2

// Glyphs before a node's label.
const (
	Expanded  = "▾ "
	Collapsed = "▸ "
	LeafGlyph = "• "
)

// Cursor is drawn before the selected row; other rows get blanks.
const Cursor = "›"

// Render draws rows[offset:] (as many as fit) into exactly width×height
// cells, the selected row (an index into rows) highlighted; focused picks
// the selection style. Only the visible rows are formatted.
func Render(st *common.Styles, rows []*Node, collapsed func(*Node) bool, selected, offset int, focused bool, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	lines := make([]string, 0, height)
	for i := max(offset, 0); i < len(rows) && len(lines) < height; i++ {
		lines = append(lines, renderRow(st, rows[i], collapsed != nil && collapsed(rows[i]), i == selected, focused, width))
	}
	return common.Block(lines, width, height)
}

func renderRow(st *common.Styles, n *Node, isCollapsed, selected, focused bool, width int) string {
	glyph := LeafGlyph
	switch {
	case n.Leaf():
	case isCollapsed:
		glyph = Collapsed
	default:
		glyph = Expanded
	}
	cursor := " "
	if selected {
		cursor = Cursor
	}
	prefix := cursor + strings.Repeat(" ", int(n.Depth)*Indent) + glyph
	count := "×" + strconv.Itoa(n.Records)
	if n.Groups > 1 {
		count += " · " + strconv.Itoa(int(n.Groups)) + " groups"
	}
	// The label is cut so that the count always shows.
	room := width - ansi.StringWidth(prefix) - ansi.StringWidth(count) - 1
	label := n.Label
	if room < 1 {
		label = ""
	} else if ansi.StringWidth(label) > room {
		label = ansi.Truncate(label, room, common.Ellipsis)
	}
	if selected {
		sel := st.Selected
		if !focused {
			sel = st.SelectedBlurred
		}
		return sel.Render(common.Fit(prefix+label+" "+count, width))
	}
	ls := st.Text
	switch {
	case n.Leaf():
		ls = st.Check
	case n.Depth == 0:
		ls = st.Bold
	}
	return common.Fit(st.Muted.Render(prefix)+ls.Render(label)+" "+st.Count.Render(count), width)
}

// Follow returns the scroll offset that keeps row selected visible among
// visible rows, moving offset as little as possible, and never leaving
// empty rows at the bottom while there are rows above.
func Follow(offset, selected, n, visible int) int {
	if visible <= 0 || n == 0 {
		return 0
	}
	if selected < offset {
		offset = selected
	}
	if selected >= offset+visible {
		offset = selected - visible + 1
	}
	return max(0, min(offset, n-visible))
}

// Model is the tree pane's state.
type Model struct {
	c       *common.Common
	groups  []*session.ErrorGroup
	include func(i int) bool
	by      Grouping
	roots   []*Node
	rows    []*Node
	// collapsed names the collapsed nodes of each grouping, so that they
	// stay collapsed across rebuilds (a filter, another grouping and back);
	// closed are those nodes in the current build.
	collapsed map[Grouping]map[nodeRef]bool
	closed    map[*Node]bool
	sel       int
	offset    int
	width     int
	height    int
	focused   bool
	total     int
	b         *builder
	query     string
	// stale says nodes were added since the rows were last listed, at
	// listed; listing them took listCost.
	stale    bool
	listed   time.Time
	listCost time.Duration
	// byCount lists siblings by their records, most first.
	byCount bool
}

// ListEvery is how often, at most, the rows are listed again while a large
// snapshot is placed: and no more than an eighth of the time goes to it.
const ListEvery = 250 * time.Millisecond

// New returns an empty tree pane grouped by command buffer.
func New(c *common.Common) *Model {
	return &Model{c: c, collapsed: map[Grouping]map[nodeRef]bool{}, closed: map[*Node]bool{}}
}

// nodeRef names an inner node across builds of one grouping: its depth
// and a group below it (its first when it was collapsed).
type nodeRef struct {
	depth int16
	group int32
}

// isCollapsed reports whether inner node n is collapsed.
func (m *Model) isCollapsed(n *Node) bool { return m.closed[n] }

// close finds the collapsed nodes of the current build.
func (m *Model) close() {
	clear(m.closed)
	for ref := range m.collapsed[m.by] {
		if n := m.b.nodeFor(&Node{Depth: ref.depth, First: ref.group}); n != nil && n.Depth == ref.depth && !n.Leaf() {
			m.closed[n] = true
		}
	}
}

// SetSize sets the pane's inner size (without its frame).
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.follow()
}

// SetFocused says whether the pane has focus.
func (m *Model) SetFocused(f bool) { m.focused = f }

// SetGroups replaces the groups (a new snapshot); the selection stays on
// the node it was on. Groups are only ever appended by a live session, so
// the groups past those already placed are added to the tree; fewer groups
// than before (another session) build it again.
//
// A step places new groups for at most [StepTime]; [Model.Pending] says
// whether more are waiting, which [Model.Continue] places, one step at a
// time, so that a session arriving by the hundred thousand never holds the
// screen.
func (m *Model) SetGroups(g []*session.ErrorGroup) {
	grow := m.b != nil && len(g) >= m.b.done
	m.groups = g
	if !grow {
		m.rebuild()
		return
	}
	m.Continue()
}

// StepTime is how long one call places new groups for (the tree is then
// listed once more, which a large tree also takes a few milliseconds for).
const StepTime = 15 * time.Millisecond

// Pending reports whether groups are waiting to be placed.
func (m *Model) Pending() bool { return m.b != nil && m.b.done < len(m.groups) }

// Continue places the next step of the groups waiting.
func (m *Model) Continue() {
	if m.b == nil {
		m.rebuild()
		return
	}
	m.update(func() bool { return m.b.add(m.groups, m.include, time.Now().Add(StepTime)) })
}

// Reset forgets the groups placed: the next SetGroups is another run's
// and builds the tree again (the selection stays on a node with the same
// key, when there is one).
func (m *Model) Reset() { m.b = nil }

// SetFilter restricts the tree to the groups include accepts (nil: all);
// the title shows the filter's text q.
func (m *Model) SetFilter(include func(i int) bool, q string) {
	m.include, m.query = include, q
	m.rebuild()
}

// Grouping returns the current grouping.
func (m *Model) Grouping() Grouping { return m.by }

// SetGrouping regroups the tree; the selected group stays selected.
func (m *Model) SetGrouping(by Grouping) {
	by = (by%NumGroupings + NumGroupings) % NumGroupings
	if by == m.by {
		return
	}
	g := m.Selected()
	m.by = by
	m.sel = 0
	m.rebuild()
	if g >= 0 {
		m.SelectGroup(g)
	}
}

// rebuild builds the tree again from scratch.
func (m *Model) rebuild() {
	m.update(func() bool {
		m.b = newBuilder(m.by)
		m.b.add(m.groups, m.include, time.Now().Add(StepTime))
		return true
	})
}

// update changes the tree with change and, when it added or replaced rows,
// lists the rows again and puts the selection back on the node with the
// same key, or else on the first leaf. A change that only grew counts
// costs nothing more.
func (m *Model) update(change func() bool) {
	var was *Node
	hadSel := m.sel < len(m.rows)
	if hadSel {
		was = m.rows[m.sel]
	}
	m.stale = change() || m.stale
	m.roots = m.b.roots
	m.total = m.b.total
	// While a large snapshot is placed, the rows are listed again only now
	// and then: listing them costs as much as placing a step.
	if !m.stale || (m.Pending() && time.Since(m.listed) < max(ListEvery, 8*m.listCost) && len(m.rows) > 0) {
		return
	}
	start := time.Now()
	m.stale = false
	m.close()
	m.rows = flattenInto(m.rows[:0], m.roots, m.isCollapsed, m.byCount)
	m.listed, m.listCost = time.Now(), time.Since(start)
	if hadSel {
		if n := m.b.nodeFor(was); n != nil {
			for i, r := range m.rows {
				if r == n {
					m.sel = i
					m.follow()
					return
				}
			}
		}
	}
	m.sel = 0
	for i, n := range m.rows {
		if n.Leaf() {
			m.sel = i
			break
		}
	}
	m.follow()
}

// Rows returns the rows that show.
func (m *Model) Rows() []*Node { return m.rows }

// Cursor returns the index of the selected row.
func (m *Model) Cursor() int { return m.sel }

// SelectedNode returns the selected node, nil when the tree is empty.
func (m *Model) SelectedNode() *Node {
	if m.sel < len(m.rows) {
		return m.rows[m.sel]
	}
	return nil
}

// Selected returns the index in the session's groups of the selected leaf,
// or of the first group below the selected inner node; -1 when empty.
func (m *Model) Selected() int {
	if n := m.SelectedNode(); n != nil {
		return int(n.First)
	}
	return -1
}

// Select selects row i, clamped.
func (m *Model) Select(i int) {
	m.sel = max(0, min(i, len(m.rows)-1))
	m.follow()
}

// Move moves the selection by d rows.
func (m *Model) Move(d int) { m.Select(m.sel + d) }

// SelectGroup selects the leaf of group i, expanding its ancestors; it
// reports whether the group is in the tree (not filtered out).
func (m *Model) SelectGroup(i int) bool {
	var leaf *Node
	var find func(ns []*Node) bool
	find = func(ns []*Node) bool {
		for _, n := range ns {
			if int(n.Group) == i {
				leaf = n
				return true
			}
			if !n.Leaf() && int(n.First) <= i && find(n.Children) {
				return true
			}
		}
		return false
	}
	if !find(m.roots) {
		return false
	}
	changed := false
	for p := leaf.Parent; p != nil; p = p.Parent {
		if m.isCollapsed(p) {
			m.setCollapsed(p, false)
			changed = true
		}
	}
	if changed {
		m.relist()
	}
	for r, n := range m.rows {
		if n == leaf {
			m.Select(r)
			return true
		}
	}
	return false
}

// NextLeaf selects the d-th next error group row (d = ±1) from the
// selection, wrapping around, expanding collapsed nodes on the way; it
// reports whether there was one.
func (m *Model) NextLeaf(d int) bool {
	var leaves []*Node
	var walk func(ns []*Node)
	walk = func(ns []*Node) {
		for _, n := range ordered(ns, m.byCount) {
			if n.Leaf() {
				leaves = append(leaves, n)
			} else {
				walk(n.Children)
			}
		}
	}
	walk(m.roots)
	if len(leaves) == 0 {
		return false
	}
	// pos is the selection's place among the leaves in tree order; an inner
	// node sits just before its first leaf.
	pos := -1
	if cur := m.SelectedNode(); cur != nil {
		for i, l := range leaves {
			if l == cur {
				pos = i
				break
			}
			if !cur.Leaf() && isBelow(l, cur) {
				pos = i
				if d > 0 {
					pos = i - 1
				}
				break
			}
		}
	}
	next := ((pos+d)%len(leaves) + len(leaves)) % len(leaves)
	return m.SelectGroup(int(leaves[next].Group))
}

func isBelow(n, anc *Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == anc {
			return true
		}
	}
	return false
}

// SetCollapsed collapses or expands the selected inner node.
func (m *Model) SetCollapsed(c bool) {
	n := m.SelectedNode()
	if n == nil || n.Leaf() || m.isCollapsed(n) == c {
		return
	}
	m.setCollapsed(n, c)
	m.relist()
}

// relist lists the rows again after a change of what shows, the
// selection kept on its node (or its nearest shown ancestor).
func (m *Model) relist() {
	var was *Node
	if m.sel < len(m.rows) {
		was = m.rows[m.sel]
	}
	m.rows = flattenInto(m.rows[:0], m.roots, m.isCollapsed, m.byCount)
	for n := was; n != nil; n = n.Parent {
		if i := slices.Index(m.rows, n); i >= 0 {
			m.sel = i
			break
		}
	}
	m.sel = max(0, min(m.sel, len(m.rows)-1))
	m.follow()
}

// SortByCount lists siblings by their records, most first (on), or in
// arrival order (off); the selection stays on its node.
func (m *Model) SortByCount(on bool) {
	if m.byCount == on {
		return
	}
	m.byCount = on
	m.relist()
}

// ByCount reports whether siblings are listed by their records.
func (m *Model) ByCount() bool { return m.byCount }

// CollapseAll collapses every top-level node (on) — the tree shows one row
// each — or expands every node (off); the selection goes to the row its
// node now shows under.
func (m *Model) CollapseAll(on bool) {
	refs := map[nodeRef]bool{}
	clear(m.closed)
	if on {
		for _, n := range m.roots {
			if !n.Leaf() {
				refs[nodeRef{n.Depth, n.First}] = true
				m.closed[n] = true
			}
		}
	}
	m.collapsed[m.by] = refs
	m.relist()
}

// setCollapsed collapses or expands inner node n (the rows are not listed
// again).
func (m *Model) setCollapsed(n *Node, c bool) {
	refs := m.collapsed[m.by]
	if refs == nil {
		refs = map[nodeRef]bool{}
		m.collapsed[m.by] = refs
	}
	if c {
		refs[nodeRef{n.Depth, n.First}] = true
		m.closed[n] = true
		return
	}
	for ref := range refs {
		if m.b.nodeFor(&Node{Depth: ref.depth, First: ref.group}) == n {
			delete(refs, ref)
		}
	}
	delete(m.closed, n)
}

// Toggle collapses an expanded inner node and expands a collapsed one; it
// reports whether the selection is an inner node.
func (m *Model) Toggle() bool {
	n := m.SelectedNode()
	if n == nil || n.Leaf() {
		return false
	}
	m.SetCollapsed(!m.isCollapsed(n))
	return true
}

// IsCollapsed reports whether the selected node is a collapsed inner node.
func (m *Model) IsCollapsed() bool {
	n := m.SelectedNode()
	return n != nil && m.isCollapsed(n)
}

// Left collapses the selected node when it is an expanded inner node, and
// otherwise selects its parent.
func (m *Model) Left() {
	n := m.SelectedNode()
	if n == nil {
		return
	}
	if !n.Leaf() && !m.isCollapsed(n) {
		m.SetCollapsed(true)
		return
	}
	if n.Parent != nil {
		for i, r := range m.rows {
			if r == n.Parent {
				m.Select(i)
				return
			}
		}
	}
}

// SelectRow selects the row drawn on line y of the pane's inner area; it
// reports whether y was on a row.
func (m *Model) SelectRow(y int) bool {
	i := m.offset + y
	if y < 0 || i >= len(m.rows) {
		return false
	}
	m.Select(i)
	return true
}

func (m *Model) follow() { m.offset = Follow(m.offset, m.sel, len(m.rows), m.height) }

// Update handles the keys of [Model.FullHelp] while the pane has focus, the
// wheel (one row per notch) and a left click on a row (in the pane's own
// coordinates).
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k := m.c.Keys
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if d, ok := common.WheelDelta(msg, 1); ok {
			m.Move(d)
		}
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft {
			m.SelectRow(msg.Y)
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			m.Move(-1)
		case key.Matches(msg, k.Down):
			m.Move(1)
		case key.Matches(msg, k.PageUp):
			m.Move(-max(m.height-1, 1))
		case key.Matches(msg, k.PageDown):
			m.Move(max(m.height-1, 1))
		case key.Matches(msg, k.Top):
			m.Select(0)
		case key.Matches(msg, k.Bottom):
			m.Select(len(m.rows) - 1)
		case key.Matches(msg, k.Toggle, k.Open):
			m.Toggle()
		case key.Matches(msg, k.Left):
			m.Left()
		case key.Matches(msg, k.Right):
			m.SetCollapsed(false)
		case key.Matches(msg, k.SortCount):
			m.SortByCount(!m.byCount)
		case key.Matches(msg, k.CollapseAll):
			m.CollapseAll(true)
		case key.Matches(msg, k.ExpandAll):
			m.CollapseAll(false)
		}
	}
	return nil
}

// ShortHelp is the footer's help while the tree has focus: moving, and
// what enter, space, h and l do on the selected row.
func (m *Model) ShortHelp() []key.Binding {
	k := m.c.Keys
	out := []key.Binding{k.Down, k.Up}
	if n := m.SelectedNode(); n != nil && !n.Leaf() {
		out = append(out, common.WithHelp(k.Open, "expand/collapse"))
	}
	return append(out, m.fold()...)
}

// fold is the help of h and l on the selected row: l only expands a
// collapsed node (elsewhere it moves to the next pane).
func (m *Model) fold() []key.Binding {
	k := m.c.Keys
	out := []key.Binding{common.WithHelp(k.Left, "collapse/parent")}
	if m.IsCollapsed() {
		out = append(out, common.WithHelp(k.Right, "expand"))
	}
	return out
}

// FullHelp lists every key the tree handles with the current selection:
// enter only on a command buffer, action or pipeline row (on an error it
// opens the source, which the root does), l only on a collapsed row.
func (m *Model) FullHelp() [][]key.Binding {
	k := m.c.Keys
	act := []key.Binding{common.WithHelp(k.Toggle, "expand/collapse")}
	if n := m.SelectedNode(); n != nil && !n.Leaf() {
		act = append(act, common.WithHelp(k.Open, "expand/collapse"))
	}
	sortHelp := "sort by count"
	if m.byCount {
		sortHelp = "sort by arrival"
	}
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, append(act, m.fold()...),
		{common.WithHelp(k.SortCount, sortHelp), k.CollapseAll, k.ExpandAll}}
}

// Total returns the number of groups in the tree (after the filter).
func (m *Model) Total() int { return m.total }

// Title is the pane's title: "Errors by command buffer (2 groups)", how
// much of a large session is placed while it is placed ("(10000 groups,
// 4% read)"), and the filter in force: "… (1 group) /frag".
func (m *Model) Title() string {
	g := "groups"
	if m.total == 1 {
		g = "group"
	}
	t := fmt.Sprintf("Errors by %s (%d %s", m.by, m.total, g)
	if m.byCount {
		t += ", by count"
	}
	if m.Pending() {
		t += fmt.Sprintf(", %d%% read", 100*m.b.done/len(m.groups))
	}
	t += ")"
	if m.query != "" {
		t += " /" + m.query
	}
	return t
}

// View draws the pane's inner area; with a filter that keeps nothing, it
// says so.
func (m *Model) View() string {
	if len(m.rows) == 0 && m.query != "" {
		return RenderNoMatch(m.c.Styles, m.query, m.width, m.height)
	}
	if len(m.rows) == 0 && len(m.groups) > 0 && !m.Pending() {
		// Only mutes hide groups without a query.
		lines := []string{}
		for _, l := range common.Lines(ansi.Wrap(fmt.Sprintf("all %d error groups are muted: u shows them", len(m.groups)), m.width, "")) {
			lines = append(lines, m.c.Styles.Warning.Render(l))
		}
		return common.Block(lines, m.width, m.height)
	}
	return Render(m.c.Styles, m.rows, m.isCollapsed, m.sel, m.offset, m.focused, m.width, m.height)
}

// RenderNoMatch is the tree when filter q keeps no group: a line that says
// so and how to clear it, exactly width×height cells.
func RenderNoMatch(st *common.Styles, q string, width, height int) string {
	var lines []string
	for _, l := range common.Lines(ansi.Wrap("no error group matches /"+common.Clean(q), width, "")) {
		lines = append(lines, st.Warning.Render(l))
	}
	for _, l := range common.Lines(ansi.Wrap("/ edits the filter, esc clears it", width, "")) {
		lines = append(lines, st.Muted.Render(l))
	}
	return common.Block(lines, width, height)
}

// More counts the rows above and below the pane's window.
func (m *Model) More() common.More {
	return common.More{Above: m.offset, Below: max(len(m.rows)-m.offset-m.height, 0)}
}

// NeededWidth is the width (without the frame) the widest row needs.
func (m *Model) NeededWidth() int {
	if m.b == nil {
		return 0
	}
	return m.b.need
}

// Records counts the records of the groups in the tree (after the
// filter).
func (m *Model) Records() int {
	if m.b == nil {
		return 0
	}
	return m.b.records
}
