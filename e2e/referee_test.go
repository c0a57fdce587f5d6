package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/referee"
)

// refereeEnv returns the environment of a run of app under our layer
// (os.Environ() and env), with the Khronos layer's core checks below ours
// unless the referee is off (internal/referee), and a function to call
// when the run is over: it fails the test on any message of the Khronos
// layer that the app does not cause itself.
func refereeEnv(t *testing.T, env []string, app string, args []string) ([]string, func()) {
	t.Helper()
	full := append(os.Environ(), env...)
	if !referee.Enabled() || referee.SkipFor(filepath.Base(app), args) != nil {
		return full, func() {}
	}
	run, full, err := referee.Start(t.TempDir(), full)
	if err != nil {
		t.Fatal(err)
	}
	return full, func() {
		t.Helper()
		run.Check(app, args, t.Errorf)
	}
}

// TestRefereeBelowOurs: the referee's layer sits below ours in the chain
// (the loader's own report of the device's layer call stack), so that it
// sees the layer's calls (TestRealAppRefereeCatchesErrors: and catches invalid
// ones).
func TestRefereeBelowOurs(t *testing.T) {
	if !referee.Enabled() {
		t.Skip(referee.EnvMode + "=0")
	}
	_, env, err := referee.Start(t.TempDir(), append(os.Environ(), "VK_LOADER_DEBUG=layer"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin("gpuav-dbg"), "run", "--headless", "--json", filepath.Join(t.TempDir(), "o.json"),
		"--session", filepath.Join(t.TempDir(), "s.gvs"), "--", bin("demo"), "--clean")
	cmd.Env = env
	out, _ := cmd.CombinedOutput()
	m := regexp.MustCompile(`(?s)vkCreateDevice layer callstack setup to:(.*?)<Device>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no device call stack in the loader's output:\n%s", out)
	}
	s := string(m[1])
	ours, theirs := strings.Index(s, "VK_LAYER_GPUAVDBG_validation"), strings.Index(s, referee.Layer)
	if ours < 0 || theirs < 0 || ours > theirs {
		t.Fatalf("device call stack: ours at %d, the referee at %d, want ours above it:\n%s", ours, theirs, s)
	}
}
