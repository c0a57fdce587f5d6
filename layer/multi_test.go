package main

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
	"github.com/gpuav-dbg/gpuav-dbg/internal/referee"
	"github.com/gpuav-dbg/gpuav-dbg/options"
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
		push             string // push_runtime.comp: a runtime array (mode push)
		base             string // base_compute.comp: oob_compute's code in other bytes (--base-comp)
		reuse            string // reuse_compute.comp: mode reuse's shader (--reuse-comp)
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
		multiFix.push = filepath.Join(fixture.dir, "push_runtime.spv")
		multiFix.base = filepath.Join(fixture.dir, "base_compute.spv")
		multiFix.reuse = filepath.Join(fixture.dir, "reuse_compute.spv")
		if os.Getenv(EnvPrebuilt) != "" {
			return
		}
		if _, err := exec.LookPath("spirv-val"); err != nil {
			multiFix.err = fmt.Errorf("spirv-val not found: scripts/install-deps installs it")
			return
		}
		if multiFix.err = cbuild.App(multiFix.app, "layer/testdata/multi.c"); multiFix.err != nil {
			return
		}
		for _, s := range [][3]string{
			{"../examples/demo/shaders/oob_compute.comp", multiFix.comp, "vulkan1.1"},
			{"testdata/shaders/fullscreen.vert", multiFix.vert, "vulkan1.2"},
			{"testdata/shaders/oob_store.frag", multiFix.frag, "vulkan1.2"},
			{"testdata/shaders/push_runtime.comp", multiFix.push, "vulkan1.2"},
			{"testdata/shaders/base_compute.comp", multiFix.base, "vulkan1.1"},
			{"testdata/shaders/reuse_compute.comp", multiFix.reuse, "vulkan1.1"},
			// TestPrintfPipelineKinds' shaders.
			{"testdata/shaders/printf_compute.comp", filepath.Join(fixture.dir, "printf_compute.spv"), "vulkan1.1"},
			{"testdata/shaders/printf_fullscreen.vert", filepath.Join(fixture.dir, "printf_fullscreen.vert.spv"), "vulkan1.2"},
			{"testdata/shaders/printf_store.frag", filepath.Join(fixture.dir, "printf_store.frag.spv"), "vulkan1.2"},
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
	checkDispatchOn(t, e, n, cb, "main-queue", submit, action, idx, each)
}

