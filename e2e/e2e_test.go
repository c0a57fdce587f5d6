// Package e2e runs the real binaries (bin/gpuav-dbg, the layer, bin/demo)
// on Mesa's lavapipe: the whole chain from a C Vulkan app to the report,
// the Khronos validation layer as the reference, and the TUI in tmux.
package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var root string

// Where the suite runs without a compiler (the NVIDIA machine):
// GPUAVDBG_TEST_PREBUILD_OUT=DIR makes the test binary build every test app
// (and its shaders) into DIR and exit; GPUAVDBG_TEST_PREBUILT=DIR makes the
// tests use those instead of building, and bin/ as it is
// (scripts/hardware/build.sh e2e-tests, scripts/hardware/e2e-tests.sh).
const (
	envPrebuildOut = "GPUAVDBG_TEST_PREBUILD_OUT"
	envPrebuilt    = "GPUAVDBG_TEST_PREBUILT"
)

func TestMain(m *testing.M) {
	wd, _ := os.Getwd()
	root = filepath.Dir(wd)
	if out := os.Getenv(envPrebuildOut); out != "" {
		os.Exit(prebuild(out))
	}
	// `make test` has built everything; `go test ./e2e` alone builds too.
	if os.Getenv(envPrebuilt) == "" {
		cmd := exec.Command("make", "-s", "build")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: make build: %v\n%s", err, out)
			os.Exit(1)
		}
	}
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		dir, _ := os.MkdirTemp("", "xdg")
		os.Setenv("XDG_RUNTIME_DIR", dir)
	}
	// The watchdog is these tests' subject only where a test sets it
	// (--watchdog): elsewhere a lavapipe submission slowed past the
	// default 10 s by a loaded machine (CI's 2 cores) would add a slow
	// hang's messages to exact expectations.
	if os.Getenv("VK_LAYER_GPUAV_DBG_WATCHDOG_SECONDS") == "" {
		os.Setenv("VK_LAYER_GPUAV_DBG_WATCHDOG_SECONDS", "120")
	}
	// The layer keeps shadow caches beside the apps' pipeline-cache data
	// (docs/decisions/kept-shadow-caches.md): in a directory of the run's,
	// not the user's cache.
	cache, _ := os.MkdirTemp("", "gpuav-dbg-cache")
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}

// prebuild builds every check app into out/NAME/ and vkapp into out/vkapp,
// and returns the exit code.
func prebuild(out string) int {
	for _, a := range checkApps {
		dir := filepath.Join(out, a.subdir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: prebuild %s: %v\n", a.name, err)
			return 1
		}
		if err := a.compileInto(dir); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: prebuild: %v\n", err)
			return 1
		}
	}
	if err := buildVkapp(filepath.Join(out, "vkapp")); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: prebuild: %v\n", err)
		return 1
	}
	trust := filepath.Join(out, "trustapp")
	if err := os.MkdirAll(trust, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: prebuild trustapp: %v\n", err)
		return 1
	}
	if err := buildTrustApp(trust); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: prebuild: %v\n", err)
		return 1
	}
	hang := filepath.Join(out, "hangapp")
	if err := os.MkdirAll(hang, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: prebuild hangapp: %v\n", err)
		return 1
	}
	if err := buildHangApp(hang); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: prebuild: %v\n", err)
		return 1
	}
	refuse := filepath.Join(out, "refuseapp")
	if err := os.MkdirAll(refuse, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: prebuild refuseapp: %v\n", err)
		return 1
	}
	if err := buildRefuseApp(refuse); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: prebuild: %v\n", err)
		return 1
	}
	return 0
}

func bin(name string) string { return filepath.Join(root, "bin", name) }

