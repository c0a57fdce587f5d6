package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	layeroptions "github.com/gpuav-dbg/gpuav-dbg/options"
)

// Configurations, in the order a repetition starts with (each repetition
// rotates the order by one, so no configuration always runs first).
const (
	ConfigNone = "none"
	// ConfigOurs is gpuav-dbg with its default checks.
	ConfigOurs = "gpuav-dbg"
	// ConfigOursAll is gpuav-dbg with every check on (buffer_oob and the
	// element checks on sized arrays and plain bindings included).
	ConfigOursAll = "gpuav-dbg-all"
	// ConfigRobust is gpuav-dbg's robust-only mode
	// (VK_LAYER_GPUAV_DBG_ROBUST=1): every check clamps, nothing is
	// reported.
	ConfigRobust = "gpuav-dbg-robust"
	// ConfigDriverRobust is no layer, the device created with
	// VK_EXT_robustness2's robustBufferAccess2 and robustImageAccess2
	// (BENCH_ROBUSTNESS2=1): the driver's own robustness.
	ConfigDriverRobust = "driver-robust"
	// ConfigKhronos is the Khronos layer the loader finds (or
	// -khronos-layer-path), GPU-AV only.
	ConfigKhronos = "khronos"
	// ConfigKhronos2 is a second Khronos layer version (-khronos2-layer-path:
	// on the NVIDIA machine, Debian trixie's 1.4.309), GPU-AV only.
	ConfigKhronos2 = "khronos2"
	// refPrefix + a reference variant's name is that variant's runs (no
	// layer) in SceneResult.Runs.
	refPrefix = "ref:"
)

// Configs lists the configurations of a run without a second Khronos
// layer; the harness adds ConfigKhronos2 when it has one. ConfigOursAll,
// ConfigRobust and ConfigDriverRobust run only when asked for (-configs):
// the defaults are every check.
var Configs = []string{ConfigNone, ConfigOurs, ConfigKhronos}

// allConfigs lists every configuration, in rotation order.
var allConfigs = []string{ConfigNone, ConfigOurs, ConfigOursAll, ConfigRobust, ConfigDriverRobust, ConfigKhronos, ConfigKhronos2}

// legacyConfigs are the configurations of a results file that names none.
var legacyConfigs = []string{ConfigNone, ConfigOurs, ConfigKhronos}

// SceneSpec is one scene with its sizes.
type SceneSpec struct {
	Name string
	// App is the app's --scene (empty: Name).
	App    string
	Args   []string // size flags for the scene app
	Warmup int
	Iters  int
	Target float64 // the ratio target for our layer
	// Refs are variants of the scene the app checks by hand, run with no
	// layer in every repetition beside the configurations: what an
	// instrumentation could cost at best.
	Refs []Ref
}

// Ref is a reference variant: a name and the app flags that select it.
type Ref struct {
	Name string
	Args []string
	// BadIndex: the variant assumes every buffer bound whole (the ranges
	// decided on the CPU, as the layer's fast variant does), so its
	// negative control is --bad-index, whose failures it must count
	// exactly (BadIndexRecords), not --oob.
	BadIndex bool
}

func (s SceneSpec) app() string {
	if s.App != "" {
		return s.App
	}
	return s.Name
}

// Preset is a set of sizes for one kind of device.
type Preset []SceneSpec

// Scene returns the preset's scene called name.
func (p Preset) Scene(name string) (SceneSpec, bool) {
	for _, s := range p {
		if s.Name == name {
			return s, true
		}
	}
	return SceneSpec{}, false
}

