package session

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// timelineBuilder adds one Errors message (one command buffer of one
// submit) to Session.Timeline. Its work is the message's records: the
// node it extends is found through an index (tlNode), and its slices are
// copied only when a snapshot may hold them, so that any number of
// messages for one submit and command buffer (a crafted session file has
// 40,000) cost linear time.
type timelineBuilder struct {
	c    *Collector
	e    *wire.Errors
	key  tlKey
	ix   *tlNode
	node CommandBufferNode
	// merged: the command buffer already had records in this submit; its
	// node is being extended.
	merged bool
	// unnamed are the handles the node names that have no debug name yet
	// (Collector.unnamed).
	unnamed []uint64
}

// tlKey is a command buffer's node in a submit: its handle and serial (a
// command buffer allocated in place of a freed one is another node).
type tlKey struct{ submit, cmdBuf, serial uint64 }

// tlNode indexes a command buffer's node of a submit: its place in the
// submit's CommandBuffers, its actions by action index, their groups by
// (place in Actions, group), and the snapshot generation in which its
// Actions were last copied (Collector.snapGen: equal, no snapshot holds
// them and they change in place). The maps are kept only for a node that
// was extended once (most nodes are one message's: their maps go with the
// message), and made again from the node when it is extended first.
type tlNode struct {
	pos     int
	actions map[uint32]int32
	groups  map[[2]int32]int32
	gen     uint64
}

// noteUnnamed remembers a handle of the node that has no debug name yet.
func (b *timelineBuilder) noteUnnamed(h uint64) {
	if h != 0 && b.c.names[h] == "" && !slices.Contains(b.unnamed, h) {
		b.unnamed = append(b.unnamed, h)
	}
}

// newTimelineBuilder starts the node of e's command buffer in e's submit.
func newTimelineBuilder(c *Collector, e *wire.Errors) *timelineBuilder {
	b := &timelineBuilder{c: c, e: e, key: tlKey{e.Submit, e.CommandBuffer, e.CommandBufferSerial}}
	b.noteUnnamed(e.CommandBuffer)
	b.noteUnnamed(e.Queue)
	b.noteUnnamed(e.Primary)
	if ix := c.tlNodes[b.key]; ix != nil {
		b.merged, b.ix = true, ix
		b.node = c.submitNode(e.Submit, false).CommandBuffers[ix.pos]
		b.node.Dropped += e.Dropped
		if ix.actions == nil {
			ix.actions, ix.groups = map[uint32]int32{}, map[[2]int32]int32{}
			for ai, a := range b.node.Actions {
				ix.actions[a.Index] = int32(ai)
				for gi, g := range a.Groups {
					ix.groups[[2]int32{int32(ai), int32(g.Group)}] = int32(gi)
				}
			}
		}
		if ix.gen != c.snapGen {
			// A snapshot holds these: extend a copy.
			acts := make([]ActionNode, len(b.node.Actions))
			for i, a := range b.node.Actions {
				a.Groups = slices.Clone(a.Groups)
				acts[i] = a
			}
			b.node.Actions = acts
			ix.gen = c.snapGen
		}
		return b
	}
	// A new node's groups need no index: a group's first record in the
	// message is its first in the node.
	b.ix = &tlNode{actions: map[uint32]int32{}, gen: c.snapGen}
	b.node = CommandBufferNode{CommandBuffer: c.objHandle(objCommandBuffer, objRef{e.CommandBuffer, e.CommandBufferSerial}),
		Dropped: e.Dropped}
	if e.Queue != 0 {
		b.node.Queue = c.handle(e.Queue)
	}
	if e.Primary != 0 {
		b.node.PrimaryCommandBuffer = c.objHandle(objCommandBuffer, objRef{e.Primary, e.PrimarySerial})
		pa := e.PrimaryAction
		b.node.PrimaryActionIndex = &pa
	}
	return b
}