// report is the part of the headless JSON the tests read.
type report struct {
	Version int `json:"version"`
	App     struct {
		Path     string `json:"path"`
		ExitCode int    `json:"exit_code"`
	} `json:"app"`
	Device struct {
		Name       string `json:"name"`
		APIVersion string `json:"api_version"`
	} `json:"device"`
	Settings struct {
		Checks      map[string]bool `json:"checks"`
		ReserveSlot bool            `json:"reserve_slot"`
	} `json:"settings"`
	Errors []struct {
		Check         string                 `json:"check"`
		Message       string                 `json:"message"`
		Count         int                    `json:"count"`
		Stage         string                 `json:"stage"`
		Coords        map[string][]float64   `json:"coords"`
		Samples       []map[string][]float64 `json:"samples"`
		DescriptorRaw struct {
			Set         uint32 `json:"set"`
			Binding     uint32 `json:"binding"`
			Index       uint32 `json:"index"`
			ArrayLength uint32 `json:"array_length"`
		} `json:"descriptor"`
		CommandBuffer struct {
			Handle string `json:"handle"`
			Name   string `json:"name"`
		} `json:"command_buffer"`
		Submit      int    `json:"submit"`
		ActionIndex int    `json:"action_index"`
		Action      string `json:"action"`
		Pipeline    struct {
			Handle string `json:"handle"`
			Name   string `json:"name"`
		} `json:"pipeline"`
		Shader struct {
			ID     int    `json:"id"`
			Module string `json:"module"`
		} `json:"shader"`
		Instruction int `json:"instruction"`
		Source      struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Text string `json:"text"`
		} `json:"source"`
	} `json:"errors"`
}

// runHeadless runs the demo (with extra args) under gpuav-dbg and returns
// the exit code, the report and stderr.
func runHeadless(t *testing.T, demoArgs ...string) (int, report, string) {
	t.Helper()
	return runHeadlessEnv(t, nil, demoArgs...)
}

// runHeadlessEnv is runHeadless with extra environment variables.
func runHeadlessEnv(t *testing.T, env []string, demoArgs ...string) (int, report, string) {
	t.Helper()
	var r report
	code, out := runLauncher(t, &r, env, nil, bin("demo"), demoArgs...)
	return code, r, out
}

func TestDemoHeadless(t *testing.T) {
	code, r, stderr := runHeadless(t)
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (validation errors)\n%s", code, stderr)
	}
	if want := vulkaninfoDevice(t); r.Version != 1 || r.Device.Name != want || r.Device.APIVersion == "" {
		t.Errorf("version %d device %+v; want version 1, device %q (vulkaninfo)", r.Version, r.Device, want)
	}
	if !r.Settings.Checks["descriptor_index_oob"] {
		t.Errorf("settings.checks = %v", r.Settings.Checks)
	}
	if len(r.Errors) != 2 {
		t.Fatalf("%d error groups, want 2\n%s", len(r.Errors), stderr)
	}
	c, f := r.Errors[0], r.Errors[1]
	if c.Stage != "compute" {
		c, f = f, c
	}
	// Compute: outs[pc.idx] with idx 3 of a 2-element array, 4 invocations.
	if c.Check != "descriptor_index_oob" || c.Count != 4 || c.Stage != "compute" ||
		c.DescriptorRaw.Set != 0 || c.DescriptorRaw.Binding != 0 || c.DescriptorRaw.Index != 3 || c.DescriptorRaw.ArrayLength != 2 {
		t.Errorf("compute group: %+v", c)
	}
	if g := c.Coords["global_invocation_id"]; len(g) != 3 || g[1] != 0 || g[2] != 0 || g[0] > 3 {
		t.Errorf("compute coords %v", c.Coords)
	}
	// The samples are the distinct invocations: x = 0..3, each once.
	xs := map[float64]int{}
	for _, s := range c.Samples {
		if g := s["global_invocation_id"]; len(g) == 3 {
			xs[g[0]]++
		}
	}
	if len(c.Samples) != 4 || xs[0] != 1 || xs[1] != 1 || xs[2] != 1 || xs[3] != 1 {
		t.Errorf("compute samples %v, want global ids x=0..3 once each", c.Samples)
	}
	if c.Action != "vkCmdDispatch" || c.ActionIndex != 0 || c.CommandBuffer.Name != "compute-cmd" || c.Pipeline.Name != "oob-compute-pipeline" {
		t.Errorf("compute attribution: action %q #%d cb %+v pipeline %+v", c.Action, c.ActionIndex, c.CommandBuffer, c.Pipeline)
	}
	if c.Source.File != "oob_compute.comp" || c.Source.Line != 9 || c.Source.Text != "    outs[pc.idx].v[i] = i * 3u;" {
		t.Errorf("compute source %+v", c.Source)
	}
	if !strings.Contains(c.Message, "Index of 3 used to index descriptor array of length 2") {
		t.Errorf("compute message %q", c.Message)
	}
	// Fragment: tex[6] of a 6-element array over an 8x8 target.
	if f.Check != "descriptor_index_oob" || f.Count != 64 || f.Stage != "fragment" ||
		f.DescriptorRaw.Index != 6 || f.DescriptorRaw.ArrayLength != 6 {
		t.Errorf("fragment group: %+v", f)
	}
	if xy := f.Coords["frag_coord"]; len(xy) != 2 || xy[0] < 0 || xy[0] > 8 || xy[1] < 0 || xy[1] > 8 ||
		xy[0]-float64(int(xy[0])) != 0.5 || xy[1]-float64(int(xy[1])) != 0.5 {
		t.Errorf("fragment coords %v", f.Coords)
	}
	if f.Action != "vkCmdDraw" || f.CommandBuffer.Name != "draw-cmd" {
		t.Errorf("fragment attribution: %q %+v", f.Action, f.CommandBuffer)
	}
	if f.Source.File != "oob_fragment.frag" || f.Source.Line != 9 || !strings.Contains(f.Source.Text, "texture(tex[pc.tex_ind], texcoord.xy)") {
		t.Errorf("fragment source %+v", f.Source)
	}
	// One human-readable line per group on stderr.
	if n := strings.Count(stderr, "descriptor_index_oob"); n < 2 {
		t.Errorf("stderr has %d lines naming the check, want one per group:\n%s", n, stderr)
	}
}

