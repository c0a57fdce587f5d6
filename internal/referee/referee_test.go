package referee

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParse reads a log of the Khronos layer 1.3.239 (the format its
// log_filename setting writes): one message per header line, the object
// lines under it skipped.
func TestParse(t *testing.T) {
	b, err := os.ReadFile("testdata/khronos.log")
	if err != nil {
		t.Fatal(err)
	}
	msgs := Parse(b)
	want := []struct{ id, sev, start string }{
		{"VUID-VkImageViewCreateInfo-pNext-pNext", "ERROR", "Validation Error: [ VUID-VkImageViewCreateInfo-pNext-pNext ]"},
		{"VUID-vkCmdTraceRaysIndirect2KHR-rayTracingPipelineTraceRaysIndirect2-03637", "ERROR", "Validation Error: [ VUID-vkCmdTraceRaysIndirect2KHR"},
		{"UNASSIGNED-CoreValidation-Shader-OutputNotConsumed", "WARNING", "Validation Performance Warning:"},
	}
	if len(msgs) != len(want) {
		t.Fatalf("%d messages, want %d: %v", len(msgs), len(want), msgs)
	}
	for i, w := range want {
		if m := msgs[i]; m.ID != w.id || m.Severity != w.sev || !strings.HasPrefix(m.Text, w.start) {
			t.Errorf("message %d: %+v, want %s %s %q...", i, m, w.id, w.sev, w.start)
		}
	}
}

// TestUnexpected: a Known message is the app's only in a run of that app
// with those arguments.
func TestUnexpected(t *testing.T) {
	b, _ := os.ReadFile("testdata/khronos.log")
	msgs := Parse(b)
	for _, tc := range []struct {
		app  string
		args []string
		want []string // the unexpected messages' ids
	}{
		{"stageapp", []string{"--stage", "rchit", "--action", "indirect2"}, []string{msgs[0].ID, msgs[2].ID}},
		{"stageapp", []string{"--stage", "rchit", "--action", "indirect"}, []string{msgs[0].ID, msgs[1].ID, msgs[2].ID}},
		{"descapp", []string{"--action", "indirect2"}, []string{msgs[0].ID, msgs[1].ID, msgs[2].ID}},
	} {
		var got []string
		for _, m := range Unexpected(tc.app, tc.args, msgs) {
			got = append(got, m.ID)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s %v: unexpected %v, want %v", tc.app, tc.args, got, tc.want)
		}
	}
}

// TestKnownHaveReasons: every Known message names its app and id and says
// why the app, not our layer, causes it.
func TestKnownHaveReasons(t *testing.T) {
	for _, k := range KnownMessages {
		if k.App == "" || k.ID == "" || len(k.Reason) < 40 {
			t.Errorf("%+v: a known message needs its app, its id and a reason", k)
		}
	}
	for _, s := range Skips {
		if s.App == "" || s.Args == "" || len(s.Reason) < 40 {
			t.Errorf("%+v: a skip needs its app, the arguments it is for and a reason", s)
		}
	}
}

// TestStart: the run's environment adds the Khronos layer after ours,
// drops the Khronos layer's own enables (GPU-AV stays off), keeps the
// app's settings file and adds the referee's lines to a copy of it.
func TestStart(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err) // the e2e and layer suites fail on it
	}
	dir := t.TempDir()
	app := filepath.Join(dir, "app.txt")
	if err := os.WriteFile(app, []byte("gpuavdbg.check_bda_oob = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, env, err := Start(dir, []string{"A=1", "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation",
		"VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT", "VK_LAYER_SETTINGS_PATH=" + app})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "vk_layer_settings.txt")
	want := []string{"A=1", "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation:" + Layer, "VK_LAYER_SETTINGS_PATH=" + file}
	if d := os.Getenv(EnvLayerPath); d != "" {
		want = slices.Insert(want, 2, "VK_ADD_LAYER_PATH="+d)
	}
	if !slices.Equal(env, want) {
		t.Errorf("env %q, want %q", env, want)
	}
	b, _ := os.ReadFile(file)
	if s := string(b); !strings.HasPrefix(s, "gpuavdbg.check_bda_oob = false\n") ||
		!strings.Contains(s, "khronos_validation.log_filename = "+r.log+"\n") {
		t.Errorf("settings file:\n%s", s)
	}
	if msgs, err := r.Messages(); err != nil || len(msgs) != 0 {
		t.Errorf("a run that logged nothing: %v, %v", msgs, err)
	}
}

// TestKnownText: a Known entry with Text explains only messages with that
// text: a structure the referee is too old for, not any unknown structure.
func TestKnownText(t *testing.T) {
	old := Message{ID: "VUID-VkDeviceCreateInfo-pNext-pNext", Text: "vkCreateDevice: pCreateInfo->pNext chain includes a structure with unknown VkStructureType (1000470000); Allowed structures are [...]"}
	other := old
	other.Text = strings.Replace(old.Text, "1000470000", "1000999000", 1)
	if KnownFor("multi", nil, old) == nil {
		t.Errorf("maintenance5's features structure is not known: %v", old)
	}
	if k := KnownFor("multi", nil, other); k != nil {
		t.Errorf("an unknown structure the referee is not too old for is explained by %+v", k)
	}
}

// TestSkipFor: the referee stays out of the listed runs only.
func TestSkipFor(t *testing.T) {
	for _, tc := range []struct {
		app  string
		args []string
		skip bool
	}{
		{"multi", []string{"--comp", "c.spv", "--mode", "push", "--comp", "p.spv"}, true},
		{"multi", []string{"--comp", "c.spv", "--mode", "render"}, false},
		{"vkapp", []string{"--shader", "s.spv", "--reserve-features"}, true},
		{"vkapp", []string{"--shader", "s.spv"}, false},
	} {
		if got := SkipFor(tc.app, tc.args) != nil; got != tc.skip {
			t.Errorf("SkipFor(%s %v) = %v, want %v", tc.app, tc.args, got, tc.skip)
		}
	}
}