// add counts a record of group st; first says it is the group's first
// record in this message.
func (b *timelineBuilder) add(r *wire.Record, st *groupState, count int, first bool) {
	if first {
		ai, ok := b.ix.actions[r.ActionIndex]
		if !ok {
			ai = int32(len(b.node.Actions))
			b.ix.actions[r.ActionIndex] = ai
			a := ActionNode{Index: r.ActionIndex, Action: r.Action,
				Pipeline: b.c.objHandle(objPipeline, objRef{r.Pipeline, r.PipelineSerial})}
			b.noteUnnamed(r.Pipeline)
			if len(r.Labels) > 0 {
				a.Labels = b.c.intern.labels(r.Labels)
			}
			b.node.Actions = append(b.node.Actions, a)
		}
		a := &b.node.Actions[ai]
		gk := [2]int32{ai, st.index}
		gi, ok := b.ix.groups[gk] // nil for a new node: not there
		if !ok {
			gi = int32(len(a.Groups))
			a.Groups = append(a.Groups, GroupCount{Group: int(st.index)})
			if b.merged {
				b.ix.groups[gk] = gi
			}
		}
		st.tlAction, st.tlGroup = ai, gi
	}
	b.node.Actions[st.tlAction].Groups[st.tlGroup].Count += count
}

// finish puts the node into its submit, when it has records or dropped
// some.
func (b *timelineBuilder) finish() {
	if len(b.node.Actions) == 0 && b.node.Dropped == 0 {
		return
	}
	c := b.c
	sn := c.submitNode(b.e.Submit, true)
	for _, h := range b.unnamed {
		if l := c.unnamed[h]; len(l) == 0 || l[len(l)-1] != b.e.Submit {
			c.unnamed[h] = append(l, b.e.Submit)
		}
	}
	if !b.merged {
		// Appending never changes what a snapshot holds (its length ends
		// before).
		b.ix.pos = len(sn.CommandBuffers)
		sn.CommandBuffers = append(sn.CommandBuffers, b.node)
		b.ix.actions, b.ix.groups = nil, nil // made again if it is extended
		c.tlNodes[b.key] = b.ix
		return
	}
	if g, ok := c.tlSubmitGen[b.e.Submit]; !ok || g != c.snapGen {
		sn.CommandBuffers = slices.Clone(sn.CommandBuffers)
		c.tlSubmitGen[b.e.Submit] = c.snapGen
	}
	sn.CommandBuffers[b.ix.pos] = b.node
}

// submitNode finds the timeline node of a submit (an index by submit),
// making it when create is set. A new submit's node is appended: the
// timeline is put in submit order again when it is read (sortTimeline),
// not by an insert per message (a file whose submits come in reverse
// order made that quadratic).
func (c *Collector) submitNode(submit uint64, create bool) *SubmitNode {
	if i, ok := c.tlSubmits[submit]; ok {
		return &c.s.Timeline[i]
	}
	if !create {
		return nil
	}
	tl := c.s.Timeline
	if n := len(tl); n > 0 && tl[n-1].Submit > submit {
		c.tlUnsorted = true
	}
	c.tlSubmits[submit] = len(tl)
	c.s.Timeline = append(tl, SubmitNode{Submit: submit})
	return &c.s.Timeline[len(tl)]
}

// sortTimeline puts the timeline in submit order when a submit came out
// of order since it was last sorted. Called with c.mu held, before the
// timeline is read (Snapshot, finish).
func (c *Collector) sortTimeline() {
	if !c.tlUnsorted {
		return
	}
	c.tlUnsorted = false
	tl := slices.Clone(c.s.Timeline) // a snapshot may hold the old order
	slices.SortFunc(tl, func(a, b SubmitNode) int { return cmp.Compare(a.Submit, b.Submit) })
	for i := range tl {
		c.tlSubmits[tl[i].Submit] = i
	}
	c.s.Timeline = tl
}

