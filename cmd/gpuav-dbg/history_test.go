package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/options"
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

// TestPruneAndSizes: open --list shows each run's size and the total;
// a run saved by default prunes the saved runs past the caps first
// (GPUAV_DBG_KEEP_SIZE, GPUAV_DBG_KEEP_AGE), and open --prune does it on
// its own; a cap that does not parse fails before the app starts.
func TestPruneAndSizes(t *testing.T) {
	tc := newTestCLI(t)
	t.Setenv(envFakeApp, "errors")
	self, _ := os.Executable()
	for range 2 {
		tc.run(t, exitErrors, "run", "--headless", self)
	}
	tc.out.Reset()
	tc.err.Reset()
	tc.run(t, exitOK, "open", "--list")
	lines := strings.Split(strings.TrimSpace(tc.out.String()), "\n")
	if len(lines) != 2 || !regexp.MustCompile(`  \d+ KB  /`).MatchString(lines[0]) ||
		!regexp.MustCompile(`^gpuav-dbg: 2 runs, \d+ KB \(kept: 1 GiB or 30 days; open --prune applies it\)\n$`).MatchString(tc.err.String()) {
		t.Fatalf("open --list:\n%s%s", tc.out.String(), tc.err.String())
	}
	sessions := filepath.Join(tc.dir, "state", "gpuav-dbg", "sessions")
	// A user's file beside them, named like nothing the launcher writes.
	mine := filepath.Join(sessions, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}

	// A third run with a cap of 1 byte: the two before it go first.
	t.Setenv(options.KeepSize.Env, "1")
	tc.err.Reset()
	tc.run(t, exitErrors, "run", "--headless", self)
	if n := strings.Count(tc.err.String(), "gpuav-dbg: pruned "+filepath.Base(self)); n != 2 ||
		!strings.Contains(tc.err.String(), ": the sessions take more than 1 B\n") ||
		!strings.Contains(tc.err.String(), "gpuav-dbg: pruned 2 saved runs, ") {
		t.Fatalf("auto-prune:\n%s", tc.err.String())
	}
	// open --prune: the third goes too; the user's file stays.
	tc.err.Reset()
	tc.run(t, exitOK, "open", "--prune")
	if !strings.Contains(tc.err.String(), "gpuav-dbg: pruned 1 saved run, ") || !strings.Contains(tc.err.String(), "gpuav-dbg: 0 runs kept, 0 B, in "+sessions) {
		t.Fatalf("open --prune:\n%s", tc.err.String())
	}
	if entries, _ := os.ReadDir(sessions); len(entries) != 1 || entries[0].Name() != "notes.txt" {
		t.Fatalf("left in %s: %v", sessions, entries)
	}
	t.Setenv(options.KeepSize.Env, "")
	t.Setenv(options.KeepAge.Env, "soon")
	tc.err.Reset()
	tc.run(t, exitLauncher, "run", "--headless", self)
	if !strings.Contains(tc.err.String(), `GPUAV_DBG_KEEP_AGE: "soon" is not an age`) {
		t.Fatalf("bad cap:\n%s", tc.err.String())
	}
	tc.err.Reset()
	tc.run(t, exitLauncher, "open", "--prune", "--list")
	if !strings.Contains(tc.err.String(), "--list and --prune are two commands") {
		t.Fatalf("--prune --list: %s", tc.err.String())
	}
}