// checkDispatchOn is checkDispatch for a command buffer submitted to the
// queue named queue.
func checkDispatchOn(t *testing.T, e *wire.Errors, n map[string]uint64, cb, queue string, submit uint64,
	action uint32, idx uint32, each int) {
	t.Helper()
	if e.CommandBuffer != n[cb] || e.CommandBuffer == 0 || e.Submit != submit || e.Queue != n[queue] || e.Queue == 0 ||
		e.Dropped != 0 || len(e.Records) != 4 {
		t.Errorf("errors of %s: got cb %#x submit %d queue %#x dropped %d, %d records; want cb %#x submit %d queue %s %#x, 4 records",
			cb, e.CommandBuffer, e.Submit, e.Queue, e.Dropped, len(e.Records), n[cb], submit, queue, n[queue])
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

// TestSeveralQueues: "cmd-a" (idx 3) on "queue-a" and "cmd-b" (idx 4) on
// "queue-b", submitted in that order; each command buffer's records carry
// its own queue, and submits are numbered across the device's queues
// (cmd-a's is 1, cmd-b's 2: the first H200 run caught a test that wanted
// 1 for both). A device
// with a single queue (lavapipe) makes multi print "unsupported queues":
// the test then checks with vulkaninfo that the device really has no
// second queue before it skips, and fails if it has one.
func TestSeveralQueues(t *testing.T) {
	setupMulti(t)
	r := runApp(t, true, nil, multiFix.app, "--mode", "queues", "--comp", multiFix.comp)
	if strings.Contains(r.stdout, "unsupported queues") {
		if r.exit != 0 {
			t.Fatalf("unsupported queues with exit %d, want 0:\n%s", r.exit, r.stderr)
		}
		reason, err := singleQueueDevice()
		if err != nil {
			t.Fatalf("multi printed unsupported queues: %v", err)
		}
		t.Skipf("device has a single usable queue: %s", reason)
	}
	if !strings.Contains(r.stdout, "multi: done") {
		t.Fatalf("multi did not finish:\n%s\n%s", r.stdout, r.stderr)
	}
	n := names(r)
	if n["queue-a"] == 0 || n["queue-b"] == 0 || n["queue-a"] == n["queue-b"] {
		t.Fatalf("queue names: queue-a %#x, queue-b %#x; want two distinct handles", n["queue-a"], n["queue-b"])
	}
	errs := all[wire.Errors](r)
	if len(errs) != 2 {
		t.Fatalf("%d Errors messages, want 2: %s", len(errs), dump(r.msgs))
	}
	slices.SortFunc(errs, func(a, b *wire.Errors) int { return int(a.Records[0].Params[2]) - int(b.Records[0].Params[2]) })
	checkDispatchOn(t, errs[0], n, "cmd-a", "queue-a", 1, 0, 3, 1)
	checkDispatchOn(t, errs[1], n, "cmd-b", "queue-b", 2, 0, 4, 1)
}

// singleQueueDevice checks with vulkaninfo that every device has at most
// one queue that a compute command buffer can go to: no compute family
// with queueCount >= 2 and at most one compute family. It returns what it
// found, or an error where a second queue exists or vulkaninfo cannot say
// (tolerated only on a prebuilt run, where vulkaninfo may be missing).
func singleQueueDevice() (string, error) {
	out, err := exec.Command("vulkaninfo").Output()
	if err != nil {
		if os.Getenv(EnvPrebuilt) != "" {
			return "vulkaninfo unavailable on a prebuilt run (" + err.Error() + ")", nil
		}
		return "", fmt.Errorf("vulkaninfo: %w (scripts/install-deps installs it)", err)
	}
	var families []string
	var count int
	compute := 0
	seen := false
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "queueProperties[0]"):
			compute = 0 // a new device
		case strings.HasPrefix(line, "queueCount"):
			c, err := strconv.Atoi(strings.TrimSpace(line[strings.IndexByte(line, '=')+1:]))
			if err != nil {
				return "", fmt.Errorf("vulkaninfo: bad line %q", line)
			}
			count = c
		case strings.HasPrefix(line, "queueFlags"):
			seen = true
			flags := strings.TrimSpace(line[strings.IndexByte(line, '=')+1:])
			families = append(families, fmt.Sprintf("queueCount = %d (%s)", count, flags))
			if !strings.Contains(flags, "QUEUE_COMPUTE") {
				continue
			}
			if compute++; count >= 2 || compute >= 2 {
				return "", fmt.Errorf("vulkaninfo shows a second compute queue: %s", strings.Join(families, "; "))
			}
		}
	}
	if !seen {
		return "", fmt.Errorf("vulkaninfo lists no queue families:\n%s", out)
	}
	return strings.Join(families, "; "), nil
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

// TestDebugUtilsMessengers: messenger A comes from vkCreateInstance's
// pNext: it hears only what happens during vkCreateInstance and
// vkDestroyInstance (the spec; its structure may be gone after), so none
// of the errors; B, created with vkCreateDebugUtilsMessengerEXT, hears the
// first submit's error and is destroyed before the second. With no
// messenger left and no launcher, the second error goes to stderr.
func TestDebugUtilsMessengers(t *testing.T) {
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
					!strings.Contains(line, "| descriptor_index_oob: (set = 0, binding = 0) Index of 3 used to index descriptor array of length 2. ") ||
					!strings.Contains(line, "; 4 invocations. Samples: (0,0,0) (1,0,0) (2,0,0) (3,0,0). ") {
					t.Errorf("callback line:\n%s", line)
				}
				got[who]++
			}
			if got["A"] != 0 || got["B"] != 1 || len(got) != 1 {
				t.Errorf("callbacks: %v, want B once (A only during vkCreateInstance and vkDestroyInstance)\n%s", got, r.stdout)
			}
			errs := strings.Count(r.stderr, "gpuav-dbg: ERROR descriptor_index_oob")
			if listen && errs != 0 || !listen && errs != 1 {
				t.Errorf("%d errors on stderr, want %d (the second submit's, with no messenger and no launcher):\n%s", errs,
					map[bool]int{false: 1, true: 0}[listen], r.stderr)
			}
			if listen && len(all[wire.Errors](r)) != 2 {
				t.Errorf("the launcher got %d Errors messages, want 2", len(all[wire.Errors](r)))
			}
		})
	}
}

