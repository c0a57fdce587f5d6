package session

import (
	"reflect"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestScopeOut: a pipeline the scope left out (the layer's Log of kind
// pipeline) is left out in the coverage, in the unchecked list with its
// handle, named when its name comes after, and in one notice per reason
// that counts them and names the pattern.
func TestScopeOut(t *testing.T) {
	c := newTestCollector()
	feedPreamble(t, c)
	const why = `left out of the scope: scope_include "pipeline:blur" matches none of its names`
	for _, p := range []uint64{0x90, 0x91} {
		record(t, c, wire.KindPipeline, &wire.Pipeline{Handle: p, Serial: p, BindPoint: "compute",
			Stages: []wire.PipelineRef{{Stage: "compute", ShaderID: 1}}})
		record(t, c, wire.KindLog, &wire.Log{Level: "warning", Text: why, Unchecked: true, Kind: wire.LogUncheckedPipeline,
			Pipeline: p, Subject: "pipeline " + hexHandle(p)})
	}
	record(t, c, wire.KindName, &wire.Name{Handle: 0x91, ObjectType: "pipeline", Name: "tonemap", Serial: 0x91})
	record(t, c, wire.KindAppExited, &wire.AppExited{State: "exited", Time: t0})
	s := c.Snapshot()
	want := []Unchecked{{Kind: UncheckedPipeline, Reason: why, Count: 2, Subjects: []string{"pipeline 0x90", `pipeline 0x91 "tonemap"`}}}
	if u := s.UncheckedAll(); !reflect.DeepEqual(u, want) {
		t.Fatalf("unchecked %+v, want %+v", u, want)
	}
	if got, w := want[0].String(), `2 pipelines: `+why+`: pipeline 0x90, pipeline 0x91 "tonemap"`; got != w {
		t.Fatalf("line %q, want %q", got, w)
	}
	cv := s.Coverage()
	if cv.Pipelines.Seen != 3 || cv.Pipelines.Instrumented != 1 || !reflect.DeepEqual(cv.Pipelines.LeftOut, []CountedBy{{why, 2}}) {
		t.Fatalf("coverage %+v", cv.Pipelines)
	}
	var notices []string
	for _, n := range s.Notices {
		if n.Level == "warning" {
			notices = append(notices, n.Text)
		}
	}
	wantNotice := `2 pipelines are not checked: ` + why + ` (pipeline 0x90, pipeline 0x91 "tonemap")`
	if !reflect.DeepEqual(notices, []string{wantNotice}) {
		t.Fatalf("notices %q, want %q", notices, wantNotice)
	}
	if v, _ := s.Verdict(); v != VerdictPartly {
		t.Fatalf("verdict %v", v)
	}
}

// TestErrorScope: the re-run's scope names each pipeline with errors by
// its name, an unnamed one by its shader's code, and counts what it cannot
// name; WithScope sets it and clears scope_exclude.
func TestErrorScope(t *testing.T) {
	code := []uint32{0x07230203, 0x00010300, 0, 10, 0}
	s := &Session{Shaders: map[uint32]*Shader{1: {ID: 1, SPIRV: code}}}
	s.Groups = []*ErrorGroup{
		{Where: Where{Pipeline: Handle{Handle: "0x1", Name: "blur*"}, Shader: ShaderRef{ID: 1}}},
		{Where: Where{Pipeline: Handle{Handle: "0x2"}, Shader: ShaderRef{ID: 1}}},
		{Where: Where{Pipeline: Handle{Handle: "0x1", Name: "blur*"}, Shader: ShaderRef{ID: 1}}},
		{Where: Where{Pipeline: Handle{Handle: "0x3"}}},
		{Where: Where{Pipeline: Handle{Handle: "0x4", Name: "a,b"}}},
	}
	include, unnamed := s.ErrorScope()
	if want := "pipeline:blur[*]," + options.SPIRVName(code); include != want || unnamed != 2 {
		t.Fatalf("scope %q, %d unnamed; want %q, 2", include, unnamed, want)
	}
	set := WithScope(Settings{Options: map[string]string{options.ScopeExclude.Key: "x", options.LoopBudget.Key: "5"}}, include)
	if want := map[string]string{options.ScopeInclude.Key: include, options.LoopBudget.Key: "5"}; !reflect.DeepEqual(set.Options, want) {
		t.Fatalf("options %v, want %v", set.Options, want)
	}
}
