package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
)

// The tests of this file hold the layer to "never hang, never lose" with
// testdata/hang/hangapp.c: a forked child that exits, a submit the app
// never waited for, a GPU that hangs or is lost.

// hangBuild is the built hangapp and its shaders, once per test binary.
var hangBuild = sync.OnceValues(func() (string, error) {
	if p := os.Getenv(envPrebuilt); p != "" {
		return filepath.Join(p, "hangapp"), nil
	}
	dir, err := os.MkdirTemp("", "gpuav-hangapp")
	if err != nil {
		return "", err
	}
	return dir, buildHangApp(dir)
})

// buildHangApp builds hangapp and its shaders into dir.
func buildHangApp(dir string) error {
	src := filepath.Join(root, "e2e", "testdata", "hang")
	for _, s := range []string{"oob", "oob_child", "spin"} {
		cmd := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.2", "-o", filepath.Join(dir, s+".spv"), s+".comp")
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("glslangValidator %s.comp: %w\n%s", s, err, out)
		}
	}
	if err := cbuild.App(filepath.Join(dir, "hangapp"), filepath.Join(src, "hangapp.c")); err != nil {
		return err
	}
	// The test layer that loses the device, with its manifest.
	args := append(append([]string{}, cbuild.Flags...), "-shared", "-fPIC", "-fvisibility=hidden", "-o",
		filepath.Join(dir, "libVkLayer_gpuavdbg_test_lost.so"), filepath.Join(src, "lostlayer.c"))
	if out, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("build lostlayer.c: %w\n%s", err, out)
	}
	return os.WriteFile(filepath.Join(dir, "VkLayer_gpuavdbg_test_lost.json"), []byte(`{"file_format_version": "1.1.0",
 "layer": {"name": "`+lostLayer+`", "type": "GLOBAL", "library_path": "./libVkLayer_gpuavdbg_test_lost.so",
 "api_version": "1.4.0", "implementation_version": "1", "description": "gpuav-dbg test: a lost device",
 "device_extensions": [{"name": "VK_EXT_device_fault", "spec_version": "2", "entrypoints": ["vkGetDeviceFaultInfoEXT"]}]}}
`), 0o644)
}

// lostLayer is the test layer that loses the device (testdata/hang/lostlayer.c).
const lostLayer = "VK_LAYER_GPUAVDBG_test_lost"

// hangApp returns the app's path and its directory (the --dir argument).
func hangApp(t *testing.T) (app, dir string) {
	t.Helper()
	dir, err := hangBuild()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "hangapp"), dir
}