// TestMessengerDeliveriesAsKhronos: the same app under the Khronos layer's
// GPU-assisted validation and under ours, without the launcher: each
// messenger receives the out-of-bounds error as many times from ours as
// from the Khronos layer (which calls a messenger of vkCreateInstance's
// pNext only during vkCreateInstance and vkDestroyInstance).
func TestMessengerDeliveriesAsKhronos(t *testing.T) {
	setupMulti(t)
	// The installed Khronos layer, or the one in KHRONOS_LAYER_PATH (the
	// hardware machines': scripts/hardware/env.sh).
	khronosDir, khronosEnv := "/usr/share/vulkan/explicit_layer.d", []string(nil)
	if dir := os.Getenv(referee.EnvLayerPath); dir != "" {
		khronosDir, khronosEnv = dir, []string{"VK_ADD_LAYER_PATH=" + dir}
	}
	if _, err := os.Stat(filepath.Join(khronosDir, "VkLayer_khronos_validation.json")); err != nil {
		t.Fatalf("the Khronos validation layer is not installed (scripts/install-deps): %v", err)
	}
	count := func(out string) map[string]int {
		got := map[string]int{}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "callback ") && strings.Contains(line, " severity=0x1000 ") &&
				strings.Contains(line, "Index of 3 used to index descriptor array of length 2") {
				got[line[len("callback "):len("callback ")+1]]++
			}
		}
		return got
	}
	cmd := exec.Command(multiFix.app, "--mode", "messenger", "--comp", multiFix.comp)
	cmd.Env = append(append(cleanEnv(), khronosEnv...), "XDG_RUNTIME_DIR="+t.TempDir(), "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation",
		"VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("multi under the Khronos layer: %v\n%s", err, out)
	}
	theirs := count(string(out))
	if theirs["B"] == 0 {
		t.Fatalf("the Khronos layer delivered no error to messenger B: the reference must catch it\n%s", out)
	}
	ours := count(runMulti(t, false, nil, "messenger").stdout)
	if !maps.Equal(ours, theirs) {
		t.Errorf("deliveries per messenger: ours %v, the Khronos layer's %v\n%s", ours, theirs, out)
	}
}

// TestLayerStatusNotErrors: the layer's own lines (a device with every
// check off, records that did not fit, a shader left out) reach the app's
// messengers at WARNING severity at most: ERROR is the app's validation
// errors', and an app that stops on those must not stop over a setting.
func TestLayerStatusNotErrors(t *testing.T) {
	withLock(func() {
		saved := state.outbox
		defer func() { state.outbox = saved }()
		state.outbox = nil
		for _, level := range []int{levelInfo, levelWarning, levelError} {
			queueLogLocked(level, "device llvmpipe: instrumentation is off: every check is off")
		}
		want := []uint32{sevInfo, sevWarning, sevWarning}
		for i, m := range state.outbox {
			if m.severity != want[i] || strings.HasPrefix(m.text, "Validation Error") {
				t.Errorf("level %d: severity 0x%x, text %q; want 0x%x, not an error", i, m.severity, m.text, want[i])
			}
		}
	})
}