// addPipeline adds a pipeline to the model, by its handle; a pipeline the
// driver gave the handle of an earlier one is by "handle#serial".
func (c *Collector) addPipeline(m *wire.Pipeline) {
	p := &Pipeline{Handle: Handle{Handle: c.intern.hex(m.Handle), Serial: m.Serial}, Layout: hexHandle(m.Layout),
		BindPoint: m.BindPoint, Stages: make([]PipelineStage, len(m.Stages)), Instrumented: m.Instrumented, Warning: m.Warning}
	if m.Serial == 0 {
		p.Handle.Name = c.names[m.Handle] // an older layer: names by handle
	}
	for i, st := range m.Stages {
		p.Stages[i] = PipelineStage{Stage: st.Stage, ShaderID: st.ShaderID, Module: hexHandle(st.Module), Entry: st.Entry}
	}
	if c.s.Pipelines == nil {
		c.s.Pipelines = map[string]*Pipeline{}
	}
	key := p.Handle.Handle
	if old, ok := c.s.Pipelines[key]; ok && old.Handle.Serial != m.Serial && m.Serial != 0 {
		key = fmt.Sprintf("%s#%d", key, m.Serial)
	}
	c.s.Pipelines[key] = p
}

// renameModel gives a debug name to a handle in the pipelines and the
// timeline. The timeline keeps the names objects had at each submit: a
// name fills the nodes that named the handle while it had none (found in
// Collector.unnamed, each renamed once), and leaves those of an earlier
// name (an engine naming its command buffers per frame renames nothing
// there: a walk over every submit per name was quadratic); a pipeline or
// command buffer only where it has serial, when serial is not 0
// (objRef.named). What snapshots may hold is replaced, never changed in
// place.
func (c *Collector) renameModel(h uint64, name string, serial uint64) {
	hex := hexHandle(h)
	named := func(x Handle) bool {
		return x.Handle == hex && (serial == 0 || x.Serial == 0 || x.Serial == serial)
	}
	for _, k := range [...]string{hex, fmt.Sprintf("%s#%d", hex, serial)} {
		if p, ok := c.s.Pipelines[k]; ok && named(p.Handle) {
			cp := *p
			cp.Handle.Name = name
			c.s.Pipelines[k] = &cp
		}
	}
	submits := c.unnamed[h]
	if name == "" || len(submits) == 0 {
		return
	}
	delete(c.unnamed, h)
	// A name for one serial leaves the nodes of another object that had
	// the handle (freed, and its handle reused) waiting for theirs.
	var left []uint64
	for _, submit := range submits {
		sn := c.submitNode(submit, false)
		if sn == nil {
			continue
		}
		var cbs []CommandBufferNode
		waiting := false
		for j, cb := range sn.CommandBuffers {
			unnamed := func(x Handle) bool { return named(x) && x.Name == "" }
			other := func(x Handle) bool { return x.Handle == hex && x.Name == "" && !named(x) }
			hit := unnamed(cb.CommandBuffer) || unnamed(cb.Queue) || unnamed(cb.PrimaryCommandBuffer)
			waiting = waiting || other(cb.CommandBuffer) || other(cb.PrimaryCommandBuffer)
			for _, a := range cb.Actions {
				hit = hit || unnamed(a.Pipeline)
				waiting = waiting || other(a.Pipeline)
			}
			if !hit {
				continue
			}
			if cbs == nil {
				cbs = slices.Clone(sn.CommandBuffers)
			}
			for _, x := range []*Handle{&cbs[j].CommandBuffer, &cbs[j].Queue, &cbs[j].PrimaryCommandBuffer} {
				if unnamed(*x) {
					x.Name = name
				}
			}
			acts := slices.Clone(cb.Actions)
			for k := range acts {
				if unnamed(acts[k].Pipeline) {
					acts[k].Pipeline.Name = name
				}
			}
			cbs[j].Actions = acts
		}
		if cbs != nil {
			sn.CommandBuffers = cbs
		}
		if waiting {
			left = append(left, submit)
		}
	}
	if len(left) > 0 {
		c.unnamed[h] = left
	}
}
