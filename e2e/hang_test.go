package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
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
	return cbuild.App(filepath.Join(dir, "hangapp"), filepath.Join(src, "hangapp.c"))
}

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
			code, out := runLauncher(t, &r, nil, nil, app, "--dir", dir, "--mode", "fork", "--child", c.child)
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