// TestCreateDestroyLoop: 100 instance+device create/destroy cycles under
// the layer with steady memory, file descriptors and threads. Some drivers
// cannot do 100 in one process even without a layer (NVIDIA 580: the
// loader reloads the ICD each time and libnvidia-tls runs out of static TLS
// after about 30): the loop first runs without the layer, and the layered
// run does as many cycles as the driver alone managed less one (the
// layer's library uses static TLS itself; at least 20).
func TestCreateDestroyLoop(t *testing.T) {
	loops := 100
	setupMulti(t)
	plain := exec.Command(multiFix.app, "--comp", multiFix.comp, "--mode", "loop", "--loops", strconv.Itoa(loops))
	plain.Env = append(cleanEnv(), "XDG_RUNTIME_DIR="+t.TempDir())
	if out, err := plain.CombinedOutput(); err != nil {
		var failed int
		for _, l := range strings.Split(string(out), "\n") {
			if _, e := fmt.Sscanf(l, "multi: loop %d:", &failed); e == nil {
				break
			}
		}
		if failed <= 20 {
			t.Fatalf("without the layer the driver fails the create/destroy loop at %d: %v\n%s", failed, err, out)
		}
		// The layer's own library (the Go runtime's TLS) takes static TLS
		// too, so the driver gets one reload fewer under it.
		loops = failed - 2
		t.Logf("without the layer the driver fails at loop %d; running %d loops under the layer", failed, loops)
	}
	r := runMulti(t, true, nil, "loop", "--loops", strconv.Itoa(loops))
	if d := all[wire.Device](r); len(d) != loops {
		t.Errorf("%d Device messages, want %d", len(d), loops)
	}
	if e := all[wire.Errors](r); len(e) != loops {
		t.Errorf("%d Errors messages, want %d", len(e), loops)
	}
	figures := func(out string) map[string]int {
		m := map[string]int{}
		for _, line := range strings.Split(out, "\n") {
			if k, v, ok := strings.Cut(line, "="); ok && (strings.HasPrefix(k, "rss_kb_") ||
				strings.HasPrefix(k, "fds_") || strings.HasPrefix(k, "threads_")) {
				m[k], _ = strconv.Atoi(v)
			}
		}
		return m
	}
	rss := figures(r.stdout)
	// A driver that reloads itself per instance (NVIDIA 580) may grow by
	// itself: what counts is the layer's growth beyond the driver's own
	// over the same loops.
	driverGrowth := 0
	if loops < 100 {
		plain := exec.Command(multiFix.app, "--comp", multiFix.comp, "--mode", "loop", "--loops", strconv.Itoa(loops))
		plain.Env = append(cleanEnv(), "XDG_RUNTIME_DIR="+t.TempDir())
		out, err := plain.Output()
		p := figures(string(out))
		if err != nil || p["rss_kb_mid"] == 0 || p["rss_kb_last"] == 0 {
			t.Fatalf("without the layer, %d loops: %v\n%s", loops, err, out)
		}
		driverGrowth = max(p["rss_kb_last"]-p["rss_kb_mid"], 0)
		t.Logf("without the layer RSS grew %d KiB over the last %d loops", driverGrowth, loops/2)
	}
	// Nothing per instance or device may stay open: a file descriptor
	// kept per loop (a launcher socket, a driver file) would exhaust the
	// process's limit, one suspect of vkCreateInstance failing after a
	// number of loops on the NVIDIA driver.
	if rss["fds_first"] <= 0 || rss["fds_last"] != rss["fds_mid"] || rss["fds_mid"] != rss["fds_first"] {
		t.Errorf("open fds after loop 10, %d and %d: %d, %d, %d; want the same, > 0", loops/2, loops,
			rss["fds_first"], rss["fds_mid"], rss["fds_last"])
	}
	if rss["threads_last"] > rss["threads_mid"]+2 {
		t.Errorf("threads grew from %d to %d over the last %d loops", rss["threads_mid"], rss["threads_last"], loops/2)
	}
	if rss["rss_kb_first"] == 0 || rss["rss_kb_mid"] == 0 || rss["rss_kb_last"] == 0 {
		t.Fatalf("no RSS figures:\n%s", r.stdout)
	}
	// The Go heap settles in the first half; in the second, a leak of one
	// output buffer (256 KiB) per device would add 12 MiB.
	if grow := rss["rss_kb_last"] - rss["rss_kb_mid"]; grow-driverGrowth > 4096 {
		t.Errorf("RSS grew %d KiB over the last %d create/destroy loops (first %d, mid %d, last %d KiB; the driver alone %d KiB)",
			grow, loops/2, rss["rss_kb_first"], rss["rss_kb_mid"], rss["rss_kb_last"], driverGrowth)
	}
	t.Logf("RSS after loop 10: %d KiB, %d: %d KiB, %d: %d KiB", rss["rss_kb_first"], loops/2, rss["rss_kb_mid"], loops,
		rss["rss_kb_last"])
}

