package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCtrlCIsStoppedByYou presses Ctrl-C the way a terminal does (SIGINT
// to the whole foreground process group) while the app runs: the app is
// "stopped by you", not crashed, and the run exits 4 (not everything was
// checked), saying why.
func TestCtrlCIsStoppedByYou(t *testing.T) {
	cmd := exec.Command(bin("gpuav-dbg"), "run", "--headless", "--session", filepath.Join(t.TempDir(), "s.gvs"),
		"--", "/bin/sh", "-c", "echo started; exec sleep 30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "started\n" {
		t.Fatalf("app output %q, %v", line, err)
	}
	time.Sleep(100 * time.Millisecond)
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 4 {
		t.Fatalf("exit %v, want 4\n%s", err, stderr.String())
	}
	for _, want := range []string{
		"gpuav-dbg:   you stopped the app before it finished\n",
		"gpuav-dbg: checked: nothing (the layer was not loaded)\n",
		"gpuav-dbg: not checked; app stopped by you (SIGINT); session saved to ",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "crashed") || strings.Contains(stderr.String(), "killed by") {
		t.Errorf("a stopped app reads as crashed:\n%s", stderr.String())
	}
}

// TestCLIHonesty: `--json --` is refused (no report written to a file
// named "--"), and `run -- false` (no layer, the app fails) says the exit
// status it exits with.
func TestCLIHonesty(t *testing.T) {
	dir := t.TempDir()
	code, out := gpuavDbgIn(t, dir, nil, "run", "--headless", "--json", "--", "/bin/true")
	if code != 2 || !strings.Contains(out, `--json wants a file name, not "--"`) {
		t.Fatalf("--json --: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "--")); err == nil {
		t.Fatal("a report named -- was written")
	}
	code, out = gpuavDbgIn(t, dir, nil, "run", "--headless", "--session", filepath.Join(dir, "s.gvs"), "--", "false")
	if code != 3 || !strings.Contains(out, "not everything was checked (exit 3: the app failed):") || strings.Contains(out, "exit 4") {
		t.Fatalf("run -- false: exit %d\n%s", code, out)
	}
}
