package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// checkApp is one C test app of testdata/checks (APP.c, built with the
// shared checkapp.h and internal/capp) with the shaders it loads; it is built once per test
// binary, into its own directory, by the first test that needs it.
type checkApp struct {
	name    string
	shaders []string
	build   func() (string, error)
	// target is glslangValidator's --target-env (default vulkan1.2);
	// subdir is the app's directory name in a prebuild (default name).
	target, subdir string
	// prebuilt are modules of testdata/checks copied as they are
	// (SOURCE.TAG.spv, built by a newer glslang than Debian 12's from
	// SOURCE, whose text they must hold: prebuiltSPIRV).
	prebuilt []string
}

// checkApps are all the declared apps, for the prebuild (TestMain).
var checkApps []*checkApp

// newCheckApp declares the app NAME.c and its shaders (files of
// testdata/checks, compiled to FILE.spv).
func newCheckApp(name string, shaders ...string) *checkApp {
	a := &checkApp{name: name, shaders: shaders, target: "vulkan1.2", subdir: name}
	a.build = sync.OnceValues(a.compile)
	checkApps = append(checkApps, a)
	return a
}

// newCheckAppTarget is newCheckApp with the shaders compiled for target
// (glslangValidator's --target-env), built into its own directory.
func newCheckAppTarget(name, target string, shaders ...string) *checkApp {
	a := newCheckApp(name, shaders...)
	a.target, a.subdir = target, name+"-"+target
	return a
}

// newPrebuiltCheckApp declares the app NAME.c whose modules are the
// prebuilt files of testdata/checks (checkApp.prebuilt).
func newPrebuiltCheckApp(name string, modules ...string) *checkApp {
	a := newCheckApp(name)
	a.prebuilt = modules
	return a
}

// The check apps.
var (
	rqApp   = newCheckApp("rqapp", "rq.comp", "rq.rgen")
	bdaApp  = newCheckApp("bdaapp", "bda.comp", "bda.vert", "bda.frag", "bda_plain.vert", "bda_plain.frag")
	descApp = newCheckApp("descapp", "desc.comp", "desc.vert", "desc.frag", "desc_plain.vert", "desc_plain.frag", "desc_sized.comp", "desc_sized.vert", "desc_sized.frag",
		"desc_spec.comp", "desc_spec.vert", "desc_spec.frag", "desc_instance.vert", "desc_nonuniform.vert", "desc_loop.comp",
		"desc_small.comp", "desc_small.vert", "desc_small.frag")
	bufApp   = newCheckApp("bufapp", "buf.comp", "buf.vert", "buf.frag", "buf_plain.vert", "buf_plain.frag")
	texelApp = newCheckApp("texelapp", "texel.comp", "texel.vert", "texel.frag", "buf_plain.vert", "buf_plain.frag")
	dbufApp  = newCheckApp("dbufapp", "dbuf.comp", "dbuf_ubo.comp", "dbuf_ubo.vert", "buf_plain.frag", "dbuf_texel.comp")
	clampApp = newCheckApp("clampapp", "clamp.comp")
	loopApp  = newCheckApp("loopapp", "loop.comp")
	sanApp   = newCheckApp("sanapp", "san.comp", "san.frag", "buf_plain.vert")
	meshApp  = newCheckApp("meshapp", "mesh.mesh", "stage_plain.frag", "payload.mesh", "payload.task")
	traceApp = newCheckApp("traceapp", "trace.rgen", "trace.rchit", "trace.rmiss", "trace.rint")
	raceApp  = newCheckApp("raceapp", "race.comp")
	scopeApp = newCheckApp("scopeapp", "scope_blur.comp", "scope_tone.comp")
	// coopApp's shader is prebuilt: glslang 12 predates GL_KHR_cooperative_matrix.
	coopApp = newPrebuiltCheckApp("coopapp", "coop.comp.dim8.spv", "coop.comp.dim16.spv", "coop_bda.comp.dim8.spv",
		"coop_bda.comp.dim16.spv")
	// bdaApp's compute shader as SPIR-V 1.3, without Int64.
	bda13App = newCheckAppTarget("bdaapp", "vulkan1.1", "bda.comp")
)

// compile builds the app into a new directory and returns it; with
// GPUAVDBG_TEST_PREBUILT set it returns that directory's NAME/ instead.
func (a *checkApp) compile() (string, error) {
	if p := os.Getenv(envPrebuilt); p != "" {
		dir := filepath.Join(p, a.subdir)
		if _, err := os.Stat(filepath.Join(dir, a.name)); err != nil {
			return "", fmt.Errorf("prebuilt %s: %w", a.name, err)
		}
		return dir, nil
	}
	dir, err := os.MkdirTemp("", "gpuav-"+a.name)
	if err != nil {
		return "", fmt.Errorf("build %s: %w", a.name, err)
	}
	return dir, a.compileInto(dir)
}