// TestAppSettings: VK_EXT_layer_settings and VkValidationFeaturesEXT from
// the app's vkCreateInstance, and their precedence below the environment.
// multi's appsettings mode dispatches idx 3 (a descriptor_index_oob, 4
// invocations) and prints the maxBoundDescriptorSets it sees (8 on
// lavapipe, 7 with reserve-slot).
func TestAppSettings(t *testing.T) {
	for _, tc := range []struct {
		name       string
		env, args  []string
		records    int // descriptor_index_oob records of cmd-0
		maxSets    int // 0: the device's
		instrument bool
	}{
		{"none", nil, nil, 4, 0, true},
		{"check off", nil, []string{"--app-setting", "check_descriptor_index_oob=0"}, 0, 0, true},
		{"check off, env on", []string{CheckEnv(gpuav.CheckDescriptorIndexOOB) + "=1"},
			[]string{"--app-setting", "check_descriptor_index_oob=0"}, 4, 0, true},
		{"reserve slot", nil, []string{"--app-setting", "reserve_slot=1"}, 4, -1, true},
		{"disable shaders", nil, []string{"--disable-shaders"}, 0, 0, false},
		{"disable shaders, app turns one on", nil,
			[]string{"--disable-shaders", "--app-setting", "check_descriptor_index_oob=1"}, 4, 0, true},
		{"disable shaders, env on", []string{CheckEnv(gpuav.CheckDescriptorIndexOOB) + "=1"},
			[]string{"--disable-shaders"}, 4, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runMulti(t, true, tc.env, "appsettings", tc.args...)
			d := one[wire.Device](t, r)
			if d.Instrumenting != tc.instrument {
				t.Errorf("instrumenting %v (%s), want %v", d.Instrumenting, d.Reason, tc.instrument)
			}
			want := int(d.MaxBoundDescriptorSets) + tc.maxSets
			if got := appMaxSets(t, r); got != want || got <= 0 {
				t.Errorf("the app sees maxBoundDescriptorSets %d, want %d", got, want)
			}
			if h := one[wire.Hello](t, r); h.Settings.ReserveSlot != (tc.maxSets != 0) {
				t.Errorf("hello reserve_slot %v", h.Settings.ReserveSlot)
			}
			n := 0
			for _, e := range all[wire.Errors](r) {
				for _, rec := range e.Records {
					if rec.Check != gpuav.CheckDescriptorIndexOOB || rec.Params[2] != 3 || rec.ActionIndex != 0 {
						t.Errorf("record %+v", rec)
					}
					n++
				}
			}
			if n != tc.records {
				t.Errorf("%d records, want %d: %s", n, tc.records, dump(r.msgs))
			}
		})
	}
}

// TestAppSettingsWarnings: a setting of an unknown key or a type the
// layer does not read is one warning naming it; the others still apply.
func TestAppSettingsWarnings(t *testing.T) {
	got, w := ParseAppSettings("check_descriptor_index_oob=0\nreserve_slot=1\nno_such=1\nrobust!type 5 is not a boolean\nsocket=/x\nsafe_mode=1\n")
	if got[CheckEnv(gpuav.CheckDescriptorIndexOOB)].value != "0" || got[options.ReserveSlot.Env].value != "1" || len(got) != 2 {
		t.Errorf("settings %v", got)
	}
	want := []string{
		`VkLayerSettingsCreateInfoEXT: unknown setting "no_such": ignored`,
		`VkLayerSettingsCreateInfoEXT "robust": type 5 is not a boolean: ignored`,
		`VkLayerSettingsCreateInfoEXT: unknown setting "socket": ignored`,
		`VkLayerSettingsCreateInfoEXT: setting "safe_mode" is gone (it never changed anything): ignored; ` +
			`VK_LAYER_GPUAV_DBG_ON_ERROR=skip|clamp|execute (key on_error) says what a failed access does`,
	}
	if !slices.Equal(w, want) {
		t.Errorf("warnings:\n%q\nwant\n%q", w, want)
	}
	// Precedence: environment > app > file; the app's disable sits at the
	// app's level.
	file := map[string]fileSetting{options.ReserveSlot.Env: {"1", "file"}, CheckEnv(gpuav.CheckBufferOOB): {"1", "file"}}
	env := map[string]string{CheckEnv(gpuav.CheckBDAOOB): "1"}
	s, _ := ResolveSettings(func(k string) string { return env[k] }, file, AppSettings{
		Values:         map[string]fileSetting{options.ReserveSlot.Env: {"0", "app"}, CheckEnv(gpuav.CheckTexelBufferOOB): {"1", "app"}},
		DisableShaders: true,
	})
	if s.ReserveSlot || s.Checks[gpuav.CheckBufferOOB] || !s.Checks[gpuav.CheckTexelBufferOOB] || !s.Checks[gpuav.CheckBDAOOB] ||
		s.Checks[gpuav.CheckDescriptorIndexOOB] {
		t.Errorf("resolved %+v", s)
	}
}

