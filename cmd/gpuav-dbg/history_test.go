package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListAndSARIF: two runs saved by default form the app's history;
// open --list shows them, open --sarif - prints a SARIF log.
func TestListAndSARIF(t *testing.T) {
	tc := newTestCLI(t)
	t.Setenv(envFakeApp, "errors")
	self, _ := os.Executable()
	out := filepath.Join(tc.dir, "run.sarif")
	tc.run(t, exitErrors, "run", "--headless", "--sarif", out, self)
	tc.run(t, exitErrors, "run", "--headless", self)
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("run --sarif: %v\n%s", err, data)
	}

	tc.out.Reset()
	tc.run(t, exitOK, "open", "--list", filepath.Base(self))
	lines := strings.Split(strings.TrimSpace(tc.out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("open --list:\n%s", tc.out.String())
	}
	var paths []string
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 4 || f[2] != filepath.Base(self) || !strings.Contains(l, "1 error group (") || !strings.HasSuffix(l, ".gvs") {
			t.Fatalf("line %q", l)
		}
		paths = append(paths, f[len(f)-1])
	}
	if paths[0] == paths[1] || filepath.Dir(paths[0]) != filepath.Join(tc.dir, "state", "gpuav-dbg", "sessions") {
		t.Fatalf("paths %q", paths)
	}
	// Every app: the same two.
	tc.out.Reset()
	tc.run(t, exitOK, "open", "--list")
	if n := strings.Count(strings.TrimSpace(tc.out.String()), "\n") + 1; n != 2 {
		t.Fatalf("open --list (all): %d lines\n%s", n, tc.out.String())
	}

	tc.out.Reset()
	tc.run(t, exitOK, "open", paths[1], "--sarif", "-")
	if err := json.Unmarshal(tc.out.Bytes(), &log); err != nil || log.Version != "2.1.0" || len(log.Runs[0].Results) != 1 {
		t.Fatalf("open --sarif -: %v\n%s", err, tc.out.String())
	}

	tc.err.Reset()
	tc.run(t, exitLauncher, "open", "--list", "a", "b")
	if !strings.Contains(tc.err.String(), "want at most one app") {
		t.Fatalf("stderr %q", tc.err.String())
	}
	tc.err.Reset()
	tc.run(t, exitLauncher, "open", paths[1], "--sarif", filepath.Join(tc.dir, "no", "dir", "x.sarif"))
	if !strings.Contains(tc.err.String(), "write SARIF ") {
		t.Fatalf("stderr %q", tc.err.String())
	}
}

// TestListNotChecked: a run whose app never loaded the layer says "not
// checked" at its end and in open --list, never "no validation errors".
func TestListNotChecked(t *testing.T) {
	tc := newTestCLI(t)
	t.Setenv(envFakeApp, "nolayer")
	self, _ := os.Executable()
	tc.run(t, exitUnchecked, "run", "--headless", self)
	if !strings.Contains(tc.err.String(), "gpuav-dbg: not checked; app exited 0; session saved to ") ||
		strings.Contains(tc.err.String(), "no validation errors") {
		t.Fatalf("stderr:\n%s", tc.err.String())
	}
	tc.out.Reset()
	tc.run(t, exitOK, "open", "--list")
	if l := strings.TrimSpace(tc.out.String()); !strings.Contains(l, "  not checked; app exited 0  ") || strings.Contains(l, "no validation errors") {
		t.Fatalf("open --list: %q", l)
	}
}
