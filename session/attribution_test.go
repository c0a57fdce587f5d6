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
	if g.Count != 2 || g.CommandBuffer.Handle != "0x66" || g.Queue != (Handle{"0x90", "main-queue"}) ||
		g.PrimaryCommandBuffer != (Handle{"0x55", "compute-cmd"}) || g.PrimaryActionIndex == nil || *g.PrimaryActionIndex != 1 {
		t.Errorf("secondary group: count %d cb %v queue %v primary %v action %v", g.Count, g.CommandBuffer, g.Queue,
			g.PrimaryCommandBuffer, g.PrimaryActionIndex)
	}
	if want := `Command buffer 0x66, action #0 vkCmdDispatch, executed by primary 0x55 ("compute-cmd") after 1 of its actions, submit 1,`; !strings.Contains(g.Message(), want) {
		t.Errorf("message %q lacks %q", g.Message(), want)
	}
	p := s.Groups[1]
	if p.CommandBuffer != (Handle{"0x57", "cmd-1"}) || p.Queue.Handle != "0x90" || p.PrimaryCommandBuffer != (Handle{}) ||
		p.PrimaryActionIndex != nil || strings.Contains(p.Message(), "primary") {
		t.Errorf("primary group: %+v", p)
	}
	if len(s.Timeline) != 2 || len(s.Timeline[1].CommandBuffers) != 2 {
		t.Fatalf("timeline: %+v", s.Timeline)
	}
	n1, n2 := s.Timeline[0].CommandBuffers[0], s.Timeline[1].CommandBuffers[0]
	if n1.PrimaryCommandBuffer != (Handle{"0x55", "compute-cmd"}) || *n1.PrimaryActionIndex != 1 || n1.Queue != (Handle{"0x90", "main-queue"}) {
		t.Errorf("submit 1 node: %+v", n1)
	}
	if n2.PrimaryCommandBuffer != (Handle{"0x57", "cmd-1"}) || *n2.PrimaryActionIndex != 3 || n2.Queue != (Handle{"0x90", "main-queue"}) {
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