// TestLayerFirstInChain runs with Mesa's implicit device_select layer off,
// so that ours is the first layer the loader calls, as on NVIDIA's driver:
// the loader then asks it for vkCreateInstance with a non-NULL instance.
func TestLayerFirstInChain(t *testing.T) {
	code, r, stderr := runHeadlessEnv(t, []string{"NODEVICE_SELECT=1"})
	if code != 1 || len(r.Errors) != 2 {
		t.Fatalf("exit %d with %d error groups, want 1 with 2\n%s", code, len(r.Errors), stderr)
	}
}

func TestDemoClean(t *testing.T) {
	code, r, stderr := runHeadless(t, "--clean")
	if code != 0 || len(r.Errors) != 0 {
		t.Fatalf("clean demo: exit %d, %d errors\n%s", code, len(r.Errors), stderr)
	}
	if r.App.ExitCode != 0 {
		t.Errorf("app exit code %d", r.App.ExitCode)
	}
}

func TestCheckOff(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.json")
	cmd := exec.Command(bin("gpuav-dbg"), "run", "--headless", "--json", out, "--check", "descriptor_index_oob=off",
		"--", bin("demo"), "--compute-only", "--index", "1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	var r report
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Settings.Checks["descriptor_index_oob"] {
		t.Errorf("check still on in settings: %v", r.Settings.Checks)
	}
}

// khronosFinding is one GPU-AV error the Khronos layer printed.
type khronosFinding struct {
	index, length, line int
}

var (
	khronosIndex = regexp.MustCompile(`Index of (\d+) used to index descriptor array of length (\d+)`)
	khronosLine  = regexp.MustCompile(`at line (\d+)`)
)

func TestAtLeastWhatKhronosFinds(t *testing.T) {
	requireKhronos(t)
	cmd := exec.Command(bin("demo"))
	cmd.Env = khronosEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("demo under Khronos GPU-AV: %v\n%s", err, out)
	}
	var theirs []khronosFinding
	for _, l := range strings.Split(string(out), "\n") {
		m := khronosIndex.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var f khronosFinding
		f.index, _ = strconv.Atoi(m[1])
		f.length, _ = strconv.Atoi(m[2])
		if lm := khronosLine.FindStringSubmatch(l); lm != nil {
			f.line, _ = strconv.Atoi(lm[1])
		}
		theirs = append(theirs, f)
	}
	if len(theirs) != 2 {
		t.Fatalf("Khronos GPU-AV reported %d errors, want 2 (the reference must catch both):\n%s", len(theirs), out)
	}
	_, r, _ := runHeadless(t)
	for _, k := range theirs {
		found := false
		for _, e := range r.Errors {
			if int(e.DescriptorRaw.Index) == k.index && int(e.DescriptorRaw.ArrayLength) == k.length && e.Source.Line == k.line {
				found = true
			}
		}
		if !found {
			t.Errorf("Khronos found index %d of length %d at line %d; gpuav-dbg did not (report: %+v)", k.index, k.length, k.line, r.Errors)
		}
	}
}