// TestPushDescriptorEntryPoints: the Vulkan 1.4 and VK_KHR_maintenance6
// forms of push descriptors and descriptor binds describe the set
// (binding 2) like vkCmdPushDescriptorSetKHR: multi's push mode makes one
// descriptor_uninitialized per action that only a layer following that
// entry point reports (see mode_push).
func TestPushDescriptorEntryPoints(t *testing.T) {
	setupMulti(t)
	r := runMulti(t, true, nil, "push", "--comp", multiFix.push)
	n := names(r)
	errs := all[wire.Errors](r)
	if len(errs) != 1 || errs[0].CommandBuffer != n["cmd-0"] {
		t.Fatalf("%d Errors messages, want 1 of cmd-0: %s", len(errs), dump(r.msgs))
	}
	per := map[uint32]int{}
	for _, rec := range errs[0].Records {
		a := rec.ActionIndex
		pipe := n["push-compute"]
		if a >= 7 {
			pipe = n["oob-compute"]
		}
		if rec.Check != gpuav.CheckDescriptorUninit || rec.Params[0] != 0 || rec.Params[1] != 0 || rec.Params[2] != 1-a%2 ||
			rec.Pipeline != pipe || rec.Action != "vkCmdDispatch" {
			t.Errorf("action %d: record %+v; want descriptor_uninitialized of element %d", a, rec, 1-a%2)
		}
		per[a] += rec.Count
	}
	for a := uint32(0); a < 9; a++ {
		if per[a] != 4 {
			t.Errorf("action %d: %d invocations reported, want 4", a, per[a])
		}
	}
	if len(per) != 9 {
		t.Errorf("actions %v, want 0..8", per)
	}
}

// TestGraphicsPipelineLibrary: shaders given to graphics pipeline
// libraries (VK_EXT_graphics_pipeline_library) are instrumented, and the
// pipeline linked from them binds the layer's set: multi's gpl mode links
// four libraries and draws with idx 3 through the fragment library's
// shader ("gpl-frag"); 16 fragments, one descriptor_index_oob each.
func TestGraphicsPipelineLibrary(t *testing.T) {
	r := runMulti(t, true, nil, "gpl")
	n := names(r)
	var frag *wire.Shader
	for _, s := range all[wire.Shader](r) {
		if s.Module == n["gpl-frag"] {
			frag = s
		}
	}
	if frag == nil || !frag.Instrumented || n["gpl-frag"] == 0 {
		t.Fatalf("the fragment library's module: %+v (names %v)", frag, n)
	}
	// The linked pipeline's message lists its libraries' stages.
	linked := false
	for _, p := range all[wire.Pipeline](r) {
		if p.Handle != n["gpl-pipeline"] {
			continue
		}
		linked = p.BindPoint == "graphics" && p.Instrumented && len(p.Stages) == 2 &&
			p.Stages[0].Stage == "vertex" && p.Stages[0].Module == n["gpl-vert"] && p.Stages[0].ShaderID != 0 &&
			p.Stages[1].Stage == "fragment" && p.Stages[1].Module == n["gpl-frag"] && p.Stages[1].ShaderID == frag.ID
	}
	if !linked {
		t.Errorf("no instrumented graphics Pipeline message for gpl-pipeline with the vertex and fragment stages of its libraries: %s",
			dump(r.msgs))
	}
	e := one[wire.Errors](t, r)
	if e.CommandBuffer != n["cmd-0"] || e.Submit != 1 || e.Queue != n["main-queue"] || e.Dropped != 0 {
		t.Fatalf("errors: %+v", e)
	}
	total := 0
	for _, rec := range e.Records {
		if rec.Check != gpuav.CheckDescriptorIndexOOB || rec.Action != "vkCmdDraw" || rec.ActionIndex != 0 ||
			rec.Pipeline != n["gpl-pipeline"] || rec.ShaderID != frag.ID || rec.Stage != gpuav.ModelFragment ||
			!slices.Equal(rec.Labels, []string{"frame"}) || !slices.Equal(rec.Params[:4], []uint32{0, 0, 3, 2}) {
			t.Errorf("record %+v; want descriptor_index_oob of index 3 in gpl-frag, action 0", rec)
		}
		total += rec.Count
	}
	if total != 16 {
		t.Errorf("%d fragments reported, want 16 (4x4)", total)
	}
}