// hotloop is the hot-loop scene's two variants with workgroups
// workgroups of 64, each with its hand-checked references.
func hotloop(workgroups string, warmup, iters int) []SceneSpec {
	size := []string{"--workgroups", workgroups}
	refs := func(names ...string) []Ref {
		var r []Ref
		for _, n := range names {
			r = append(r, Ref{Name: n, Args: append([]string{"--variant", n}, size...)})
		}
		return r
	}
	fast := func(names ...string) []Ref {
		r := refs(names...)
		for i := range r {
			r[i].BadIndex = true
		}
		return r
	}
	return []SceneSpec{
		{Name: "hotloop-masked", App: "hotloop", Args: append([]string{"--variant", "masked"}, size...),
			Warmup: warmup, Iters: iters, Target: 1.10, Refs: refs("masked_flag", "masked_hoisted")},
		{Name: "hotloop-memory", App: "hotloop", Args: append([]string{"--variant", "memory"}, size...),
			Warmup: warmup, Iters: iters, Target: 1.30, Refs: append(refs("naive", "hoisted", "flag"), fast("guard", "select")...)},
		// The shader sanitizer's: a division by a divisor from memory and
		// pow/min/max of floats from memory in every iteration
		// (docs/decisions/shader-sanitizer.md).
		{Name: "hotloop-math", App: "hotloop", Args: append([]string{"--variant", "math"}, size...),
			Warmup: warmup, Iters: iters, Target: 1.10},
	}
}

// Presets: "gpu" is the sizes; "lavapipe" keeps a full run on a
// 2-core CPU Vulkan under about ten minutes (the hot loop with 2,048
// workgroups instead of 65,536).
var Presets = map[string]Preset{
	"gpu": append([]SceneSpec{
		{Name: "dispatch", Args: []string{"--dispatches", "1000"}, Warmup: 3, Iters: 20, Target: 1.10},
		{Name: "shader", Args: []string{"--invocations", "1048576", "--loops", "1024"}, Warmup: 3, Iters: 20, Target: 1.5},
		{Name: "draw", Args: []string{"--draws", "10000", "--sets", "64"}, Warmup: 3, Iters: 20, Target: 1.15},
		{Name: "draw_indirect", Args: []string{"--draws", "10000", "--sets", "64"}, Warmup: 3, Iters: 20, Target: 1.15},
	}, append(hotloop("65536", 3, 20),
		SceneSpec{Name: "reduce", Args: []string{"--workgroups", "65536"}, Warmup: 3, Iters: 20, Target: 1.5},
		SceneSpec{Name: "pipeline", Args: nil, Warmup: 1, Iters: 2, Target: 1.5},
		// The corpus created from 8 threads at once (no layer with the
		// same threads).
		SceneSpec{Name: "pipeline-threads", App: "pipeline", Args: []string{"--threads", "8"}, Warmup: 1, Iters: 2,
			Target: 1.2})...),
	"lavapipe": append([]SceneSpec{
		{Name: "dispatch", Args: []string{"--dispatches", "1000"}, Warmup: 2, Iters: 8, Target: 1.10},
		{Name: "shader", Args: []string{"--invocations", "131072", "--loops", "256"}, Warmup: 1, Iters: 6, Target: 1.5},
		{Name: "draw", Args: []string{"--draws", "10000", "--sets", "64"}, Warmup: 1, Iters: 6, Target: 1.15},
		{Name: "draw_indirect", Args: []string{"--draws", "10000", "--sets", "64"}, Warmup: 1, Iters: 6, Target: 1.15},
	}, append(hotloop("2048", 1, 6),
		SceneSpec{Name: "reduce", Args: []string{"--workgroups", "2048"}, Warmup: 1, Iters: 6, Target: 1.5},
		SceneSpec{Name: "pipeline", Args: nil, Warmup: 1, Iters: 2, Target: 1.5},
		// The corpus created from 8 threads at once (no layer with the
		// same threads).
		SceneSpec{Name: "pipeline-threads", App: "pipeline", Args: []string{"--threads", "8"}, Warmup: 1, Iters: 2,
			Target: 1.2})...),
}