// compileInto builds the shaders (glslangValidator -g --target-env
// a.target, from inside testdata/checks so the modules name the files as
// written: SPIR-V 1.5 for vulkan1.2, no Int64) and the app
// (internal/cbuild) into dir.
func (a *checkApp) compileInto(dir string) error {
	src := filepath.Join(root, "e2e", "testdata", "checks")
	for _, sh := range a.shaders {
		cmd := exec.Command("glslangValidator", "-g", "--target-env", a.target, "-o", filepath.Join(dir, sh+".spv"), sh)
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("glslangValidator %s: %w\n%s", sh, err, out)
		}
	}
	for _, f := range a.prebuilt {
		b, err := prebuiltSPIRV(src, f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return fmt.Errorf("prebuilt %s: %w", f, err)
		}
	}
	return cbuild.App(filepath.Join(dir, a.name), filepath.Join(src, a.name+".c"))
}

// prebuiltSPIRV reads the prebuilt module src/file (SOURCE.TAG.spv) and
// fails when the source text its OpSource holds is not SOURCE's (the
// module is stale: rebuild it as SOURCE's comment says).
func prebuiltSPIRV(src, file string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(src, file))
	if err != nil {
		return nil, fmt.Errorf("prebuilt %s: %w", file, err)
	}
	source := strings.TrimSuffix(file, ".spv")
	source = source[:strings.LastIndexByte(source, '.')]
	want, err := os.ReadFile(filepath.Join(src, source))
	if err != nil {
		return nil, fmt.Errorf("prebuilt %s: %w", file, err)
	}
	w, err := spirv.WordsFromBytes(b)
	if err != nil {
		return nil, fmt.Errorf("prebuilt %s: %w", file, err)
	}
	m, err := spirv.Parse(w)
	if err != nil {
		return nil, fmt.Errorf("prebuilt %s: %w", file, err)
	}
	var text strings.Builder
	for _, in := range m.Sections[spirv.SectionDebug] {
		switch {
		case in.Opcode() == spirv.OpSource && len(in.Words) > 4:
			s, _ := spirv.DecodeString(in.Words[4:])
			text.WriteString(s)
		case in.Opcode() == spirv.OpSourceContinued:
			s, _ := spirv.DecodeString(in.Words[1:])
			text.WriteString(s)
		}
	}
	if text.String() != string(want) {
		return nil, fmt.Errorf("prebuilt %s is stale: its source text is not %s's; rebuild it as %s says", file, source, source)
	}
	return b, nil
}

