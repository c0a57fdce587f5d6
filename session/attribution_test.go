package session

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// secondaryRun feeds a run where secondary 0x66 is executed by primary
// 0x55 (after 1 of its actions) in submit 1 and by primary 0x57 (after 3)
// in submit 2, on queue 0x90, named after the first errors arrive.
func secondaryRun(t *testing.T, c *Collector) {
	t.Helper()
	feedPreamble(t, c)
	rec := computeRecord(0)
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, Queue: 0x90, CommandBuffer: 0x66, Primary: 0x55, PrimaryAction: 1,
		Records: []wire.Record{rec}})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x90, ObjectType: "queue", Name: "main-queue"})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x57, ObjectType: "command_buffer", Name: "cmd-1"})
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 2, Queue: 0x90, CommandBuffer: 0x66, Primary: 0x57, PrimaryAction: 3,
		Records: []wire.Record{rec}})
	// A primary's own error: no primary fields.
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 2, Queue: 0x90, CommandBuffer: 0x57, Records: []wire.Record{rec}})
}

// checkAttribution checks the queue and primary of secondaryRun's groups
// and timeline.
func checkAttribution(t *testing.T, s *Session) {
	t.Helper()
	if len(s.Groups) != 2 {
		t.Fatalf("%d groups, want 2 (the primary is not in the group key)", len(s.Groups))
	}
	g := s.Groups[0]
	if g.Count != 2 || g.CommandBuffer.Handle != "0x66" || g.Queue != (Handle{Handle: "0x90", Name: "main-queue"}) ||
		g.PrimaryCommandBuffer != (Handle{Handle: "0x55", Name: "compute-cmd"}) || g.PrimaryActionIndex == nil || *g.PrimaryActionIndex != 1 {
		t.Errorf("secondary group: count %d cb %v queue %v primary %v action %v", g.Count, g.CommandBuffer, g.Queue,
			g.PrimaryCommandBuffer, g.PrimaryActionIndex)
	}
	if want := `Command buffer 0x66, action #0 vkCmdDispatch, executed by primary 0x55 ("compute-cmd") after 1 of its actions, submit 1,`; !strings.Contains(g.Message(), want) {
		t.Errorf("message %q lacks %q", g.Message(), want)
	}
	p := s.Groups[1]
	if p.CommandBuffer != (Handle{Handle: "0x57", Name: "cmd-1"}) || p.Queue.Handle != "0x90" || p.PrimaryCommandBuffer != (Handle{}) ||
		p.PrimaryActionIndex != nil || strings.Contains(p.Message(), "primary") {
		t.Errorf("primary group: %+v", p)
	}
	if len(s.Timeline) != 2 || len(s.Timeline[1].CommandBuffers) != 2 {
		t.Fatalf("timeline: %+v", s.Timeline)
	}
	n1, n2 := s.Timeline[0].CommandBuffers[0], s.Timeline[1].CommandBuffers[0]
	if n1.PrimaryCommandBuffer != (Handle{Handle: "0x55", Name: "compute-cmd"}) || *n1.PrimaryActionIndex != 1 || n1.Queue != (Handle{Handle: "0x90", Name: "main-queue"}) {
		t.Errorf("submit 1 node: %+v", n1)
	}
	if n2.PrimaryCommandBuffer != (Handle{Handle: "0x57", Name: "cmd-1"}) || *n2.PrimaryActionIndex != 3 || n2.Queue != (Handle{Handle: "0x90", Name: "main-queue"}) {
		t.Errorf("submit 2 node: %+v", n2)
	}
	if n3 := s.Timeline[1].CommandBuffers[1]; n3.PrimaryActionIndex != nil || n3.PrimaryCommandBuffer != (Handle{}) {
		t.Errorf("primary's node: %+v", n3)
	}
}

// TestSecondaryAttribution: the queue and the primary reach the groups,
// the timeline and the JSON report, and survive the session file (packed
// records) and the report read back.
func TestSecondaryAttributionModel(t *testing.T) {
	c := newTestCollector()
	var file bytes.Buffer
	file.WriteString(FileHeader)
	c.SetFile(&file)
	secondaryRun(t, c)
	s := c.Snapshot()
	checkAttribution(t, s)

	reopened, err := parseWith(file.Bytes(), func(c *Collector) { c.newMap = func([]uint32) sourceMapper { return fakeMap{} } })
	if err != nil {
		t.Fatal(err)
	}
	checkAttribution(t, reopened)

	var buf bytes.Buffer
	if err := WriteReport(&buf, s); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Errors []map[string]json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for i, want := range []map[string]string{
		{"queue": `{"handle":"0x90","name":"main-queue"}`, "primary_command_buffer": `{"handle":"0x55","name":"compute-cmd"}`,
			"primary_action_index": `1`},
		{"queue": `{"handle":"0x90","name":"main-queue"}`},
	} {
		for _, k := range []string{"queue", "primary_command_buffer", "primary_action_index"} {
			got := compactJSON(t, doc.Errors[i][k])
			if got != want[k] {
				t.Errorf("errors[%d].%s = %s, want %s", i, k, got, want[k])
			}
		}
	}
	back, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	checkAttribution(t, back)
}

