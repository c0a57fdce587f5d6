package session

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/sourcemap"
)

var t0 = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

// fakeMap stands in for a shader's source map so that the tests do not
// depend on the sourcemap package's progress.
type fakeMap struct{}

var fakeFile = []string{
	"#version 450",
	"layout(local_size_x = 4) in;",
	"",
	"layout(push_constant) uniform PC { uint idx; } pc;",
	"layout(set = 0, binding = 0) buffer B { uint v[]; } outs[2];",
	"",
	"void main() {",
	"    uint i = gl_GlobalInvocationID.x;",
	"    outs[pc.idx].v[i] = i * 3u;",
	"}",
}

func (fakeMap) Lookup(inst int) sourcemap.Location {
	switch inst {
	case 79:
		return sourcemap.Location{File: "oob_compute.comp", Line: 9, Column: 5, Text: fakeFile[8], Language: "glsl"}
	case 80:
		// No text: the collector fills it from FileLines.
		return sourcemap.Location{File: "oob_compute.comp", Line: 8, Language: "glsl"}
	}
	return sourcemap.Location{Note: "no debug information"}
}

func (fakeMap) FileLines(file string) []string {
	if file == "oob_compute.comp" {
		return fakeFile
	}
	return nil
}

// newTestCollector has a fixed clock and the fake source map.
func newTestCollector() *Collector {
	c := NewCollector()
	c.Now = func() time.Time { return t0 }
	c.newMap = func([]uint32) sourceMapper { return fakeMap{} }
	return c
}

// gid is a compute invocation's coordinates, global id (x, 0, 0).
func gid(x float64) Coords {
	return CoordsOf(map[string][]float64{"global_invocation_id": {x, 0, 0}})
}

// spirvBytes encodes words little-endian.
func spirvBytes(words ...uint32) []byte {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// computeRecord is a descriptor_index_oob record of the demo's compute
// shader at global invocation (x, 0, 0).
func computeRecord(x uint32) wire.Record {
	return wire.Record{Check: "descriptor_index_oob", Code: 1, ShaderID: 1, Instruction: 79, Stage: 5,
		StageWords: [3]uint32{x, 0, 0}, ActionIndex: 0, Action: "vkCmdDispatch", Pipeline: 0x77,
		Params: []uint32{0, 0, 3, 2}, Count: 1}
}

// preamble is what the layer sends before errors.
func preamble() []struct {
	k wire.Kind
	m any
} {
	return []struct {
		k wire.Kind
		m any
	}{
		{wire.KindAppStarted, &wire.AppStarted{Path: "/bin/demo", Args: []string{"--frames", "1"}, PID: 4242, Time: t0,
			Settings: wire.Settings{Checks: map[string]bool{"descriptor_index_oob": true}}}},
		{wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: gpuav.RecordFormatVersion, LayerVersion: "0.1.0", App: "/bin/demo", PID: 4242,
			Settings: wire.Settings{Checks: map[string]bool{"descriptor_index_oob": true, "bda_oob": false}, OnError: "skip"}}},
		{wire.KindDevice, &wire.Device{Handle: 0x10, Name: "llvmpipe (LLVM 19.1.7, 256 bits)", APIVersion: "1.4.305",
			MaxBoundDescriptorSets: 8, DescriptorSlot: 7, Instrumenting: true}},
		{wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: spirvBytes(0x07230203, 0x00010300, 0, 10, 0), Instrumented: true}},
		{wire.KindPipeline, &wire.Pipeline{Handle: 0x77, Layout: 0x78, BindPoint: "compute", Instrumented: true,
			Stages: []wire.PipelineRef{{Stage: "compute", ShaderID: 1, Module: 0xabc, Entry: "main"}}}},
		{wire.KindName, &wire.Name{Handle: 0x55, ObjectType: "command_buffer", Name: "compute-cmd"}},
		{wire.KindName, &wire.Name{Handle: 0x77, ObjectType: "pipeline", Name: "oob-compute-pipeline"}},
	}
}

func record(t testing.TB, c *Collector, k wire.Kind, m any) {
	t.Helper()
	if err := c.Record(k, m); err != nil {
		t.Fatal(err)
	}
}

func feedPreamble(t testing.TB, c *Collector) {
	t.Helper()
	for _, p := range preamble() {
		record(t, c, p.k, p.m)
	}
}