// hangReport is the part of the JSON report these tests read.
type hangReport struct {
	trustReport
	Errors []struct {
		Check         string `json:"check"`
		Count         int    `json:"count"`
		ActionIndex   int    `json:"action_index"`
		CommandBuffer struct {
			Name string `json:"name"`
		} `json:"command_buffer"`
		Source struct {
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"source"`
	} `json:"errors"`
}

// groups lists the report's groups as "NAME: COUNT" (sorted).
func (r *hangReport) groups() []string {
	var g []string
	for _, e := range r.Errors {
		g = append(g, fmt.Sprintf("%s: %d", e.CommandBuffer.Name, e.Count))
	}
	slices.Sort(g)
	return g
}

var childLine = regexp.MustCompile(`(?m)^child=(-?\d+|hung) ms=(\d+)$`)

// TestForkedChildExits: an app forks while the layer's connection is open
// and the child exits: by exit() (which runs the parent's atexit handlers,
// the layer's among them), by _exit(), by exec of a Vulkan app (a new
// process: its own layer and connection), or after making an instance and
// a device of its own (fork without exec: the layer cannot run its Go half
// there, so the child's Vulkan goes unvalidated, and it says so). The
// child ends in well under a second (under the layer's exit handler it
// parked forever in the Go runtime, and the parent waiting on it too), the
// parent's records before and after the fork are there, and the parent's
// connection ends with its own bye (no stream cut: the child wrote nothing
// into it).
func TestForkedChildExits(t *testing.T) {
	app, dir := hangApp(t)
	for _, c := range []struct {
		child  string
		status string
		groups []string
	}{
		{"exit", "1", []string{"after: 4", "parent: 4"}},
		{"_exit", "1", []string{"after: 4", "parent: 4"}},
		{"exec", "0", []string{"after: 4", "child: 4", "parent: 4"}},
		{"vulkan", "0", []string{"after: 4", "parent: 4"}},
	} {
		t.Run(c.child, func(t *testing.T) {
			var r hangReport
			// Lavapipe's own exit handler (Mesa's util_queue, which joins
			// its queues' threads) can hang in a forked child: it
			// broadcasts a condition variable its parent's threads waited
			// on (gdb: __run_exit_handlers → libvulkan_lvp.so →
			// pthread_cond_broadcast), layer or not. No shader disk cache
			// and no rasterizer threads leave it no such queue; the layer's
			// exit handler, which this test is about, runs either way.
			env := []string{"MESA_SHADER_CACHE_DISABLE=true", "LP_NUM_THREADS=0"}
			// The app without the layer first: a driver whose own exit
			// handler crashes in a forked child (NVIDIA 580: the child
			// of exit() and the one making its own device die of SIGSEGV,
			// and the parent's next dispatch writes nothing) cannot show
			// what the layer does there.
			plain := exec.Command(app, "--dir", dir, "--mode", "fork", "--child", c.child)
			plain.Env = append(os.Environ(), env...)
			pout, _ := plain.CombinedOutput()
			if m := childLine.FindStringSubmatch(string(pout)); m == nil || m[1] != c.status {
				t.Skipf("without the layer the child ends %q, not %s: the driver's, not the layer's\n%s", m, c.status, pout)
			}
			code, out := runLauncher(t, &r, env, nil, app, "--dir", dir, "--mode", "fork", "--child", c.child)
			m := childLine.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no child= line\n%s", out)
			}
			ms, _ := strconv.Atoi(m[2])
			if m[1] != c.status || ms >= 1000 {
				t.Errorf("child exited %s after %d ms; want %s in well under a second\n%s", m[1], ms, c.status, out)
			}
			if g := r.groups(); code != 1 || !slices.Equal(g, c.groups) || r.StreamsCut != 0 || len(r.Unchecked) != 0 {
				t.Errorf("exit %d, groups %q, %d streams cut, unchecked %+v; want exit 1, groups %q, none cut or unchecked\n%s",
					code, g, r.StreamsCut, r.Unchecked, c.groups, out)
			}
			if c.child == "exec" {
				for _, e := range r.Errors {
					if e.CommandBuffer.Name == "child" && e.ActionIndex != 0 {
						t.Errorf("the child's group is at action %d", e.ActionIndex)
					}
				}
			}
			if c.child == "vulkan" {
				if !regexp.MustCompile(`forked: done`).MatchString(out) ||
					!regexp.MustCompile(`process \d+ was forked without exec: its Vulkan calls are not validated`).MatchString(out) {
					t.Errorf("the forked child's own Vulkan did not run, or was not said to be unvalidated\n%s", out)
				}
			}
		})
	}
}

// TestUnwaitedSubmitIsRead: an app submits without a fence and exits half
// a second later, never waiting. The layer reads the submit at the exit
// (a bounded wait): its 4 records are reported (they were lost: "no
// validation errors", exit 0). A submit still running when the wait ends
// (a dispatch of about 8 s after the out-of-bounds one) is an unchecked
// entry with its count, exit 4: never a silent pass.
func TestUnwaitedSubmitIsRead(t *testing.T) {
	app, dir := hangApp(t)
	t.Run("finished", func(t *testing.T) {
		var r hangReport
		code, out := runLauncher(t, &r, nil, nil, app, "--dir", dir, "--mode", "nofence", "--sleep-ms", "500")
		if g := r.groups(); code != 1 || !slices.Equal(g, []string{"nofence: 4"}) || len(r.Unchecked) != 0 {
			t.Fatalf("exit %d, groups %q, unchecked %+v; want exit 1, nofence: 4, nothing unchecked\n%s", code, g, r.Unchecked, out)
		}
	})
	t.Run("running", func(t *testing.T) {
		var r hangReport
		code, out := runLauncher(t, &r, nil, nil, app, "--dir", dir, "--mode", "nofence", "--oob", "0",
			"--spin-seconds", "8", "--sleep-ms", "100")
		want := "1 submit had not finished when the app exited (the layer waited 1.5 s for it): its records were not read"
		if code != 4 || len(r.Errors) != 0 || len(r.Unchecked) != 1 || r.Unchecked[0].Kind != "records" ||
			r.Unchecked[0].Reason != want {
			t.Fatalf("exit %d, %d groups, unchecked %+v; want exit 4, no group, unchecked records: %q\n%s",
				code, len(r.Errors), r.Unchecked, want, out)
		}
	})
}

// hangJSON is the report's hangs (docs/REPORT.md).
type hangJSON struct {
	Hangs []struct {
		Reason          string  `json:"reason"`
		Call            string  `json:"call"`
		WatchdogSeconds float64 `json:"watchdog_seconds"`
		Granularity     string  `json:"granularity"`
		Finished        bool    `json:"finished"`
		Seconds         float64 `json:"seconds"`
		Submits         []struct {
			Queue struct {
				Handle string `json:"handle"`
			} `json:"queue"`
			Submit         uint64  `json:"submit"`
			PendingSeconds float64 `json:"pending_seconds"`
			Finished       bool    `json:"finished"`
			Seconds        float64 `json:"seconds"`
			CommandBuffers []struct {
				CommandBuffer struct {
					Name string `json:"name"`
				} `json:"command_buffer"`
				Actions     uint32 `json:"actions"`
				Markers     bool   `json:"markers"`
				Completed   uint32 `json:"completed"`
				RunningFrom uint32 `json:"running_from"`
				RunningTo   uint32 `json:"running_to"`
				Region      bool   `json:"region"`
				Summary     string `json:"summary"`
				Records     int    `json:"records"`
				Shown       []struct {
					Index   uint32   `json:"index"`
					State   string   `json:"state"`
					Command string   `json:"command"`
					Labels  []string `json:"labels"`
					Shaders []struct {
						ID uint32 `json:"id"`
					} `json:"shaders"`
				} `json:"shown"`
			} `json:"command_buffers"`
		} `json:"submits"`
	} `json:"hangs"`
}

// hangLines is each hang as "REASON CALL WATCHDOG GRANULARITY", its
// command buffers as "NAME: SUMMARY, records N" (", region" when the
// running actions are a region's) and the actions it names as "STATE #I
// COMMAND LABELS".
func (h *hangJSON) lines() []string {
	var out []string
	for _, g := range h.Hangs {
		out = append(out, fmt.Sprintf("%s %s %g %s", g.Reason, g.Call, g.WatchdogSeconds, g.Granularity))
		for _, s := range g.Submits {
			for _, c := range s.CommandBuffers {
				region := ""
				if c.Region {
					region = ", region"
				}
				out = append(out, fmt.Sprintf("%s: %s, records %d%s", c.CommandBuffer.Name, c.Summary, c.Records, region))
				for _, a := range c.Shown {
					out = append(out, fmt.Sprintf("%s #%d %s %s shaders %d", a.State, a.Index, a.Command,
						strings.Join(a.Labels, ">"), len(a.Shaders)))
				}
			}
		}
	}
	return out
}

// perActionCrumbs is the flag that marks each action where the default
// does not (a GPU: the breadcrumbs' auto marks actions on a CPU device
// only), so that hangCBLines holds on every device.
func perActionCrumbs(t *testing.T) []string {
	if driverIsLavapipe(t) {
		return nil
	}
	return []string{"--breadcrumbs", "actions"}
}

// hangCBLines is what the hang of hangapp's mode hang says under a 2 s
// watchdog: the running action (its label "spin"), the action before it
// completed ("setup", whose 4 records reached memory and are reported)
// and the one after not started ("after").
var hangCBLines = []string{
	"watchdog  2 actions",
	"hang-cb: actions 0 completed, 1 running, 2 not started, records 4",
	"completed #0 vkCmdDispatch setup shaders 1",
	"running #1 vkCmdDispatch spin shaders 1",
	"not_started #2 vkCmdDispatch after shaders 1",
}

// TestWatchdogHang: a command buffer of three dispatches, the second a
// bounded loop of about 60 s, with a 2 s watchdog: the hang group is
// reported while the loop runs (the app's messenger prints it: the app is
// left running), and the user stops the app then (SIGTERM to the
// launcher, which passes it on). The submission never finished: the hang
// stays a hang, not finished, and the run exits 5. On lavapipe (a CPU
// device) the breadcrumbs' default (auto) marks actions: hangCBLines, the
// records of "setup" there once, "after" never ran. With --breadcrumbs
// passes the three dispatches are one region: the hang names it, one or
// more of actions 0-2 running, says so and how to have each action marked
// (the same lines from the layer's messenger and the launcher's output),
// and no action is known to have completed, so no record is read.
func TestWatchdogHang(t *testing.T) {
	app, dir := hangApp(t)
	for _, c := range []struct {
		name    string
		flags   []string
		want    []string
		groups  []string
		wantOut []string
	}{
		{"auto", nil, hangCBLines, []string{"hang-cb: 4"}, []string{
			"gpuav-dbg: GPU hang (no progress for the watchdog's 2 s)\n",
			`command buffer 0x`,
			`"hang-cb"): actions 0 completed, 1 running, 2 not started` + "\n",
		}},
		{"passes", []string{"--breadcrumbs", "passes"}, []string{
			"watchdog  2 passes",
			"hang-cb: one or more of actions 0-2 running (one region, not marked per action), records 0, region",
			"running #0 vkCmdDispatch setup shaders 1",
			"running #1 vkCmdDispatch spin shaders 1",
			"running #2 vkCmdDispatch after shaders 1",
		}, nil, []string{
			"gpuav-dbg: GPU hang (no progress for the watchdog's 2 s)\n",
			"gpuav-dbg:   " + hangPassesNote + "\n",
			`"hang-cb"): one or more of actions 0-2 running (one region, not marked per action)` + "\n",
			`gpuav-dbg:       in region   #1 vkCmdDispatch in "spin" pipeline `,
			// The layer's words to the app's messenger are the same.
			hangPassesNote,
			`      in region   #1 vkCmdDispatch in "spin" pipeline `,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r struct {
				hangReport
				hangJSON
			}
			var stopped sync.Once
			flags := append([]string{"--watchdog", "2"}, c.flags...)
			if c.flags == nil {
				flags = append(flags, perActionCrumbs(t)...)
			}
			code, out := runLauncherWatch(t, &r, nil, flags, func(line string, launcher *os.Process) {
				if strings.Contains(line, "GPU hang (no progress for the watchdog's 2 s)") {
					stopped.Do(func() { _ = launcher.Signal(syscall.SIGTERM) })
				}
			}, app, "--dir", dir, "--mode", "hang", "--seconds", "60", "--messenger", "1")
			if got := r.lines(); code != 5 || !slices.Equal(got, c.want) {
				t.Fatalf("exit %d, hangs\n%s\nwant exit 5 and\n%s\n%s", code, strings.Join(got, "\n"), strings.Join(c.want, "\n"), out)
			}
			if h := r.Hangs[0]; h.Finished || h.Seconds != 0 || h.Submits[0].Finished || h.Submits[0].PendingSeconds < 2 {
				t.Errorf("hang finished %v after %g s, submit finished %v, pending %g s; want unfinished, pending 2 s or more",
					h.Finished, h.Seconds, h.Submits[0].Finished, h.Submits[0].PendingSeconds)
			}
			if g := r.groups(); !slices.Equal(g, c.groups) || (len(g) > 0 && r.Errors[0].ActionIndex != 0) ||
				r.App.State != "stopped" || strings.Contains(out, "hangapp: done") {
				t.Errorf("groups %q, app %+v; want %q (at action 0), the app stopped before it was done\n%s", g, r.App, c.groups, out)
			}
			if strings.Contains(out, "slow:") {
				t.Errorf("the headless output calls the hang slow\n%s", out)
			}
			for _, w := range c.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("the headless output does not show the hang: no %q\n%s", w, out)
				}
			}
		})
	}
}

