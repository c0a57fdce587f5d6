package session

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// coverageRun is a run of four shaders (two instrumented, one with nothing
// to check, one left out) and four pipelines (two instrumented, one left
// out for a slot conflict, the same handle created twice), with ray_query
// unavailable on the device and bda_oob off.
func coverageRun(t *testing.T) *Collector {
	t.Helper()
	c := newTestCollector()
	checks := map[string]bool{"descriptor_index_oob": true, "buffer_oob": true, "ray_query": true, "bda_oob": false, "index_buffer_oob": true}
	record(t, c, wire.KindAppStarted, &wire.AppStarted{Path: "/bin/app", PID: 1, Time: t0, Settings: wire.Settings{Checks: checks}})
	record(t, c, wire.KindCapabilities, &wire.Capabilities{Devices: []wire.DeviceCapabilities{{Device: "gpu",
		Checks: map[string]wire.CheckSupport{"ray_query": {Available: false, Reason: "no rayQuery"}, "descriptor_index_oob": {Available: true}}}}})
	record(t, c, wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: 3, App: "/bin/app", PID: 1,
		Settings: wire.Settings{Checks: checks, OnError: "skip"}})
	record(t, c, wire.KindDevice, &wire.Device{Handle: 1, Name: "gpu", Instrumenting: true})
	spv := spirvBytes(0x07230203, 0x00010300, 0, 10, 0)
	for _, sh := range []*wire.Shader{
		{ID: 1, Module: 0xa1, SPIRV: spv, Instrumented: true, Sites: map[string]int{"descriptor_index_oob": 3, "buffer_oob": 2}},
		{ID: 2, Module: 0xa2, SPIRV: spv, Instrumented: true, Sites: map[string]int{"descriptor_index_oob": 1},
			Warning: "instruction 40: an array of arrays indexed only partly: left unchecked"},
		{ID: 3, Module: 0xa3, SPIRV: spv},
		{ID: 4, Module: 0xa4, SPIRV: spv, Warning: "left uninstrumented: module 0xa4 has no entry point"},
		{ID: 5, Module: 0xa5, SPIRV: spv, Warning: "left uninstrumented: module 0xa5 has no entry point"},
	} {
		record(t, c, wire.KindShader, sh)
	}
	for _, p := range []*wire.Pipeline{
		{Handle: 0x70, BindPoint: "compute", Instrumented: true, Stages: []wire.PipelineRef{{Stage: "compute", ShaderID: 1}}},
		{Handle: 0x70, BindPoint: "graphics", Instrumented: true, Stages: []wire.PipelineRef{{Stage: "vertex", ShaderID: 3}, {Stage: "fragment", ShaderID: 2}}},
		{Handle: 0x71, BindPoint: "graphics", Warning: "pipeline layout 0x99 uses descriptor set 7, which the layer needs: the pipeline runs uninstrumented copies of its shaders",
			Stages: []wire.PipelineRef{{Stage: "fragment", ShaderID: 1}}},
		{Handle: 0x72, BindPoint: "graphics", Stages: []wire.PipelineRef{{Stage: "vertex", ShaderID: 3}}},
	} {
		record(t, c, wire.KindPipeline, p)
	}
	record(t, c, wire.KindBye, &wire.Bye{Submits: 7})
	record(t, c, wire.KindAppExited, &wire.AppExited{State: "exited", Time: t0})
	return c
}

func TestCoverage(t *testing.T) {
	cv := coverageRun(t).Snapshot().Coverage()
	want := Coverage{
		Submits: 7,
		Shaders: CoverageCount{Seen: 5, Instrumented: 2, NothingToCheck: 1,
			LeftOut: []CountedBy{{"left uninstrumented: module … has no entry point", 2}},
			Partly:  []CountedBy{{"instruction 40: an array of arrays indexed only partly: left unchecked", 1}}},
		Pipelines: CoverageCount{Seen: 4, Instrumented: 2, NothingToCheck: 1,
			LeftOut: []CountedBy{{"pipeline layout … uses descriptor set 7, which the layer needs: the pipeline runs uninstrumented copies of its shaders", 1}}},
		ChecksCounted: true,
	}
	got := cv
	got.Checks = nil
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("coverage\n%+v\nwant\n%+v", got, want)
	}
	byID := map[string]CheckCoverage{}
	for _, c := range cv.Checks {
		byID[c.Check] = c
	}
	for _, w := range []CheckCoverage{
		{Check: "descriptor_index_oob", State: CheckOn, Shaders: 2, Sites: 4, Pipelines: 2},
		{Check: "buffer_oob", State: CheckOn, Shaders: 1, Sites: 2, Pipelines: 1},
		{Check: "ray_query", State: CheckUnavailable, Reason: "no rayQuery"},
		{Check: "bda_oob", State: CheckOff},
		{Check: "texel_buffer_oob", State: CheckOff},
		{Check: "index_buffer_oob", State: CheckOn, Command: true},
	} {
		if g := byID[w.Check]; g != w {
			t.Errorf("%s: %+v, want %+v", w.Check, g, w)
		}
	}
	lines := strings.Join(cv.Lines(), "\n")
	for _, w := range []string{
		"checked: 7 submits · 5 shaders: 2 instrumented, 1 with nothing to check, 2 left out (1 in part) · 4 pipelines: 2 instrumented, 1 with nothing to check, 1 left out\n",
		"\n  2 shaders left out: left uninstrumented: module … has no entry point\n",
		"\n  1 shader in part: instruction 40: an array of arrays indexed only partly: left unchecked\n",
		"\n  1 pipeline left out: pipeline layout … uses descriptor set 7",
		"\n  descriptor_index_oob: 4 accesses in 2 shaders, 2 pipelines\n",
		"\n  buffer_oob: 2 accesses in 1 shader, 1 pipeline\n",
		"\n  ray_query: on, but cannot run: no rayQuery\n",
		"\n  index_buffer_oob: by the layer on its commands\n",
		"\n  off: descriptor_uninitialized, descriptor_destroyed, texel_buffer_oob,\n       bda_oob, trace_ray, ",
	} {
		if !strings.Contains(lines, w) {
			t.Errorf("lines lack %q:\n%s", w, lines)
		}
	}
	// The off line lists every other check of the registry, in its order
	// (wrapped, continued 7 spaces in).
	var off []string
	for _, id := range gpuav.AllChecks {
		if !slices.Contains([]string{"descriptor_index_oob", "buffer_oob", "ray_query", "index_buffer_oob"}, id) {
			off = append(off, id)
		}
	}
	var listed []string
	if i := strings.Index(lines, "\n  off: "); i >= 0 {
		for k, l := range strings.Split(lines[i+len("\n  off: "):], "\n") {
			if k > 0 && !strings.HasPrefix(l, "       ") {
				break
			}
			listed = append(listed, strings.Fields(l)...)
		}
	}
	if g := strings.Join(listed, " "); g != strings.Join(off, ", ") {
		t.Errorf("off: %s\nwant the registry's others: %s", g, strings.Join(off, ", "))
	}

	// The JSON report carries it, and a report read back gives it again;
	// so does SARIF's run.
	s := coverageRun(t).Snapshot()
	var buf bytes.Buffer
	if err := WriteReport(&buf, s); err != nil {
		t.Fatal(err)
	}
	var back Session
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Coverage(), cv) {
		t.Fatalf("read back:\n%+v\nwant\n%+v", back.Coverage(), cv)
	}
	log, _ := sarifOf(t, s, "/")
	raw, _ := json.Marshal(log.Runs[0].Properties["coverage"])
	var fromSARIF Coverage
	if err := json.Unmarshal(raw, &fromSARIF); err != nil || !reflect.DeepEqual(fromSARIF, cv) {
		t.Fatalf("SARIF run properties: %v\n%s", err, raw)
	}
}