const wantMessage = `descriptor_index_oob: (set = 0, binding = 0) Index of 3 used to index descriptor array of length 2.` +
	` The access was skipped (a load read zero, a store or atomic did nothing). VUID-vkCmdDispatch-None-10068. Command buffer 0x55 ("compute-cmd"), action #0 vkCmdDispatch, submit 1,` +
	` pipeline 0x77 ("oob-compute-pipeline"), shader 1 (module 0xabc), instruction 79.` +
	` Stage compute, global_invocation_id (0,0,0); 4 invocations. Samples: (0,0,0) (1,0,0) (2,0,0) (3,0,0).` +
	" oob_compute.comp:9:5:\n    outs[pc.idx].v[i] = i * 3u;\n    ^"

func TestCollectorGroupsRecords(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{
		computeRecord(0), computeRecord(1), computeRecord(2), computeRecord(3)}})

	s := c.Snapshot()
	if len(s.Groups) != 1 {
		t.Fatalf("%d groups, want 1", len(s.Groups))
	}
	g := s.Groups[0]
	want := &ErrorGroup{
		Check:      "descriptor_index_oob",
		Level:      "error",
		VUID:       "VUID-vkCmdDispatch-None-10068",
		Count:      4,
		Stage:      "compute",
		Coords:     gid(0),
		Samples:    []Coords{gid(0), gid(1), gid(2), gid(3)},
		LastCoords: gid(3),
		Descriptor: &Descriptor{Set: 0, Binding: 0, Index: 3, ArrayLength: 2},
		Outcome:    &Outcome{Access: "skipped"},
		code:       1,
		params:     [gpuav.RecordParams]uint32{0, 0, 3, 2},
		described:  true,
		Where: Where{
			CommandBuffer: Handle{Handle: "0x55", Name: "compute-cmd"},
			Submit:        1,
			LastSubmit:    1,
			ActionIndex:   0,
			Action:        "vkCmdDispatch",
			Labels:        nil,
			Pipeline:      Handle{Handle: "0x77", Name: "oob-compute-pipeline"},
			Shader:        ShaderRef{ID: 1, Module: "0xabc"},
			Instruction:   79,
			Source:        &Source{File: "oob_compute.comp", Line: 9, Column: 5, Text: "    outs[pc.idx].v[i] = i * 3u;", Language: "glsl"},
		},
	}
	if !reflect.DeepEqual(g, want) {
		t.Fatalf("group:\n got %#v\nwant %#v", g, want)
	}
	if g.Message() != wantMessage {
		t.Fatalf("message:\n%s\nwant\n%s", g.Message(), wantMessage)
	}
	if got, want := g.Summary(), `descriptor_index_oob ×4 compute oob_compute.comp:9 (set 0, binding 0) index 3 of array length 2 — vkCmdDispatch #0 cmd 0x55 ("compute-cmd")`; got != want {
		t.Fatalf("summary:\n got %s\nwant %s", got, want)
	}
	if lines := s.Sources[SourceKey{ShaderID: 1, File: "oob_compute.comp"}]; len(lines) != 10 || lines[8] != fakeFile[8] {
		t.Fatalf("sources: %q", lines)
	}
	if s.App.Path != "/bin/demo" || !s.App.LayerLoaded || s.App.PID != 4242 || s.App.State != AppRunning {
		t.Fatalf("app %+v", s.App)
	}
	if !reflect.DeepEqual(s.Settings, Settings{Checks: map[string]bool{"descriptor_index_oob": true, "bda_oob": false}, OnError: "skip"}) {
		t.Fatalf("settings %+v", s.Settings)
	}
	if s.Device != (Device{Name: "llvmpipe (LLVM 19.1.7, 256 bits)", APIVersion: "1.4.305", DescriptorSlot: 7, MaxBoundSets: 8}) {
		t.Fatalf("device %+v", s.Device)
	}
	if sh := s.Shaders[1]; sh == nil || sh.Module != 0xabc || !reflect.DeepEqual(sh.SPIRV, []uint32{0x07230203, 0x00010300, 0, 10, 0}) {
		t.Fatalf("shader %+v", sh)
	}

	// The same command buffer and action in a later submit adds to the count;
	// the first record's coordinates stay.
	snap := s
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 2, CommandBuffer: 0x55, Records: []wire.Record{computeRecord(0), computeRecord(4)}})
	s = c.Snapshot()
	if len(s.Groups) != 1 || s.Groups[0].Count != 6 || s.Groups[0].Submit != 1 || len(s.Groups[0].Samples) != 5 {
		t.Fatalf("after second submit: %d groups, %+v", len(s.Groups), s.Groups[0])
	}
	if !reflect.DeepEqual(s.Groups[0].Coords, gid(0)) {
		t.Fatalf("coords %v", s.Groups[0].Coords)
	}
	if !reflect.DeepEqual(s.Groups[0].LastCoords, gid(4)) || s.Groups[0].LastSubmit != 2 {
		t.Fatalf("last coords %v, last submit %d", s.Groups[0].LastCoords, s.Groups[0].LastSubmit)
	}
	if !strings.Contains(s.Groups[0].Message(), "; 6 invocations.") {
		t.Fatalf("message not updated: %s", s.Groups[0].Message())
	}
	// The earlier snapshot did not move.
	if snap.Groups[0].Count != 4 || len(snap.Groups[0].Samples) != 4 || snap.Groups[0].Message() != wantMessage {
		t.Fatalf("snapshot changed: %+v", snap.Groups[0])
	}

	// Record counts add; samples stop at MaxSamples; duplicates are not samples.
	recs := []wire.Record{}
	for x := uint32(10); x < 20; x++ {
		r := computeRecord(x)
		r.Count = 3
		recs = append(recs, r, r)
	}
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 3, CommandBuffer: 0x55, Records: recs})
	s = c.Snapshot()
	if g := s.Groups[0]; g.Count != 6+20*3 || len(g.Samples) != MaxSamples {
		t.Fatalf("count %d samples %d", g.Count, len(g.Samples))
	}

	// Another action, another command buffer, another instruction, another
	// check: four new groups, in arrival order.
	other := func(f func(*wire.Record)) wire.Record { r := computeRecord(0); f(&r); return r }
	// A check this launcher does not know is refused on the wire
	// (TestCollectorRejectsInvalid); one from elsewhere still groups.
	applyUnvalidated(c, &wire.Errors{Submit: 3, CommandBuffer: 0x55, Records: []wire.Record{
		other(func(r *wire.Record) { r.ActionIndex = 1 }),
		other(func(r *wire.Record) { r.Instruction = 80 }),
		other(func(r *wire.Record) { r.Check, r.Code = "future_check", 99 }),
	}})
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 3, CommandBuffer: 0x56, Records: []wire.Record{computeRecord(0)}})
	s = c.Snapshot()
	if len(s.Groups) != 5 {
		t.Fatalf("%d groups, want 5", len(s.Groups))
	}
	for i, want := range []struct {
		action, inst uint32
		check, cb    string
	}{{0, 79, "descriptor_index_oob", "0x55"}, {1, 79, "descriptor_index_oob", "0x55"}, {0, 80, "descriptor_index_oob", "0x55"},
		{0, 79, "future_check", "0x55"}, {0, 79, "descriptor_index_oob", "0x56"}} {
		g := s.Groups[i]
		if g.ActionIndex != want.action || g.Instruction != want.inst || g.Check != want.check || g.CommandBuffer.Handle != want.cb {
			t.Fatalf("group %d: %+v, want %+v", i, g, want)
		}
	}
	if s.Groups[2].Source.Text != fakeFile[7] || s.Groups[2].Source.Column != 0 {
		t.Fatalf("source text not filled from the file: %+v", s.Groups[2].Source)
	}
	if !strings.HasSuffix(s.Groups[2].Message(), "oob_compute.comp:8:\n"+fakeFile[7]) {
		t.Fatalf("message without column: %s", s.Groups[2].Message())
	}
	if s.Groups[3].VUID != "" || s.Groups[3].Descriptor != nil {
		t.Fatalf("unknown check has a VUID or descriptor: %+v", s.Groups[3])
	}
	if s.Submits != 3 {
		t.Fatalf("submits %d", s.Submits)
	}
}

