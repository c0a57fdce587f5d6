package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/internal/referee"
)

// Real apps: public Vulkan programs we did not write, from Debian packages
// (vulkan-tools: vulkaninfo, vkcube, vkcubepp; gfxreconstruct:
// gfxrecon-replay), run with no layer and under ours: no crash, no hang,
// no error reported on these clean apps, and identical output where the
// app writes text or images. Windows go to an Xvfb server of the test's own.

// realTimeout bounds every run of a real app: a hang fails the test.
const realTimeout = 120 * time.Second

// requireTool fails the test when a program is missing.
func requireTool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not installed (scripts/install-deps installs %s): %v", name, pkg, err)
	}
	return p
}

// xvfb starts an X server for the test and returns its DISPLAY.
func xvfb(t *testing.T) string {
	t.Helper()
	requireTool(t, "Xvfb", "xvfb")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "640x480x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatalf("Xvfb gave no display number:\n%s", errOut.String())
		}
		return ":" + n
	case <-time.After(30 * time.Second):
		t.Fatalf("Xvfb did not start in 30 s:\n%s", errOut.String())
	}
	return ""
}

// realRun is one run of a real app.
type realRun struct {
	code int
	out  string
	took time.Duration
}

// runPlain runs app with no layer (and extra environment env), bounded by
// realTimeout; it fails the test on a crash or a non-zero exit.
func runPlain(t *testing.T, env []string, app string, args ...string) realRun {
	t.Helper()
	cmd := exec.Command("timeout", append([]string{"-k", "5", fmt.Sprint(int(realTimeout.Seconds())), app}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r := realRun{out: out.String(), took: time.Since(start)}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %s: %v", app, err)
	}
	if r.code != 0 {
		t.Fatalf("%s %v with no layer: exit %d (124: it hung)\n%s", app, args, r.code, r.out)
	}
	return r
}

// realReport is the part of the headless JSON the real-app tests read.
type realReport struct {
	checkReport
	App struct {
		ExitCode int `json:"exit_code"`
	} `json:"app"`
	Pipelines map[string]struct {
		Instrumented bool `json:"instrumented"`
	} `json:"pipelines"`
}

// runOurs runs app under gpuav-dbg (with the referee below our layer,
// run flags and extra environment env), bounded by realTimeout; it fails
// the test unless the app exited 0 with no error reported and no notice
// above info level.
func runOurs(t *testing.T, env, flags []string, app string, args ...string) (realRun, realReport) {
	t.Helper()
	var r realReport
	wrapped := append([]string{"-k", "5", fmt.Sprint(int(realTimeout.Seconds())), app}, args...)
	start := time.Now()
	code, out := runLauncher(t, &r, env, flags, "timeout", wrapped...)
	run := realRun{code: code, out: out, took: time.Since(start)}
	if code != 0 || r.App.ExitCode != 0 || len(r.Errors) != 0 {
		t.Fatalf("%s %v under gpuav-dbg: exit %d (app %d; 124: it hung), %d error groups\n%s",
			app, args, code, r.App.ExitCode, len(r.Errors), out)
	}
	for _, n := range r.Notices {
		if n.Level != "info" {
			t.Errorf("%s notice: %s", n.Level, n.Text)
		}
	}
	return run, r
}

// logOverhead logs what a real app's run costs under our layer.
func logOverhead(t *testing.T, name string, none, ours realRun) {
	t.Logf("overhead %s: no layer %v, gpuav-dbg %v (%.2fx; launcher, layer and referee included)",
		name, none.took.Round(time.Millisecond), ours.took.Round(time.Millisecond),
		float64(ours.took)/float64(none.took))
}

// TestRealAppVulkaninfo: vulkaninfo prints the same report under our layer
// as without it (lines that differ run to run, the heap usage of the
// memory budget and the loader's note that VK_INSTANCE_LAYERS adds a
// layer, left out), and runs clean under gpuav-dbg.
func TestRealAppVulkaninfo(t *testing.T) {
	vi := requireTool(t, "vulkaninfo", "vulkan-tools")
	// The layer is visible in both runs (the report lists the layers
	// there are); only the second enables it.
	env := []string{"VK_ADD_LAYER_PATH=" + filepath.Join(root, "bin")}
	none := runPlain(t, env, vi)
	ours := runPlain(t, append(env, "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation"), vi)
	strip := func(s string) []string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "usage  =") || strings.Contains(l, "[Loader Message]") {
				continue
			}
			keep = append(keep, l)
		}
		return keep
	}
	a, b := strip(none.out), strip(ours.out)
	if len(a) < 500 {
		t.Fatalf("vulkaninfo printed %d lines; want its whole report:\n%s", len(a), none.out)
	}
	if !slices.Equal(a, b) {
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("vulkaninfo differs under our layer at line %d:\n no layer: %s\n ours:     %s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("vulkaninfo printed %d lines under our layer, %d without", len(b), len(a))
	}
	under, _ := runOurs(t, nil, nil, vi, "--summary")
	logOverhead(t, "vulkaninfo", none, under)
}

