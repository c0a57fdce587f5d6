package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Configurations, in the order a repetition starts with (each repetition
// rotates the order by one, so no configuration always runs first).
const (
	ConfigNone    = "none"
	ConfigOurs    = "gpuav-dbg"
	ConfigKhronos = "khronos"
)

// Configs lists the three configurations.
var Configs = []string{ConfigNone, ConfigOurs, ConfigKhronos}

// SceneSpec is one scene with its sizes.
type SceneSpec struct {
	Name   string
	Args   []string // size flags for the scene app
	Warmup int
	Iters  int
	Target float64 // the ratio target for our layer
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

// Presets: "gpu" is the sizes; "lavapipe" keeps a full run on a
// 2-core CPU Vulkan under about ten minutes.
var Presets = map[string]Preset{
	"gpu": {
		{Name: "dispatch", Args: []string{"--dispatches", "1000"}, Warmup: 3, Iters: 20, Target: 1.10},
		{Name: "shader", Args: []string{"--invocations", "1048576", "--loops", "1024"}, Warmup: 3, Iters: 20, Target: 1.5},
		{Name: "draw", Args: []string{"--draws", "10000", "--sets", "64"}, Warmup: 3, Iters: 20, Target: 1.15},
		{Name: "draw_indirect", Args: []string{"--draws", "10000", "--sets", "64"}, Warmup: 3, Iters: 20, Target: 1.15},
		{Name: "pipeline", Args: nil, Warmup: 1, Iters: 2, Target: 1.5},
	},
	"lavapipe": {
		{Name: "dispatch", Args: []string{"--dispatches", "1000"}, Warmup: 2, Iters: 8, Target: 1.10},
		{Name: "shader", Args: []string{"--invocations", "131072", "--loops", "256"}, Warmup: 1, Iters: 6, Target: 1.5},
		{Name: "draw", Args: []string{"--draws", "10000", "--sets", "64"}, Warmup: 1, Iters: 6, Target: 1.15},
		{Name: "draw_indirect", Args: []string{"--draws", "10000", "--sets", "64"}, Warmup: 1, Iters: 6, Target: 1.15},
		{Name: "pipeline", Args: nil, Warmup: 1, Iters: 2, Target: 1.5},
	},
}

// checkArgs are the small sizes of the correctness runs.
var checkArgs = map[string][]string{
	"dispatch":      {"--dispatches", "64"},
	"shader":        {"--invocations", "4096", "--loops", "16"},
	"draw":          {"--draws", "256", "--sets", "8"},
	"draw_indirect": {"--draws", "256", "--sets", "8"},
	"pipeline":      nil,
}

// Results is everything one harness run measured; -json writes it and
// -render reads it back.
type Results struct {
	Preset  string        `json:"preset"`
	Date    string        `json:"date"`
	Machine Machine       `json:"machine"`
	Device  string        `json:"device"`
	Driver  string        `json:"driver"`
	Layers  LayerInfo     `json:"layers"`
	Command string        `json:"command"`
	Reps    int           `json:"reps"`
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
	Ours    string `json:"ours"`
	Khronos string `json:"khronos"`
}

// SceneResult is one scene's timings: per configuration, the median
// per-iteration time of each run (one run per repetition) and their median.
type SceneResult struct {
	Name   string             `json:"name"`
	Size   string             `json:"size"`
	Warmup int                `json:"warmup"`
	Iters  int                `json:"iters"`
	Target float64            `json:"target"`
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

// Met reports whether our layer met the target and beat the Khronos layer.
func (s SceneResult) Met() (target, beatsKhronos bool) {
	r := s.Ratio(ConfigOurs)
	return r <= s.Target, r < s.Ratio(ConfigKhronos)
}

// Harness runs the scene app.
type Harness struct {
	scene    string // bin/bench/scene, absolute
	launcher string // bin/gpuav-dbg, absolute
	layerDir string // directory of our manifest, absolute
	khronos  string // VK_ADD_LAYER_PATH for the Khronos layer, or ""
}

// NewHarness finds the binaries under binDir.
func NewHarness(binDir, khronosPath string) (*Harness, error) {
	abs, err := filepath.Abs(binDir)
	if err != nil {
		return nil, fmt.Errorf("bin directory: %w", err)
	}
	h := &Harness{
		scene:    filepath.Join(abs, "bench", "scene"),
		launcher: filepath.Join(abs, "gpuav-dbg"),
		layerDir: abs,
		khronos:  khronosPath,
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
			k == "VK_LAYER_ENABLES", k == "BENCH_KHRONOS_GPUAV", strings.HasPrefix(k, "VK_LAYER_GPUAV_DBG_"):
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "MESA_SHADER_CACHE_DISABLE=true", "__GL_SHADER_DISK_CACHE=0")
	switch config {
	case ConfigOurs:
		env = append(env, "VK_ADD_LAYER_PATH="+h.layerDir, "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation")
	case ConfigKhronos:
		env = append(env, "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation", "BENCH_KHRONOS_GPUAV=1")
		if h.khronos != "" {
			env = append(env, "VK_ADD_LAYER_PATH="+h.khronos)
		}
	}
	return env
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
	argv := []string{h.scene, "--scene", s.Name, "--warmup", fmt.Sprint(warmup), "--iters", fmt.Sprint(iters)}
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
		Check string `json:"check"`
		Count int    `json:"count"`
	} `json:"errors"`
}

// launch runs the scene under `gpuav-dbg run --headless --json`.
func (h *Harness) launch(argv []string) (report, error) {
	dir, err := os.MkdirTemp("", "gpuav-bench-")
	if err != nil {
		return report{}, fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	js := filepath.Join(dir, "report.json")
	args := append([]string{"run", "--headless", "--json", js, "--session", filepath.Join(dir, "s.gvs"), "--"}, argv...)
	cmd := exec.Command(h.launcher, args...)
	cmd.Env = h.env(ConfigNone)
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
// under the Khronos layer (errors expected from both). It returns one line
// per check for the doc.
func (h *Harness) Check(s SceneSpec) ([]string, error) {
	argv := h.sceneArgv(s, checkArgs[s.Name], 0, 1)
	r, err := h.launch(argv)
	if err != nil {
		return nil, err
	}
	if r.App.ExitCode != 0 || len(r.Errors) != 0 {
		return nil, fmt.Errorf("check %s: clean run under gpuav-dbg: exit %d, %d error groups (want 0, 0)", s.Name, r.App.ExitCode, len(r.Errors))
	}
	notes := []string{fmt.Sprintf("%s: clean run under `gpuav-dbg run --headless --json`: 0 errors", s.Name)}
	if s.Name == "pipeline" {
		return notes, nil
	}
	r, err = h.launch(append(argv, "--oob"))
	if err != nil {
		return nil, err
	}
	groups := 0
	for _, e := range r.Errors {
		if e.Check == "descriptor_index_oob" {
			groups++
		}
	}
	if groups == 0 {
		return nil, fmt.Errorf("check %s: --oob under gpuav-dbg reported no descriptor_index_oob error: is the layer instrumenting?", s.Name)
	}
	out, _, err := h.runScene(ConfigKhronos, append(argv, "--oob"))
	if err != nil {
		return nil, err
	}
	if !out.Khronos || out.VkErrors == 0 {
		return nil, fmt.Errorf("check %s: --oob under the Khronos layer reported no error: is GPU-AV on?", s.Name)
	}
	notes = append(notes, fmt.Sprintf("%s --oob: gpuav-dbg %d error groups, Khronos %d error messages", s.Name, groups, out.VkErrors))
	return notes, nil
}

// Time runs scene s reps times in each configuration, alternating them,
// and fills in the device and driver of res from the first run.
func (h *Harness) Time(s SceneSpec, reps int, res *Results) (SceneResult, error) {
	sr := SceneResult{Name: s.Name, Warmup: s.Warmup, Iters: s.Iters, Target: s.Target,
		Runs: map[string][]int64{}, Median: map[string]int64{}}
	for rep := 0; rep < reps; rep++ {
		for i := range Configs {
			config := Configs[(i+rep)%len(Configs)]
			argv := h.sceneArgv(s, s.Args, s.Warmup, s.Iters)
			out, stderr, err := h.runScene(config, argv)
			if err != nil {
				return sr, err
			}
			if err := validRun(out, stderr, config, s.Iters); err != nil {
				return sr, fmt.Errorf("%s (%s): %w", s.Name, config, err)
			}
			sr.Size = out.Size
			if res.Device == "" {
				res.Device, res.Driver = out.Device, out.Driver
			}
			m := Median(out.Iters)
			sr.Runs[config] = append(sr.Runs[config], m)
			fmt.Fprintf(os.Stderr, "bench: %s rep %d %-9s median %s\n", s.Name, rep+1, config, fmtDur(m))
		}
	}
	for _, c := range Configs {
		sr.Median[c] = Median(sr.Runs[c])
	}
	return sr, nil
}

// validRun says why a timed run does not count: wrong results, errors
// reported, a layer that was not on, missing iterations.
func validRun(o Output, stderr, config string, iters int) error {
	switch {
	case !o.Done:
		return fmt.Errorf("the scene did not finish")
	case !o.CheckOK:
		return fmt.Errorf("the scene's results were wrong")
	case len(o.Iters) != iters:
		return fmt.Errorf("%d timed iterations, want %d", len(o.Iters), iters)
	case o.VkErrors != 0:
		return fmt.Errorf("%d validation errors reported\n%s", o.VkErrors, tail(stderr, 2000))
	case config == ConfigOurs && CountLayerErrors(stderr) != 0:
		return fmt.Errorf("gpuav-dbg reported errors\n%s", tail(stderr, 2000))
	case config == ConfigKhronos && !o.Khronos:
		return fmt.Errorf("the scene did not enable GPU-AV")
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
