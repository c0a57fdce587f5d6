package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
)

// recordShaders are the record app's shaders: source, and the name it
// reads from its --spv directory.
var recordShaders = [][2]string{
	{"examples/demo/shaders/oob_compute.comp", "oob_compute.comp.spv"},
	{"layer/testdata/shaders/fullscreen.vert", "fullscreen.vert.spv"},
	{"layer/testdata/shaders/oob_store.frag", "oob_store.frag.spv"},
}

// buildRecord compiles record/record.c and its shaders into a temporary
// directory, as bench.mk does, and returns the binary and the SPIR-V
// directory.
func buildRecord(tb testing.TB) (bin, spv string) {
	tb.Helper()
	dir := tb.TempDir()
	bin, spv = filepath.Join(dir, "record"), filepath.Join(dir, "spv")
	if err := os.Mkdir(spv, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := cbuild.App(bin, "bench/record/record.c"); err != nil {
		tb.Fatal(err)
	}
	for _, s := range recordShaders {
		out := filepath.Join(spv, s[1])
		src := filepath.Join(cbuild.Root(), s[0])
		if b, err := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.2", "-o", out, src).CombinedOutput(); err != nil {
			tb.Fatalf("compile %s: %v\n%s", src, err, b)
		}
	}
	return bin, spv
}

// recordFigures runs the record app in config and returns the ns per
// vkCmdDraw and the µs from vkQueueSubmit to the return of vkWaitForFences.
func recordFigures(tb testing.TB, h *Harness, config string, args ...string) (nsPerDraw, usLatency float64) {
	tb.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = h.env(config)
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("%s (%s): %v\n%s", strings.Join(args, " "), config, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "ns_per_draw="); ok {
			nsPerDraw, _ = strconv.ParseFloat(v, 64)
		}
		if v, ok := strings.CutPrefix(line, "us_submit_to_wait="); ok {
			usLatency, _ = strconv.ParseFloat(v, 64)
		}
	}
	if nsPerDraw == 0 || usLatency == 0 {
		tb.Fatalf("no figures in:\n%s", out)
	}
	return nsPerDraw, usLatency
}

// recordHarness is a harness for the layer built into ../bin.
func recordHarness(tb testing.TB) *Harness {
	tb.Helper()
	binDir, err := filepath.Abs("../bin")
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(binDir, "libVkLayer_gpuav_dbg.so")); err != nil {
		tb.Fatalf("our layer is not built (run make): %v", err)
	}
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		tb.Setenv("XDG_RUNTIME_DIR", tb.TempDir())
	}
	return &Harness{layerDir: binDir}
}

// TestRecordRuns runs the record app once with and once without our layer
// and each of its modes: it prints both figures, and flags it does not
// know exit 2.
func TestRecordRuns(t *testing.T) {
	bin, spv := buildRecord(t)
	h := recordHarness(t)
	for _, config := range []string{ConfigNone, ConfigOurs} {
		for _, mode := range []string{"", "--bind-per-draw", "--push-per-draw", "--dispatch --push-per-draw"} {
			args := []string{bin, "--spv", spv, "--draws", "100"}
			if mode != "" {
				args = append(args, strings.Fields(mode)...)
			}
			recordFigures(t, h, config, args...)
		}
	}
	for _, flags := range [][]string{{"--bind-per-draw", "--push-per-draw"}, {"--indirect", "--dispatch"}} {
		err := exec.Command(bin, flags...).Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("record %v: %v, want exit 2", flags, err)
		}
	}
}

// BenchmarkDrawRecording measures what the layer adds to recording one
// vkCmdDraw of an instrumented pipeline (the best of 5 recordings of N
// draws, with and without the layer), and to a submit-and-wait round trip
// of one in-bounds dispatch (the layer reads the records inside
// vkWaitForFences). Run it with -benchtime=1x: each iteration is a pair of
// app runs.
func BenchmarkDrawRecording(b *testing.B) {
	bin, spv := buildRecord(b)
	h := recordHarness(b)
	for _, draws := range []int{4000, 100000} {
		b.Run(fmt.Sprintf("draws=%d", draws), func(b *testing.B) {
			args := []string{bin, "--spv", spv, "--draws", strconv.Itoa(draws)}
			var with, without, latWith, latWithout float64
			for i := 0; i < b.N; i++ {
				w, lw := recordFigures(b, h, ConfigOurs, args...)
				n, ln := recordFigures(b, h, ConfigNone, args...)
				with, without, latWith, latWithout = with+w, without+n, latWith+lw, latWithout+ln
			}
			k := float64(b.N)
			b.ReportMetric(with/k, "ns/draw-layer")
			b.ReportMetric(without/k, "ns/draw-none")
			b.ReportMetric((with-without)/k, "ns/draw-added")
			b.ReportMetric(latWith/k, "us/submit-wait-layer")
			b.ReportMetric(latWithout/k, "us/submit-wait-none")
		})
	}
}