// TestDispatchCommands: every dispatch command is attributed to its own
// action, with the command's name and the pipeline bound for it, and the
// records carry the exact global invocation ids: vkCmdDispatchBase with
// base group 1,0,0 offsets gl_GlobalInvocationID.x by one workgroup (4),
// vkCmdDispatchIndirect reads its 2,1,1 groups at the given offset.
// multi's dispatches mode: see mode_dispatches.
//
// "base-compute" is made from base_compute.spv, oob_compute's code in bytes
// of its own: the NVIDIA driver finds compute shaders in its cache by their
// SPIR-V alone, so a based pipeline from bytes it compiled before without
// VK_PIPELINE_CREATE_DISPATCH_BASE_BIT ignores the base (x 0..3; see
// TestDispatchBaseUnchanged and docs/HARDWARE.md). This test is about the
// layer, not that driver bug.
func TestDispatchCommands(t *testing.T) {
	setupMulti(t)
	r := runMulti(t, true, nil, "dispatches", "--base-comp", multiFix.base)
	n := names(r)
	e := one[wire.Errors](t, r)
	if e.CommandBuffer != n["cmd-0"] || e.CommandBuffer == 0 || e.Submit != 1 || e.Queue != n["main-queue"] ||
		e.Dropped != 0 {
		t.Fatalf("errors: %+v; want cmd-0 %#x, submit 1", e, n["cmd-0"])
	}
	want := []struct {
		action   string
		pipeline string
		idx      uint32
		xs       []uint32 // gl_GlobalInvocationID.x, ascending
	}{
		{"vkCmdDispatch", "oob-compute", 2, []uint32{0, 1, 2, 3}},
		{"vkCmdDispatchIndirect", "oob-compute", 3, []uint32{0, 1, 2, 3, 4, 5, 6, 7}},
		{"vkCmdDispatchBase", "base-compute", 4, []uint32{4, 5, 6, 7}},
	}
	if n["base-compute"] == 0 || n["base-compute"] == n["oob-compute"] {
		t.Fatalf("pipelines: %v", n)
	}
	got := make([][]uint32, len(want))
	for _, rec := range e.Records {
		a := int(rec.ActionIndex)
		if a >= len(want) {
			t.Fatalf("record of action %d: %+v", a, rec)
		}
		w := want[a]
		if rec.Check != gpuav.CheckDescriptorIndexOOB || rec.Action != w.action || rec.Pipeline != n[w.pipeline] ||
			rec.Stage != gpuav.ModelGLCompute || !slices.Equal(rec.Labels, []string{"compute"}) ||
			!slices.Equal(rec.Params[:4], []uint32{0, 0, w.idx, 2}) || rec.StageWords[1] != 0 || rec.StageWords[2] != 0 {
			t.Errorf("record of action %d: %+v; want %s with %s, index %d", a, rec, w.action, w.pipeline, w.idx)
		}
		for k := 0; k < rec.Count; k++ {
			got[a] = append(got[a], rec.StageWords[0])
		}
	}
	for a, w := range want {
		slices.Sort(got[a])
		if !slices.Equal(got[a], w.xs) {
			t.Errorf("action %d (%s): invocations x %v, want %v", a, w.action, got[a], w.xs)
		}
	}
}