// hangPassesNote is the note of a hang whose breadcrumbs mark passes.
const hangPassesNote = "breadcrumbs per region, not per action (each render pass, and the actions between passes: " +
	"the default on a GPU, where a marker between two dispatches serializes " +
	"them): a region's actions not completed read as running, and one or more of them is; --breadcrumbs " +
	"actions (VK_LAYER_GPUAV_DBG_BREADCRUMBS=actions) marks each action, at a few microseconds per action " +
	"on such a GPU"

// TestWatchdogSlow: the same command buffer with a loop of about 8 s: the
// hang is reported past the 2 s watchdog (hangCBLines), and when the
// submission finishes the hang says so: finished, with its time from the
// submit (past the watchdog's limit, and past what it had been pending
// when reported), a warning ("slow: ... then finished after X s") in the
// headless output and in the app's messenger, never "GPU hang" in the
// summary. The records come exactly once each ("setup" with the hang,
// "after" when the submission is read), and the run exits 1 (those
// records), not 5.
func TestWatchdogSlow(t *testing.T) {
	app, dir := hangApp(t)
	var r struct {
		hangReport
		hangJSON
	}
	code, out := runLauncher(t, &r, nil, append([]string{"--watchdog", "2"}, perActionCrumbs(t)...), app, "--dir", dir, "--mode", "hang", "--seconds", "8",
		"--messenger", "1")
	if got := r.lines(); code != 1 || !slices.Equal(got, hangCBLines) {
		t.Fatalf("exit %d, hangs\n%s\nwant exit 1 and\n%s\n%s", code, strings.Join(got, "\n"), strings.Join(hangCBLines, "\n"), out)
	}
	h, s := r.Hangs[0], r.Hangs[0].Submits[0]
	if !h.Finished || !s.Finished || h.Seconds != s.Seconds || s.Seconds < 2 || s.Seconds < s.PendingSeconds {
		t.Errorf("hang finished %v after %g s, submit finished %v after %g s (pending %g s when reported); want finished, "+
			"2 s or more, past the pending time", h.Finished, h.Seconds, s.Finished, s.Seconds, s.PendingSeconds)
	}
	var actions []int
	for _, e := range r.Errors {
		if e.CommandBuffer.Name != "hang-cb" || e.Count != 4 {
			t.Errorf("group %s: %d at action %d; want hang-cb: 4", e.CommandBuffer.Name, e.Count, e.ActionIndex)
		}
		actions = append(actions, e.ActionIndex)
	}
	if slices.Sort(actions); !slices.Equal(actions, []int{0, 2}) || r.StreamsCut != 0 || !strings.Contains(out, "wait=0") ||
		!strings.Contains(out, "hangapp: done") || r.App.ExitCode != 0 {
		t.Errorf("groups at actions %v, %d streams cut, app exit %d; want actions 0 and 2, none cut, the app done\n%s",
			actions, r.StreamsCut, r.App.ExitCode, out)
	}
	slow := fmt.Sprintf("slow: submission %d on queue %s made no progress for 2 s, then finished after %.1f s", s.Submit,
		s.Queue.Handle, s.Seconds)
	// The app's messenger heard "GPU hang" when the watchdog reported it,
	// then "slow"; the launcher's lines say only "slow".
	if !strings.Contains(out, "gpuav-dbg: "+slow+"\n") || strings.Contains(out, "gpuav-dbg: GPU hang (") ||
		!regexp.MustCompile(`\[vk warning\] GPUAV-DBG-layer: .*\| slow: submission \d+ on queue 0x[0-9a-f]+ made no progress for 2 s, then finished after \d+\.\d s`).MatchString(out) {
		t.Errorf("the headless output or the app's messenger does not say %q, or says GPU hang\n%s", slow, out)
	}
}

