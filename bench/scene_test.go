package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
)

// buildScene compiles scenes/scene.c (with internal/capp) and the dispatch
// scene's shader into a temporary directory, as bench.mk does, and returns
// the binary's path. Missing tools fail the test.
func buildScene(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	spv := filepath.Join(dir, "spv")
	if err := os.Mkdir(spv, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "scene")
	if err := cbuild.App(bin, "bench/scenes/scene.c"); err != nil {
		t.Fatal(err)
	}
	steps := [][]string{
		{"glslangValidator", "-g", "--target-env", "vulkan1.1", "-o", filepath.Join(spv, "dispatch.comp.spv"), "scenes/shaders/dispatch.comp"},
		{"spirv-val", "--target-env", "vulkan1.1", filepath.Join(spv, "dispatch.comp.spv")},
	}
	for _, s := range steps {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(s, " "), err, out)
		}
	}
	return bin
}

// TestSceneRuns runs the real dispatch scene on the machine's Vulkan device
// with no layer, with our layer and an out-of-bounds index, and with the
// Khronos layer's GPU-AV and the same index: the output parses, the results
// check, and each layer reports the index 4 of the array of 4.
func TestSceneRuns(t *testing.T) {
	bin := buildScene(t)
	binDir, err := filepath.Abs("../bin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(binDir, "libVkLayer_gpuav_dbg.so")); err != nil {
		t.Fatalf("our layer is not built (run make): %v", err)
	}
	h := &Harness{layerDir: binDir}
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	}
	argv := []string{bin, "--scene", "dispatch", "--dispatches", "16", "--warmup", "1", "--iters", "2"}

	run := func(config string, extra ...string) (Output, string) {
		t.Helper()
		cmd := exec.Command(bin, append(argv[1:], extra...)...)
		cmd.Env = h.env(config)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %v (%s): %v\n%s", bin, extra, config, err, stderr.String())
		}
		o, err := ParseOutput(&stdout)
		if err != nil {
			t.Fatal(err)
		}
		return o, stderr.String()
	}

	o, stderr := run(ConfigNone)
	if err := validRun(o, stderr, ConfigNone, 2); err != nil {
		t.Errorf("clean run, no layer: %v", err)
	}
	if o.Scene != "dispatch" || o.Size != "dispatches=16" || len(o.Warmup) != 1 || o.Device == "" || o.Khronos {
		t.Errorf("clean run, no layer: %+v", o)
	}

	o, stderr = run(ConfigOurs)
	if err := validRun(o, stderr, ConfigOurs, 2); err != nil {
		t.Errorf("clean run, gpuav-dbg: %v", err)
	}

	o, stderr = run(ConfigOurs, "--oob")
	// The layer reports on stderr, or through the app's debug-utils
	// messenger when it has one (how many of each is the layer's policy).
	if n := CountLayerErrors(stderr) + o.VkErrors; n == 0 {
		t.Errorf("--oob under gpuav-dbg: no error reported\n%s", stderr)
	}
	if !strings.Contains(stderr, "Index of 4 used to index descriptor array of length 4.") {
		t.Errorf("--oob under gpuav-dbg: no message about index 4 of 4:\n%s", stderr)
	}
	if err := validRun(o, stderr, ConfigOurs, 2); err == nil {
		t.Errorf("validRun accepted a run with errors")
	}

	o, stderr = run(ConfigKhronos, "--oob")
	if !o.Khronos || o.VkErrors == 0 || !strings.Contains(stderr, "Index of 4 used to index descriptor array of length 4") {
		t.Errorf("--oob under Khronos GPU-AV: khronos=%v, %d errors\n%s", o.Khronos, o.VkErrors, stderr)
	}
}
