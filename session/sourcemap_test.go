package session

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestCollectorRealSourceMap compiles the demo's compute shader with debug
// info and checks that an error at its OpStore points at line 9 through the
// real sourcemap package.
func TestCollectorRealSourceMap(t *testing.T) {
	glslang, err := exec.LookPath("glslangValidator")
	if err != nil {
		t.Skip("glslangValidator not installed")
	}
	shaderDir, err := filepath.Abs("../examples/demo/shaders")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "oob.spv")
	cmd := exec.Command(glslang, "-g", "--target-env", "vulkan1.1", "-o", out, "oob_compute.comp")
	cmd.Dir = shaderDir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("glslangValidator: %v\n%s", err, b)
	}
	spv, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Find the last OpStore (opcode 62), the write through outs[pc.idx]:
	// the instruction index counts from the first instruction after the
	// 5-word header.
	store := -1
	for off, idx := 20, 0; off+4 <= len(spv); idx++ {
		w := binary.LittleEndian.Uint32(spv[off:])
		if w&0xffff == 62 {
			store = idx
		}
		n := int(w >> 16)
		if n == 0 {
			t.Fatal("malformed module")
		}
		off += 4 * n
	}
	if store < 0 {
		t.Fatal("no OpStore")
	}
	c := NewCollector()
	record(t, c, wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion})
	record(t, c, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: spv, Instrumented: true})
	r := computeRecord(0)
	r.Instruction = uint32(store)
	record(t, c, wire.KindErrors, &wire.Errors{CommandBuffer: 0x55, Records: []wire.Record{r}})
	s := c.Snapshot()
	src := s.Groups[0].Source
	if src == nil || src.File == "" {
		t.Skipf("sourcemap gives no file yet (%+v); the lead's sourcemap is still a stub", src)
	}
	if src.File != "oob_compute.comp" || src.Line != 9 || !strings.Contains(src.Text, "outs[pc.idx].v[i] = i * 3u;") {
		t.Fatalf("source %+v", src)
	}
	if lines := s.Sources[SourceKey{ShaderID: 1, File: "oob_compute.comp"}]; len(lines) < 9 {
		t.Fatalf("file lines %q", lines)
	}
	if !strings.Contains(s.Groups[0].Message, "oob_compute.comp:9") {
		t.Fatalf("message %s", s.Groups[0].Message)
	}
}