// TestCoverageOlderLayer: shaders without site counts (a layer before
// them) say the checks are on, with no counts that would mean nothing.
func TestCoverageOlderLayer(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	cv := c.Snapshot().Coverage()
	if cv.ChecksCounted || cv.Shaders.Instrumented != 1 {
		t.Fatalf("%+v", cv)
	}
	if l := strings.Join(cv.Lines(), "\n"); !strings.Contains(l, "\n  descriptor_index_oob: on\n") {
		t.Fatalf("lines:\n%s", l)
	}
}

// TestPartlyCheckedPipelineIsUnchecked: a pipeline instrumented with
// checks left out (its warning: descriptor buffers the layer does not
// read) is in the unchecked list, so the run is never clean.
func TestPartlyCheckedPipelineIsUnchecked(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	w := "it uses descriptor buffers, which the layer does not read: ... (buffer_oob)"
	record(t, c, wire.KindPipeline, &wire.Pipeline{Handle: 0x90, BindPoint: "compute", Instrumented: true, Warning: w,
		Stages: []wire.PipelineRef{{Stage: "compute", ShaderID: 1}}})
	record(t, c, wire.KindAppExited, &wire.AppExited{State: "exited", Time: t0})
	s := c.Snapshot()
	u := s.UncheckedAll()
	if len(u) != 1 || !reflect.DeepEqual(u[0], Unchecked{Kind: UncheckedPipeline, Reason: w, Count: 1}) {
		t.Fatalf("unchecked %+v", u)
	}
	if v, _ := s.Verdict(); v != VerdictPartly {
		t.Fatalf("verdict %v", v)
	}
	if cv := s.Coverage(); cv.Pipelines.Instrumented != 2 || len(cv.Pipelines.Partly) != 1 {
		t.Fatalf("coverage %+v", cv.Pipelines)
	}
}

// TestCoverageCounts: the command buffers and actions come from the
// layer's bye (the largest of its connections': each counts the whole
// process), into the coverage and its summary; without a bye that counts
// them they are nil, and the summary leaves them out.
func TestCoverageCounts(t *testing.T) {
	c := newTestCollector()
	if cv := c.Snapshot().Coverage(); cv.CommandBuffers != nil || cv.Actions != nil || cv.ActionsInstrumented != nil ||
		cv.ActionsPrecise != nil {
		t.Fatalf("counts without a bye: %+v", cv)
	}
	record(t, c, wire.KindBye, &wire.Bye{Submits: 2, Counts: &wire.SubmitCounts{CommandBuffers: 2, Actions: 5, Instrumented: 4, Precise: 1}})
	record(t, c, wire.KindBye, &wire.Bye{Submits: 3, Counts: &wire.SubmitCounts{CommandBuffers: 4, Actions: 10, Instrumented: 7, Precise: 2}})
	record(t, c, wire.KindBye, &wire.Bye{Submits: 1}) // an older layer's connection: no counts
	cv := c.Snapshot().Coverage()
	got := []*uint64{cv.CommandBuffers, cv.Actions, cv.ActionsInstrumented, cv.ActionsPrecise}
	for i, want := range []uint64{4, 10, 7, 2} {
		if got[i] == nil || *got[i] != want {
			t.Fatalf("counts %v, want 4 10 7 2", got)
		}
	}
	if s, want := cv.Summary(), "3 submits · 4 command buffers · 10 actions: 7 instrumented (2 precise) · 0 shaders · 0 pipelines"; s != want {
		t.Errorf("summary %q, want %q", s, want)
	}
}