func TestCollectorNamesArriveLate(t *testing.T) {
	c := newTestCollector()
	record(t, c, wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion})
	record(t, c, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, Instrumented: true})
	record(t, c, wire.KindErrors, &wire.Errors{CommandBuffer: 0x55, Records: []wire.Record{computeRecord(0)}})
	g := c.Snapshot().Groups[0]
	if g.CommandBuffer.Name != "" || !strings.Contains(g.Message(), "Command buffer 0x55, action #0") || !strings.Contains(g.Message(), "(module 0xabc),") {
		t.Fatalf("before names: %s", g.Message())
	}
	record(t, c, wire.KindName, &wire.Name{Handle: 0x55, Name: "cmd"})
	record(t, c, wire.KindName, &wire.Name{Handle: 0xabc, Name: "oob.comp"})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x77, Name: "pipe"})
	g = c.Snapshot().Groups[0]
	if g.CommandBuffer.Name != "cmd" || g.Shader.Name != "oob.comp" || g.Pipeline.Name != "pipe" {
		t.Fatalf("names: %+v", g)
	}
	for _, s := range []string{`Command buffer 0x55 ("cmd")`, `(module 0xabc "oob.comp")`, `pipeline 0x77 ("pipe")`, "; 1 invocation."} {
		if !strings.Contains(g.Message(), s) {
			t.Fatalf("message lacks %q: %s", s, g.Message())
		}
	}
}

