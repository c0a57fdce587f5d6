package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/sariftest"
)

// sarifResults are the results of a SARIF log, as the tests read them.
type sarifResults struct {
	Runs []struct {
		Results []struct {
			RuleID          string `json:"ruleId"`
			Level           string `json:"level"`
			OccurrenceCount int    `json:"occurrenceCount"`
			Locations       []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine int `json:"startLine"`
						Snippet   struct {
							Text string `json:"text"`
						} `json:"snippet"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			Properties struct {
				Action string `json:"action"`
				Stage  string `json:"stage"`
			} `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

func gpuavDbg(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	return gpuavDbgIn(t, "", env, args...)
}

// gpuavDbgIn runs gpuav-dbg in dir ("" the test's directory) and returns
// its exit status and output.
func gpuavDbgIn(t *testing.T, dir string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin("gpuav-dbg"), args...)
	cmd.Dir = dir
	var judge func()
	cmd.Env, judge = refereeEnv(t, env, args[len(args)-1], args)
	defer judge()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		t.Fatalf("run gpuav-dbg: %v", err)
	}
	return 0, out.String()
}

// checkDemoSARIF reads a SARIF file and checks the demo's two results at
// their shader lines, in the repository (the checkout's top level is the
// source root); it returns the file.
func checkDemoSARIF(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sariftest.Check(t, data)
	var d sarifResults
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 1 || len(d.Runs[0].Results) != 2 {
		t.Fatalf("want one run with 2 results:\n%s", data)
	}
	byStage := map[string]int{}
	for i, r := range d.Runs[0].Results {
		byStage[r.Properties.Stage] = i
	}
	for _, w := range []struct {
		stage, uri, action, snippet string
		line, count                 int
	}{
		{"compute", "examples/demo/shaders/oob_compute.comp", "vkCmdDispatch", "    outs[pc.idx].v[i] = i * 3u;", 9, 4},
		{"fragment", "examples/demo/shaders/oob_fragment.frag", "vkCmdDraw", "texture(tex[pc.tex_ind], texcoord.xy)", 9, 64},
	} {
		i, ok := byStage[w.stage]
		if !ok {
			t.Fatalf("no %s result", w.stage)
		}
		r := d.Runs[0].Results[i]
		pl := r.Locations[0].PhysicalLocation
		if r.RuleID != "descriptor_index_oob" || r.Level != "error" || r.OccurrenceCount != w.count || r.Properties.Action != w.action ||
			pl.ArtifactLocation.URI != w.uri || pl.ArtifactLocation.URIBaseID != "SRCROOT" || pl.Region.StartLine != w.line ||
			!strings.Contains(pl.Region.Snippet.Text, w.snippet) {
			t.Errorf("%s result: %+v", w.stage, r)
		}
	}
	return data
}

// TestDemoSARIF runs the demo with --sarif from the checkout's top level,
// its shaders' directory as the source path, validates the log against
// the SARIF 2.1.0 schema with the files relative to the repository and the
// exact shader lines, then writes it again from the saved session with
// `open --sarif` (from another directory of the checkout): the same
// results.
func TestDemoSARIF(t *testing.T) {
	dir := t.TempDir()
	out, sess := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "s.gvs")
	code, stderr := gpuavDbgIn(t, root, nil, "run", "--headless", "--sarif", out, "--session", sess,
		"--source-path", "examples/demo/shaders", "--", "bin/demo")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	live := checkDemoSARIF(t, out)

	again := filepath.Join(dir, "again.sarif")
	if code, stderr := gpuavDbgIn(t, filepath.Join(root, "e2e"), nil, "open", sess, "--sarif", again); code != 0 {
		t.Fatalf("open --sarif: exit %d\n%s", code, stderr)
	}
	reopened := checkDemoSARIF(t, again)
	var a, b struct {
		Runs []struct {
			Results json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if json.Unmarshal(live, &a) != nil || json.Unmarshal(reopened, &b) != nil || !bytes.Equal(a.Runs[0].Results, b.Runs[0].Results) {
		t.Fatalf("results differ between the run and the reopened session:\n%s\n%s", a.Runs[0].Results, b.Runs[0].Results)
	}
}

// TestDemoCommandSARIF: `gpuav-dbg demo` knows its shaders' directory in a
// build tree, so its SARIF points into the repository without
// --source-path.
func TestDemoCommandSARIF(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.sarif")
	code, stderr := gpuavDbg(t, nil, "demo", "--headless", "--sarif", out, "--session", filepath.Join(t.TempDir(), "s.gvs"))
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	checkDemoSARIF(t, out)
}

// TestHistoryList runs the demo twice into a fresh state directory and
// lists the runs.
func TestHistoryList(t *testing.T) {
	env := []string{"XDG_STATE_HOME=" + t.TempDir()}
	for range 2 {
		if code, out := gpuavDbg(t, env, "run", "--headless", "--", bin("demo")); code != 1 {
			t.Fatalf("run: exit %d\n%s", code, out)
		}
	}
	code, out := gpuavDbg(t, env, "open", "--list", "demo")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("open --list: exit %d\n%s", code, out)
	}
	for _, l := range lines {
		if !strings.Contains(l, "  demo  2 error groups (68 records); app exited 0  ") || !strings.HasSuffix(l, ".gvs") {
			t.Errorf("line %q", l)
		}
	}
	if code, out := gpuavDbg(t, env, "open", "--list", "nosuchapp"); code != 0 || !strings.Contains(out, "no saved runs of nosuchapp") {
		t.Errorf("no runs: exit %d %q", code, out)
	}
}