// dir returns the directory holding the built app and its .spv files,
// failing the test when the build failed.
func (a *checkApp) dir(t *testing.T) string {
	t.Helper()
	dir, err := a.build()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkReport is the part of the headless JSON the check tests read (each
// check fills its own value group: ray, bda, descriptor, buffer, texel).
type checkReport struct {
	Errors []struct {
		Check      string                 `json:"check"`
		Level      string                 `json:"level"`
		VUID       string                 `json:"vuid"`
		Message    string                 `json:"message"`
		Count      int                    `json:"count"`
		Loop       int                    `json:"loop"`
		Stage      string                 `json:"stage"`
		Coords     map[string][]float64   `json:"coords"`
		Samples    []map[string][]float64 `json:"samples"`
		Descriptor *struct {
			Set         uint32 `json:"set"`
			Binding     uint32 `json:"binding"`
			Index       uint32 `json:"index"`
			ArrayLength uint32 `json:"array_length"`
		} `json:"descriptor"`
		Ray *struct {
			Tmin      json.RawMessage     `json:"tmin"`
			Tmax      json.RawMessage     `json:"tmax"`
			Origin    *[3]json.RawMessage `json:"origin"`
			Direction *[3]json.RawMessage `json:"direction"`
			Flags     uint32              `json:"flags"`
			CullMask  uint32              `json:"cull_mask"`
		} `json:"ray"`
		BDA *struct {
			Address   string `json:"address"`
			Size      uint32 `json:"size"`
			Alignment uint32 `json:"alignment"`
			Write     bool   `json:"write"`
			Atomic    bool   `json:"atomic"`
			Nearest   *struct {
				Address string `json:"address"`
				Size    uint64 `json:"size"`
			} `json:"nearest"`
		} `json:"bda"`
		Buffer *struct {
			Offset  uint32 `json:"offset"`
			Size    uint32 `json:"size"`
			Range   uint32 `json:"range"`
			Highest uint64 `json:"highest_byte"`
			Write   bool   `json:"write"`
			Kind    string `json:"kind"`
			Robust  bool   `json:"robust"`
			Coop    bool   `json:"cooperative_matrix"`
		} `json:"buffer"`
		Sanitizer *struct {
			Op         string `json:"op"`
			Type       string `json:"type"`
			Components int    `json:"components"`
			Lane       *int   `json:"lane"`
			Operands   []struct {
				Name  string          `json:"name"`
				Value json.RawMessage `json:"value"`
				NaN   bool            `json:"nan"`
			} `json:"operands"`
		} `json:"sanitizer"`
		Mesh *struct {
			VertexCount    uint32 `json:"vertex_count"`
			PrimitiveCount uint32 `json:"primitive_count"`
			MaxVertices    uint32 `json:"max_vertices"`
			MaxPrimitives  uint32 `json:"max_primitives"`
		} `json:"mesh"`
		Outcome *struct {
			Access    string  `json:"access"`
			ClampedTo *uint32 `json:"clamped_to"`
			Reason    string  `json:"reason"`
		} `json:"outcome"`
		Texel *struct {
			Texel  int64  `json:"texel"`
			Count  uint32 `json:"texel_count"`
			Write  bool   `json:"write"`
			Atomic bool   `json:"atomic"`
			Kind   string `json:"kind"`
			Robust bool   `json:"robust"`
		} `json:"texel"`
		Race *struct {
			Kind          string    `json:"kind"`
			Variable      string    `json:"variable"`
			Element       string    `json:"element"`
			Slot          uint32    `json:"slot"`
			ByteOffset    *uint32   `json:"byte_offset"`
			LocalID       [3]uint32 `json:"local_id"`
			OtherLocalID  [3]uint32 `json:"other_local_id"`
			OtherGlobalID [3]uint32 `json:"other_global_id"`
			OtherSource   *struct {
				File string `json:"file"`
				Line int    `json:"line"`
				Text string `json:"text"`
			} `json:"other_source"`
		} `json:"race"`
		Barrier *struct {
			Scope          string     `json:"scope"`
			Arrived        uint32     `json:"arrived"`
			Expected       uint32     `json:"expected"`
			MissingLocalID *[3]uint32 `json:"missing_local_id"`
			Before         uint32     `json:"barriers_before"`
			Skipped        bool       `json:"skipped"`
		} `json:"barrier"`
		errorWhere
		Submit     int `json:"submit"`
		LastSubmit int `json:"last_submit"`
	} `json:"errors"`
	Notices []struct {
		Level string `json:"level"`
		Text  string `json:"text"`
	} `json:"notices"`
	Unchecked []struct {
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
	} `json:"unchecked"`
}

// run runs the app under `gpuav-dbg run --headless --json` with extra
// environment (env), flags of `run` (flags, e.g. --check) and app
// arguments (after --shaders DIR), and returns the exit code, the report
// and the launcher's and app's output.
func (a *checkApp) run(t *testing.T, env, flags []string, args ...string) (int, checkReport, string) {
	t.Helper()
	var r checkReport
	code, out := a.runInto(t, &r, env, flags, args...)
	return code, r, out
}

// runInto is run with the report decoded into r (a pointer to any struct
// shaped like the report).
func (a *checkApp) runInto(t *testing.T, r any, env, flags []string, args ...string) (int, string) {
	t.Helper()
	dir := a.dir(t)
	return runLauncher(t, r, env, flags, filepath.Join(dir, a.name), append([]string{"--shaders", dir}, args...)...)
}

// runLauncher runs `gpuav-dbg run --headless --json OUT --session S FLAGS
// -- APP ARGS` with extra environment env, decodes the report into r and
// returns the exit code and the launcher's and app's output.
func runLauncher(t *testing.T, r any, env, flags []string, app string, args ...string) (int, string) {
	t.Helper()
	return runLauncherWatch(t, r, env, flags, nil, app, args...)
}

// runLauncherWatch is runLauncher with watch called on each line of the
// run's output as it comes (the launcher's and the app's, from the
// goroutine that copies them), with the launcher's process: to act while
// the app runs (signal the launcher, as a user stops the app).
func runLauncherWatch(t *testing.T, r any, env, flags []string, watch func(line string, launcher *os.Process), app string,
	args ...string) (int, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.json")
	full := append([]string{"run", "--headless", "--json", out, "--session", filepath.Join(t.TempDir(), "s.gvs")}, flags...)
	full = append(append(full, "--", app), args...)
	ctx, cancel := context.WithTimeout(context.Background(), appTimeout())
	defer cancel()
	cmd := exec.CommandContext(ctx, bin("gpuav-dbg"), full...)
	// A hung app is killed with the launcher: the whole process group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var judge func()
	cmd.Env, judge = refereeEnv(t, env, app, args)
	output := &lineWatcher{}
	if watch != nil {
		output.watch = func(line string) { watch(line, cmd.Process) }
	}
	cmd.Stdout, cmd.Stderr = output, output
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("hung: %s %s did not finish within %v under gpuav-dbg (%s sets the bound)\n%s",
			filepath.Base(app), strings.Join(args, " "), appTimeout(), envAppTimeout, output.String())
	}
	defer judge()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run gpuav-dbg: %v", err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("read report (exit %d): %v\n%s", code, err, output.String())
	}
	if err := json.Unmarshal(b, r); err != nil {
		t.Fatalf("parse report: %v\n%s", err, b)
	}
	return code, output.String()
}

