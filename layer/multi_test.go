package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// The tests of this file run testdata/multi.c, one mode per scenario (see
// its header): several command buffers, re-submission, secondaries,
// SIMULTANEOUS_USE, 8 threads, dynamic rendering and render passes with
// every draw command, debug-utils messengers, create/destroy loops.

var (
	multiOnce sync.Once
	multiFix  struct {
		app              string
		comp, vert, frag string
		err              error
	}
)

// compileShader compiles a GLSL file with glslangValidator and validates
// the result with spirv-val.
func compileShader(src, out, env string) error {
	if b, err := exec.Command("glslangValidator", "-g", "--target-env", env, "-o", out, src).CombinedOutput(); err != nil {
		return fmt.Errorf("compile %s: %v\n%s", src, err, b)
	}
	if b, err := exec.Command("spirv-val", "--target-env", env, out).CombinedOutput(); err != nil {
		return fmt.Errorf("spirv-val %s: %v\n%s", out, err, b)
	}
	return nil
}

// setupMulti builds multi and its shaders into the fixture directory.
func setupMulti(t testing.TB) {
	t.Helper()
	setup(t)
	multiOnce.Do(func() {
		multiFix.comp = filepath.Join(fixture.dir, "multi_compute.spv")
		multiFix.vert = filepath.Join(fixture.dir, "fullscreen.vert.spv")
		multiFix.frag = filepath.Join(fixture.dir, "oob_store.frag.spv")
		multiFix.app = filepath.Join(fixture.dir, "multi")
		if os.Getenv(EnvPrebuilt) != "" {
			return
		}
		if _, err := exec.LookPath("spirv-val"); err != nil {
			multiFix.err = fmt.Errorf("spirv-val not found: scripts/install-deps installs it")
			return
		}
		if out, err := exec.Command("cc", "-O2", "-Wall", "-Wextra", "-Werror", "-std=c11", "-o", multiFix.app,
			"testdata/multi.c", "-lvulkan", "-lpthread").CombinedOutput(); err != nil {
			multiFix.err = fmt.Errorf("build multi: %v\n%s", err, out)
			return
		}
		for _, s := range [][3]string{
			{"../examples/demo/shaders/oob_compute.comp", multiFix.comp, "vulkan1.1"},
			{"testdata/shaders/fullscreen.vert", multiFix.vert, "vulkan1.2"},
			{"testdata/shaders/oob_store.frag", multiFix.frag, "vulkan1.2"},
		} {
			if multiFix.err = compileShader(s[0], s[1], s[2]); multiFix.err != nil {
				return
			}
		}
	})
	if multiFix.err != nil {
		t.Fatal(multiFix.err)
	}
}

// runMulti runs one mode of multi under the layer.
func runMulti(t *testing.T, listen bool, env []string, mode string, args ...string) result {
	t.Helper()
	setupMulti(t)
	a := append([]string{"--mode", mode, "--comp", multiFix.comp, "--vert", multiFix.vert, "--frag", multiFix.frag}, args...)
	r := runApp(t, listen, env, multiFix.app, a...)
	if !strings.Contains(r.stdout, "multi: done") {
		t.Fatalf("multi did not finish:\n%s\n%s", r.stdout, r.stderr)
	}
	return r
}

// names maps debug-utils names to handles.
func names(r result) map[string]uint64 {
	m := map[string]uint64{}
	for _, n := range all[wire.Name](r) {
		m[n.Name] = n.Handle
	}
	return m
}

// checkDispatch checks an Errors message of one 4-invocation dispatch
// through outs[idx]: 4 records (one per invocation), count each times.
func checkDispatch(t *testing.T, e *wire.Errors, n map[string]uint64, cb string, submit uint64, action uint32,
	idx uint32, each int) {
	t.Helper()
	if e.CommandBuffer != n[cb] || e.Submit != submit || e.Queue != n["main-queue"] || e.Queue == 0 || e.Dropped != 0 ||
		len(e.Records) != 4 {
		t.Errorf("errors of %s: got cb %#x submit %d queue %#x dropped %d, %d records; want cb %#x submit %d queue %#x, 4 records",
			cb, e.CommandBuffer, e.Submit, e.Queue, e.Dropped, len(e.Records), n[cb], submit, n["main-queue"])
		return
	}
	xs := map[uint32]bool{}
	for _, rec := range e.Records {
		if rec.Check != gpuav.CheckDescriptorIndexOOB || rec.Action != "vkCmdDispatch" || rec.ActionIndex != action ||
			rec.Pipeline != n["oob-compute"] || !slices.Equal(rec.Labels, []string{"compute"}) ||
			!slices.Equal(rec.Params[:4], []uint32{0, 0, idx, 2}) || rec.Count != each || rec.Stage != gpuav.ModelGLCompute {
			t.Errorf("record of %s submit %d: %+v; want action %d, index %d, count %d", cb, submit, rec, action, idx, each)
		}
		xs[rec.StageWords[0]] = true
	}
	if len(xs) != 4 {
		t.Errorf("invocations %v, want 4 distinct", xs)
	}
}

