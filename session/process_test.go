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
	var file bytes.Buffer
	file.WriteString(FileHeader)
	c := NewCollector()
	c.SetFile(&file)
	parent, child := NewConnection(), NewConnection()
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
