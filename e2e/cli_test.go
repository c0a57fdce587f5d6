package e2e

import (
	"bufio"
	"bytes"
	"errors"
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
		"gpuav-dbg: no validation errors in what was checked; app stopped by you (SIGINT); session saved to ",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "crashed") || strings.Contains(stderr.String(), "killed by") {
		t.Errorf("a stopped app reads as crashed:\n%s", stderr.String())
	}
}