func TestCollectorUnknownShaderAndStages(t *testing.T) {
	c := newTestCollector()
	frag := wire.Record{Code: 1, ShaderID: 9, Instruction: 3, Stage: 4, StageWords: [3]uint32{0x41200000, 0x41a40000, 0},
		ActionIndex: 2, Action: "vkCmdDraw", Params: []uint32{1, 2, 5, 4}, Labels: []string{"frame", "pass"}}
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 7, CommandBuffer: 0x9, Dropped: 3, Records: []wire.Record{frag}})
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 8, CommandBuffer: 0x9, Dropped: 2})
	s := c.Snapshot()
	g := s.Groups[0]
	if g.Check != "descriptor_index_oob" || g.Stage != "fragment" || !reflect.DeepEqual(g.Coords, CoordsOf(map[string][]float64{"frag_coord": {10, 20.5}})) {
		t.Fatalf("group %+v", g)
	}
	if g.Source == nil || g.Source.Note != "shader 9 was never received from the layer" || g.Source.File != "" {
		t.Fatalf("source %+v", g.Source)
	}
	for _, want := range []string{"VUID-vkCmdDraw-None-10068", `action #2 vkCmdDraw in "frame > pass"`, "Stage fragment, frag_coord (10,20.5); 1 invocation.",
		"Source unknown: shader 9 was never received from the layer."} {
		if !strings.Contains(g.Message(), want) {
			t.Fatalf("message lacks %q: %s", want, g.Message())
		}
	}
	if got := g.Summary(); got != "descriptor_index_oob ×1 fragment shader 9 instruction 3 (set 1, binding 2) index 5 of array length 4 — vkCmdDraw #2 cmd 0x9" {
		t.Fatalf("summary %q", got)
	}
	if s.Dropped != 5 || len(s.Notices) != 1 || !strings.Contains(s.Notices[0].Text, "overflowed at submit 7: 3 records dropped") {
		t.Fatalf("dropped %d notices %+v", s.Dropped, s.Notices)
	}
}

func TestCollectorNoticesAndApp(t *testing.T) {
	c := newTestCollector()
	record(t, c, wire.KindAppStarted, &wire.AppStarted{Path: "/a", PID: 3, Time: t0, Settings: wire.Settings{ReserveSlot: true}})
	record(t, c, wire.KindDevice, &wire.Device{Handle: 1, Name: "gpu", Instrumenting: false, Reason: "out of memory"})
	record(t, c, wire.KindShader, &wire.Shader{ID: 2, Module: 0x20, Warning: "OpTypeFoo unsupported"})
	record(t, c, wire.KindPipeline, &wire.Pipeline{Handle: 0x30, Warning: "layout uses set 7"})
	record(t, c, wire.KindLog, &wire.Log{Level: "warning", Text: "from the layer"})
	record(t, c, wire.KindAppOutput, &wire.AppOutput{Stream: "stdout", Text: "hi"})
	record(t, c, wire.KindAppExited, &wire.AppExited{Code: 139, Signal: "SIGSEGV", State: "crashed", Time: t0})
	c.Notice("error", "the layer was not loaded")
	s := c.Snapshot()
	want := []string{
		"device 0x1 (gpu): instrumentation disabled: out of memory",
		"shader 2 (module 0x20) is not checked: OpTypeFoo unsupported",
		"pipeline 0x30 runs its original, unchecked shaders: layout uses set 7",
		"from the layer",
		"the layer was not loaded",
	}
	if len(s.Notices) != len(want) {
		t.Fatalf("notices %+v", s.Notices)
	}
	for i, w := range want {
		if s.Notices[i].Text != w || !s.Notices[i].Time.Equal(t0) {
			t.Fatalf("notice %d: %+v, want %q", i, s.Notices[i], w)
		}
	}
	if !reflect.DeepEqual(s.App, App{Path: "/a", Args: []string{}, PID: 3, State: AppCrashed, ExitCode: 139, Signal: "SIGSEGV"}) {
		t.Fatalf("app %+v", s.App)
	}
	if !s.Settings.ReserveSlot {
		t.Fatal("launcher settings not kept before hello")
	}
	if len(s.Output) != 1 || s.Output[0] != (OutputLine{Stream: "stdout", Text: "hi"}) {
		t.Fatalf("output %+v", s.Output)
	}
}

