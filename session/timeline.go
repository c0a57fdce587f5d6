package session

import (
	"cmp"
	"slices"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// timelineBuilder adds one Errors message (one command buffer of one
// submit) to Session.Timeline.
type timelineBuilder struct {
	c    *Collector
	e    *wire.Errors
	node CommandBufferNode
	// actions maps an action index to its place in node.Actions.
	actions map[uint32]int
	// merged: the command buffer already had records in this submit; its
	// node is being extended (a copy, so snapshots keep theirs).
	merged bool
	// unnamed are the handles the node names that have no debug name yet
	// (Collector.unnamed).
	unnamed []uint64
}

// noteUnnamed remembers a handle of the node that has no debug name yet.
func (b *timelineBuilder) noteUnnamed(h uint64) {
	if h != 0 && b.c.names[h] == "" && !slices.Contains(b.unnamed, h) {
		b.unnamed = append(b.unnamed, h)
	}
}

// newTimelineBuilder starts the node of e's command buffer in e's submit.
func newTimelineBuilder(c *Collector, e *wire.Errors) *timelineBuilder {
	b := &timelineBuilder{c: c, e: e, actions: map[uint32]int{}}
	b.node = CommandBufferNode{CommandBuffer: c.handle(e.CommandBuffer), Dropped: e.Dropped}
	b.noteUnnamed(e.CommandBuffer)
	b.noteUnnamed(e.Queue)
	b.noteUnnamed(e.Primary)
	if e.Queue != 0 {
		b.node.Queue = c.handle(e.Queue)
	}
	if e.Primary != 0 {
		b.node.PrimaryCommandBuffer = c.handle(e.Primary)
		pa := e.PrimaryAction
		b.node.PrimaryActionIndex = &pa
	}
	if sn := c.submitNode(e.Submit, false); sn != nil {
		h := c.intern.hex(e.CommandBuffer)
		for _, cb := range sn.CommandBuffers {
			if cb.CommandBuffer.Handle != h {
				continue
			}
			b.merged = true
			b.node.Dropped += cb.Dropped
			b.node.Actions = make([]ActionNode, len(cb.Actions))
			for i, a := range cb.Actions {
				a.Groups = slices.Clone(a.Groups)
				b.node.Actions[i] = a
				b.actions[a.Index] = i
			}
		}
	}
	return b
}

// add counts a record of group st; first says it is the group's first
// record in this message.
func (b *timelineBuilder) add(r *wire.Record, st *groupState, count int, first bool) {
	if first {
		ai, ok := b.actions[r.ActionIndex]
		if !ok {
			ai = len(b.node.Actions)
			b.actions[r.ActionIndex] = ai
			a := ActionNode{Index: r.ActionIndex, Action: r.Action, Pipeline: b.c.handle(r.Pipeline)}
			b.noteUnnamed(r.Pipeline)
			if len(r.Labels) > 0 {
				a.Labels = b.c.intern.labels(r.Labels)
			}
			b.node.Actions = append(b.node.Actions, a)
		}
		a := &b.node.Actions[ai]
		gi := -1
		if b.merged {
			gi = slices.IndexFunc(a.Groups, func(g GroupCount) bool { return g.Group == int(st.index) })
		}
		if gi < 0 {
			gi = len(a.Groups)
			a.Groups = append(a.Groups, GroupCount{Group: int(st.index)})
		}
		st.tlAction, st.tlGroup = int32(ai), int32(gi)
	}
	b.node.Actions[st.tlAction].Groups[st.tlGroup].Count += count
}

// finish puts the node into its submit, when it has records or dropped
// some.
func (b *timelineBuilder) finish() {
	if len(b.node.Actions) == 0 && b.node.Dropped == 0 {
		return
	}
	sn := b.c.submitNode(b.e.Submit, true)
	for _, h := range b.unnamed {
		if l := b.c.unnamed[h]; len(l) == 0 || l[len(l)-1] != b.e.Submit {
			b.c.unnamed[h] = append(l, b.e.Submit)
		}
	}
	if !b.merged {
		sn.CommandBuffers = append(sn.CommandBuffers, b.node)
		return
	}
	cbs := slices.Clone(sn.CommandBuffers)
	for i := range cbs {
		if cbs[i].CommandBuffer.Handle == b.node.CommandBuffer.Handle {
			cbs[i] = b.node
		}
	}
	sn.CommandBuffers = cbs
}

// submitNode finds the timeline node of a submit, making it (in submit
// order) when create is set. Messages come in submit order, so the search
// starts from the end.
func (c *Collector) submitNode(submit uint64, create bool) *SubmitNode {
	tl := c.s.Timeline
	i := len(tl)
	for i > 0 && tl[i-1].Submit > submit {
		i--
	}
	if i > 0 && tl[i-1].Submit == submit {
		return &tl[i-1]
	}
	if !create {
		return nil
	}
	c.s.Timeline = slices.Insert(tl, i, SubmitNode{Submit: submit})
	return &c.s.Timeline[i]
}

// addPipeline adds a pipeline to the model.
func (c *Collector) addPipeline(m *wire.Pipeline) {
	p := &Pipeline{Handle: c.handle(m.Handle), Layout: hexHandle(m.Layout), BindPoint: m.BindPoint,
		Stages: make([]PipelineStage, len(m.Stages)), Instrumented: m.Instrumented, Warning: m.Warning}
	for i, st := range m.Stages {
		p.Stages[i] = PipelineStage{Stage: st.Stage, ShaderID: st.ShaderID, Module: hexHandle(st.Module), Entry: st.Entry}
	}
	if c.s.Pipelines == nil {
		c.s.Pipelines = map[string]*Pipeline{}
	}
	c.s.Pipelines[p.Handle.Handle] = p
}

// renameModel gives a debug name to a handle in the pipelines and the
// timeline. The timeline keeps the names objects had at each submit: a
// name fills the nodes that named the handle while it had none (found in
// Collector.unnamed, each renamed once), and leaves those of an earlier
// name (an engine naming its command buffers per frame renames nothing
// there: a walk over every submit per name was quadratic). What snapshots
// may hold is replaced, never changed in place.
func (c *Collector) renameModel(h uint64, name string) {
	hex := hexHandle(h)
	if p, ok := c.s.Pipelines[hex]; ok {
		cp := *p
		cp.Handle.Name = name
		c.s.Pipelines[hex] = &cp
	}
	submits := c.unnamed[h]
	if name == "" || len(submits) == 0 {
		return
	}
	delete(c.unnamed, h)
	for _, submit := range submits {
		sn := c.timelineNode(submit)
		if sn == nil {
			continue
		}
		var cbs []CommandBufferNode
		for j, cb := range sn.CommandBuffers {
			unnamed := func(x Handle) bool { return x.Handle == hex && x.Name == "" }
			hit := unnamed(cb.CommandBuffer) || unnamed(cb.Queue) || unnamed(cb.PrimaryCommandBuffer)
			for _, a := range cb.Actions {
				hit = hit || unnamed(a.Pipeline)
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
	}
}

// timelineNode finds the timeline node of a submit (the timeline is in
// submit order), or nil.
func (c *Collector) timelineNode(submit uint64) *SubmitNode {
	tl := c.s.Timeline
	i, ok := slices.BinarySearchFunc(tl, submit, func(n SubmitNode, s uint64) int { return cmp.Compare(n.Submit, s) })
	if !ok {
		return nil
	}
	return &tl[i]
}