// TestDispatchBaseUnchanged: what the app's own shader computes is the
// same with and without the layer. multi's dispatches-readback mode runs
// the dispatch commands in bounds and prints the storage buffer elements
// each wrote: vkCmdDispatchBase with base group 1,0,0 writes elements 4..7,
// alone and after a vkCmdDispatch and a vkCmdDispatchIndirect of 2 groups
// (0..7 of the other buffer). In bounds, so the layer reports nothing.
func TestDispatchBaseUnchanged(t *testing.T) {
	setupMulti(t)
	const want = "base_alone: 4 5 6 7\nbase_after_indirect: 4 5 6 7\ndispatch_and_indirect: 0 1 2 3 4 5 6 7\n"
	written := func(out string) string {
		var b strings.Builder
		for _, line := range strings.SplitAfter(out, "\n") {
			if strings.HasPrefix(line, "base_") || strings.HasPrefix(line, "dispatch_") {
				b.WriteString(line)
			}
		}
		return b.String()
	}
	args := []string{"--mode", "dispatches-readback", "--base-comp", multiFix.base}
	if got := written(runPlain(t, args...)); got != want {
		t.Errorf("without the layer:\n%swant\n%s", got, want)
	}
	r := runMulti(t, true, nil, "dispatches-readback", "--base-comp", multiFix.base)
	if got := written(r.stdout); got != want {
		t.Errorf("with the layer:\n%swant\n%s", got, want)
	}
	if e := all[wire.Errors](r); len(e) != 0 {
		t.Errorf("in-bounds dispatches reported errors: %s", dump(r.msgs))
	}
}

// TestActionSlotsInChunks: multi slots reads out of bounds in actions 63,
// 64 and 130 of 200 on one command buffer. The layer makes its sets for
// action slots 64 at a time; each record names its own action (the last of
// the first 64 sets, the first of the second, one inside the third).
func TestActionSlotsInChunks(t *testing.T) {
	r := runMulti(t, true, nil, "slots")
	n := names(r)
	e := one[wire.Errors](t, r)
	if e.CommandBuffer != n["cmd-0"] || e.Dropped != 0 {
		t.Fatalf("errors: cb %#x dropped %d; want cmd-0 %#x, none dropped", e.CommandBuffer, e.Dropped, n["cmd-0"])
	}
	got := map[uint32]int{}
	for _, rec := range e.Records {
		if rec.Check != gpuav.CheckDescriptorIndexOOB || rec.Action != "vkCmdDispatch" || rec.Pipeline != n["oob-compute"] ||
			!slices.Equal(rec.Params[:4], []uint32{0, 0, 4, 2}) {
			t.Errorf("record %+v; want a vkCmdDispatch of oob-compute, index 4 of 2", rec)
		}
		got[rec.ActionIndex] += rec.Count
	}
	if want := map[uint32]int{63: 4, 64: 4, 130: 4}; !maps.Equal(got, want) {
		t.Errorf("records per action %v, want %v", got, want)
	}
}

// TestRebindPastLastSlot: 4100 in-bounds dispatches, each after the app
// binds set 0 again with the pipeline's layout (past action 4095 these
// binds leave the layer's set in place, so the layer binds nothing more),
// then set 0 bound with a layout not compatible for set 0, which disturbs
// the layer's set, set 0 bound again, and a dispatch with idx 4. Its four
// records come in one Errors message, attributed to the last action slot
// (4095) with the pipeline, label and index. lavapipe leaves disturbed sets
// bound, so there a missing bind after the incompatible one would still
// pass; on a driver that drops disturbed sets it would not.
func TestRebindPastLastSlot(t *testing.T) {
	r := runMulti(t, true, nil, "rebind")
	n := names(r)
	e := one[wire.Errors](t, r)
	if e.CommandBuffer != n["cmd-0"] || e.Submit != 1 || e.Dropped != 0 || len(e.Records) != 4 {
		t.Fatalf("errors: cb %#x submit %d dropped %d, %d records; want cmd-0 %#x, submit 1, 4 records",
			e.CommandBuffer, e.Submit, e.Dropped, len(e.Records), n["cmd-0"])
	}
	xs := map[uint32]bool{}
	for _, rec := range e.Records {
		if rec.Check != gpuav.CheckDescriptorIndexOOB || rec.ActionIndex != 4095 || rec.Action != "vkCmdDispatch" ||
			rec.Pipeline != n["oob-compute"] || !slices.Equal(rec.Labels, []string{"compute"}) ||
			!slices.Equal(rec.Params[:4], []uint32{0, 0, 4, 2}) || rec.Count != 1 {
			t.Errorf("record %+v; want action 4095 of oob-compute, index 4 of 2", rec)
		}
		xs[rec.StageWords[0]] = true
	}
	if len(xs) != 4 {
		t.Errorf("invocations %v, want 4 distinct", xs)
	}
}
