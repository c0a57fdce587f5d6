package tree

import (
	"fmt"
	"hash/maphash"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// handleText names a handle: its debug name in quotes, else the handle.
func handleText(h session.Handle) string {
	switch {
	case h.Name != "":
		return strconv.Quote(common.Clean(h.Name))
	case h.Handle != "":
		return common.Clean(h.Handle)
	}
	return "?"
}

// Location is a group's place in its shader: "oob_fragment.frag:9", or
// "shader 2 instr 112" without debug info.
func Location(g *session.ErrorGroup) string {
	if g.Source != nil && g.Source.File != "" && g.Source.Line > 0 {
		return common.Clean(path.Base(g.Source.File)) + ":" + strconv.Itoa(g.Source.Line)
	}
	return fmt.Sprintf("shader %d instr %d", g.Shader.ID, g.Instruction)
}

// ActionText is "#0 vkCmdDraw", with the debug-label path after a dash
// when there is one.
func ActionText(g *session.ErrorGroup) string {
	a := g.Action
	if a == "" {
		a = "action"
	}
	s := "#" + strconv.FormatUint(uint64(g.ActionIndex), 10) + " " + common.Clean(a)
	if len(g.Labels) > 0 {
		s += " — " + common.Clean(strings.Join(g.Labels, " › "))
	}
	return s
}

// LeafText is a group's row under the command buffer grouping: check,
// location and stage (the count is drawn apart).
func LeafText(g *session.ErrorGroup) string {
	s := g.Check + " " + Location(g)
	if g.Stage != "" {
		s += " " + g.Stage
	}
	return s
}

// usageText is where a group happened: "#3 vkCmdDispatch · cmdbuf
// "cmd-2"", what tells apart the groups of one source line or one check.
func usageText(g *session.ErrorGroup) string {
	return ActionText(g) + " · cmdbuf " + handleText(g.CommandBuffer)
}

// level is one level of a grouping (or a grouping's leaves): the group
// fields that tell its nodes apart — hashed and compared without building
// a string — and the label made from them.
type level struct {
	hash  func(h *maphash.Hash, g *session.ErrorGroup)
	same  func(a, b *session.ErrorGroup) bool
	label func(g *session.ErrorGroup) string
}

func writeUint(h *maphash.Hash, v uint64) {
	var buf [8]byte
	for i := range buf {
		buf[i] = byte(v >> (8 * i))
	}
	h.Write(buf[:])
}

func writeStrings(h *maphash.Hash, ss ...string) {
	for _, s := range ss {
		h.WriteString(s)
		h.WriteByte(0)
	}
}

// hasSource reports whether g has a file and line.
func hasSource(g *session.ErrorGroup) bool {
	return g.Source != nil && g.Source.File != "" && g.Source.Line > 0
}

var (
	cbLevel = level{
		hash: func(h *maphash.Hash, g *session.ErrorGroup) {
			writeStrings(h, g.CommandBuffer.Handle, g.CommandBuffer.Name)
			writeUint(h, g.CommandBuffer.Serial)
		},
		same:  func(a, b *session.ErrorGroup) bool { return a.CommandBuffer == b.CommandBuffer },
		label: func(g *session.ErrorGroup) string { return "cmdbuf " + handleText(g.CommandBuffer) },
	}
	actionLevel = level{
		hash: func(h *maphash.Hash, g *session.ErrorGroup) {
			writeUint(h, uint64(g.ActionIndex))
			writeStrings(h, g.Action)
			writeStrings(h, g.Labels...)
		},
		same: func(a, b *session.ErrorGroup) bool {
			return a.ActionIndex == b.ActionIndex && a.Action == b.Action && slices.Equal(a.Labels, b.Labels)
		},
		label: ActionText,
	}
	pipelineLevel = level{
		hash: func(h *maphash.Hash, g *session.ErrorGroup) {
			writeStrings(h, g.Pipeline.Handle, g.Pipeline.Name)
			writeUint(h, g.Pipeline.Serial)
		},
		same:  func(a, b *session.ErrorGroup) bool { return a.Pipeline == b.Pipeline },
		label: func(g *session.ErrorGroup) string { return "pipeline " + handleText(g.Pipeline) },
	}
	// sourceLevel places a group in its shader source: file (its base
	// name, as the label shows it) and line, or the shader and instruction
	// without them.
	sourceLevel = level{
		hash: func(h *maphash.Hash, g *session.ErrorGroup) {
			if hasSource(g) {
				writeStrings(h, path.Base(g.Source.File))
				writeUint(h, uint64(g.Source.Line))
				return
			}
			writeUint(h, uint64(g.Shader.ID)<<32|uint64(g.Instruction))
		},
		same: func(a, b *session.ErrorGroup) bool {
			if hasSource(a) != hasSource(b) {
				return false
			}
			if !hasSource(a) {
				return a.Shader.ID == b.Shader.ID && a.Instruction == b.Instruction
			}
			return a.Source.Line == b.Source.Line && path.Base(a.Source.File) == path.Base(b.Source.File)
		},
		label: Location,
	}
	checkLevel = level{
		hash:  func(h *maphash.Hash, g *session.ErrorGroup) { writeStrings(h, g.Check) },
		same:  func(a, b *session.ErrorGroup) bool { return a.Check == b.Check },
		label: func(g *session.ErrorGroup) string { return g.Check },
	}
	stageLevel = level{
		hash:  func(h *maphash.Hash, g *session.ErrorGroup) { writeStrings(h, g.Stage) },
		same:  func(a, b *session.ErrorGroup) bool { return a.Stage == b.Stage },
		label: func(*session.ErrorGroup) string { return "" },
	}
)

// fields is a level made of several: what a leaf's label reads.
func fields(label func(g *session.ErrorGroup) string, ls ...level) level {
	return level{
		hash: func(h *maphash.Hash, g *session.ErrorGroup) {
			for _, l := range ls {
				l.hash(h, g)
			}
		},
		same: func(a, b *session.ErrorGroup) bool {
			for _, l := range ls {
				if !l.same(a, b) {
					return false
				}
			}
			return true
		},
		label: label,
	}
}

// shape is a grouping's levels and its leaves: what the levels above do
// not already say.
type shape struct {
	levels []level
	leaf   level
}

func shapeOf(by Grouping) shape {
	leafText := fields(LeafText, checkLevel, sourceLevel, stageLevel)
	usage := fields(usageText, actionLevel, cbLevel)
	switch by {
	case ByPipeline:
		// An action index counts in its command buffer: one action node
		// of a pipeline holds the groups of several command buffers.
		return shape{[]level{pipelineLevel, actionLevel}, fields(func(g *session.ErrorGroup) string {
			return LeafText(g) + " · cmdbuf " + handleText(g.CommandBuffer)
		}, checkLevel, sourceLevel, stageLevel, cbLevel)}
	case BySource:
		return shape{[]level{sourceLevel, checkLevel}, usage}
	case ByCheck:
		return shape{[]level{checkLevel, sourceLevel}, usage}
	}
	return shape{[]level{cbLevel, actionLevel, pipelineLevel}, leafText}
}

// builder builds a tree group by group, so that groups appended by a live
// update are added without building the rest again. A large session
// (250,000 groups) makes hundreds of thousands of nodes, so the indexes
// hold 64-bit hashes of a node's fields and check a hit against the group
// the node was made from, and equal labels are made and kept once.
type builder struct {
	shape
	h     maphash.Hash // reused: a Hash is large
	roots []*Node
	// groups are the groups of the latest snapshot.
	groups []*session.ErrorGroup
	// children finds a node by a hash of its parent and fields; clash
	// lists the rare nodes whose hash another node already had.
	children map[uint64]*Node
	clash    []*Node
	// labels finds a made label by a hash of its level and fields.
	labels map[uint64]made
	// twins finds a leaf by a hash of its parent and fields, to tell apart
	// two groups whose rows would read the same.
	twins map[uint64]*Node
	// done is the number of groups looked at; leafOf[i] is group i's leaf
	// (nil when the filter left it out).
	done   int
	leafOf []*Node
	// total and records count what is below the roots; need is the
	// widest row's width. Counts only grow, so the width never shrinks.
	total, records, need int
}

// made is a label, its width and the group it was made from.
type made struct {
	label string
	w     int
	g     *session.ErrorGroup
}

func newBuilder(by Grouping) *builder {
	return &builder{shape: shapeOf(by), children: map[uint64]*Node{}, labels: map[uint64]made{}, twins: map[uint64]*Node{}}
}

// fieldsHash hashes level d's fields of g (d = len(levels) for the leaf).
func (b *builder) fieldsHash(d int, g *session.ErrorGroup) uint64 {
	b.h.Reset()
	writeUint(&b.h, uint64(d))
	b.level(d).hash(&b.h, g)
	return b.h.Sum64()
}

// under mixes a parent (its depth and first group, which no other node
// shares) into a fields hash.
func under(parent *Node, fh uint64) uint64 {
	if parent == nil {
		return fh
	}
	p := uint64(parent.First)<<16 | uint64(parent.Depth) + 1
	x := fh ^ (p * 0x9e3779b97f4a7c15)
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>29
}

func (b *builder) level(d int) level {
	if d < len(b.levels) {
		return b.levels[d]
	}
	return b.leaf
}

// child returns parent's child at depth d made from groups like g, or nil.
func (b *builder) child(parent *Node, d int, g *session.ErrorGroup, h uint64) *Node {
	same := b.levels[d].same
	if n := b.children[h]; n != nil && n.Parent == parent && same(b.groups[n.First], g) {
		return n
	}
	for _, n := range b.clash {
		if n.Parent == parent && int(n.Depth) == d && same(b.groups[n.First], g) {
			return n
		}
	}
	return nil
}

// putChild indexes n by its hash h.
func (b *builder) putChild(n *Node, h uint64) {
	if b.children[h] == nil {
		b.children[h] = n
		return
	}
	b.clash = append(b.clash, n)
}

// label returns level d's label for g and its width, made once per
// distinct fields.
func (b *builder) label(d int, g *session.ErrorGroup, fh uint64) (string, int) {
	l := b.level(d)
	m, ok := b.labels[fh]
	if ok && l.same(m.g, g) {
		return m.label, m.w
	}
	s := l.label(g)
	w := textWidth(s)
	if !ok {
		b.labels[fh] = made{s, w, g}
	}
	return s, w
}

// add places groups[b.done:] that include accepts, until the deadline
// (none when zero) — at least one group — and brings the counts of the
// groups already placed up to date: a live snapshot has the same groups
// first, with counts that grew. It reports whether rows were added.
func (b *builder) add(groups []*session.ErrorGroup, include func(i int) bool, deadline time.Time) bool {
	// A new snapshot: the counts of the groups placed may have grown (the
	// steps that place one snapshot's groups need not look again).
	// A group that is the same as before (snapshots share the groups
	// that did not change) has the same count.
	if len(groups) != len(b.groups) || len(groups) == 0 || &groups[0] != &b.groups[0] {
		for i, leaf := range b.leafOf[:min(b.done, len(groups))] {
			if leaf != nil && (i >= len(b.groups) || groups[i] != b.groups[i]) {
				if d := groups[i].Count - leaf.Records; d != 0 {
					b.grow(leaf, 0, d)
				}
			}
		}
	}
	b.groups = groups
	added := false
	for i := b.done; i < len(groups); i++ {
		if !deadline.IsZero() && i > b.done && i%64 == 0 && time.Now().After(deadline) {
			b.done = i
			return added
		}
		b.leafOf = append(b.leafOf, nil)
		if g := groups[i]; g != nil && (include == nil || include(i)) {
			b.place(i, g)
			added = true
		}
	}
	b.done = len(groups)
	return added
}

// place adds group i, g, to the tree: its nodes where missing, its leaf.
func (b *builder) place(i int, g *session.ErrorGroup) {
	var parent *Node
	siblings := &b.roots
	for d := range b.levels {
		fh := b.fieldsHash(d, g)
		h := under(parent, fh)
		n := b.child(parent, d, g, h)
		if n == nil {
			n = &Node{Parent: parent, Group: -1, First: int32(i), Depth: int16(d)}
			n.setLabel(b.label(d, g, fh))
			b.putChild(n, h)
			*siblings = append(*siblings, n)
		}
		parent, siblings = n, &n.Children
	}
	d := len(b.levels)
	fh := b.fieldsHash(d, g)
	leaf := &Node{Parent: parent, Group: int32(i), First: int32(i), Depth: int16(d)}
	leaf.setLabel(b.label(d, g, fh))
	b.distinguish(leaf, under(parent, fh))
	*siblings = append(*siblings, leaf)
	b.leafOf[i] = leaf
	b.grow(leaf, 1, g.Count)
}

// nodeFor returns the node of this tree that was is in an earlier build of
// the same grouping: the same node when the tree only grew, else the leaf
// of the same group, or the ancestor at was's depth of the leaf of was's
// first group; nil when the filter left that group out.
func (b *builder) nodeFor(was *Node) *Node {
	g := int(was.First)
	if g < 0 || g >= len(b.leafOf) || b.leafOf[g] == nil {
		return nil
	}
	n := b.leafOf[g]
	for n != nil && n.Depth > was.Depth {
		n = n.Parent
	}
	return n
}

// grow adds groups and records to leaf and its ancestors, and to the
// tree's totals; the widest row may have grown.
func (b *builder) grow(leaf *Node, groups, records int) {
	for n := leaf; n != nil; n = n.Parent {
		n.Groups += int32(groups)
		n.Records += records
		b.need = max(b.need, n.width())
	}
	b.total += groups
	b.records += records
}

// distinguish gives leaf, and the sibling whose row would read the same,
// the shader and instruction that tell them apart; h hashes the leaf's
// parent and fields.
func (b *builder) distinguish(leaf *Node, h uint64) {
	other := b.twins[h]
	if other == nil {
		b.twins[h] = leaf
		return
	}
	if other.Parent != leaf.Parent || !b.leaf.same(b.groups[other.Group], b.groups[leaf.Group]) {
		return // a clash of hashes, not a twin
	}
	base := leaf.Label // not told apart yet
	tell := func(n *Node) {
		g := b.groups[n.Group]
		l := base + " · shader " + strconv.FormatUint(uint64(g.Shader.ID), 10) + " instr " + strconv.FormatUint(uint64(g.Instruction), 10)
		n.setLabel(l, textWidth(l))
	}
	if other.Label == base { // the first twin: told apart once
		tell(other)
	}
	tell(leaf)
}

// Build makes the tree of groups under grouping by; include, when not nil,
// says which groups take part (a filter). Nodes keep first-arrival order.
func Build(groups []*session.ErrorGroup, include func(i int) bool, by Grouping) []*Node {
	b := newBuilder(by)
	b.add(groups, include, time.Time{})
	return b.roots
}
