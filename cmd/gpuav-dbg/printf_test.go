package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav/printf"
	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// envPrintfSPV is the module the fake app's printf mode sends.
const envPrintfSPV = "GPUAV_DBG_TEST_PRINTF_SPV"

// sendPrintf sends testdata/printf/printf.comp (compiled by the test) and
// the lines of its first call at global invocations (0..3, 0, 0): "i=X n=4".
func sendPrintf(cl *wire.Client) error {
	b, err := os.ReadFile(os.Getenv(envPrintfSPV))
	if err != nil {
		return err
	}
	words, err := spirv.WordsFromBytes(b)
	if err != nil {
		return err
	}
	sites, err := printf.Sites(words)
	if err != nil || len(sites) == 0 {
		return fmt.Errorf("printf sites: %v, %v", sites, err)
	}
	cl.Send(wire.KindShader, &wire.Shader{ID: 1, Module: 0xab, SPIRV: b, Instrumented: true})
	site := wire.PrintfSite{Action: "vkCmdDispatch", Pipeline: 0x77, ShaderID: 1, Instruction: uint32(sites[0].Instruction), Stage: 5, Args: 2}
	for x := uint32(0); x < 4; x++ {
		site.AppendLine([3]uint32{x, 0, 0}, []uint32{x, 4})
	}
	cl.Send(wire.KindPrintf, &wire.Printf{Submit: 1, CommandBuffer: 0x55, Sites: []wire.PrintfSite{site}, Lost: 3})
	return nil
}

// TestRunHeadlessPrintf: the headless output has each printf group's
// summary and distinct texts, or with --printf-at the lines there; the
// count line says how many lines came and were lost; open shows the same.
func TestRunHeadlessPrintf(t *testing.T) {
	tc := newTestCLI(t)
	words := shadertest.Compile(t, filepath.Join("testdata", "printf"), "printf.comp", "-g", "--target-env", "vulkan1.2")
	spv := filepath.Join(tc.dir, "printf.spv")
	if err := os.WriteFile(spv, spirv.BytesFromWords(words), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(envPrintfSPV, spv)
	t.Setenv(envFakeApp, "printf")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	gvs := filepath.Join(tc.dir, "s.gvs")
	tc.run(t, exitOK, "run", "--headless", "--session", gvs, self, "-test.run=none")
	summary := `gpuav-dbg: printf ×4 compute printf.comp:8 "i=%u n=%u" — vkCmdDispatch #0 cmd 0x55 ("compute-cmd")` + "\n"
	values := "gpuav-dbg:   ×1 i=0 n=4\ngpuav-dbg:   ×1 i=1 n=4\ngpuav-dbg:   ×1 i=2 n=4\ngpuav-dbg:   ×1 i=3 n=4\n"
	if !strings.Contains(tc.err.String(), summary+values) {
		t.Errorf("stderr lacks\n%s%s\n%s", summary, values, tc.err.String())
	}
	if !strings.Contains(tc.err.String(), "no validation errors, 4 printf lines (3 lost); app exited 0") {
		t.Errorf("count line:\n%s", tc.err.String())
	}
	tc.err.Reset()
	tc.run(t, exitOK, "open", "--headless", "--printf-at", "invocation=2,0,0", gvs)
	at := "gpuav-dbg:   1 of 4 kept lines at invocation=2,0,0\ngpuav-dbg:   (2,0,0) i=2 n=4\n"
	if !strings.Contains(tc.err.String(), summary+at) {
		t.Errorf("open --printf-at: stderr lacks\n%s%s\n%s", summary, at, tc.err.String())
	}
	tc.err.Reset()
	tc.run(t, exitLauncher, "open", "--headless", "--printf-at", "texel=1", gvs)
	if !strings.Contains(tc.err.String(), `unknown name "texel"`) {
		t.Errorf("a bad filter: %s", tc.err.String())
	}
}