// TestDeviceLost: a test layer below ours returns VK_ERROR_DEVICE_LOST
// from the app's second fence wait (after the work ran): the tool reports
// a device lost, the call, the submit whose wait failed with the last
// breadcrumbs its command buffer wrote (its one action completed) and the
// 4 records that reached memory, and the run exits 5.
func TestDeviceLost(t *testing.T) {
	app, dir := hangApp(t)
	var r struct {
		hangReport
		hangJSON
	}
	env := []string{"VK_ADD_LAYER_PATH=" + dir, "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation:" + lostLayer,
		"GPUAVDBG_TEST_LOST_WAIT=3"} // the layer's own wait of the first submit counts
	code, out := runLauncher(t, &r, env, []string{"--watchdog", "10"}, app, "--dir", dir, "--mode", "lost", "--submits", "4")
	// The breadcrumbs mark actions on lavapipe, regions on a GPU: one
	// action outside any render pass reads the same either way.
	granularity := "passes"
	if driverIsLavapipe(t) {
		granularity = "actions"
	}
	want := []string{
		"device_lost vkWaitForFences 10 " + granularity,
		"lost-1: actions 0 completed, records 4",
		"completed #0 vkCmdDispatch  shaders 1",
	}
	if got := r.lines(); code != 5 || !slices.Equal(got, want) || !slices.Equal(r.groups(), []string{"lost-0: 4", "lost-1: 4"}) {
		t.Fatalf("exit %d, groups %q, hangs\n%s\nwant exit 5, lost-0: 4 and lost-1: 4, and\n%s\n%s", code, r.groups(),
			strings.Join(got, "\n"), strings.Join(want, "\n"), out)
	}
	if !strings.Contains(out, "submit=0 wait=-4") {
		t.Errorf("the app's wait did not fail\n%s", out)
	}
}