func TestMultipleCommandBuffers(t *testing.T) {
	r := runMulti(t, true, nil, "multi-cb")
	n := names(r)
	errs := all[wire.Errors](r)
	if len(errs) != 3 {
		t.Fatalf("%d Errors messages, want 3: %s", len(errs), dump(r.msgs))
	}
	slices.SortFunc(errs, func(a, b *wire.Errors) int { return int(a.Records[0].Params[2]) - int(b.Records[0].Params[2]) })
	for i, e := range errs {
		checkDispatch(t, e, n, fmt.Sprintf("cmd-%d", i), 1, 0, uint32(2+i), 1)
	}
	if b := one[wire.Bye](t, r); b.Submits != 1 {
		t.Errorf("bye counts %d submits", b.Submits)
	}
}

func TestResubmission(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"fence", []string{"--submits", "5"}},
		{"no fence, vkQueueWaitIdle", []string{"--submits", "5", "--no-fence"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runMulti(t, true, nil, "resubmit", tc.args...)
			n := names(r)
			errs := all[wire.Errors](r)
			if len(errs) != 5 {
				t.Fatalf("%d Errors messages for 5 submits: %s", len(errs), dump(r.msgs))
			}
			for i, e := range errs {
				checkDispatch(t, e, n, "cmd-0", uint64(i+1), 0, 3, 1)
			}
			checkLatencyLog(t, r, 5)
		})
	}
}

// checkLatencyLog checks the info line with the submit-to-records latency.
func checkLatencyLog(t *testing.T, r result, submits int) {
	t.Helper()
	want := fmt.Sprintf("submit-to-records latency over %d instrumented submits: mean ", submits)
	for _, l := range all[wire.Log](r) {
		if l.Level == "info" && strings.HasPrefix(l.Text, want) {
			return
		}
	}
	t.Errorf("no latency line %q: %s", want, dump(r.msgs))
}

func TestSecondaryAttribution(t *testing.T) {
	r := runMulti(t, true, nil, "secondary")
	n := names(r)
	e := one[wire.Errors](t, r)
	// Action 0 of the secondary, which the primary ran after its own
	// action 0.
	checkDispatch(t, e, n, "cmd-secondary", 1, 0, 5, 1)
	if e.Primary != n["cmd-0"] || e.Primary == 0 || e.PrimaryAction != 1 {
		t.Errorf("primary %#x action %d; want cmd-0 %#x, action 1", e.Primary, e.PrimaryAction, n["cmd-0"])
	}
}

func TestSimultaneousUse(t *testing.T) {
	r := runMulti(t, true, nil, "simultaneous")
	n := names(r)
	// The first submission is still pending (a timeline semaphore holds
	// it) when the second comes: the second reports the records of both.
	e := one[wire.Errors](t, r)
	checkDispatch(t, e, n, "cmd-0", 2, 0, 3, 2)
}