func TestCollectorRejectsBadFrames(t *testing.T) {
	c := newTestCollector()
	changes := 0
	c.OnChange = func() { changes++ }
	if err := c.RecordFrame(wire.KindErrors, []byte(`{"records":[{"count":"x"}]}`)); err == nil {
		t.Fatal("bad payload accepted")
	}
	if err := c.RecordFrame(wire.KindHello, []byte(`{"protocol":99}`)); err == nil {
		t.Fatal("bad protocol accepted")
	}
	if err := c.RecordFrame(wire.KindLog, []byte(`{"text":"ok"}`)); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	if changes != 1 || len(s.Notices) != 1 || s.Notices[0].Level != "info" {
		t.Fatalf("changes %d notices %+v", changes, s.Notices)
	}
}

// A snapshot copies only the groups that changed since the last one
// (records, a debug name) and shares the others' copies; no snapshot
// changes after it is taken.
func TestSnapshotCopiesChangedGroups(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	for cb := range uint64(3) {
		record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x100 + cb, Records: []wire.Record{computeRecord(0)}})
	}
	s1 := c.Snapshot()
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 2, CommandBuffer: 0x101, Records: []wire.Record{computeRecord(5)}})
	record(t, c, wire.KindName, &wire.Name{Handle: 0x102, ObjectType: "command_buffer", Name: "late"})
	s2 := c.Snapshot()
	s3 := c.Snapshot()
	tests := []struct {
		i      int
		shared bool // s2 holds s1's copy
		count  int
		name   string
	}{
		{0, true, 1, ""},
		{1, false, 2, ""},     // a record
		{2, false, 1, "late"}, // a debug name
	}
	for _, tt := range tests {
		g1, g2 := s1.Groups[tt.i], s2.Groups[tt.i]
		if (g1 == g2) != tt.shared || g2.Count != tt.count || g2.CommandBuffer.Name != tt.name {
			t.Errorf("group %d: shared %v, count %d, name %q; want %v, %d, %q", tt.i, g1 == g2, g2.Count, g2.CommandBuffer.Name,
				tt.shared, tt.count, tt.name)
		}
		if g1.Count != 1 || len(g1.Samples) != 1 || g1.CommandBuffer.Name != "" {
			t.Errorf("snapshot 1's group %d changed: count %d, %d samples, name %q", tt.i, g1.Count, len(g1.Samples), g1.CommandBuffer.Name)
		}
		if s3.Groups[tt.i] != g2 {
			t.Errorf("group %d copied again with no change", tt.i)
		}
	}
	if got := len(s2.Groups[1].Samples); got != 2 {
		t.Errorf("group 1 has %d samples, want 2", got)
	}
}

func TestCollectorConcurrentSnapshots(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				_ = c.Record(wire.KindErrors, &wire.Errors{Submit: uint64(i), CommandBuffer: uint64(w), Records: []wire.Record{computeRecord(uint32(i))}})
				_ = c.Record(wire.KindAppOutput, &wire.AppOutput{Stream: "stdout", Text: fmt.Sprint(i)})
			}
		}(w)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 200; i++ {
			s := c.Snapshot()
			for _, g := range s.Groups {
				_ = g.Message() + g.Coords.String()
				for _, smp := range g.Samples {
					_ = smp.Values()
				}
			}
			_ = len(s.Output)
		}
	}()
	wg.Wait()
	<-done
	s := c.Snapshot()
	if len(s.Groups) != 4 || len(s.Output) != 800 {
		t.Fatalf("%d groups, %d output lines", len(s.Groups), len(s.Output))
	}
	for _, g := range s.Groups {
		if g.Count != 200 {
			t.Fatalf("count %d", g.Count)
		}
	}
}

