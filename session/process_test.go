package session

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestConnectionsShaderIDs: two processes' layers (a parent and the child
// it fork-execs) both number their shaders from 1; each connection's
// shaders get ids of their own in the session, its records, pipelines and
// lost counts follow them, each group has its own file and line and names
// its process, and the session file, opened, says the same.
func TestConnectionsShaderIDs(t *testing.T) {
	parentWords := shadertest.Compile(t, "../examples/demo/shaders", "oob_compute.comp", "-g", "--target-env", "vulkan1.1")
	childWords := shadertest.Compile(t, "../e2e/testdata/trust", "oob_child.comp", "-g", "--target-env", "vulkan1.1")
	c, file, send := connectionsCollector(t)
	parent, child := NewConnection(), NewConnection()
	for _, p := range []struct {
		conn  *Connection
		pid   int
		words []uint32
		cmd   uint64
	}{{parent, 100, parentWords, 0x55}, {child, 200, childWords, 0x66}} {
		send(p.conn, wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, PID: p.pid})
		send(p.conn, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: spirv.BytesFromWords(p.words), Instrumented: true})
		send(p.conn, wire.KindPipeline, &wire.Pipeline{Handle: 0x77 + p.cmd, BindPoint: "compute", Instrumented: true,
			Stages: []wire.PipelineRef{{Stage: "compute", ShaderID: 1, Module: 0xabc, Entry: "main"}}})
		r := computeRecord(0)
		r.Instruction = uint32(shadertest.LastOp(t, p.words, spirv.OpStore))
		send(p.conn, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: p.cmd, Records: []wire.Record{r}})
		send(p.conn, wire.KindLost, &wire.Lost{Records: 3, Groups: []wire.LostGroup{{Code: 1, Check: "descriptor_index_oob", ShaderID: 1, Instruction: 9, Count: 3}}})
	}
	live := c.Snapshot()
	opened, err := Parse(file.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Session{"live": live, "opened": opened} {
		var got []string
		for _, g := range s.Groups {
			got = append(got, fmt.Sprintf("shader %d pid %d %s:%d", g.Shader.ID, g.Shader.PID, g.Source.File, g.Source.Line))
		}
		want := []string{"shader 1 pid 100 oob_compute.comp:9", "shader 2 pid 200 oob_child.comp:14"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: groups %q, want %q", name, got, want)
		}
		if p := s.Pipelines["0xdd"]; p == nil || p.Stages[0].ShaderID != 2 {
			t.Errorf("%s: the child's pipeline %+v, want its shader 2", name, p)
		}
		var lost []string
		for _, g := range s.LostGroups {
			lost = append(lost, fmt.Sprintf("shader %d: %d", g.ShaderID, g.Count))
		}
		if fmt.Sprint(lost) != "[shader 1: 3 shader 2: 3]" {
			t.Errorf("%s: lost groups %q", name, lost)
		}
		if len(s.Shaders) != 2 || s.Shaders[2].PID != 200 {
			t.Errorf("%s: shaders %+v", name, s.Shaders)
		}
	}
}

// TestConnectionsSerials: a parent and its child both number their
// pipelines and command buffers from 1. The child names its pipeline 1 and
// command buffer 1 before the parent's first error: the parent's group
// keeps its own (unnamed) pipeline and its command buffer's name, the
// child's group has the child's names, and each keeps a serial of its own.
func TestConnectionsSerials(t *testing.T) {
	words := shadertest.Compile(t, "../examples/demo/shaders", "oob_compute.comp", "-g", "--target-env", "vulkan1.1")
	c, file, send := connectionsCollector(t)
	parent, child := NewConnection(), NewConnection()
	r := computeRecord(0)
	r.Instruction = uint32(shadertest.LastOp(t, words, spirv.OpStore))
	errs := func(cmd, pipeline uint64) *wire.Errors {
		rec := r
		rec.Pipeline, rec.PipelineSerial = pipeline, 1
		return &wire.Errors{Submit: 1, CommandBuffer: cmd, CommandBufferSerial: 1, Records: []wire.Record{rec}}
	}
	for _, p := range []struct {
		conn *Connection
		pid  int
	}{{parent, 100}, {child, 200}} {
		send(p.conn, wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, PID: p.pid})
		send(p.conn, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: spirv.BytesFromWords(words), Instrumented: true})
		send(p.conn, wire.KindPipeline, &wire.Pipeline{Handle: uint64(p.pid), Serial: 1, BindPoint: "compute", Instrumented: true,
			Stages: []wire.PipelineRef{{Stage: "compute", ShaderID: 1, Module: 0xabc, Entry: "main"}}})
	}
	send(parent, wire.KindName, &wire.Name{Handle: 0x55, ObjectType: "command_buffer", Name: "parent-cb", Serial: 1})
	send(child, wire.KindName, &wire.Name{Handle: 200, ObjectType: "pipeline", Name: "child-pipe", Serial: 1})
	send(child, wire.KindName, &wire.Name{Handle: 0x66, ObjectType: "command_buffer", Name: "child-cb", Serial: 1})
	send(parent, wire.KindErrors, errs(0x55, 100))
	send(child, wire.KindErrors, errs(0x66, 200))
	live := c.Snapshot()
	opened, err := Parse(file.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Session{"live": live, "opened": opened} {
		var got []string
		for _, g := range s.Groups {
			got = append(got, fmt.Sprintf("cb %q serial %d, pipeline %q serial %d", g.CommandBuffer.Name, g.CommandBuffer.Serial,
				g.Pipeline.Name, g.Pipeline.Serial))
		}
		want := []string{`cb "parent-cb" serial 1, pipeline "" serial 1`, `cb "child-cb" serial 2, pipeline "child-pipe" serial 2`}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: groups\n%q, want\n%q", name, got, want)
		}
	}
}

// connectionsCollector is a collector writing its session file to file,
// and send, which gives it a message as a connection's frame.
func connectionsCollector(t *testing.T) (*Collector, *bytes.Buffer, func(*Connection, wire.Kind, any)) {
	file := &bytes.Buffer{}
	file.WriteString(FileHeader)
	c := NewCollector()
	c.SetFile(file)
	send := func(conn *Connection, k wire.Kind, m any) {
		t.Helper()
		frame, err := wire.Encode(k, m)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.recordFrame(k, frame[wire.HeaderSize:], nil, conn); err != nil {
			t.Fatal(err)
		}
	}
	return c, file, send
}