// checkArgs are the small sizes of the correctness runs.
var checkArgs = map[string][]string{
	"dispatch":         {"--dispatches", "64"},
	"shader":           {"--invocations", "4096", "--loops", "16"},
	"draw":             {"--draws", "256", "--sets", "8"},
	"draw_indirect":    {"--draws", "256", "--sets", "8"},
	"hotloop-masked":   {"--variant", "masked", "--workgroups", "16"},
	"hotloop-memory":   {"--variant", "memory", "--workgroups", "16"},
	"hotloop-math":     {"--variant", "math", "--workgroups", "16"},
	"reduce":           {"--workgroups", "16"},
	"pipeline":         nil,
	"pipeline-threads": {"--threads", "8"},
}

// Results is everything one harness run measured; -json writes it and
// -render reads it back.
type Results struct {
	Preset  string    `json:"preset"`
	Date    string    `json:"date"`
	Machine Machine   `json:"machine"`
	Device  string    `json:"device"`
	Driver  string    `json:"driver"`
	Layers  LayerInfo `json:"layers"`
	Command string    `json:"command"`
	Reps    int       `json:"reps"`
	// Configs are the configurations run, in rotation order (absent in
	// older files: none, gpuav-dbg, khronos).
	Configs []string      `json:"configs,omitempty"`
	Checks  []string      `json:"checks"`
	Scenes  []SceneResult `json:"scenes"`
}

// Machine describes the host.
type Machine struct {
	CPU   string `json:"cpu"`
	Cores int    `json:"cores"`
	OS    string `json:"os"`
	// Load is /proc/loadavg's 1-minute figure when the runs started and
	// when they ended: other work on the machine shows in the numbers.
	Load string `json:"load,omitempty"`
}

// LoadAvg returns the 1-minute load average, or "?".
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// LayerInfo names the layer versions.
type LayerInfo struct {
	Ours     string `json:"ours"`
	Khronos  string `json:"khronos"`
	Khronos2 string `json:"khronos2,omitempty"`
}

// configs returns the configurations of the results.
func (r *Results) configs() []string {
	if len(r.Configs) > 0 {
		return r.Configs
	}
	return legacyConfigs
}

// SceneResult is one scene's timings: per configuration, the median
// per-iteration time of each run (one run per repetition) and their median.
type SceneResult struct {
	Name   string  `json:"name"`
	Size   string  `json:"size"`
	Warmup int     `json:"warmup"`
	Iters  int     `json:"iters"`
	Target float64 `json:"target"`
	// Refs names the reference variants, whose runs are under
	// "ref:<name>" in Runs and Median.
	Refs   []string           `json:"refs,omitempty"`
	Runs   map[string][]int64 `json:"runs"`
	Median map[string]int64   `json:"median"`
}

// Ratio returns config's median over no layer's.
func (s SceneResult) Ratio(config string) float64 {
	if s.Median[ConfigNone] == 0 {
		return 0
	}
	return float64(s.Median[config]) / float64(s.Median[ConfigNone])
}

// Judged is the configuration the target applies to: every check on
// (the defaults) when it ran, else the default checks.
func (s SceneResult) Judged() string {
	if _, ok := s.Median[ConfigOursAll]; ok {
		return ConfigOursAll
	}
	return ConfigOurs
}

// Met reports whether our layer (Judged) met the target and beat the
// Khronos layer (true when the Khronos layer did not run).
func (s SceneResult) Met() (target, beatsKhronos bool) {
	r := s.Ratio(s.Judged())
	_, ran := s.Median[ConfigKhronos]
	return r <= s.Target, !ran || r < s.Ratio(ConfigKhronos)
}

// Harness runs the scene app.
type Harness struct {
	scene    string   // bin/bench/scene, absolute
	launcher string   // bin/gpuav-dbg, absolute
	layerDir string   // directory of our manifest, absolute
	khronos  string   // VK_ADD_LAYER_PATH for the Khronos layer, or ""
	khronos2 string   // VK_ADD_LAYER_PATH for ConfigKhronos2, or ""
	only     []string // the configurations to run (nil: every one)
}