func TestCaret(t *testing.T) {
	for _, c := range []struct {
		text string
		col  int
		want string
	}{
		{"abc", 1, "^"},
		{"abc", 3, "  ^"},
		{"\tx = y;", 2, "\t^"},
		{"\t\tx", 4, "\t\t ^"},
		{"ab", 5, "    ^"},
		{"abc", 0, ""},
	} {
		if got := (&Source{Text: c.text, Column: c.col}).Caret(); got != c.want {
			t.Errorf("Caret(%q, %d) = %q, want %q", c.text, c.col, got, c.want)
		}
	}
}

func TestCoordsFormat(t *testing.T) {
	v := CoordsOf(map[string][]float64{"instance_index": {0}, "vertex_index": {3}})
	if v.String() != "vertex_index 3, instance_index 0" || v.Values() != "(vertex_index 3, instance_index 0)" {
		t.Fatalf("%q %q", v.String(), v.Values())
	}
	f := CoordsOf(map[string][]float64{"frag_coord": {0.5, 12}})
	if f.String() != "frag_coord (0.5,12)" || f.Values() != "(0.5,12)" {
		t.Fatalf("%q %q", f.String(), f.Values())
	}
}

// TestCollectorUsesEveryKind applies a zero message of every kind the wire
// knows: none may fall through to the "not used" notice, so a kind added
// to the wire without a collector case fails here.
func TestCollectorUsesEveryKind(t *testing.T) {
	for _, k := range wire.Kinds() {
		c := newTestCollector()
		c.mu.Lock()
		c.apply(wire.New(k))
		c.mu.Unlock()
		for _, n := range c.Snapshot().Notices {
			if strings.Contains(n.Text, "not used by this gpuav-dbg") {
				t.Errorf("%v: %s", k, n.Text)
			}
		}
	}
}

// TestCollectorUnusedMessage: a message the collector has no case for is
// one notice per kind with its count, never dropped silently.
func TestCollectorUnusedMessage(t *testing.T) {
	type future struct{ X int }
	c := newTestCollector()
	c.mu.Lock()
	for range 3 {
		c.apply(&future{})
	}
	c.mu.Unlock()
	s := c.Snapshot()
	want := "*session.future: 3 messages were not used by this gpuav-dbg (a newer layer or launcher?)"
	if len(s.Notices) != 1 || s.Notices[0].Text != want || s.Notices[0].Level != "warning" {
		t.Fatalf("notices %+v, want one %q", s.Notices, want)
	}
}

// applyUnvalidated adds a message as the collector would after
// validation: for values that only a JSON report or a hand-made session
// can hold.
func applyUnvalidated(c *Collector, msg any) {
	c.mu.Lock()
	c.apply(msg)
	c.mu.Unlock()
}

