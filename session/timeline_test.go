package session

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

func TestTimelineAndPipelines(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	frag := func(x uint32, action uint32) wire.Record {
		return wire.Record{Check: "descriptor_index_oob", Code: 1, ShaderID: 2, Instruction: 40, Stage: 4,
			StageWords: [3]uint32{x, 0x3fc00000, 0xdead}, ActionIndex: action, Action: "vkCmdDraw", Pipeline: 0x88,
			Labels: []string{"frame"}, Params: []uint32{0, 1, 7, 4}, Count: 2}
	}
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{computeRecord(0), computeRecord(1)}})
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x66, Dropped: 9, Records: []wire.Record{frag(0x3f000000, 3), frag(0x3f000000, 5), frag(0x40000000, 3)}})
	before := c.Snapshot()
	// The same command buffer again in submit 1 (submitted twice), then
	// submit 2.
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{computeRecord(2)}})
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 2, CommandBuffer: 0x55, Records: []wire.Record{computeRecord(3)}})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x66, ObjectType: "command_buffer", Name: "draw-cmd"})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x88, ObjectType: "pipeline", Name: "draw-pipe"})
	// An empty message adds no node.
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 3, CommandBuffer: 0x55})
	s := c.Snapshot()

	compute := Handle{Handle: "0x55", Name: "compute-cmd"}
	pipe77 := Handle{Handle: "0x77", Name: "oob-compute-pipeline"}
	want := []SubmitNode{
		{Submit: 1, CommandBuffers: []CommandBufferNode{
			{CommandBuffer: compute, Actions: []ActionNode{{Index: 0, Action: "vkCmdDispatch", Pipeline: pipe77, Groups: []GroupCount{{0, 3}}}}},
			{CommandBuffer: Handle{Handle: "0x66", Name: "draw-cmd"}, Dropped: 9, Actions: []ActionNode{
				{Index: 3, Action: "vkCmdDraw", Labels: []string{"frame"}, Pipeline: Handle{Handle: "0x88", Name: "draw-pipe"}, Groups: []GroupCount{{1, 4}}},
				{Index: 5, Action: "vkCmdDraw", Labels: []string{"frame"}, Pipeline: Handle{Handle: "0x88", Name: "draw-pipe"}, Groups: []GroupCount{{2, 2}}},
			}},
		}},
		{Submit: 2, CommandBuffers: []CommandBufferNode{
			{CommandBuffer: compute, Actions: []ActionNode{{Index: 0, Action: "vkCmdDispatch", Pipeline: pipe77, Groups: []GroupCount{{0, 1}}}}},
		}},
	}
	if !reflect.DeepEqual(s.Timeline, want) {
		t.Fatalf("timeline:\n got %+v\nwant %+v", s.Timeline, want)
	}
	// The earlier snapshot kept its timeline: no names, no merge.
	if len(before.Timeline) != 1 || len(before.Timeline[0].CommandBuffers) != 2 ||
		before.Timeline[0].CommandBuffers[0].Actions[0].Groups[0].Count != 2 ||
		before.Timeline[0].CommandBuffers[1].CommandBuffer.Name != "" || before.Timeline[0].CommandBuffers[1].Actions[0].Pipeline.Name != "" {
		t.Fatalf("earlier snapshot changed: %+v", before.Timeline)
	}
	// Group 1: the fragment group of action 3; the unused third stage word
	// does not make a new sample, the first and last coordinates differ.
	g := s.Groups[1]
	if g.Count != 4 || len(g.Samples) != 2 || !reflect.DeepEqual(g.Coords, CoordsOf(map[string][]float64{"frag_coord": {0.5, 1.5}})) ||
		!reflect.DeepEqual(g.LastCoords, CoordsOf(map[string][]float64{"frag_coord": {2, 1.5}})) {
		t.Fatalf("fragment group: count %d samples %v coords %v last %v", g.Count, g.Samples, g.Coords, g.LastCoords)
	}
	if s.Groups[0].LastSubmit != 2 || s.Groups[0].Submit != 1 || s.Groups[0].Count != 4 {
		t.Fatalf("compute group: %+v", s.Groups[0])
	}
	wantPipes := map[string]*Pipeline{"0x77": {Handle: pipe77, Layout: "0x78", BindPoint: "compute", Instrumented: true,
		Stages: []PipelineStage{{Stage: "compute", ShaderID: 1, Module: "0xabc", Entry: "main"}}}}
	if !reflect.DeepEqual(s.Pipelines, wantPipes) {
		t.Fatalf("pipelines: %+v", s.Pipelines["0x77"])
	}
	if before.Pipelines["0x77"].Handle.Name != "oob-compute-pipeline" {
		t.Fatalf("pipeline name in an earlier snapshot: %+v", before.Pipelines["0x77"])
	}
}

// TestTimelineNamesPerFrame: a command buffer named anew every frame (as
// engines do): each submit's node keeps the name the command buffer had
// then, a name given after a node was made with none fills it, and the
// group has the latest name. Each name costs the nodes and groups that
// name its handle, not a walk over the whole timeline and every group
// (BenchmarkNamesPerFrame).
func TestTimelineNamesPerFrame(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	name := func(n string) {
		record(t, c, wire.KindName, &wire.Name{Handle: 0x99, ObjectType: "command_buffer", Name: n})
	}
	errs := func(submit uint64) {
		record(t, c, wire.KindErrors, &wire.Errors{Submit: submit, CommandBuffer: 0x99, Records: []wire.Record{computeRecord(0)}})
	}
	errs(1) // no name yet
	name("frame 1")
	name("frame 2")
	errs(2)
	name("frame 2") // the same name again
	name("frame 3")
	errs(3)
	errs(4)
	name("frame 5")
	s := c.Snapshot()
	var got []string
	for _, sn := range s.Timeline {
		got = append(got, fmt.Sprintf("%d %s", sn.Submit, sn.CommandBuffers[0].CommandBuffer.Name))
	}
	if want := []string{"1 frame 1", "2 frame 2", "3 frame 3", "4 frame 3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("timeline names %q, want %q", got, want)
	}
	if len(s.Groups) != 1 || s.Groups[0].CommandBuffer.Name != "frame 5" || s.Groups[0].Count != 4 {
		t.Errorf("groups %+v", s.Groups)
	}
}

// BenchmarkNamesPerFrame: 2,000 frames of 8 command buffers, each named
// anew before its submit of one record (the e2e burst's shape).
func BenchmarkNamesPerFrame(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c := newTestCollector()
		feedPreamble(b, c)
		for f := uint64(1); f <= 2000; f++ {
			for cb := uint64(0); cb < 8; cb++ {
				record(b, c, wire.KindName, &wire.Name{Handle: 0x1000 + cb, ObjectType: "command_buffer", Name: fmt.Sprintf("thread-%d frame %d", cb, f)})
				record(b, c, wire.KindErrors, &wire.Errors{Submit: f*8 + cb, CommandBuffer: 0x1000 + cb, Records: []wire.Record{computeRecord(0)}})
			}
		}
	}
}
