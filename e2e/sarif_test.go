package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	sariftest.CheckCodeScanning(t, data)
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
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasSuffix(l, ".gvs") {
			lines = append(lines, l)
		}
	}
	if code != 0 || len(lines) != 2 || !strings.Contains(out, "gpuav-dbg: 2 runs, ") {
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

// sarifRun is what TestDrawSceneSARIF reads of a log.
type sarifRun struct {
	Runs []struct {
		Invocations []struct {
			Notifications []struct {
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID              string            `json:"ruleId"`
			OccurrenceCount     int               `json:"occurrenceCount"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Message             struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			Properties struct {
				Count   int `json:"count"`
				Actions int `json:"actions"`
			} `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

// buildScene builds the bench scene and the draw scene's shaders.
func buildScene(t *testing.T) string {
	t.Helper()
	scene := filepath.Join(root, "bin", "bench", "scene")
	if os.Getenv(envPrebuilt) != "" {
		if _, err := os.Stat(scene); err != nil {
			t.Skipf("no %s in a prebuilt run", scene)
		}
		return scene
	}
	cmd := exec.Command("make", "-s", "bin/bench/scene", "bin/bench/spv/draw.vert.spv", "bin/bench/spv/draw.frag.spv")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make: %v\n%s", err, out)
	}
	return scene
}

// TestDrawSceneSARIF runs the 10,000-draw bench scene with its one bad
// descriptor index (--oob: every draw reads tex[4] of 4) twice, from the
// checkout's top level with no --source-path: hundreds of error groups
// (one per draw whose records fit), one SARIF result with their count, at
// the shader file the repository holds, with the same fingerprint in both
// runs.
func TestDrawSceneSARIF(t *testing.T) {
	scene := buildScene(t)
	var fingerprints []string
	for i := range 2 {
		dir := t.TempDir()
		out, rep := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "r.json")
		code, stderr := gpuavDbgIn(t, root, nil, "run", "--headless", "--sarif", out, "--json", rep, "--session", filepath.Join(dir, "s.gvs"),
			"--", scene, "--scene", "draw", "--draws", "10000", "--sets", "64", "--warmup", "0", "--iters", "1", "--oob")
		if code != 1 {
			t.Fatalf("run %d: exit %d, want 1\n%s", i, code, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		sariftest.Check(t, data)
		sariftest.CheckCodeScanning(t, data)
		var r report
		raw, err := os.ReadFile(rep)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, e := range r.Errors {
			total += e.Count
		}
		var d sarifRun
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		if len(r.Errors) < 100 || len(d.Runs) != 1 || len(d.Runs[0].Results) != 1 {
			t.Fatalf("run %d: %d error groups, want 100 or more, and one SARIF result:\n%s", i, len(r.Errors), data)
		}
		res := d.Runs[0].Results[0]
		pl := res.Locations[0].PhysicalLocation
		if res.RuleID != "descriptor_index_oob" || res.OccurrenceCount != total || res.Properties.Count != total ||
			res.Properties.Actions != len(r.Errors) || pl.ArtifactLocation.URI != "bench/scenes/shaders/draw.frag" ||
			pl.ArtifactLocation.URIBaseID != "SRCROOT" || pl.Region.StartLine != 11 ||
			!strings.Contains(res.Message.Text, fmt.Sprintf("%d failed accesses in %d actions", total, len(r.Errors))) {
			t.Fatalf("run %d: result (want count %d in %d actions) %+v", i, total, len(r.Errors), res)
		}
		for _, n := range d.Runs[0].Invocations[0].Notifications {
			if strings.Contains(n.Message.Text, "source file") {
				t.Errorf("run %d: notification %q", i, n.Message.Text)
			}
		}
		fingerprints = append(fingerprints, res.PartialFingerprints["gpuavDbgResult/v2"])
	}
	if fingerprints[0] == "" || fingerprints[0] != fingerprints[1] {
		t.Fatalf("fingerprints %q", fingerprints)
	}
}

// TestDemoSARIFFindsSources: without --source-path, the demo's shader
// files are found in the repository by their names and text; a run from
// outside any checkout keeps the bare names and says why.
func TestDemoSARIFFindsSources(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.sarif")
	code, stderr := gpuavDbgIn(t, root, nil, "run", "--headless", "--sarif", out, "--session", filepath.Join(dir, "s.gvs"), "--", "bin/demo")
	if code != 1 || strings.Contains(stderr, "SARIF:") {
		t.Fatalf("exit %d, want 1 and no SARIF warning\n%s", code, stderr)
	}
	checkDemoSARIF(t, out)

	outside := t.TempDir()
	out = filepath.Join(outside, "out.sarif")
	code, stderr = gpuavDbgIn(t, outside, nil, "open", filepath.Join(dir, "s.gvs"), "--sarif", out)
	if code != 0 || !strings.Contains(stderr, "gpuav-dbg: SARIF: source file oob_compute.comp is not in the repository "+outside) {
		t.Fatalf("open --sarif outside the checkout: exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sariftest.Check(t, data)
	sariftest.CheckCodeScanning(t, data)
	if !strings.Contains(string(data), `"uri": "oob_compute.comp"`) || !strings.Contains(string(data), `"level": "warning",
              "message": {
                "text": "source file oob_compute.comp is not in the repository`) {
		t.Fatalf("log:\n%s", data)
	}
}
