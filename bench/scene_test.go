package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
)

// buildScene compiles scenes/scene.c (with internal/capp) and the named
// shaders of scenes/shaders (default: the dispatch scene's) into a
// temporary directory, as bench.mk does, and returns the binary's path.
// Missing tools fail the test.
func buildScene(t *testing.T, shaders ...string) string {
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
	if len(shaders) == 0 {
		shaders = []string{"dispatch.comp"}
	}
	var steps [][]string
	for _, sh := range shaders {
		out := filepath.Join(spv, sh+".spv")
		steps = append(steps, []string{"glslangValidator", "-g", "--target-env", "vulkan1.1", "-o", out, "scenes/shaders/" + sh},
			[]string{"spirv-val", "--target-env", "vulkan1.1", out})
	}
	for _, s := range steps {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(s, " "), err, out)
		}
	}
	return bin
}

// testHarness is a Harness over the built layer and launcher in ../bin (the
// test fails when the layer is not built), with XDG_RUNTIME_DIR set.
func testHarness(t *testing.T) *Harness {
	t.Helper()
	binDir, err := filepath.Abs("../bin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(binDir, "libVkLayer_gpuav_dbg.so")); err != nil {
		t.Fatalf("our layer is not built (run make): %v", err)
	}
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	}
	return &Harness{layerDir: binDir, launcher: filepath.Join(binDir, "gpuav-dbg")}
}

// runTestScene runs the scene binary with args in configuration config and
// returns what it printed, parsed, and its stderr; a failing run fails the
// test.
func runTestScene(t *testing.T, h *Harness, bin, config string, args ...string) (Output, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = h.env(config)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v (%s): %v\n%s", bin, args, config, err, stderr.String())
	}
	o, err := ParseOutput(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	return o, stderr.String()
}

