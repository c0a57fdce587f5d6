package session

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/sariftest"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestRaceGroupBothLines: a shared_memory_race record names the other
// access's instruction; the group carries its source line (the fake map's
// instruction 80 is oob_compute.comp:8), both invocations and the other's
// global id, and the message, the summary and SARIF's relatedLocations
// show the other line. The test module has no such variable: the element
// is named by id and slot.
func TestRaceGroupBothLines(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	rec := wire.Record{Check: gpuav.CheckSharedMemoryRace, Code: uint32(gpuav.CodeSharedRaceRAW), ShaderID: 1, Instruction: 79,
		Stage: 5, StageWords: [3]uint32{66, 0, 0}, ActionIndex: 0, Action: "vkCmdDispatch", Pipeline: 0x77,
		Params: []uint32{12, 5, 80, 2 | 1<<16, 64 | 1<<16, 0}, Count: 1}
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{rec}})
	s := c.Snapshot()
	if len(s.Groups) != 1 {
		t.Fatalf("%d groups", len(s.Groups))
	}
	g := s.Groups[0]
	r := g.Race
	if r == nil || r.Kind != "read-after-write" || r.Element != "%12 slot 5" || r.LocalID != [3]uint32{2, 0, 0} ||
		r.OtherLocalID != [3]uint32{1, 0, 0} || r.OtherGlobalID != [3]uint32{65, 0, 0} || r.OtherInstruction == nil ||
		*r.OtherInstruction != 80 || r.OtherSource == nil || r.OtherSource.Line != 8 || r.OtherSource.Context != nil {
		t.Fatalf("race %+v", r)
	}
	msg := g.Message()
	for _, want := range []string{"shared_memory_race: Shared memory read-after-write hazard on %12 slot 5: invocation (2, 0, 0) read it after invocation (1, 0, 0) wrote it (instruction 80)",
		"The other access, by invocation (1, 0, 0): oob_compute.comp:8:\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if sum := g.Summary(); !strings.Contains(sum, "(other access oob_compute.comp:8)") {
		t.Errorf("summary %q", sum)
	}
	var buf bytes.Buffer
	if err := WriteSARIFWith(&buf, s, SARIFOptions{SourceRoot: "/src/project"}); err != nil {
		t.Fatal(err)
	}
	sariftest.Check(t, buf.Bytes())
	var d struct {
		Runs []struct {
			Results []struct {
				RelatedLocations []struct {
					ID               int `json:"id"`
					PhysicalLocation struct {
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	rl := d.Runs[0].Results[0].RelatedLocations
	if len(rl) != 1 || rl[0].PhysicalLocation.Region.StartLine != 8 ||
		rl[0].Message.Text != "the other access of the read-after-write hazard, by local invocation (1, 0, 0)" {
		t.Errorf("relatedLocations %+v", rl)
	}
}
