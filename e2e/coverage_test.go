package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// coverageJSON is the report's coverage as the test reads it.
type coverageJSON struct {
	Submits             uint64  `json:"submits"`
	CommandBuffers      *uint64 `json:"command_buffers"`
	Actions             *uint64 `json:"actions"`
	ActionsInstrumented *uint64 `json:"actions_instrumented"`
	ActionsPrecise      *uint64 `json:"actions_precise"`
	Shaders             struct {
		Seen           int   `json:"seen"`
		Instrumented   int   `json:"instrumented"`
		NothingToCheck int   `json:"nothing_to_check"`
		LeftOut        []any `json:"left_out"`
	} `json:"shaders"`
	Pipelines struct {
		Seen           int   `json:"seen"`
		Instrumented   int   `json:"instrumented"`
		NothingToCheck int   `json:"nothing_to_check"`
		LeftOut        []any `json:"left_out"`
	} `json:"pipelines"`
	Checks []struct {
		Check     string `json:"check"`
		State     string `json:"state"`
		Command   bool   `json:"command"`
		Shaders   int    `json:"shaders"`
		Sites     int    `json:"sites"`
		Pipelines int    `json:"pipelines"`
	} `json:"checks"`
	ChecksCounted bool `json:"checks_counted"`
}

// TestDemoCoverage: the demo's coverage, exact: 2 submits of 2 command
// buffers with 2 actions (the dispatch and the draw), both instrumented
// and both running their pipeline's precise variant (the index the fast
// variant takes for granted, from the push constant, is out of range);
// 3 shaders (the compute and fragment shaders instrumented, the vertex
// shader with nothing to check), 2 pipelines, both instrumented; and for
// each check the accesses, shaders and pipelines it was built into — in
// the JSON report, the headless output and SARIF's run properties.
func TestDemoCoverage(t *testing.T) {
	dir := t.TempDir()
	rep, sarif := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.sarif")
	code, out := gpuavDbgIn(t, root, nil, "run", "--headless", "--json", rep, "--sarif", sarif, "--session", filepath.Join(dir, "s.gvs"),
		"--", "bin/demo")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var r struct {
		Coverage coverageJSON `json:"coverage"`
	}
	data, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	cv := r.Coverage
	if cv.Submits != 2 || !isU64(cv.CommandBuffers, 2) || !isU64(cv.Actions, 2) || !isU64(cv.ActionsInstrumented, 2) ||
		!isU64(cv.ActionsPrecise, 2) || !cv.ChecksCounted ||
		cv.Shaders.Seen != 3 || cv.Shaders.Instrumented != 2 || cv.Shaders.NothingToCheck != 1 || len(cv.Shaders.LeftOut) != 0 ||
		cv.Pipelines.Seen != 2 || cv.Pipelines.Instrumented != 2 || cv.Pipelines.NothingToCheck != 0 || len(cv.Pipelines.LeftOut) != 0 {
		t.Fatalf("coverage %+v", cv)
	}
	type row struct {
		state                     string
		command                   bool
		shaders, sites, pipelines int
	}
	got := map[string]row{}
	for _, c := range cv.Checks {
		got[c.Check] = row{c.State, c.Command, c.Shaders, c.Sites, c.Pipelines}
	}
	want := map[string]row{
		// outs[pc.idx] (compute) and tex[pc.tex_ind] (fragment), and the
		// compute shader's two buffer accesses.
		"descriptor_index_oob":         {"on", false, 2, 4, 2},
		"descriptor_uninitialized":     {"on", false, 2, 3, 2},
		"descriptor_destroyed":         {"on", false, 2, 3, 2},
		"buffer_oob":                   {"on", false, 1, 2, 1},
		"texel_buffer_oob":             {"on", false, 0, 0, 0},
		"bda_oob":                      {"on", false, 0, 0, 0},
		"ray_query":                    {"on", false, 0, 0, 0},
		"trace_ray":                    {"on", false, 0, 0, 0},
		"sanitizer_divide":             {"on", false, 0, 0, 0},
		"sanitizer_pow":                {"off", false, 0, 0, 0},
		"sanitizer_atan2":              {"on", false, 0, 0, 0},
		"sanitizer_minmax":             {"off", false, 0, 0, 0},
		"sanitizer_gather":             {"on", false, 0, 0, 0},
		"mesh_outputs":                 {"on", false, 0, 0, 0},
		"mesh_task_payload":            {"on", false, 0, 0, 0},
		"bda_alignment":                {"on", false, 0, 0, 0},
		"cooperative_matrix_alignment": {"on", false, 0, 0, 0},
		"shared_memory_race":           {"on", false, 0, 0, 0},
		"barrier_divergence":           {"on", false, 0, 0, 0},
		"loop_budget":                  {"on", false, 0, 0, 0},
		"index_buffer_oob":             {"on", true, 0, 0, 0},
		"vertex_fetch_oob":             {"on", true, 0, 0, 0},
		"indirect_command":             {"on", true, 0, 0, 0},
		"acceleration_structure_build": {"on", true, 0, 0, 0},
		"depth_copy_range":             {"on", true, 0, 0, 0},
	}
	// A check the device cannot run is "unavailable" there.
	for id, w := range want {
		if g, ok := got[id]; ok && g.state == "unavailable" {
			w.state = "unavailable"
			want[id] = w
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("checks\n%v\nwant\n%v", got, want)
	}
	for _, l := range []string{
		"gpuav-dbg: checked: 2 submits · 2 command buffers · 2 actions: 2 instrumented (2 precise) · 3 shaders: 2 instrumented, " +
			"1 with nothing to check · 2 pipelines: 2 instrumented\n",
		"gpuav-dbg:   descriptor_index_oob: 4 accesses in 2 shaders, 2 pipelines\n",
		"gpuav-dbg:   buffer_oob: 2 accesses in 1 shader, 1 pipeline\n",
		"gpuav-dbg:   index_buffer_oob: by the layer on its commands\n",
	} {
		if !strings.Contains(out, l) {
			t.Errorf("headless output lacks %q:\n%s", l, out)
		}
	}
	s, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Properties struct {
				Coverage coverageJSON `json:"coverage"`
			} `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(s, &log); err != nil || !reflect.DeepEqual(log.Runs[0].Properties.Coverage, cv) {
		t.Fatalf("SARIF coverage %v: %+v", err, log.Runs[0].Properties.Coverage)
	}
}

// isU64 says whether p points at want.
func isU64(p *uint64, want uint64) bool { return p != nil && *p == want }