// TestSceneRuns runs the real dispatch scene on the machine's Vulkan device
// with no layer, with our layer and an out-of-bounds index, and with the
// Khronos layer's GPU-AV and the same index: the output parses, the results
// check, and each layer reports the index 4 of the array of 4.
func TestSceneRuns(t *testing.T) {
	bin := buildScene(t)
	h := testHarness(t)
	run := func(config string, extra ...string) (Output, string) {
		t.Helper()
		return runTestScene(t, h, bin, config, append([]string{"--scene", "dispatch", "--dispatches", "16", "--warmup", "1", "--iters", "2"}, extra...)...)
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

	// The robust configurations: the driver's robustness2 on a device that
	// has it (lavapipe, NVIDIA), our robust-only mode reporting nothing even
	// where accesses fail.
	o, stderr = run(ConfigDriverRobust)
	if err := validRun(o, stderr, ConfigDriverRobust, 2); err != nil || !o.Robustness2 {
		t.Errorf("clean run, driver robustness2: robustness2 %v, %v", o.Robustness2, err)
	}
	if err := validRun(o, stderr, ConfigNone, 2); err == nil {
		t.Errorf("validRun accepted robustness2 on in the no-layer configuration")
	}
	o, stderr = run(ConfigRobust, "--oob")
	if n := CountLayerErrors(stderr) + o.VkErrors; n != 0 || o.Robustness2 || !o.Done {
		t.Errorf("--oob under gpuav-dbg --robust: %d errors reported, robustness2 %v, done %v\n%s", n, o.Robustness2, o.Done, stderr)
	}

	o, stderr = run(ConfigKhronos, "--oob")
	if !o.Khronos || o.VkErrors == 0 || !strings.Contains(stderr, "Index of 4 used to index descriptor array of length 4") {
		t.Errorf("--oob under Khronos GPU-AV: khronos=%v, %d errors\n%s", o.Khronos, o.VkErrors, stderr)
	}
}

// hotLoopHandErrors is what the hand-checked hot-loop variants must count
// with --oob over n workgroups: each buffer is bound with 512 of its 1024
// words, so each read at word 512 or above fails; and for the memory
// variants every 64th descriptor index word is 2 (one failure, the
// iteration's reads skipped).
func hotLoopHandErrors(workgroups uint32, masked bool) int64 {
	var n int64
	for g := uint32(0); g < workgroups*64; g++ {
		w := g / 64
		for i := uint32(0); i < 256; i++ {
			if !masked && (w+i)&1023%64 == 63 {
				n++
				continue
			}
			if (g*7+i)&1023 >= 512 {
				n++
			}
			if (g+i*13)&1023 >= 512 {
				n++
			}
		}
	}
	return n
}

// TestHotLoopBadIndex runs the index-from-memory hot loop with only its
// descriptor indices from memory out of bounds (every 64th is 2) under our
// layer with every check on: exactly one record per failing iteration (its
// two reads share one guard), none for the reads of the others, and the
// app's results exact with the failing iterations' reads skipped (read
// zero). With the buffers bound whole the fast variant runs, its reads in
// the select form (docs/decisions/reads-as-selects.md); with element 0 of
// the array unwritten (--unwritten, no index 0 in memory) the precise
// variant runs, its reads guarded (a read of element 0 would be reported as
// uninitialized); with a store through the same index in the loop (each
// word stored back as it was read), the failing iterations' stores are
// skipped too: the scene finds every word of both buffers as it wrote it.
func TestHotLoopBadIndex(t *testing.T) {
	bin := buildScene(t, "hotloop_memory.comp")
	storeBin := buildScene(t)
	src, err := os.ReadFile("scenes/shaders/hotloop_memory.comp")
	if err != nil {
		t.Fatal(err)
	}
	const sum = "        acc += bufs[k].v[(g * 7u + i) & 1023u] * 3u + bufs[k].v[(g + i * 13u) & 1023u];\n"
	text := strings.Replace(string(src), sum, sum+"        bufs[k].v[(g * 7u + i) & 1023u] = bufs[k].v[(g * 7u + i) & 1023u];\n", 1)
	text = strings.Replace(text, "readonly buffer B", "buffer B", 1)
	comp := filepath.Join(t.TempDir(), "hotloop_memory.comp")
	if err := os.WriteFile(comp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	spv := filepath.Join(filepath.Dir(storeBin), "spv", "hotloop_memory.comp.spv")
	if out, err := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.1", "-o", spv, comp).CombinedOutput(); err != nil || !strings.Contains(text, "] = bufs[k]") {
		t.Fatalf("glslangValidator: %v\n%s", err, out)
	}
	h := testHarness(t)
	for _, tc := range []struct {
		name, bin string
		extra     []string
		precise   string // the precise variant's notice ("": none)
	}{
		{"whole", bin, nil, ""},
		{"unwritten", bin, []string{"--unwritten"}, "set 0 binding 0 has a floor of 0 where its shaders' bounded accesses need 4096 (and 2 elements): " +
			"its precise variant was created (precise variants created: 1)"},
		{"store", storeBin, nil, ""},
	} {
		for _, wg := range []uint32{1, 4} {
			r, err := h.launch(append([]string{tc.bin, "--scene", "hotloop", "--variant", "memory", "--workgroups", fmt.Sprint(wg),
				"--warmup", "0", "--iters", "1", "--bad-index"}, tc.extra...), true)
			if err != nil {
				t.Fatal(err)
			}
			if r.App.ExitCode != 0 || len(r.Errors) != 1 {
				t.Fatalf("%s, %d workgroups: exit %d, %d groups %+v; want exit 0 (results exact), 1 group", tc.name, wg, r.App.ExitCode, len(r.Errors), r.Errors)
			}
			e := r.Errors[0]
			if want := "descriptor_index_oob: (set = 0, binding = 0) Index of 2 used to index descriptor array of length 2."; e.Check != "descriptor_index_oob" || !strings.Contains(e.Message, strings.TrimPrefix(want, "descriptor_index_oob: ")) {
				t.Errorf("%s, %d workgroups: %s: %q, want %q", tc.name, wg, e.Check, e.Message, want)
			}
			// 1 workgroup: iterations 63, 127, 191, 255 of 64 invocations,
			// each invocation's four in one record after the loop.
			if want := BadIndexRecords(wg); int64(e.Count)+r.Dropped != want || wg == 1 && want != 256 {
				t.Errorf("%s, %d workgroups: %d failures + %d dropped, want %d", tc.name, wg, e.Count, r.Dropped, want)
			}
			if e.Loop != BadIndexPerInvocation || !strings.Contains(e.Message, "The invocation failed 4 times in this loop; the values are its last failure's.") {
				t.Errorf("%s, %d workgroups: loop count %d, message %q; want 4, \"failed 4 times in this loop\"", tc.name, wg, e.Loop, e.Message)
			}
			var precise []string
			for _, n := range r.Notices {
				if strings.Contains(n.Text, "precise variant") {
					precise = append(precise, n.Text)
				}
			}
			if tc.precise == "" && len(precise) != 0 || tc.precise != "" && (len(precise) != 1 || !strings.HasSuffix(precise[0], tc.precise)) {
				t.Errorf("%s, %d workgroups: precise variant notices %q, want %q", tc.name, wg, precise, tc.precise)
			}
		}
	}
	// The references of the fast variant's shape count the same failures
	// with their own checks, and skip the same reads (fold: one record per
	// invocation, claiming a slot per failing iteration).
	bin = buildScene(t, "hotloop_guard.comp", "hotloop_select.comp", "hotloop_fold.comp")
	for _, v := range []string{"guard", "select", "fold"} {
		args := []string{"--scene", "hotloop", "--variant", v, "--workgroups", "4", "--warmup", "0", "--iters", "1"}
		if o, stderr := runTestScene(t, h, bin, ConfigNone, args...); validRun(o, stderr, ConfigNone, 1) != nil || o.HandErrors != 0 {
			t.Errorf("%s, clean: %v, hand errors %d", v, validRun(o, stderr, ConfigNone, 1), o.HandErrors)
		}
		if o, _ := runTestScene(t, h, bin, ConfigNone, append(args, "--bad-index")...); !o.CheckOK || o.HandErrors != BadIndexRecords(4) {
			t.Errorf("%s --bad-index: results checked %v, hand errors %d, want %d", v, o.CheckOK, o.HandErrors, BadIndexRecords(4))
		}
	}
}