func compactJSON(t *testing.T, m json.RawMessage) string {
	t.Helper()
	if m == nil {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestNamesBySerial: pipeline 0x77 and command buffer 0x55, named "pipe-a"
// and "cmd-a", have an error; then both are gone and a new pipeline and
// command buffer get the same handles, named "pipe-b" and "cmd-b", with an
// error of their own. Each group, timeline node and pipeline keeps its own
// object's name (the serial), in the session and in its file reopened; a
// name without a serial (an older layer) still names every group of the
// handle.
func TestNamesBySerial(t *testing.T) {
	c := newTestCollector()
	var file bytes.Buffer
	file.WriteString(FileHeader)
	c.SetFile(&file)
	feedPreamble(t, c)
	rec := func(serial uint64, idx uint32) wire.Record {
		r := computeRecord(0)
		r.PipelineSerial, r.Params = serial, []uint32{0, 0, idx, 2}
		return r
	}
	record(t, c, wire.KindPipeline, &wire.Pipeline{Handle: 0x77, Serial: 10, BindPoint: "compute"})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x77, ObjectType: "pipeline", Name: "pipe-a", Serial: 10})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x55, ObjectType: "command_buffer", Name: "cmd-a", Serial: 1})
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, CommandBufferSerial: 1, Records: []wire.Record{rec(10, 3)}})
	record(t, c, wire.KindPipeline, &wire.Pipeline{Handle: 0x77, Serial: 11, BindPoint: "compute"})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x77, ObjectType: "pipeline", Name: "pipe-b", Serial: 11})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x55, ObjectType: "command_buffer", Name: "cmd-b", Serial: 2})
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 2, CommandBuffer: 0x55, CommandBufferSerial: 2, Records: []wire.Record{rec(11, 3)}})
	check := func(what string, s *Session) {
		t.Helper()
		if len(s.Groups) != 2 {
			t.Fatalf("%s: %d groups, want 2 (two command buffers)", what, len(s.Groups))
		}
		for i, want := range []struct {
			pipe, cb string
			ps, cs   uint64
		}{{"pipe-a", "cmd-a", 10, 1}, {"pipe-b", "cmd-b", 11, 2}} {
			g := s.Groups[i]
			if g.Pipeline != (Handle{Handle: "0x77", Name: want.pipe, Serial: want.ps}) ||
				g.CommandBuffer != (Handle{Handle: "0x55", Name: want.cb, Serial: want.cs}) {
				t.Errorf("%s: group %d: pipeline %+v, command buffer %+v; want %s, %s", what, i, g.Pipeline, g.CommandBuffer,
					want.pipe, want.cb)
			}
			node := s.Timeline[i].CommandBuffers[0]
			if node.CommandBuffer.Name != want.cb || node.Actions[0].Pipeline.Name != want.pipe {
				t.Errorf("%s: timeline %d: %+v", what, i, node)
			}
		}
		// The preamble's pipeline 0x77 (no serial) is "0x77".
		if p, q := s.Pipelines["0x77#10"], s.Pipelines["0x77#11"]; p == nil || q == nil || p.Handle.Name != "pipe-a" ||
			q.Handle.Name != "pipe-b" {
			t.Errorf("%s: pipelines %v", what, s.Pipelines)
		}
	}
	check("live", c.Snapshot())
	reopened, err := parseWith(file.Bytes(), func(c *Collector) { c.newMap = func([]uint32) sourceMapper { return fakeMap{} } })
	if err != nil {
		t.Fatal(err)
	}
	check("reopened", reopened)

	// An older layer: no serials, one name per handle.
	old := newTestCollector()
	feedPreamble(t, old)
	record(t, old, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{rec(0, 3)}})
	record(t, old, wire.KindName, &wire.Name{Handle: 0x55, ObjectType: "command_buffer", Name: "renamed"})
	if g := old.Snapshot().Groups[0]; g.CommandBuffer.Name != "renamed" {
		t.Errorf("older layer: command buffer %+v, want renamed", g.CommandBuffer)
	}
}
