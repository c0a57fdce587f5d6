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
	cmd := exec.Command(bin("gpuav-dbg"), args...)
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

// checkDemoSARIF checks the demo's two results at their shader lines.
func checkDemoSARIF(t *testing.T, data []byte) {
	t.Helper()
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
		{"compute", "oob_compute.comp", "vkCmdDispatch", "    outs[pc.idx].v[i] = i * 3u;", 9, 4},
		{"fragment", "oob_fragment.frag", "vkCmdDraw", "texture(tex[pc.tex_ind], texcoord.xy)", 9, 64},
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
}

// TestDemoSARIF runs the demo with --sarif, validates the log against the
// SARIF 2.1.0 schema with the exact shader lines, then writes it again
// from the saved session with `open --sarif`: the same results.
func TestDemoSARIF(t *testing.T) {
	dir := t.TempDir()
	out, sess := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "s.gvs")
	code, stderr := gpuavDbg(t, nil, "run", "--headless", "--sarif", out, "--session", sess, "--", bin("demo"))
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	live, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkDemoSARIF(t, live)

	again := filepath.Join(dir, "again.sarif")
	if code, stderr := gpuavDbg(t, nil, "open", sess, "--sarif", again); code != 0 {
		t.Fatalf("open --sarif: exit %d\n%s", code, stderr)
	}
	reopened, err := os.ReadFile(again)
	if err != nil {
		t.Fatal(err)
	}
	checkDemoSARIF(t, reopened)
	var a, b struct {
		Runs []struct {
			Results json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if json.Unmarshal(live, &a) != nil || json.Unmarshal(reopened, &b) != nil || !bytes.Equal(a.Runs[0].Results, b.Runs[0].Results) {
		t.Fatalf("results differ between the run and the reopened session:\n%s\n%s", a.Runs[0].Results, b.Runs[0].Results)
	}
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