// TestRealAppVkcube: vkcube and vkcubepp (C and C++; vertices from a
// uniform buffer indexed by gl_VertexIndex, a texture) draw 60 frames
// into an Xvfb window with no layer and under gpuav-dbg, with the default
// checks and with every check on (buffer_oob instruments the vertex
// shader's uniform-buffer reads): no crash, no hang, no error; the
// pipeline is instrumented when a check applies to it.
func TestRealAppVkcube(t *testing.T) {
	display := "DISPLAY=" + xvfb(t)
	for _, app := range []string{"vkcube", "vkcubepp"} {
		t.Run(app, func(t *testing.T) {
			p := requireTool(t, app, "vulkan-tools")
			none := runPlain(t, []string{display}, p, "--c", "60")
			ours, _ := runOurs(t, []string{display}, nil, p, "--c", "60")
			logOverhead(t, app, none, ours)
			all, r := runOurs(t, []string{display}, []string{"--check", "all=on"}, p, "--c", "60")
			logOverhead(t, app+" (every check)", none, all)
			instrumented := 0
			for _, pl := range r.Pipelines {
				if pl.Instrumented {
					instrumented++
				}
			}
			if len(r.Pipelines) != 1 || instrumented != 1 {
				t.Errorf("with every check on: %d pipelines, %d instrumented; want vkcube's 1, instrumented", len(r.Pipelines), instrumented)
			}
		})
	}
}

// TestRealAppReplayImages: a capture of vkcube (20 frames, made with the
// gfxreconstruct capture layer at the test's start) replayed by
// gfxrecon-replay on a headless surface, with a screenshot of every frame:
// under gpuav-dbg, with the default checks and with every check on, each
// frame is byte for byte the frame replayed with no layer.
func TestRealAppReplayImages(t *testing.T) {
	replay := requireTool(t, "gfxrecon-replay", "gfxreconstruct")
	vkcube := requireTool(t, "vkcube", "vulkan-tools")
	dir := t.TempDir()
	capture := filepath.Join(dir, "cube.gfxr")
	runPlain(t, []string{"DISPLAY=" + xvfb(t), "VK_INSTANCE_LAYERS=VK_LAYER_LUNARG_gfxreconstruct",
		"GFXRECON_CAPTURE_FILE=" + capture, "GFXRECON_CAPTURE_FILE_TIMESTAMP=false"}, vkcube, "--c", "20")
	shots := func(name string) string {
		d := filepath.Join(dir, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	args := func(d string) []string {
		return []string{"--wsi", "headless", "--screenshots", "1-20", "--screenshot-dir", d, capture}
	}
	ref := shots("none")
	none := runPlain(t, nil, replay, args(ref)...)
	want := readFrames(t, ref)
	if len(want) != 20 {
		t.Fatalf("the replay with no layer wrote %d screenshots, want 20\n%s", len(want), none.out)
	}
	for _, c := range []struct {
		name  string
		flags []string
	}{{"default", nil}, {"every check", []string{"--check", "all=on"}}} {
		d := shots(strings.ReplaceAll(c.name, " ", "-"))
		ours, _ := runOurs(t, nil, c.flags, replay, args(d)...)
		logOverhead(t, "gfxrecon-replay ("+c.name+")", none, ours)
		got := readFrames(t, d)
		for name, w := range want {
			if g, ok := got[name]; !ok || !bytes.Equal(g, w) {
				t.Errorf("%s: %s differs from the replay with no layer (present %v)", c.name, name, ok)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d screenshots, want %d", c.name, len(got), len(want))
		}
	}
}

// readFrames reads the screenshots in dir by name.
func readFrames(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.bmp"))
	if err != nil {
		t.Fatal(err)
	}
	frames := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		frames[filepath.Base(f)] = b
	}
	return frames
}

// TestRealAppRefereeCatchesErrors: the referee sees an app's invalid calls
// through our layer: vkcube --force_errors makes two (a fence create info
// with a wrong sType, an image view create info with an image create info
// in its pNext), and the referee's log holds exactly those.
func TestRealAppRefereeCatchesErrors(t *testing.T) {
	if !referee.Enabled() {
		t.Skip(referee.EnvMode + "=0")
	}
	vkcube := requireTool(t, "vkcube", "vulkan-tools")
	run, env, err := referee.Start(t.TempDir(), append(os.Environ(), "DISPLAY="+xvfb(t)))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "o.json")
	cmd := exec.Command(bin("gpuav-dbg"), "run", "--headless", "--json", out, "--session", filepath.Join(t.TempDir(), "s.gvs"),
		"--", vkcube, "--c", "3", "--force_errors")
	cmd.Env = env
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vkcube --force_errors under gpuav-dbg: %v\n%s", err, b)
	}
	msgs, err := run.Messages()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range msgs {
		ids = append(ids, m.ID)
	}
	slices.Sort(ids)
	want := []string{"VUID-VkFenceCreateInfo-sType-sType", "VUID-VkImageViewCreateInfo-pNext-pNext"}
	if !slices.Equal(ids, want) {
		t.Errorf("the referee logged %v, want %v", ids, want)
	}
	var r realReport
	if b, err := os.ReadFile(out); err != nil || json.Unmarshal(b, &r) != nil || len(r.Errors) != 0 {
		t.Errorf("our report: %v, %d errors (want none: the app's mistakes are the referee's to report)", err, len(r.Errors))
	}
}
