package session

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestCollectorRealSourceMap compiles the demo's compute shader with debug
// info and checks that an error at its OpStore points at line 9 through the
// real sourcemap package.
func TestCollectorRealSourceMap(t *testing.T) {
	words := shadertest.Compile(t, "../examples/demo/shaders", "oob_compute.comp", "-g", "--target-env", "vulkan1.1")
	store := shadertest.LastOp(t, words, spirv.OpStore) // the write through outs[pc.idx]
	spv := spirv.BytesFromWords(words)
	c := NewCollector()
	record(t, c, wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion})
	record(t, c, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: spv, Instrumented: true})
	r := computeRecord(0)
	r.Instruction = uint32(store)
	record(t, c, wire.KindErrors, &wire.Errors{CommandBuffer: 0x55, Records: []wire.Record{r}})
	s := c.Snapshot()
	src := s.Groups[0].Source
	if src.File != "oob_compute.comp" || src.Line != 9 || !strings.Contains(src.Text, "outs[pc.idx].v[i] = i * 3u;") {
		t.Fatalf("source %+v", src)
	}
	if lines := s.Sources[SourceKey{ShaderID: 1, File: "oob_compute.comp"}]; len(lines) < 9 {
		t.Fatalf("file lines %q", lines)
	}
	if !strings.Contains(s.Groups[0].Message(), "oob_compute.comp:9") {
		t.Fatalf("message %s", s.Groups[0].Message())
	}
}