// NewHarness finds the binaries under binDir. khronosPath and khronos2Path
// are directories of Khronos layer manifests ("" for the first: the
// loader's search path; "" for the second: no ConfigKhronos2).
func NewHarness(binDir, khronosPath, khronos2Path string) (*Harness, error) {
	abs, err := filepath.Abs(binDir)
	if err != nil {
		return nil, fmt.Errorf("bin directory: %w", err)
	}
	h := &Harness{
		scene:    filepath.Join(abs, "bench", "scene"),
		launcher: filepath.Join(abs, "gpuav-dbg"),
		layerDir: abs,
		khronos:  khronosPath,
		khronos2: khronos2Path,
	}
	for _, f := range []string{h.scene, h.launcher, filepath.Join(abs, "VkLayer_gpuav_dbg.json"), filepath.Join(abs, "libVkLayer_gpuav_dbg.so")} {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("missing %s (run make bench-apps): %w", f, err)
		}
	}
	return h, nil
}

// env returns the environment of one configuration: this process's,
// without any layer selection, plus the configuration's. The drivers'
// on-disk shader caches are off in all three, so the pipeline scene
// measures compiles.
func (h *Harness) env(config string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "VK_INSTANCE_LAYERS", k == "VK_LOADER_LAYERS_ENABLE", k == "VK_ADD_LAYER_PATH",
			k == "VK_LAYER_ENABLES", k == "BENCH_KHRONOS_GPUAV", k == "BENCH_ROBUSTNESS2", strings.HasPrefix(k, "VK_LAYER_GPUAV_DBG_"):
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "MESA_SHADER_CACHE_DISABLE=true", "__GL_SHADER_DISK_CACHE=0")
	switch config {
	case ConfigOurs, ConfigOursAll, ConfigRobust:
		env = append(env, "VK_ADD_LAYER_PATH="+h.layerDir, "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation")
		switch config {
		case ConfigOursAll:
			env = append(env, everyCheckEnv...)
		case ConfigRobust:
			env = append(env, "VK_LAYER_GPUAV_DBG_ROBUST=1")
		}
	case ConfigDriverRobust:
		env = append(env, "BENCH_ROBUSTNESS2=1")
	case ConfigKhronos, ConfigKhronos2:
		env = append(env, "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation", "BENCH_KHRONOS_GPUAV=1")
		path := h.khronos
		if config == ConfigKhronos2 {
			path = h.khronos2
		}
		if path != "" {
			env = append(env, "VK_ADD_LAYER_PATH="+path)
		}
	}
	return env
}

// everyCheckEnv switches every check of our layer on, whatever its
// defaults (the registry's, with the opt-in ones; layer/settings.go names
// the variables).
var everyCheckEnv = func() []string {
	env := []string{"VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=1"}
	for _, id := range gpuav.AllChecks {
		env = append(env, layeroptions.CheckEnv(id)+"=1")
	}
	return env
}()

// configs returns the configurations this harness runs.
func (h *Harness) configs() []string {
	all := Configs
	if h.khronos2 != "" {
		all = append(append([]string(nil), Configs...), ConfigKhronos2)
	}
	if h.only == nil {
		return all
	}
	var out []string
	for _, c := range allConfigs {
		if (c != ConfigKhronos2 || h.khronos2 != "") && slices.Contains(h.only, c) {
			out = append(out, c)
		}
	}
	return out
}

// Only restricts the runs to some configurations; no layer is always run
// (every ratio is to it).
func (h *Harness) Only(configs []string) error {
	all := allConfigs
	h.only = []string{ConfigNone}
	for _, c := range configs {
		c = strings.TrimSpace(c)
		switch {
		case !slices.Contains(all, c):
			return fmt.Errorf("unknown configuration %q (one of %s)", c, strings.Join(all, ", "))
		case c == ConfigKhronos2 && h.khronos2 == "":
			return fmt.Errorf("configuration %s needs -khronos2-layer-path", c)
		}
		h.only = append(h.only, c)
	}
	return nil
}