func TestEightThreads(t *testing.T) {
	const threads, submits = 8, 5
	r := runMulti(t, true, nil, "threads", "--submits", strconv.Itoa(submits))
	n := names(r)
	errs := all[wire.Errors](r)
	if len(errs) != threads*submits {
		t.Fatalf("%d Errors messages, want %d", len(errs), threads*submits)
	}
	seen := map[uint64]bool{}
	per := map[uint64]int{}
	for _, e := range errs {
		seen[e.Submit] = true
		per[e.CommandBuffer]++
		th := -1
		for i := 0; i < threads; i++ {
			if n[fmt.Sprintf("thread-%d", i)] == e.CommandBuffer {
				th = i
			}
		}
		if th < 0 {
			t.Fatalf("errors of an unnamed command buffer %#x", e.CommandBuffer)
		}
		checkDispatch(t, e, n, fmt.Sprintf("thread-%d", th), e.Submit, 0, uint32(2+th), 1)
	}
	if len(seen) != threads*submits || len(per) != threads {
		t.Errorf("%d distinct submits, %d command buffers", len(seen), len(per))
	}
	for cb, c := range per {
		if c != submits {
			t.Errorf("command buffer %#x: %d Errors messages, want %d", cb, c, submits)
		}
	}
}

func TestRenderingAndDraws(t *testing.T) {
	r := runMulti(t, true, nil, "render")
	n := names(r)
	e := one[wire.Errors](t, r)
	if e.CommandBuffer != n["cmd-0"] || e.Submit != 1 || e.Queue != n["main-queue"] {
		t.Fatalf("errors: %+v", e)
	}
	want := []struct {
		action   string
		pipeline string
		labels   []string
	}{
		{"vkCmdDraw", "dyn-pipeline", []string{"frame", "dynamic"}},
		{"vkCmdDrawIndexed", "dyn-pipeline", []string{"frame", "dynamic"}},
		{"vkCmdDrawIndirect", "dyn-pipeline", []string{"frame", "dynamic"}},
		{"vkCmdDrawIndexedIndirect", "dyn-pipeline", []string{"frame", "dynamic"}},
		{"vkCmdDrawIndirectCount", "dyn-pipeline", []string{"frame", "dynamic"}},
		{"vkCmdDrawIndexedIndirectCount", "dyn-pipeline", []string{"frame", "dynamic"}},
		{"vkCmdDraw", "rp-pipeline", []string{"frame", "renderpass"}},
	}
	counts := make([]int, len(want))
	for _, rec := range e.Records {
		a := int(rec.ActionIndex)
		if a >= len(want) {
			t.Fatalf("record of action %d: %+v", a, rec)
		}
		w := want[a]
		if rec.Action != w.action || rec.Pipeline != n[w.pipeline] || !slices.Equal(rec.Labels, w.labels) ||
			rec.Stage != gpuav.ModelFragment || !slices.Equal(rec.Params[:4], []uint32{0, 0, uint32(2 + a), 2}) {
			t.Errorf("record of action %d: %+v; want %s with %s in %v, index %d", a, rec, w.action, w.pipeline, w.labels, 2+a)
		}
		counts[a] += rec.Count
	}
	for a, c := range counts {
		if c != 16 { // 4x4 fragments
			t.Errorf("action %d (%s): %d records, want 16", a, want[a].action, c)
		}
	}
}

func TestCleanRun(t *testing.T) {
	r := runMulti(t, true, nil, "clean")
	if e := all[wire.Errors](r); len(e) != 0 {
		t.Errorf("a clean app reported errors: %s", dump(r.msgs))
	}
	for _, l := range all[wire.Log](r) {
		if l.Level != "info" {
			t.Errorf("a clean app got a %s: %s", l.Level, l.Text)
		}
	}
	r = runMulti(t, false, nil, "clean")
	if r.stderr != "" {
		t.Errorf("a clean app without the launcher printed:\n%s", r.stderr)
	}
}

func TestDebugUtilsMessengers(t *testing.T) {
	// Messenger A comes from vkCreateInstance's pNext and hears of both
	// submits; B, created with vkCreateDebugUtilsMessengerEXT, is destroyed
	// after the first.
	for _, listen := range []bool{false, true} {
		t.Run(fmt.Sprintf("launcher=%v", listen), func(t *testing.T) {
			r := runMulti(t, listen, nil, "messenger")
			got := map[string]int{}
			for _, line := range strings.Split(r.stdout, "\n") {
				if !strings.HasPrefix(line, "callback ") {
					continue
				}
				who := line[len("callback ") : len("callback ")+1]
				prefix := "callback " + who + " severity=0x1000 id=VUID-vkCmdDispatch-None-10068 objects=3 name0=cmd-0: " +
					"Validation Error: [ VUID-vkCmdDispatch-None-10068 ] Object 0: handle = 0x"
				if !strings.HasPrefix(line, prefix) || !strings.Contains(line, "name = oob-compute, type = VK_OBJECT_TYPE_PIPELINE;") ||
					!strings.Contains(line, "name = main-queue, type = VK_OBJECT_TYPE_QUEUE;") ||
					!strings.Contains(line, "Index of 3 used to index descriptor array of length 2.") ||
					!strings.HasSuffix(line, "4 times") {
					t.Errorf("callback line:\n%s", line)
				}
				got[who]++
			}
			if got["A"] != 2 || got["B"] != 1 || len(got) != 2 {
				t.Errorf("callbacks: %v, want A twice and B once\n%s", got, r.stdout)
			}
			if strings.Contains(r.stderr, "gpuav-dbg") {
				t.Errorf("with a messenger, the layer printed to stderr:\n%s", r.stderr)
			}
			if listen && len(all[wire.Errors](r)) != 2 {
				t.Errorf("the launcher got %d Errors messages, want 2", len(all[wire.Errors](r)))
			}
		})
	}
}