// faultJSON is the report's hangs' faults.
type faultJSON struct {
	Hangs []struct {
		Reason string `json:"reason"`
		Fault  *struct {
			Error       string `json:"error"`
			Description string `json:"description"`
			Addresses   []struct {
				Type      string `json:"type"`
				Address   string `json:"address"`
				Precision uint64 `json:"precision"`
				Low       string `json:"low"`
				High      string `json:"high"`
				Buffers   []struct {
					Buffer struct {
						Name string `json:"name"`
					} `json:"buffer"`
					Address        string `json:"address"`
					Size           uint64 `json:"size"`
					Live           bool   `json:"live"`
					CreatedAfter   uint64 `json:"created_after_submit"`
					DestroyedAfter uint64 `json:"destroyed_after_submit"`
				} `json:"buffers"`
			} `json:"addresses"`
			AddressesTotal uint32 `json:"addresses_total"`
			Vendors        []struct {
				Description string `json:"description"`
				Code        uint64 `json:"code"`
				Data        uint64 `json:"data"`
			} `json:"vendors"`
			VendorsTotal uint32 `json:"vendors_total"`
		} `json:"fault"`
	} `json:"hangs"`
}

// lines lists each fault as "description", then per address "TYPE
// ADDRESS PRECISION LOW-HIGH" and its buffers "  NAME ADDRESS SIZE
// live|freed CREATED DESTROYED", then "vendor DESCRIPTION CODE DATA".
func (r faultJSON) lines() []string {
	var out []string
	for _, h := range r.Hangs {
		f := h.Fault
		if f == nil {
			out = append(out, h.Reason+" no fault")
			continue
		}
		out = append(out, fmt.Sprintf("%q error %q, %d addresses, %d vendors", f.Description, f.Error, f.AddressesTotal,
			f.VendorsTotal))
		for _, a := range f.Addresses {
			out = append(out, fmt.Sprintf("%s %s %d %s-%s", a.Type, a.Address, a.Precision, a.Low, a.High))
			for _, b := range a.Buffers {
				state := "freed"
				if b.Live {
					state = "live"
				}
				out = append(out, fmt.Sprintf("  %s %s %d %s %d %d", b.Buffer.Name, b.Address, b.Size, state, b.CreatedAfter,
					b.DestroyedAfter))
			}
		}
		for _, v := range f.Vendors {
			out = append(out, fmt.Sprintf("vendor %q 0x%x 0x%x", v.Description, v.Code, v.Data))
		}
	}
	return out
}