// runScene runs the scene app once and parses what it printed.
func (h *Harness) runScene(config string, argv []string) (Output, string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = h.env(config)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out, perr := ParseOutput(&stdout)
	if err != nil {
		return out, stderr.String(), fmt.Errorf("%s (%s): %w\n%s", strings.Join(argv, " "), config, err, tail(stderr.String(), 2000))
	}
	if perr != nil {
		return out, stderr.String(), perr
	}
	return out, stderr.String(), nil
}

func (h *Harness) sceneArgv(s SceneSpec, args []string, warmup, iters int, extra ...string) []string {
	argv := []string{h.scene, "--scene", s.app(), "--warmup", fmt.Sprint(warmup), "--iters", fmt.Sprint(iters)}
	argv = append(argv, args...)
	return append(argv, extra...)
}

// report is the part of gpuav-dbg's JSON report (docs/REPORT.md) the
// checks read.
type report struct {
	App struct {
		ExitCode int `json:"exit_code"`
	} `json:"app"`
	Errors []struct {
		Check   string `json:"check"`
		Message string `json:"message"`
		Count   int    `json:"count"`
		Loop    int    `json:"loop"`
	} `json:"errors"`
	Dropped int64 `json:"dropped_records"`
	Notices []struct {
		Text string `json:"text"`
	} `json:"notices"`
}