func TestCreateDestroyLoop(t *testing.T) {
	const loops = 100
	r := runMulti(t, true, nil, "loop", "--loops", strconv.Itoa(loops))
	if d := all[wire.Device](r); len(d) != loops {
		t.Errorf("%d Device messages, want %d", len(d), loops)
	}
	if e := all[wire.Errors](r); len(e) != loops {
		t.Errorf("%d Errors messages, want %d", len(e), loops)
	}
	rss := map[string]int{}
	for _, line := range strings.Split(r.stdout, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && strings.HasPrefix(k, "rss_kb_") {
			rss[k], _ = strconv.Atoi(v)
		}
	}
	if rss["rss_kb_first"] == 0 || rss["rss_kb_mid"] == 0 || rss["rss_kb_last"] == 0 {
		t.Fatalf("no RSS figures:\n%s", r.stdout)
	}
	// The Go heap settles in the first half; in the second, a leak of one
	// output buffer (256 KiB) per device would add 12 MiB.
	if grow := rss["rss_kb_last"] - rss["rss_kb_mid"]; grow > 4096 {
		t.Errorf("RSS grew %d KiB over the last %d create/destroy loops (first %d, mid %d, last %d KiB)",
			grow, loops/2, rss["rss_kb_first"], rss["rss_kb_mid"], rss["rss_kb_last"])
	}
	t.Logf("RSS after loop 10: %d KiB, %d: %d KiB, %d: %d KiB", rss["rss_kb_first"], loops/2, rss["rss_kb_mid"], loops,
		rss["rss_kb_last"])
}

// benchFigures runs multi's bench mode (with the layer when layer) and
// returns the ns per vkCmdDraw and the µs from vkQueueSubmit to the return
// of vkWaitForFences.
func benchFigures(b *testing.B, layer bool, draws int) (nsPerDraw, usLatency float64) {
	b.Helper()
	args := []string{"--mode", "bench", "--comp", multiFix.comp, "--vert", multiFix.vert, "--frag", multiFix.frag,
		"--draws", strconv.Itoa(draws)}
	cmd := exec.Command(multiFix.app, args...)
	env := append(cleanEnv(), "XDG_RUNTIME_DIR="+b.TempDir())
	if layer {
		env = append(env, "VK_ADD_LAYER_PATH="+fixture.dir, "VK_INSTANCE_LAYERS="+layerName)
	}
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("multi bench: %v\n%s", err, out)
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
		b.Fatalf("no figures in:\n%s", out)
	}
	return nsPerDraw, usLatency
}

// BenchmarkDrawRecording measures what the layer adds to recording one
// vkCmdDraw of an instrumented pipeline (the best of 5 recordings of
// -draws N draws, with and without the layer), and to a submit-and-wait
// round trip of one in-bounds dispatch (the layer reads the records inside
// vkWaitForFences). Run it with -benchtime=1x: each iteration is a pair of
// app runs.
func BenchmarkDrawRecording(b *testing.B) {
	setupMulti(b)
	for _, draws := range []int{4000, 100000} {
		b.Run(fmt.Sprintf("draws=%d", draws), func(b *testing.B) {
			var with, without, latWith, latWithout float64
			for i := 0; i < b.N; i++ {
				w, lw := benchFigures(b, true, draws)
				n, ln := benchFigures(b, false, draws)
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
