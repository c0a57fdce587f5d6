package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestOpenSourcePath: a session whose module carries no source text, run
// where the source is not found, shows the SPIR-V instruction; open
// --source-path DIR shows the source line from DIR.
func TestOpenSourcePath(t *testing.T) {
	dir, err := filepath.Abs("../../examples/demo/shaders")
	if err != nil {
		t.Fatal(err)
	}
	words := shadertest.StripSourceText(t, shadertest.Compile(t, dir, "oob_compute.comp", "-g", "--target-env", "vulkan1.1"))
	store := shadertest.LastOp(t, words, spirv.OpStore) // the write through outs[pc.idx]
	var file bytes.Buffer
	file.WriteString(session.FileHeader)
	c := session.NewCollector()
	c.SetFile(&file)
	for _, m := range []struct {
		k wire.Kind
		v any
	}{
		{wire.KindAppStarted, &wire.AppStarted{Path: "/bin/app", Dir: "/nonexistent"}},
		{wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion}},
		{wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: spirv.BytesFromWords(words), Instrumented: true}},
		{wire.KindErrors, &wire.Errors{CommandBuffer: 0x55, Records: []wire.Record{{Check: "descriptor_index_oob", Code: 1,
			ShaderID: 1, Instruction: uint32(store), Stage: 5, Action: "vkCmdDispatch", Params: []uint32{0, 0, 3, 2}, Count: 1}}}},
	} {
		if err := c.Record(m.k, m.v); err != nil {
			t.Fatal(err)
		}
	}
	gvs := filepath.Join(t.TempDir(), "run.gvs")
	if err := os.WriteFile(gvs, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	const line = "    outs[pc.idx].v[i] = i * 3u;"

	report := func(args ...string) string {
		tc := newTestCLI(t)
		out := filepath.Join(t.TempDir(), "r.json")
		tc.run(t, exitOK, append([]string{"open", "--json", out}, args...)...)
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if r := report(gvs); strings.Contains(r, line) || !strings.Contains(r, `"language": "spirv"`) {
		t.Errorf("without --source-path:\n%s", r)
	}
	if r := report("--source-path", dir, gvs); !strings.Contains(r, `"text": "`+line+`"`) || !strings.Contains(r, `"language": "glsl"`) {
		t.Errorf("with --source-path %s:\n%s", dir, r)
	}
}