// lineWatcher keeps what is written to it and calls watch (when set) on
// each whole line as it arrives.
type lineWatcher struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	partial []byte
	watch   func(line string)
}

func (w *lineWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.watch == nil {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(w.partial[:i])
		w.partial = w.partial[i+1:]
		w.watch(line)
	}
}

// String is everything written so far.
func (w *lineWatcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// envAppTimeout bounds each run of an app under the launcher (a Go
// duration; default 300s): a run past it is a hang, and fails its test
// (scripts/hardware/soak.sh counts them).
const envAppTimeout = "GPUAVDBG_TEST_APP_TIMEOUT"

// appTimeout is the bound of one app run.
func appTimeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(envAppTimeout)); err == nil && d > 0 {
		return d
	}
	return 300 * time.Second
}

// runClean runs a clean case of a (extra environment env, app arguments
// args) and fails the test unless it exits 0 with no error group and the
// app prints the line value (what the clean access reads, as why says).
func (a *checkApp) runClean(t *testing.T, env []string, value, why string, args ...string) {
	t.Helper()
	code, r, out := a.run(t, env, nil, args...)
	requireSilent(t, code, r, out)
	if !strings.Contains(out, value+"\n") {
		t.Errorf("%s (%s); app printed:\n%s", why, value, out)
	}
}

// requireSilent fails the test unless a run exited 0 with no error group.
func requireSilent(t *testing.T, code int, r checkReport, out string) {
	t.Helper()
	if code != 0 || len(r.Errors) != 0 {
		t.Fatalf("exit %d, %d groups, want 0 and none\n%s", code, len(r.Errors), out)
	}
}

// requireOneGroup fails the test unless a run exited 1 with exactly one
// error group.
func requireOneGroup(t *testing.T, code int, r checkReport, out string) {
	t.Helper()
	if code != 1 || len(r.Errors) != 1 {
		t.Fatalf("exit %d, %d error groups; want 1, 1\n%s", code, len(r.Errors), out)
	}
}

// invocationsX returns the x of each sample's global invocation id, sorted.
func invocationsX(samples []map[string][]float64) []float64 {
	var xs []float64
	for _, s := range samples {
		xs = append(xs, s["global_invocation_id"][0])
	}
	slices.Sort(xs)
	return xs
}

// khronosLayer is the manifest of the Khronos validation layer, the
// reference the check tests compare with.
const khronosLayer = "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"

// requireKhronos fails the test when the Khronos validation layer is not
// installed.
func requireKhronos(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(khronosLayer); err != nil {
		t.Fatalf("Khronos validation layer not installed (scripts/install-deps installs vulkan-validationlayers): %v", err)
	}
}

// khronosEnv is the environment that runs an app under the Khronos layer
// with GPU-assisted validation.
func khronosEnv() []string {
	return append(os.Environ(),
		"VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation",
		"VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT")
}

// runKhronos runs the app (with --shaders DIR and args) under the Khronos
// layer with GPU-assisted validation and returns its output; the test
// fails when the layer is missing or the app fails.
func (a *checkApp) runKhronos(t *testing.T, args ...string) string {
	t.Helper()
	requireKhronos(t)
	dir := a.dir(t)
	cmd := exec.Command(filepath.Join(dir, a.name), append([]string{"--shaders", dir}, args...)...)
	cmd.Env = khronosEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s under Khronos GPU-AV: %v\n%s", a.name, err, out)
	}
	return string(out)
}

// errorWhere is where a report's error group happened, as the JSON report
// says it (docs/REPORT.md): its action, command buffer, pipeline and
// source line; the tests' error structs embed it.
type errorWhere struct {
	Action        string `json:"action"`
	ActionIndex   int    `json:"action_index"`
	CommandBuffer struct {
		Name string `json:"name"`
	} `json:"command_buffer"`
	Pipeline struct {
		Name string `json:"name"`
	} `json:"pipeline"`
	Source struct {
		File string `json:"file"`
		Line int    `json:"line"`
		Text string `json:"text"`
	} `json:"source"`
}