func TestMissingApp(t *testing.T) {
	cmd := exec.Command(bin("gpuav-dbg"), "run", "--headless", "--json", filepath.Join(t.TempDir(), "o.json"), "./no-such-app")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("exit %v, want 2\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "no-such-app") {
		t.Errorf("want one line naming the app, got %q", out)
	}
}

// TestTUIInTmux drives the real binary in a terminal: the demo's errors
// appear, and selecting the fragment error marks the texture() line.
func TestTUIInTmux(t *testing.T) {
	tm := startTmux(t, 140, 40, nil, "demo", "--theme", "dark", "--session", filepath.Join(t.TempDir(), "s.gvs"))
	tmux, waitFor := tm.run, tm.waitFor
	waitFor("oob_fragment.frag")
	screen := waitFor("exited")
	if !strings.Contains(screen, "oob_compute.comp") {
		t.Errorf("error list lacks the compute error:\n%s", screen)
	}
	tmux("send-keys", "n") // the next error group: the fragment one
	screen = waitFor("texture(tex[pc.tex_ind]")
	marked := false
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "▶") && strings.Contains(l, "texture(tex[pc.tex_ind]") {
			marked = true
		}
	}
	if !marked {
		t.Errorf("the texture(tex[...]) line is not marked:\n%s", screen)
	}
	tmux("send-keys", "q")
}

// TestTUIRerunInTmux re-runs the demo from the TUI's settings with
// descriptor_index_oob off: run 2 has no errors, and the compare view says
// both of run 1's groups are no longer checked (not fixed: run 2 turned
// their check off).
func TestTUIRerunInTmux(t *testing.T) {
	sess := filepath.Join(t.TempDir(), "s.gvs")
	tm := startTmux(t, 140, 40, nil, "demo", "--theme", "dark", "--session", sess)
	tmux, waitFor := tm.run, tm.waitFor
	waitFor("2 groups · 68 records")
	waitFor("exited")
	tmux("send-keys", "s")
	screen := waitFor("Settings for the next run")
	if !strings.Contains(screen, "› [x] descriptor_index_oob") {
		t.Fatalf("settings do not start on descriptor_index_oob, on:\n%s", screen)
	}
	tmux("send-keys", "Space")
	waitFor("[ ] descriptor_index_oob")
	tmux("send-keys", "r")
	waitFor("run 2/2")
	screen = waitFor("no validation errors")
	if !strings.Contains(screen, "0 groups · 0 records") {
		t.Errorf("run 2 counts:\n%s", screen)
	}
	tmux("send-keys", "c")
	screen = waitFor("run 1 → run 2: 0 new, 0 fixed, 2 no longer checked, 0 changed, 0 same")
	if !strings.Contains(screen, "(check descriptor_index_oob was off)") {
		t.Errorf("compare view:\n%s", screen)
	}
	tmux("send-keys", "q")
	// Run 2's session is saved next to run 1's.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(strings.TrimSuffix(sess, ".gvs") + ".2.gvs"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("run 2's session file was not written")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
