package session

import (
	"fmt"
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
}

// newTimelineBuilder starts the node of e's command buffer in e's submit.
func newTimelineBuilder(c *Collector, e *wire.Errors) *timelineBuilder {
	b := &timelineBuilder{c: c, e: e, actions: map[uint32]int{}}
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
	if sn := c.submitNode(e.Submit, false); sn != nil {
		h := c.intern.hex(e.CommandBuffer)
		for _, cb := range sn.CommandBuffers {
			if cb.CommandBuffer.Handle != h || cb.CommandBuffer.Serial != e.CommandBufferSerial {
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
			a := ActionNode{Index: r.ActionIndex, Action: r.Action,
				Pipeline: b.c.objHandle(objPipeline, objRef{r.Pipeline, r.PipelineSerial})}
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
	if !b.merged {
		sn.CommandBuffers = append(sn.CommandBuffers, b.node)
		return
	}
	cbs := slices.Clone(sn.CommandBuffers)
	for i := range cbs {
		if cbs[i].CommandBuffer.Handle == b.node.CommandBuffer.Handle && cbs[i].CommandBuffer.Serial == b.node.CommandBuffer.Serial {
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
// timeline: to the pipeline or command buffer of serial where it is not 0
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
	for i := range c.s.Timeline {
		sn := &c.s.Timeline[i]
		var cbs []CommandBufferNode
		for j, cb := range sn.CommandBuffers {
			hit := named(cb.CommandBuffer) || cb.Queue.Handle == hex || named(cb.PrimaryCommandBuffer)
			for _, a := range cb.Actions {
				hit = hit || named(a.Pipeline)
			}
			if !hit {
				continue
			}
			if cbs == nil {
				cbs = slices.Clone(sn.CommandBuffers)
			}
			if named(cb.CommandBuffer) {
				cbs[j].CommandBuffer.Name = name
			}
			if cb.Queue.Handle == hex {
				cbs[j].Queue.Name = name
			}
			if named(cb.PrimaryCommandBuffer) {
				cbs[j].PrimaryCommandBuffer.Name = name
			}
			acts := slices.Clone(cb.Actions)
			for k := range acts {
				if named(acts[k].Pipeline) {
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