// TestHotLoopScene runs every variant of the hot-loop scene small: clean
// with no layer (results checked by the app, the hand-checked variants
// counting no error), the hand-checked variants with --oob counting exactly
// the failing accesses, and the masked and memory variants with --oob under
// our layer with every check on, which must name the 2 KB range and the
// index 2 of the array of 2. The masked variant's failures, reported and
// dropped, are exactly its failing reads: its two reads are in the loop,
// so each invocation writes one record per read with its count
// (docs/decisions/loop-failures-folded.md), and at 40 workgroups (5,120
// records) more than the output buffer holds (4,095): no record past the
// capacity goes uncounted, nor the failures it stood for.
func TestHotLoopScene(t *testing.T) {
	bin := buildScene(t, "hotloop_masked.comp", "hotloop_memory.comp", "hotloop_naive.comp", "hotloop_hoisted.comp",
		"hotloop_flag.comp", "hotloop_masked_flag.comp", "hotloop_masked_hoisted.comp")
	h := testHarness(t)
	const workgroups = 4
	run := func(config, variant string, extra ...string) (Output, string) {
		t.Helper()
		return runTestScene(t, h, bin, config, append([]string{"--scene", "hotloop", "--variant", variant,
			"--workgroups", "4", "--warmup", "0", "--iters", "1"}, extra...)...)
	}
	for _, tc := range []struct {
		variant  string
		hand     int64 // hand-errors with --oob; -1: the variant has no checks of its own
		messages []string
	}{
		// (A group shows one of its records' values: which one depends on
		// the order the invocations failed in.)
		{"masked", -1, []string{"buffer_oob: (set = 0, binding = 0) Descriptor index ", " access out of bounds. Descriptor size is 2048 and highest byte accessed was "}},
		{"memory", -1, []string{"descriptor_index_oob: (set = 0, binding = 0) Index of 2 used to index descriptor array of length 2.",
			"buffer_oob: (set = 0, binding = 0) Descriptor index ", " access out of bounds. Descriptor size is 2048 and highest byte accessed was "}},
		{"naive", hotLoopHandErrors(workgroups, false), nil},
		{"hoisted", hotLoopHandErrors(workgroups, false), nil},
		{"flag", hotLoopHandErrors(workgroups, false), nil},
		{"masked_flag", hotLoopHandErrors(workgroups, true), nil},
		{"masked_hoisted", hotLoopHandErrors(workgroups, true), nil},
	} {
		o, stderr := run(ConfigNone, tc.variant)
		if err := validRun(o, stderr, ConfigNone, 1); err != nil || o.Size != fmt.Sprintf("variant=%s workgroups=4 invocations=256 loops=256", tc.variant) {
			t.Errorf("%s, clean, no layer: %v, size %q", tc.variant, err, o.Size)
		}
		if want := min(tc.hand, 0); o.HandErrors != want {
			t.Errorf("%s, clean: hand errors %d, want %d", tc.variant, o.HandErrors, want)
		}
		if tc.hand >= 0 {
			if o, _ = run(ConfigNone, tc.variant, "--oob"); o.HandErrors != tc.hand {
				t.Errorf("%s --oob: hand errors %d, want %d", tc.variant, o.HandErrors, tc.hand)
			}
			continue
		}
		wg := uint32(workgroups)
		if tc.variant == "masked" {
			wg = 40
		}
		r, err := h.launch([]string{bin, "--scene", "hotloop", "--variant", tc.variant, "--workgroups", fmt.Sprint(wg),
			"--warmup", "0", "--iters", "1", "--oob"}, true)
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		for _, e := range r.Errors {
			all = append(all, e.Check+": "+strings.TrimPrefix(e.Message, e.Check+": "))
		}
		if tc.variant == "masked" {
			var n int64
			for _, e := range r.Errors {
				n += int64(e.Count)
			}
			if want := hotLoopHandErrors(wg, true); n+r.Dropped != want || r.Dropped == 0 {
				t.Errorf("masked --oob: %d failures reported, %d dropped; want %d in all, some dropped", n, r.Dropped, want)
			}
		}
		for _, m := range tc.messages {
			if !strings.Contains(strings.Join(all, "\n"), m) {
				t.Errorf("%s --oob under gpuav-dbg, every check: no %q in\n%s", tc.variant, m, strings.Join(all, "\n"))
			}
		}
	}
}