var faultBuffers = regexp.MustCompile(`(?m)^live=0x([0-9a-f]+) freed=0x([0-9a-f]+)$`)

// TestDeviceFault: the test layer below ours offers VK_EXT_device_fault
// (lavapipe has none) and loses the device at the app's second fence
// wait; the layer enabled the extension, reads the fault, and the hang
// group carries its description, its four addresses with their ranges,
// each data address matched to the buffer that held it (a live buffer
// and one the app destroyed after submit 1, by their debug names, ranges
// and submits; an address no buffer held; an instruction pointer, not
// matched) and the vendor fault, in the JSON report, the headless lines
// and the SARIF log.
func TestDeviceFault(t *testing.T) {
	app, dir := hangApp(t)
	var r faultJSON
	env := []string{"VK_ADD_LAYER_PATH=" + dir, "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation:" + lostLayer,
		"GPUAVDBG_TEST_LOST_WAIT=3", "GPUAVDBG_TEST_FAULT=1"}
	sarif := filepath.Join(t.TempDir(), "out.sarif")
	code, out := runLauncher(t, &r, env, []string{"--watchdog", "10", "--sarif", sarif}, app, "--dir", dir, "--mode", "lost",
		"--submits", "2", "--fault", "1")
	m := faultBuffers.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("exit %d: the app printed no buffer addresses\n%s", code, out)
	}
	a, _ := strconv.ParseUint(m[1], 16, 64)
	b, _ := strconv.ParseUint(m[2], 16, 64)
	want := []string{
		`"gpuav-dbg test layer: a page fault" error "", 4 addresses, 1 vendors`,
		fmt.Sprintf("read_invalid 0x%x 16 0x%x-0x%x", a+0x18, a+0x10, a+0x1f),
		fmt.Sprintf("  fault-live 0x%x 4096 live 0 0", a),
		fmt.Sprintf("write_invalid 0x%x 1 0x%x-0x%x", b+0x40, b+0x40, b+0x40),
		fmt.Sprintf("  fault-freed 0x%x 4096 freed 0 1", b),
		"instruction_pointer_fault 0x1000 4 0x1000-0x1003",
		"read_invalid 0x8 1 0x8-0x8",
		`vendor "test vendor fault" 0x1234 0x5678`,
	}
	if got := r.lines(); code != 5 || !slices.Equal(got, want) {
		t.Fatalf("exit %d, faults\n%s\nwant exit 5 and\n%s\n%s", code, strings.Join(got, "\n"), strings.Join(want, "\n"), out)
	}
	for _, l := range []string{
		`  device fault (VK_EXT_device_fault, the driver's report): "gpuav-dbg test layer: a page fault"`,
		fmt.Sprintf(`    read_invalid at 0x%x (precision 16: 0x%x-0x%x): in buffer `, a+0x18, a+0x10, a+0x1f),
		fmt.Sprintf(`("fault-live") [0x%x, +4096) at offset 0x10, live, created before the first submit`, a),
		fmt.Sprintf(`    write_invalid at 0x%x: in freed buffer `, b+0x40),
		fmt.Sprintf(`("fault-freed") [0x%x, +4096) at offset 0x40, created before the first submit, destroyed after submit 1`, b),
		"    instruction_pointer_fault at 0x1000 (precision 4: 0x1000-0x1003): an instruction pointer, not matched to a buffer",
		"    read_invalid at 0x8: no buffer whose device address the app obtained held it",
		`    vendor fault code 0x1234 data 0x5678: "test vendor fault"`,
	} {
		if !strings.Contains(out, l) {
			t.Errorf("the headless output does not say %q", l)
		}
	}
	// SARIF: the hang's fault in the run's properties, its lines in the
	// invocation's error notification.
	type note struct {
		Level   string `json:"level"`
		Message struct {
			Text string `json:"text"`
		} `json:"message"`
	}
	var log struct {
		Runs []struct {
			Invocations []struct {
				Notifications []note `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Properties struct {
				Hangs []struct {
					Fault struct {
						Description string `json:"description"`
					} `json:"fault"`
				} `json:"hangs"`
			} `json:"properties"`
		} `json:"runs"`
	}
	freed := func(n note) bool {
		return n.Level == "error" && strings.Contains(n.Message.Text, "write_invalid at 0x") &&
			strings.Contains(n.Message.Text, `("fault-freed")`)
	}
	data, err := os.ReadFile(sarif)
	if err == nil {
		err = json.Unmarshal(data, &log)
	}
	if err != nil || len(log.Runs) != 1 || len(log.Runs[0].Properties.Hangs) != 1 ||
		log.Runs[0].Properties.Hangs[0].Fault.Description != "gpuav-dbg test layer: a page fault" ||
		len(log.Runs[0].Invocations) != 1 || !slices.ContainsFunc(log.Runs[0].Invocations[0].Notifications, freed) {
		t.Errorf("the SARIF log (%v) has not the fault in its hangs and notifications:\n%s", err, data)
	}
	if t.Failed() {
		t.Log(out)
	}
}

// TestDeviceFaultDriver runs the lost device of TestDeviceFault on a
// driver that offers VK_EXT_device_fault itself (the NVIDIA GPU's), the
// test layer only losing the device (GPUAVDBG_TEST_FAULT=2: it neither
// offers nor answers): the layer enabled the driver's extension (the
// device was created with it and runs) and read the driver's answer,
// whatever it says of a device that was not really lost (an error too).
// It skips where the device lacks the extension or its deviceFault
// feature (lavapipe).
func TestDeviceFaultDriver(t *testing.T) {
	if !driverHas(t, "VK_EXT_device_fault") || !driverHas(t, "deviceFault") {
		t.Skip("the device has no VK_EXT_device_fault with deviceFault (lavapipe has none)")
	}
	app, dir := hangApp(t)
	var r faultJSON
	env := []string{"VK_ADD_LAYER_PATH=" + dir, "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation:" + lostLayer,
		"GPUAVDBG_TEST_LOST_WAIT=3", "GPUAVDBG_TEST_FAULT=2"}
	code, out := runLauncher(t, &r, env, []string{"--watchdog", "10"}, app, "--dir", dir, "--mode", "lost", "--submits", "2",
		"--fault", "1")
	if code != 5 || len(r.Hangs) != 1 || r.Hangs[0].Fault == nil {
		t.Fatalf("exit %d, faults %q; want exit 5 and one lost device with the driver's fault read\n%s", code, r.lines(), out)
	}
	t.Logf("the driver's fault of a device not really lost: %q", r.lines())
}

// TestTUIWatchdogCountdown: while a submission runs past the countdown's
// start (half the watchdog's 6 s, 3 s), the TUI's status bar counts the
// watchdog down ("GPU busy N s — hang reported at 6 s"); an 8 s dispatch
// then passes the limit, finishes, and the run ends.
func TestTUIWatchdogCountdown(t *testing.T) {
	app, dir := hangApp(t)
	args := append([]string{"run", "--watchdog", "6", "--session", filepath.Join(t.TempDir(), "s.gvs")}, perActionCrumbs(t)...)
	tm := startTmux(t, 160, 30, nil, append(args, "--", app, "--dir", dir, "--mode", "hang", "--seconds", "8")...)
	screen := tm.waitFor("— hang reported at 6 s")
	if !regexp.MustCompile(`GPU busy [3-6] s — hang reported at 6 s`).MatchString(screen) {
		t.Errorf("the countdown does not start at 3-6 s:\n%s", screen)
	}
	tm.waitFor("exited 0")
}