// launch runs the scene under `gpuav-dbg run --headless --json`, with
// every check on when all is true.
func (h *Harness) launch(argv []string, all bool) (report, error) {
	dir, err := os.MkdirTemp("", "gpuav-bench-")
	if err != nil {
		return report{}, fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	js := filepath.Join(dir, "report.json")
	args := []string{"run", "--headless", "--json", js, "--session", filepath.Join(dir, "s.gvs")}
	env := h.env(ConfigNone)
	if all {
		args = append(args, "--check", "buffer_oob=on")
		env = append(env, everyCheckEnv...)
	}
	cmd := exec.Command(h.launcher, append(append(args, "--"), argv...)...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	runErr := cmd.Run()
	b, err := os.ReadFile(js)
	if err != nil {
		return report{}, fmt.Errorf("gpuav-dbg run %s: no report (%v): %w\n%s", strings.Join(argv[1:], " "), runErr, err, tail(stderr.String(), 2000))
	}
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		return report{}, fmt.Errorf("gpuav-dbg report: %w", err)
	}
	return r, nil
}

// Check runs scene s small: clean under the launcher (zero errors, exit 0),
// then, for scenes that execute shaders, with --oob under the launcher and
// under the Khronos layer (errors expected from both), and each reference
// variant clean (no error of its own) and with --oob (its own checks
// report). It returns one line per check for the doc.
func (h *Harness) Check(s SceneSpec) ([]string, error) {
	argv := h.sceneArgv(s, checkArgs[s.Name], 0, 1)
	r, err := h.launch(argv, false)
	if err != nil {
		return nil, err
	}
	if r.App.ExitCode != 0 || len(r.Errors) != 0 {
		return nil, fmt.Errorf("check %s: clean run under gpuav-dbg: exit %d, %d error groups (want 0, 0)", s.Name, r.App.ExitCode, len(r.Errors))
	}
	notes := []string{fmt.Sprintf("%s: clean run under `gpuav-dbg run --headless --json`: 0 errors", s.Name)}
	if s.app() == "pipeline" {
		return notes, nil
	}
	oob := append(argv, "--oob")
	note, err := h.checkOOB(s, oob)
	if err != nil {
		return nil, err
	}
	notes = append(notes, note)
	if s.Name == "hotloop-memory" {
		note, err := h.checkBadIndex(argv)
		if err != nil {
			return nil, err
		}
		notes = append(notes, note)
	}
	for _, ref := range s.Refs {
		n, err := h.checkRef(s, ref)
		if err != nil {
			return nil, err
		}
		notes = append(notes, n)
	}
	return notes, nil
}

// BadIndexRecords is how many failures the index-from-memory hot loop
// with --bad-index must report over n workgroups of 64: one per invocation
// and iteration whose index word ((w + i) & 1023) is 2, every 64th. Its
// two reads of bufs[k] share one guard, and the buffers are bound whole,
// so nothing else fails. The guard is in the loop: each invocation writes
// one record for its BadIndexPerInvocation failures, which counts them
// (docs/decisions/loop-failures-folded.md).
// BadIndexPerInvocation is how many of an invocation's 256 iterations
// read index 2 (every 64th).
const BadIndexPerInvocation = 4

func BadIndexRecords(workgroups uint32) int64 {
	var n int64
	for w := uint32(0); w < workgroups; w++ {
		for i := uint32(0); i < 256; i++ {
			if (w+i)&1023%64 == 63 {
				n += 64
			}
		}
	}
	return n
}

// checkBadIndex runs the index-from-memory hot loop with only its
// descriptor indices out of bounds (--bad-index, buffers bound whole, so
// the layer's fast variant runs) under our layer with every check on: one
// descriptor_index_oob group whose count, with the failures dropped, is
// exactly the failing iterations (each invocation's four in one folded
// record: the group's loop count 4), and the app's results exact with
// those iterations' reads skipped (it exits 0 only then).
func (h *Harness) checkBadIndex(argv []string) (string, error) {
	r, err := h.launch(append(argv, "--bad-index"), true)
	if err != nil {
		return "", err
	}
	var wg uint32
	for i, a := range argv {
		if a == "--workgroups" && i+1 < len(argv) {
			_, _ = fmt.Sscan(argv[i+1], &wg)
		}
	}
	var n int64
	for _, e := range r.Errors {
		n += int64(e.Count)
	}
	want := BadIndexRecords(wg)
	if r.App.ExitCode != 0 || len(r.Errors) != 1 || r.Errors[0].Check != "descriptor_index_oob" || n+r.Dropped != want ||
		r.Errors[0].Loop != BadIndexPerInvocation {
		groups := map[string]int{}
		loop := 0
		for _, e := range r.Errors {
			groups[e.Check]++
			loop = max(loop, e.Loop)
		}
		return "", fmt.Errorf("check hotloop-memory --bad-index under gpuav-dbg: exit %d, groups %s, %d failures + %d dropped, loop count %d; want exit 0, one descriptor_index_oob group, %d failures, loop count %d",
			r.App.ExitCode, countList(groups), n, r.Dropped, loop, want, BadIndexPerInvocation)
	}
	return fmt.Sprintf("hotloop-memory --bad-index: gpuav-dbg (every check on) 1 descriptor_index_oob group, %d failures + %d dropped = every failing iteration once (%d per invocation, one record each), results exact",
		n, r.Dropped, BadIndexPerInvocation), nil
}

// checkOOB runs the scene's negative control under our layer and the
// Khronos layer(s). The hot loop's masked variant goes out of a buffer's
// range, not out of a descriptor array: every check is on for it, and a
// Khronos layer that does not check buffer ranges there is noted, not an
// error (1.3.239 checks them only on its bindless path).
func (h *Harness) checkOOB(s SceneSpec, oob []string) (string, error) {
	masked := s.Name == "hotloop-masked"
	all := strings.HasPrefix(s.Name, "hotloop")
	r, err := h.launch(oob, all)
	if err != nil {
		return "", err
	}
	groups := map[string]int{}
	for _, e := range r.Errors {
		groups[e.Check]++
	}
	want := "descriptor_index_oob"
	switch {
	case masked:
		want = "buffer_oob"
	case s.Name == "hotloop-math":
		want = "sanitizer_divide" // the Khronos layer 1.3.239 has no sanitizer
	}
	// The index-from-memory variant's --oob breaks both the index and the
	// ranges: on a GPU the buffer fills with whichever records come first
	// (on the H100, 4,095 buffer_oob records and the rest dropped), so
	// either check is the layer at work.
	if s.Name == "hotloop-memory" && groups[want] == 0 && r.Dropped > 0 {
		want = "buffer_oob"
	}
	if s.Name == "reduce" {
		// --oob drops the reduction's barriers: hazards, which the Khronos
		// layer 1.3.239 does not check.
		want = "shared_memory_race"
	}
	if groups[want] == 0 {
		return "", fmt.Errorf("check %s: --oob under gpuav-dbg reported no %s error (%s, %d dropped): is the layer instrumenting?",
			s.Name, want, countList(groups), r.Dropped)
	}
	mode := ""
	if all {
		mode = " (every check on)"
	}
	note := fmt.Sprintf("%s --oob: gpuav-dbg%s %s error groups", s.Name, mode, countList(groups))
	for _, k := range h.configs() {
		if k != ConfigKhronos && k != ConfigKhronos2 || s.Name == "reduce" {
			continue
		}
		out, _, err := h.runScene(k, oob)
		if err != nil {
			return "", err
		}
		if !out.Khronos || out.VkErrors == 0 && !masked && s.Name != "hotloop-math" {
			return "", fmt.Errorf("check %s: --oob under %s reported no error: is GPU-AV on?", s.Name, k)
		}
		note += fmt.Sprintf(", %s %d error messages", k, out.VkErrors)
	}
	return note, nil
}

// checkRef runs a reference variant small, clean and with --oob, with no
// layer: its hand-written checks must stay quiet, then report.
func (h *Harness) checkRef(s SceneSpec, ref Ref) (string, error) {
	argv := h.sceneArgv(s, append(append([]string(nil), ref.Args...), "--workgroups", "16"), 0, 1)
	out, stderr, err := h.runScene(ConfigNone, argv)
	if err != nil {
		return "", err
	}
	if err := validRun(out, stderr, ConfigNone, 1); err != nil {
		return "", fmt.Errorf("check %s %s: %w", s.Name, ref.Name, err)
	}
	if ref.BadIndex {
		out, _, err = h.runScene(ConfigNone, append(argv, "--bad-index"))
		if err != nil {
			return "", err
		}
		if want := BadIndexRecords(16); out.HandErrors != want || !out.CheckOK {
			return "", fmt.Errorf("check %s %s: --bad-index: its own checks reported %d errors (want %d), results checked %v", s.Name, ref.Name, out.HandErrors, want, out.CheckOK)
		}
		return fmt.Sprintf("%s reference %s (no layer): clean run 0 errors of its own checks, --bad-index %d (exact), results exact", s.Name, ref.Name, out.HandErrors), nil
	}
	out, _, err = h.runScene(ConfigNone, append(argv, "--oob"))
	if err != nil {
		return "", err
	}
	if out.HandErrors <= 0 {
		return "", fmt.Errorf("check %s %s: --oob: its own checks reported %d errors", s.Name, ref.Name, out.HandErrors)
	}
	return fmt.Sprintf("%s reference %s (no layer): clean run 0 errors of its own checks, --oob %d", s.Name, ref.Name, out.HandErrors), nil
}

// countList prints check → count pairs in a stable order.
func countList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// Time runs scene s reps times in each configuration (and each reference
// variant with no layer), alternating them, and fills in the device and
// driver of res from the first run.
func (h *Harness) Time(s SceneSpec, reps int, res *Results) (SceneResult, error) {
	sr := SceneResult{Name: s.Name, Warmup: s.Warmup, Iters: s.Iters, Target: s.Target,
		Runs: map[string][]int64{}, Median: map[string]int64{}}
	type run struct {
		key, config string
		args        []string
	}
	var runs []run
	for _, c := range h.configs() {
		runs = append(runs, run{c, c, s.Args})
	}
	for _, ref := range s.Refs {
		sr.Refs = append(sr.Refs, ref.Name)
		runs = append(runs, run{refPrefix + ref.Name, ConfigNone, ref.Args})
	}
	for rep := 0; rep < reps; rep++ {
		for i := range runs {
			r := runs[(i+rep)%len(runs)]
			argv := h.sceneArgv(s, r.args, s.Warmup, s.Iters)
			out, stderr, err := h.runScene(r.config, argv)
			if err != nil {
				return sr, err
			}
			if err := validRun(out, stderr, r.config, s.Iters); err != nil {
				return sr, fmt.Errorf("%s (%s): %w", s.Name, r.key, err)
			}
			if strings.HasPrefix(r.key, refPrefix) {
				if out.HandErrors != 0 {
					return sr, fmt.Errorf("%s (%s): its own checks reported %d errors", s.Name, r.key, out.HandErrors)
				}
			} else {
				sr.Size = out.Size
			}
			if res.Device == "" {
				res.Device, res.Driver = out.Device, out.Driver
			}
			m := Median(out.Iters)
			sr.Runs[r.key] = append(sr.Runs[r.key], m)
			fmt.Fprintf(os.Stderr, "bench: %s rep %d %-13s median %s\n", s.Name, rep+1, r.key, fmtDur(m))
		}
	}
	for _, r := range runs {
		sr.Median[r.key] = Median(sr.Runs[r.key])
	}
	return sr, nil
}

// validRun says why a timed run does not count: wrong results, errors
// reported, a layer that was not on, missing iterations.
func validRun(o Output, stderr, config string, iters int) error {
	ours := config == ConfigOurs || config == ConfigOursAll || config == ConfigRobust
	switch {
	case !o.Done:
		return fmt.Errorf("the scene did not finish")
	case !o.CheckOK:
		return fmt.Errorf("the scene's results were wrong")
	case len(o.Iters) != iters:
		return fmt.Errorf("%d timed iterations, want %d", len(o.Iters), iters)
	case o.VkErrors != 0:
		return fmt.Errorf("%d validation errors reported\n%s", o.VkErrors, tail(stderr, 2000))
	case ours && CountLayerErrors(stderr) != 0:
		return fmt.Errorf("gpuav-dbg reported errors\n%s", tail(stderr, 2000))
	case (config == ConfigKhronos || config == ConfigKhronos2) && !o.Khronos:
		return fmt.Errorf("the scene did not enable GPU-AV")
	case (config == ConfigDriverRobust) != o.Robustness2:
		return fmt.Errorf("the scene's robustBufferAccess2 and robustImageAccess2: %v, want %v", o.Robustness2, !o.Robustness2)
	case o.HandErrors > 0:
		return fmt.Errorf("the scene's own checks reported %d errors", o.HandErrors)
	}
	return nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// MachineInfo reads the CPU model from /proc/cpuinfo.
func MachineInfo() Machine {
	m := Machine{Cores: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
				m.OS = strings.Trim(v, `"`)
			}
		}
	}
	return m
}

// ourVersion is the commit the harness was built from, or what
// `gpuav-dbg version` prints.
func ourVersion(binDir string) string {
	if commit != "" {
		return "commit " + commit
	}
	if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		v := "commit " + strings.TrimSpace(string(out))
		if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
			v += " plus uncommitted changes"
		}
		return v
	}
	if out, err := exec.Command(filepath.Join(binDir, "gpuav-dbg"), "version").Output(); err == nil {
		return strings.SplitN(strings.TrimSpace(string(out)), "\n", 2)[0]
	}
	return "unknown"
}

// KhronosVersion reads the layer's implementation and API versions from
// its manifest.
func KhronosVersion(manifest string) string {
	b, err := os.ReadFile(manifest)
	if err != nil {
		return "unknown (" + manifest + " unreadable)"
	}
	var m struct {
		Layer struct {
			APIVersion     string `json:"api_version"`
			Implementation string `json:"implementation_version"`
		} `json:"layer"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Layer.APIVersion == "" {
		return "unknown (" + manifest + " unparsable)"
	}
	return fmt.Sprintf("%s (implementation %s)", m.Layer.APIVersion, m.Layer.Implementation)
}