// TestCollectorNamesFollowModuleHandleReuse: a driver may give a new
// shader module the handle of one the app destroyed (the demo destroys its
// compute module before it makes its fragment module). A debug name
// belongs to the module that had the handle when the app set it: never to
// an older shader with the same handle, and never from a name of another
// object type.
func TestCollectorNamesFollowModuleHandleReuse(t *testing.T) {
	const h = 0xabc
	shader := func(id uint32) any { return &wire.Shader{ID: id, Module: h, Instrumented: true} }
	name := func(typ, n string) any { return &wire.Name{Handle: h, ObjectType: typ, Name: n} }
	errs := func(cb uint64, id uint32) any {
		r := computeRecord(0)
		r.ShaderID = id
		return &wire.Errors{CommandBuffer: cb, Records: []wire.Record{r}}
	}
	type msg struct {
		k wire.Kind
		m any
	}
	for _, tc := range []struct {
		name string
		msgs []msg
		want []string // each group's shader name
	}{
		{"both named before the errors", []msg{
			{wire.KindShader, shader(1)}, {wire.KindName, name("shader_module", "oob_compute.comp")},
			{wire.KindShader, shader(2)}, {wire.KindName, name("shader_module", "oob_fragment.frag")},
			{wire.KindErrors, errs(0x55, 1)}, {wire.KindErrors, errs(0x56, 2)},
		}, []string{"oob_compute.comp", "oob_fragment.frag"}},
		{"the second named after the first's errors", []msg{
			{wire.KindShader, shader(1)}, {wire.KindName, name("shader_module", "oob_compute.comp")},
			{wire.KindErrors, errs(0x55, 1)},
			{wire.KindShader, shader(2)}, {wire.KindName, name("shader_module", "oob_fragment.frag")},
			{wire.KindErrors, errs(0x56, 2)},
		}, []string{"oob_compute.comp", "oob_fragment.frag"}},
		{"only the second named, late", []msg{
			{wire.KindShader, shader(1)}, {wire.KindErrors, errs(0x55, 1)},
			{wire.KindShader, shader(2)}, {wire.KindErrors, errs(0x56, 2)},
			{wire.KindName, name("", "frag")},
		}, []string{"", "frag"}},
		{"the name of a pipeline that got the handle", []msg{
			{wire.KindShader, shader(1)}, {wire.KindName, name("shader_module", "oob_compute.comp")},
			{wire.KindErrors, errs(0x55, 1)}, {wire.KindName, name("pipeline", "pipe")},
		}, []string{"oob_compute.comp"}},
		{"a name cleared", []msg{
			{wire.KindShader, shader(1)}, {wire.KindName, name("shader_module", "oob_compute.comp")},
			{wire.KindName, name("shader_module", "")}, {wire.KindErrors, errs(0x55, 1)},
		}, []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestCollector()
			record(t, c, wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion})
			for _, m := range tc.msgs {
				record(t, c, m.k, m.m)
			}
			s := c.Snapshot()
			if len(s.Groups) != len(tc.want) {
				t.Fatalf("%d groups, want %d", len(s.Groups), len(tc.want))
			}
			for i, g := range s.Groups {
				if g.Shader.Name != tc.want[i] {
					t.Errorf("group %d (shader %d): name %q, want %q", i, g.Shader.ID, g.Shader.Name, tc.want[i])
				}
				want := "(module 0xabc)"
				if tc.want[i] != "" {
					want = fmt.Sprintf("(module 0xabc %q)", tc.want[i])
				}
				if !strings.Contains(g.Message(), want) {
					t.Errorf("group %d: message lacks %s: %s", i, want, g.Message())
				}
			}
		})
	}
}

// TestCollectorFoldedRecords: records of a check inside a loop, each one
// invocation's failures in one run of the loop (wire.Record.Count, Loop),
// add their counts to the group; the group keeps its first record's loop
// count, and its message and summary say how many times that invocation
// failed and whose values they show (its last failure's) (docs/decisions/loop-failures-folded.md).
func TestCollectorFoldedRecords(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	first, second := computeRecord(0), computeRecord(1)
	first.Count, first.Loop = 5, 5
	second.Count, second.Loop = 3, 3
	record(t, c, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{first, second, computeRecord(2)}})
	s := c.Snapshot()
	if len(s.Groups) != 1 {
		t.Fatalf("%d groups, want 1", len(s.Groups))
	}
	g := s.Groups[0]
	if g.Count != 5+3+1 || g.Loop != 5 || len(g.Samples) != 3 {
		t.Fatalf("group: count %d, loop %d, %d samples; want 9, 5, 3", g.Count, g.Loop, len(g.Samples))
	}
	const sentence = " The invocation failed 5 times in this loop; the values are its last failure's. VUID-vkCmdDispatch-None-10068."
	if !strings.Contains(g.Message(), sentence) {
		t.Errorf("message:\n%s\nwant it to hold %q", g.Message(), sentence)
	}
	if got, want := g.Summary(), `descriptor_index_oob ×9 compute oob_compute.comp:9 (set 0, binding 0) index 3 of array length 2 (5 times in this loop) — vkCmdDispatch #0 cmd 0x55 ("compute-cmd")`; got != want {
		t.Errorf("summary:\n got %s\nwant %s", got, want)
	}
	if b, err := json.Marshal(g); err != nil || !strings.Contains(string(b), `"count":9,"loop":5,`) {
		t.Errorf("JSON %s (%v): want \"count\":9,\"loop\":5", b, err)
	}
}