// TestHotLoopPrintfFastVariant: the masked hot loop with a debugPrintfEXT
// its loop never reaches (as the printf measurements built it) is created
// with its fast variant like the shader without printf: with every buffer
// whole nothing is reported and no precise variant is made, and with
// --oob (2 KB of the 4 KB its reads are bounded by) the layer makes the
// precise variant, which it does only for a pipeline created fast.
func TestHotLoopPrintfFastVariant(t *testing.T) {
	bin := buildScene(t, "hotloop_masked.comp")
	src, err := os.ReadFile("scenes/shaders/hotloop_masked.comp")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "#version 450\n", "#version 450\n#extension GL_EXT_debug_printf : require\n", 1)
	const sum = "        acc += bufs[k].v[(g * 7u + i) & 1023u] * 3u + bufs[k].v[(g + i * 13u) & 1023u];\n"
	text = strings.Replace(text, sum, sum+"        if (acc == 0xFFFFFFFFu) debugPrintfEXT(\"acc %u at %u of %u\", acc, i, g);\n", 1)
	if !strings.Contains(text, "debugPrintfEXT") {
		t.Fatal("hotloop_masked.comp's loop changed: the printf was not added")
	}
	comp := filepath.Join(t.TempDir(), "hotloop_printf.comp")
	if err := os.WriteFile(comp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	spv := filepath.Join(filepath.Dir(bin), "spv", "hotloop_masked.comp.spv")
	if out, err := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.1", "-o", spv, comp).CombinedOutput(); err != nil {
		t.Fatalf("glslangValidator: %v\n%s", err, out)
	}
	h := testHarness(t)
	const notice = "set 0 binding 0 has a floor of 2048 where its shaders' bounded accesses need 4096 (and 2 elements): " +
		"its precise variant was created (precise variants created: 1)"
	for _, tc := range []struct {
		oob     bool
		precise int // precise variant notices
	}{{false, 0}, {true, 1}} {
		argv := []string{bin, "--scene", "hotloop", "--variant", "masked", "--workgroups", "4", "--warmup", "0", "--iters", "1"}
		if tc.oob {
			argv = append(argv, "--oob")
		}
		r, err := h.launch(argv, true)
		if err != nil {
			t.Fatal(err)
		}
		var precise []string
		for _, n := range r.Notices {
			if strings.Contains(n.Text, "precise variant") {
				precise = append(precise, n.Text)
			}
		}
		if len(precise) != tc.precise || tc.precise > 0 && !strings.HasSuffix(precise[0], notice) {
			t.Errorf("--oob %v: precise variant notices %q, want %d ending %q", tc.oob, precise, tc.precise, notice)
		}
		if tc.oob != (len(r.Errors) > 0) || r.App.ExitCode != 0 {
			t.Errorf("--oob %v: %d error groups, app exit %d", tc.oob, len(r.Errors), r.App.ExitCode)
		}
	}
}
