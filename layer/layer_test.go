package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
	"github.com/gpuav-dbg/gpuav-dbg/internal/layermanifest"
	"github.com/gpuav-dbg/gpuav-dbg/internal/referee"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// The end-to-end tests build the layer (go build -buildmode=c-shared, as
// the Makefile does) and the C test app testdata/vkapp.c into one
// directory per test binary run, then run the app on the machine's Vulkan
// driver (lavapipe in CI) with the layer enabled and a socket the test
// listens on.

const layerName = "VK_LAYER_GPUAVDBG_validation"

var (
	fixtureOnce sync.Once
	fixture     struct {
		dir    string // layer library + manifest
		app    string // vkapp
		shader string // oob_compute.spv
		spirv  []byte
		skip   string // why the end-to-end tests cannot run here
		err    error
	}
	fixtureRoot string
)

func TestMain(m *testing.M) {
	code := m.Run()
	// GPUAVDBG_KEEP_FIXTURE=1 keeps the built layer and apps (to read a
	// core file of a crashed app with its binaries).
	if fixtureRoot != "" && os.Getenv("GPUAVDBG_KEEP_FIXTURE") != "1" {
		os.RemoveAll(fixtureRoot)
	}
	os.Exit(code)
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// buildLayer builds the layer library and its manifest into dir.
func buildLayer(dir string) error {
	script, err := filepath.Abs("exports.map")
	if err != nil {
		return err
	}
	cmd := exec.Command(goTool(), "build", "-buildmode=c-shared",
		"-ldflags=-extldflags=-Wl,--version-script="+script,
		"-o", filepath.Join(dir, "libVkLayer_gpuav_dbg.so"), ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build layer: %v\n%s", err, out)
	}
	manifest, err := os.ReadFile("VkLayer_gpuav_dbg.json")
	if err != nil {
		return fmt.Errorf("read manifest: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "VkLayer_gpuav_dbg.json"), manifest, 0o644)
}

// EnvPrebuilt names a directory with everything the end-to-end tests
// build (scripts/hardware/build.sh layer-tests makes it): the layer and manifest,
// vkapp, multi and the SPIR-V files. The tests then need no Go toolchain,
// C compiler or glslang: for the run on the NVIDIA machine.
const EnvPrebuilt = "GPUAVDBG_TEST_PREBUILT"

// usePrebuilt points the fixtures at a prebuilt directory.
func usePrebuilt(dir string) {
	fixture.dir = dir
	fixture.app = filepath.Join(dir, "vkapp")
	fixture.shader = filepath.Join(dir, "oob_compute.spv")
	fixture.spirv, fixture.err = os.ReadFile(fixture.shader)
}

// setup builds the fixture once; it skips the test when the machine has
// no C compiler, glslangValidator or Vulkan loader.
func setup(t testing.TB) {
	t.Helper()
	fixtureOnce.Do(func() {
		if dir := os.Getenv(EnvPrebuilt); dir != "" {
			usePrebuilt(dir)
			return
		}
		for _, tool := range []string{"cc", "glslangValidator"} {
			if _, err := exec.LookPath(tool); err != nil {
				fixture.skip = tool + " not found"
				return
			}
		}
		if _, err := os.Stat("/usr/include/vulkan/vulkan.h"); err != nil {
			fixture.skip = "Vulkan headers not installed (libvulkan-dev)"
			return
		}
		root, err := os.MkdirTemp("", "gpuav-layer-test")
		if err != nil {
			fixture.err = err
			return
		}
		fixtureRoot = root
		fixture.dir = root
		if fixture.err = buildLayer(root); fixture.err != nil {
			return
		}
		fixture.app = filepath.Join(root, "vkapp")
		if fixture.err = cbuild.App(fixture.app, "layer/testdata/vkapp.c"); fixture.err != nil {
			return
		}
		fixture.shader = filepath.Join(root, "oob_compute.spv")
		cmd := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.1", "-o", fixture.shader,
			"oob_compute.comp")
		cmd.Dir = "../examples/demo/shaders"
		if out, err := cmd.CombinedOutput(); err != nil {
			fixture.err = fmt.Errorf("compile shader: %v\n%s", err, out)
			return
		}
		fixture.spirv, fixture.err = os.ReadFile(fixture.shader)
	})
	if fixture.skip != "" {
		t.Fatalf("%s: scripts/install-deps installs it", fixture.skip)
	}
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
}

// result is what one run of an app under the layer produced.
type result struct {
	msgs           []any
	stdout, stderr string
	pid            int
	exit           int
}

// cleanEnv is the test's environment without layer settings or loader
// variables that would change the run.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "VK_LAYER_GPUAV_DBG_") || strings.HasPrefix(kv, "VK_INSTANCE_LAYERS=") ||
			strings.HasPrefix(kv, "VK_LOADER_LAYERS_ENABLE=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// runApp runs prog under the layer with extra environment variables; with
// listen, a socket receives the layer's messages.
func runApp(t *testing.T, listen bool, extraEnv []string, prog string, args ...string) result {
	t.Helper()
	xdg := t.TempDir()
	// XDG_CACHE_HOME: the layer keeps what it keeps beside pipeline
	// caches there (shadowcache.go), not in the user's.
	// The watchdog at 120 s unless a test sets it: a lavapipe submission
	// slowed past the default 10 s by a loaded machine would add a slow
	// hang's messages to exact expectations.
	env := append(cleanEnv(), "VK_ADD_LAYER_PATH="+fixture.dir, "VK_INSTANCE_LAYERS="+layerName, "XDG_RUNTIME_DIR="+xdg,
		"XDG_CACHE_HOME="+filepath.Join(xdg, "cache"), options.WatchdogSeconds.Env+"=120")
	var res result
	done := make(chan []any, 1)
	closeListener := func() {}
	if listen {
		sockDir, err := os.MkdirTemp("", "gv")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(sockDir)
		sock := filepath.Join(sockDir, "s")
		ln, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		var once sync.Once
		closeListener = func() { once.Do(func() { ln.Close() }) }
		defer closeListener()
		env = append(env, "VK_LAYER_GPUAV_DBG_SOCKET="+sock)
		// Every connection (one per instance lifetime: an app that
		// destroys its last instance and makes another reconnects), its
		// messages in order, the connections in the order they came.
		go func() {
			var conns []chan []any
			defer func() {
				var msgs []any
				for _, c := range conns {
					msgs = append(msgs, <-c...)
				}
				done <- msgs
			}()
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				c := make(chan []any, 1)
				conns = append(conns, c)
				go func() {
					var msgs []any
					defer func() { c <- msgs }()
					defer conn.Close()
					for {
						k, payload, err := wire.ReadFrame(conn)
						if err != nil {
							if !errors.Is(err, io.EOF) {
								msgs = append(msgs, err)
							}
							return
						}
						m, err := wire.Decode(k, payload)
						if err != nil {
							msgs = append(msgs, err)
							continue
						}
						msgs = append(msgs, m)
					}
				}()
			}
		}()
	}
	cmd := exec.Command(prog, args...)
	cmd.Env = append(env, extraEnv...)
	if referee.Enabled() && referee.SkipFor(filepath.Base(prog), args) == nil {
		run, full, err := referee.Start(t.TempDir(), cmd.Env)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Env = full
		defer run.Check(prog, args, t.Errorf)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	res.pid = cmd.Process.Pid
	err := cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		res.exit = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	res.stdout, res.stderr = stdout.String(), stderr.String()
	if listen {
		closeListener() // the app has exited: no more connections
		select {
		case res.msgs = <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the layer's connection did not close")
		}
	}
	if res.exit != 0 {
		t.Fatalf("%s exited %d\nstdout:\n%s\nstderr:\n%s", prog, res.exit, res.stdout, res.stderr)
	}
	for _, m := range res.msgs {
		if err, ok := m.(error); ok {
			t.Errorf("bad frame from the layer: %v", err)
		}
	}
	return res
}

// all returns the messages of type T.
func all[T any](r result) []*T {
	var out []*T
	for _, m := range r.msgs {
		if v, ok := m.(*T); ok {
			out = append(out, v)
		}
	}
	return out
}

func one[T any](t *testing.T, r result) *T {
	t.Helper()
	v := all[T](r)
	if len(v) != 1 {
		t.Fatalf("got %d %T messages, want 1; all messages: %s", len(v), *new(T), dump(r.msgs))
	}
	return v[0]
}

func dump(msgs []any) string {
	var b strings.Builder
	for _, m := range msgs {
		j, _ := json.Marshal(m)
		if len(j) > 300 {
			j = append(j[:300], "..."...)
		}
		fmt.Fprintf(&b, "\n  %T %s", m, j)
	}
	return b.String()
}

// appMaxSets is what vkapp printed for maxBoundDescriptorSets (both calls).
func appMaxSets(t *testing.T, r result) int {
	t.Helper()
	var v1, v2 int = -1, -2
	for _, line := range strings.Split(r.stdout, "\n") {
		if s, ok := strings.CutPrefix(line, "maxBoundDescriptorSets="); ok {
			v1, _ = strconv.Atoi(s)
		}
		if s, ok := strings.CutPrefix(line, "maxBoundDescriptorSets2="); ok {
			v2, _ = strconv.Atoi(s)
		}
	}
	if v1 != v2 {
		t.Fatalf("vkGetPhysicalDeviceProperties says %d, ...Properties2 says %d", v1, v2)
	}
	return v1
}

func TestExportsOnlyNegotiation(t *testing.T) {
	setup(t)
	out, err := exec.Command("nm", "-D", "--defined-only", filepath.Join(fixture.dir, "libVkLayer_gpuav_dbg.so")).Output()
	if err != nil {
		t.Fatalf("nm (binutils): %v", err)
	}
	var syms []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) == 3 {
			syms = append(syms, f[2])
		}
	}
	if !slices.Equal(syms, []string{"vkNegotiateLoaderLayerInterfaceVersion"}) {
		t.Errorf("exported symbols: %v, want only vkNegotiateLoaderLayerInterfaceVersion", syms)
	}
	out, err = exec.Command("readelf", "-d", filepath.Join(fixture.dir, "libVkLayer_gpuav_dbg.so")).Output()
	if err == nil && strings.Contains(string(out), "libvulkan") {
		t.Errorf("the layer links libvulkan:\n%s", out)
	}
}

func TestManifest(t *testing.T) {
	b, err := os.ReadFile("VkLayer_gpuav_dbg.json")
	if err != nil {
		t.Fatal(err)
	}
	var m layermanifest.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.FileFormatVersion != "1.2.0" || m.Layer.Name != layerName || m.Layer.LibraryPath != "./libVkLayer_gpuav_dbg.so" ||
		m.Layer.Type != "INSTANCE" || !strings.HasPrefix(m.Layer.APIVersion, "1.4.") {
		t.Errorf("manifest header: %+v", m)
	}
	envs := map[string]any{}
	for _, s := range m.Layer.Features.Settings {
		envs[s.Env] = s.Default
	}
	defaults, _ := LoadSettings(func(string) string { return "" })
	for _, id := range gpuav.AllChecks {
		d, ok := envs[CheckEnv(id)]
		if !ok {
			t.Errorf("manifest lacks %s", CheckEnv(id))
		} else if d != defaults.Checks[id] {
			t.Errorf("manifest default of %s is %v, the layer's %v", CheckEnv(id), d, defaults.Checks[id])
		}
	}
	for env, def := range map[string]any{options.ReserveSlot.Env: false, options.OnError.Env: "skip", options.Robust.Env: false, options.WarnRobust.Env: true, options.Socket.Env: ""} {
		if d, ok := envs[env]; !ok || d != def {
			t.Errorf("manifest setting %s: default %v (listed %v), want %v", env, d, ok, def)
		}
	}
}

func TestLoadSettings(t *testing.T) {
	env := map[string]string{
		"VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB": "0",
		"VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB":           "on",
		"VK_LAYER_GPUAV_DBG_RESERVE_SLOT":               "1",
		"VK_LAYER_GPUAV_DBG_WARN_ROBUST":                "maybe",
		"VK_LAYER_GPUAV_DBG_SOCKET":                     "/run/x.sock",
	}
	s, warnings := LoadSettings(func(k string) string { return env[k] })
	if s.Checks[gpuav.CheckDescriptorIndexOOB] || !s.Checks[gpuav.CheckBufferOOB] || !s.Checks[gpuav.CheckTexelBufferOOB] {
		t.Errorf("checks: %v", s.Checks)
	}
	if len(s.Checks) != len(gpuav.AllChecks) {
		t.Errorf("checks %v do not list every check", s.Checks)
	}
	if !s.ReserveSlot || !s.WarnRobust || s.OnError != "skip" || s.Robust || s.Socket != "/run/x.sock" {
		t.Errorf("settings: %+v", s)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "VK_LAYER_GPUAV_DBG_WARN_ROBUST") {
		t.Errorf("warnings: %q", warnings)
	}
	off, _ := LoadSettings(func(k string) string {
		for _, id := range gpuav.AllChecks {
			if k == CheckEnv(id) {
				return "0"
			}
		}
		return ""
	})
	if off.InstrumentationWanted() {
		t.Error("InstrumentationWanted with every check off")
	}
	d, _ := LoadSettings(func(string) string { return "" })
	if !d.Checks[gpuav.CheckDescriptorIndexOOB] || d.ReserveSlot || d.OnError != "skip" || d.Robust || !d.InstrumentationWanted() {
		t.Errorf("defaults: %+v", d)
	}
}

// TestLoadOnError: VK_LAYER_GPUAV_DBG_ON_ERROR and _ROBUST as the
// environment gives them, and the warnings of values the layer does not
// take.
func TestLoadOnError(t *testing.T) {
	tests := []struct {
		onError, robust, safeMode string
		want                      string
		wantRobust                bool
		warning                   string
	}{
		{"", "", "", "skip", false, ""},
		{"skip", "", "", "skip", false, ""},
		{"clamp", "", "", "clamp", false, ""},
		{" EXECUTE ", "", "", "execute", false, ""},
		{"sideways", "", "", "skip", false,
			`VK_LAYER_GPUAV_DBG_ON_ERROR: "sideways" is not a failed-access behaviour (use skip|clamp|execute); keeping skip`},
		{"", "1", "", "clamp", true, ""},
		{"clamp", "1", "", "clamp", true, ""},
		{"execute", "1", "", "clamp", true,
			"VK_LAYER_GPUAV_DBG_ON_ERROR=execute is ignored: the robust-only mode (VK_LAYER_GPUAV_DBG_ROBUST) clamps"},
		{"", "", "0", "skip", false,
			"VK_LAYER_GPUAV_DBG_SAFE_MODE is gone (it never changed anything): VK_LAYER_GPUAV_DBG_ON_ERROR=skip|clamp|execute (key on_error) says what a failed access does"},
	}
	for _, tt := range tests {
		t.Run(tt.onError+"/"+tt.robust+"/"+tt.safeMode, func(t *testing.T) {
			env := map[string]string{options.OnError.Env: tt.onError, options.Robust.Env: tt.robust, "VK_LAYER_GPUAV_DBG_SAFE_MODE": tt.safeMode}
			s, w := LoadSettings(func(k string) string { return env[k] })
			if s.OnError != tt.want || s.Robust != tt.wantRobust || s.Wire().OnError != tt.want || s.Wire().Robust != tt.wantRobust {
				t.Errorf("on_error %q robust %v, want %q %v", s.OnError, s.Robust, tt.want, tt.wantRobust)
			}
			var want []string
			if tt.warning != "" {
				want = []string{tt.warning}
			}
			if !slices.Equal(w, want) {
				t.Errorf("warnings %q, want %q", w, want)
			}
		})
	}
}

// record builds one output-buffer record (gpuav/record.go): shader, site
// and code, stage words, action and the dynamic values.
func record(shader, site uint32, coords [3]uint32, action uint32, code gpuav.CheckCode, dyn ...uint32) []uint32 {
	r := make([]uint32, gpuav.RecordWords)
	r[gpuav.RecordShaderIDWord] = shader
	r[gpuav.RecordSiteWord] = site | uint32(code)<<gpuav.RecordSiteBits
	copy(r[gpuav.RecordStage0Word:], coords[:])
	r[gpuav.RecordActionWord] = action
	copy(r[2:4], dyn) // dynamic values 0 and 1
	return r
}

// withShaders puts shaders with one descriptor_index_oob site each (set
// and binding static, index and length dynamic) into the layer's state for
// the test: shader id → (instruction, stage, set, binding).
func withShaders(tb testing.TB, shaders map[uint32][4]uint32) {
	tb.Helper()
	for id, s := range shaders {
		withShaderSites(tb, id, map[uint32][4]uint32{0: s})
	}
}

// withShaderSites puts shader id into the layer's state for the test, with
// descriptor_index_oob sites (set and binding static, index and length
// dynamic): site → (instruction, stage, set, binding); the shader's stage is
// its sites'.
func withShaderSites(tb testing.TB, id uint32, sites map[uint32][4]uint32) {
	tb.Helper()
	var table []gpuav.Site
	var stage uint32
	for site, s := range sites {
		for uint32(len(table)) <= site {
			table = append(table, gpuav.Site{ID: len(table)})
		}
		rec := gpuav.SiteRecord{Params: [gpuav.RecordParams]uint32{s[2], s[3]}}
		rec.Dynamic[2], rec.Dynamic[3] = 1, 2
		table[site] = gpuav.Site{ID: int(site), Instruction: int(s[0]), Checks: []string{gpuav.CheckDescriptorIndexOOB}, Record: rec}
		stage = s[1]
	}
	// Its code id is its id.
	s := &shader{id: id, stage: stage, sites: table, instrumented: true, code: id}
	withLock(func() {
		state.shaders[id] = s
		codes[id] = &codeEntry{shaders: []*shader{s}}
	})
	tb.Cleanup(func() {
		withLock(func() {
			delete(state.shaders, id)
			delete(codes, id)
		})
	})
}

// TestBuildErrorsFolded: folded records (a check inside a loop, one
// record per invocation with its count in word 15) add their counts to
// their group, which keeps its first record's count as its loop count; a
// folded record that did not fit adds its failures beyond one to header
// word 1, so Dropped counts every failed access not reported.
func TestBuildErrorsFolded(t *testing.T) {
	withShaders(t, map[uint32][4]uint32{1: {70, 5, 0, 0}})
	buf := make([]uint32, gpuav.OutputHeaderWords)
	for i, n := range []uint32{5, 3, 0} { // invocations 0 and 0 again (a second run of the loop), and 1 unfolded
		r := record(1, 0, [3]uint32{uint32(i / 2), 0, 0}, 0, gpuav.CodeDescriptorIndexOOB, 2, 2)
		r[gpuav.RecordCountWord] = n
		buf = append(buf, r...)
	}
	buf[gpuav.OutputWrittenWord] = 3 + 2                    // two folded records did not fit,
	buf[gpuav.OutputFoldedDroppedWord] = 4 + 6              // of 5 and 7 failures
	buf = append(buf, make([]uint32, gpuav.RecordWords)...) // the sink
	msg, malformed, ok := BuildErrors(1, 0x9, SubmittedCB{Handle: 0xc0, Words: buf, Actions: []Action{{Index: 0, Command: "vkCmdDispatch"}}})
	if !ok || malformed != 0 || len(msg.Records) != 2 || msg.Dropped != 12 {
		t.Fatalf("ok %v malformed %d, %d records, dropped %d; want 2 records, 12 dropped", ok, malformed, len(msg.Records), msg.Dropped)
	}
	if r := msg.Records[0]; r.Count != 8 || r.Loop != 5 || r.StageWords != [3]uint32{0, 0, 0} {
		t.Errorf("invocation 0: count %d, loop %d, %v; want 8, 5", r.Count, r.Loop, r.StageWords)
	}
	if r := msg.Records[1]; r.Count != 1 || r.Loop != 0 || r.StageWords != [3]uint32{1, 0, 0} {
		t.Errorf("invocation 1: count %d, loop %d, %v; want 1, 0", r.Count, r.Loop, r.StageWords)
	}
}

func TestBuildErrors(t *testing.T) {
	withShaders(t, map[uint32][4]uint32{1: {70, 5, 0, 0}, 2: {9, 4, 0, 1}})
	buf := make([]uint32, gpuav.OutputHeaderWords)
	for x := uint32(0); x < 4; x++ {
		buf = append(buf, record(1, 0, [3]uint32{x, 0, 0}, 1, gpuav.CodeDescriptorIndexOOB, 3, 2)...)
	}
	buf = append(buf, record(1, 0, [3]uint32{0, 0, 0}, 0, gpuav.CodeDescriptorIndexOOB, 5, 2)...)
	buf = append(buf, record(1, 0, [3]uint32{2, 0, 0}, 1, gpuav.CodeDescriptorIndexOOB, 3, 2)...) // a repeat
	for x := uint32(0); x < 12; x++ {                                                             // more distinct coordinates than samples kept
		buf = append(buf, record(2, 0, [3]uint32{x, 1, 0}, 0, gpuav.CodeDescriptorIndexOOB, 6, 6)...)
	}
	buf = append(buf, make([]uint32, gpuav.RecordWords)...) // claimed, never written
	// 7 more claimed than the buffer holds (every record but the last, the
	// sink): dropped.
	buf[gpuav.OutputWrittenWord] = uint32((len(buf)-gpuav.OutputHeaderWords)/gpuav.RecordWords + 7)
	buf = append(buf, record(1, 0, [3]uint32{}, 0, gpuav.CodeDescriptorIndexOOB, 1, 1)...) // the sink
	cb := SubmittedCB{Handle: 0xc0, Words: buf, Actions: []Action{
		{Index: 0, Command: "vkCmdDispatch", Pipeline: 0xa},
		{Index: 1, Command: "vkCmdDispatchIndirect", Pipeline: 0xb, Labels: []string{"frame", "pass"}},
	}}
	msg, malformed, ok := BuildErrors(9, 0x9, cb)
	if !ok || malformed != 0 {
		t.Fatalf("ok %v malformed %d", ok, malformed)
	}
	// Group 1: 4 distinct coordinates (x=2 twice) as 4 records; group 2:
	// one record; group 3: 12 coordinates kept as samplesPerGroup records.
	if msg.Submit != 9 || msg.CommandBuffer != 0xc0 || msg.Dropped != 7 || len(msg.Records) != 4+1+samplesPerGroup {
		t.Fatalf("errors: %+v", msg)
	}
	if c := totalCount(msg.Records[:4]); c != 5 || msg.Records[2].Count != 2 {
		t.Errorf("first group counts: total %d, x=2 count %d", c, msg.Records[2].Count)
	}
	if c := totalCount(msg.Records[5:]); c != 12 || msg.Records[len(msg.Records)-1].Count != 12-samplesPerGroup+1 {
		t.Errorf("capped group: total %d, last %+v", c, msg.Records[len(msg.Records)-1])
	}
	r := msg.Records[0]
	if r.Count != 1 || r.StageWords != [3]uint32{0, 0, 0} || r.Action != "vkCmdDispatchIndirect" || r.Pipeline != 0xb ||
		!slices.Equal(r.Labels, []string{"frame", "pass"}) || r.Check != gpuav.CheckDescriptorIndexOOB ||
		!slices.Equal(r.Params[:4], []uint32{0, 0, 3, 2}) {
		t.Errorf("first group: %+v", r)
	}
	if r := msg.Records[4]; r.Count != 1 || r.Action != "vkCmdDispatch" || r.Params[2] != 5 {
		t.Errorf("second group: %+v", r)
	}
	// An empty buffer has nothing to say.
	if _, _, ok := BuildErrors(1, 1, SubmittedCB{Words: make([]uint32, 64)}); ok {
		t.Error("empty buffer reported")
	}
	if commandName(cmdDispatch) != "vkCmdDispatch" || commandName(cmdDraw) != "vkCmdDraw" ||
		commandName(cmdDrawIndexedIndirectCount) != "vkCmdDrawIndexedIndirectCount" {
		t.Error("command names")
	}
	for c := uint32(1); c < cmdCount; c++ {
		if !strings.HasPrefix(commandName(c), "vkCmd") {
			t.Errorf("command %d is named %q", c, commandName(c))
		}
	}
	if commandName(0) != "command(0)" || commandName(cmdCount) != fmt.Sprintf("command(%d)", cmdCount) {
		t.Error("names of unknown commands")
	}
}

// checkHello checks the hello and the device of a run.
func checkHello(t *testing.T, r result, wantReserve bool) *wire.Device {
	t.Helper()
	if len(r.msgs) == 0 {
		t.Fatalf("no messages: the layer did not load?\nstderr:\n%s", r.stderr)
	}
	h, ok := r.msgs[0].(*wire.Hello)
	if !ok {
		t.Fatalf("first message is %T, not a hello", r.msgs[0])
	}
	if h.PID != r.pid || h.Protocol != wire.ProtocolVersion || h.RecordFormat != gpuav.RecordFormatVersion ||
		filepath.Base(h.App) != "vkapp" || len(h.Args) == 0 || filepath.Base(h.Args[0]) != "vkapp" {
		t.Errorf("hello: %+v (app pid %d)", h, r.pid)
	}
	if h.Settings.ReserveSlot != wantReserve || h.Settings.OnError != "skip" || h.Settings.Robust || !h.Settings.Checks[gpuav.CheckDescriptorIndexOOB] {
		t.Errorf("hello settings: %+v", h.Settings)
	}
	if _, ok := r.msgs[len(r.msgs)-1].(*wire.Bye); !ok {
		t.Errorf("last message is %T, not a bye", r.msgs[len(r.msgs)-1])
	}
	d := one[wire.Device](t, r)
	if !d.Instrumenting || d.Reason != "" || d.Handle == 0 || d.Name == "" || d.APIVersion == "" {
		t.Errorf("device: %+v", d)
	}
	if d.MaxBoundDescriptorSets > 0 {
		want := d.MaxBoundDescriptorSets
		if want > 33 {
			want = 33
		}
		if d.DescriptorSlot != want-1 {
			t.Errorf("descriptor slot %d with maxBoundDescriptorSets %d", d.DescriptorSlot, d.MaxBoundDescriptorSets)
		}
	}
	return d
}

// lavapipe reports whether the device is Mesa's lavapipe, whose numbers
// the tests know.
func lavapipe(d *wire.Device) bool { return strings.Contains(d.Name, "llvmpipe") }

func TestLayerReportsDeviceShadersPipelines(t *testing.T) {
	setup(t)
	r := runApp(t, true, nil, fixture.app, "--shader", fixture.shader)
	d := checkHello(t, r, false)
	if lavapipe(d) && (d.DescriptorSlot != 7 || d.MaxBoundDescriptorSets != 8) {
		t.Errorf("lavapipe: slot %d, max sets %d; want 7 and 8", d.DescriptorSlot, d.MaxBoundDescriptorSets)
	}
	if got := appMaxSets(t, r); got != int(d.MaxBoundDescriptorSets) {
		t.Errorf("the app sees maxBoundDescriptorSets %d without reserve-slot, want %d", got, d.MaxBoundDescriptorSets)
	}
	if !strings.Contains(r.stdout, "values=0 3 6 9") {
		t.Errorf("the in-bounds dispatch computed something else:\n%s", r.stdout)
	}
	s := one[wire.Shader](t, r)
	if s.ID != 1 || s.Module == 0 || !bytes.Equal(s.SPIRV, fixture.spirv) {
		t.Errorf("shader: id %d module %#x, %d bytes of SPIR-V (want the original %d)", s.ID, s.Module, len(s.SPIRV),
			len(fixture.spirv))
	}
	// The coverage: the accesses each check guards (outs[pc.idx]).
	if !s.Instrumented || s.Sites["descriptor_index_oob"] < 1 || s.Sites["bda_oob"] != 0 {
		t.Errorf("shader: instrumented %v, sites %v", s.Instrumented, s.Sites)
	}
	p := one[wire.Pipeline](t, r)
	if p.BindPoint != "compute" || len(p.Stages) != 1 || p.Stages[0].ShaderID != s.ID || p.Stages[0].Module != s.Module ||
		p.Stages[0].Stage != "compute" || p.Stages[0].Entry != "main" || p.Instrumented != s.Instrumented || p.Warning != "" {
		t.Errorf("pipeline: %+v (shader instrumented %v)", p, s.Instrumented)
	}
	names := map[string]string{}
	for _, n := range all[wire.Name](r) {
		names[n.ObjectType] = n.Name
	}
	if names["command_buffer"] != "compute-cmd" || names["pipeline"] != "oob-pipeline" {
		t.Errorf("names: %v", names)
	}
	if e := all[wire.Errors](r); len(e) != 0 {
		t.Errorf("an in-bounds dispatch reported errors: %s", dump(r.msgs))
	}
	if b := all[wire.Bye](r); len(b) == 1 && b[0].Submits != 1 {
		t.Errorf("bye counts %d submits, want 1", b[0].Submits)
	}
}

func TestReserveSlot(t *testing.T) {
	setup(t)
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"env", []string{"VK_LAYER_GPUAV_DBG_RESERVE_SLOT=1"}, nil},
		{"VkValidationFeaturesEXT", nil, []string{"--reserve-features"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The app uses every set it sees: with the slot reserved, that
			// no longer includes the layer's.
			r := runApp(t, true, tc.env, fixture.app, append([]string{"--shader", fixture.shader, "--conflict"}, tc.args...)...)
			d := checkHello(t, r, true)
			// The layer's set stays at the device's last slot; the app sees
			// one set fewer (docs/decisions/reserve-slot.md).
			if got := appMaxSets(t, r); got != int(d.MaxBoundDescriptorSets)-1 {
				t.Errorf("the app sees maxBoundDescriptorSets %d, want %d", got, d.MaxBoundDescriptorSets-1)
			}
			if lavapipe(d) && (d.DescriptorSlot != 7 || appMaxSets(t, r) != 7) {
				t.Errorf("lavapipe: slot %d, app sees %d sets; want 7 and 7", d.DescriptorSlot, appMaxSets(t, r))
			}
			for _, l := range all[wire.Log](r) {
				if strings.Contains(l.Text, "pipeline layout") {
					t.Errorf("unexpected conflict: %s", l.Text)
				}
			}
			s := one[wire.Shader](t, r)
			if p := one[wire.Pipeline](t, r); p.Instrumented != s.Instrumented || p.Warning != "" {
				t.Errorf("pipeline: %+v", p)
			}
		})
	}
}

func TestLayoutConflict(t *testing.T) {
	setup(t)
	r := runApp(t, true, nil, fixture.app, "--shader", fixture.shader, "--conflict", "--index", "3")
	checkHello(t, r, false)
	layout := ""
	for _, line := range strings.Split(r.stdout, "\n") {
		if s, ok := strings.CutPrefix(line, "layout="); ok {
			layout = s
		}
	}
	// An error names the layout: its pipelines run unchecked.
	warned := false
	for _, l := range all[wire.Log](r) {
		warned = warned || (l.Level == "error" && strings.Contains(l.Text, "pipeline layout "+layout) &&
			strings.Contains(l.Text, "run uninstrumented shaders"))
	}
	if layout == "" || !warned {
		t.Errorf("no error naming layout %q: %s", layout, dump(r.msgs))
	}
	s := one[wire.Shader](t, r)
	p := one[wire.Pipeline](t, r)
	// The pipeline's own message names its layout (the launcher's notice
	// says it once, with the pipeline); the layer does not log it again.
	if !strings.Contains(p.Warning, "pipeline layout "+layout+" uses descriptor set") {
		t.Errorf("pipeline %#x's warning does not name layout %s: %q", p.Handle, layout, p.Warning)
	}
	for _, l := range all[wire.Log](r) {
		if strings.Contains(l.Text, fmt.Sprintf("compute pipeline 0x%x:", p.Handle)) {
			t.Errorf("the layer logged the pipeline's warning to the launcher too: %q", l.Text)
		}
	}
	if p.Instrumented || (s.Instrumented && !strings.Contains(p.Warning, "uninstrumented")) {
		t.Errorf("pipeline with a conflicting layout: %+v", p)
	}
	// The pipeline ran the original shader, so the layer saw nothing.
	if e := all[wire.Errors](r); len(e) != 0 {
		t.Errorf("errors from an uninstrumented pipeline: %s", dump(r.msgs))
	}
}

// checkOOB checks the Errors of the out-of-bounds dispatch: 4 invocations
// indexing outs[3] of an array of 2, in vkCmdDispatch action 0 of the
// command buffer named "compute-cmd" (or its secondary).
func checkOOB(t *testing.T, r result, submits int) {
	t.Helper()
	s := one[wire.Shader](t, r)
	if !s.Instrumented {
		t.Fatalf("shader not instrumented (warning: %q)", s.Warning)
	}
	p := one[wire.Pipeline](t, r)
	errs := all[wire.Errors](r)
	if len(errs) != submits {
		t.Fatalf("%d Errors messages for %d submits: %s", len(errs), submits, dump(r.msgs))
	}
	for i, e := range errs {
		// 4 invocations with distinct global ids: one record each.
		if e.Submit != uint64(i+1) || e.Queue == 0 || e.CommandBuffer == 0 || e.Dropped != 0 || len(e.Records) != 4 {
			t.Fatalf("errors of submit %d: %+v", i+1, e)
		}
		xs := map[uint32]bool{}
		for _, rec := range e.Records {
			want := wire.Record{
				Check: gpuav.CheckDescriptorIndexOOB, Code: uint32(gpuav.CodeDescriptorIndexOOB), ShaderID: s.ID,
				Instruction: rec.Instruction, Stage: gpuav.ModelGLCompute, StageWords: rec.StageWords, ActionIndex: 0,
				Action: "vkCmdDispatch", Pipeline: p.Handle, PipelineSerial: p.Serial, Labels: []string{"compute-pass"},
				Params: []uint32{0, 0, 3, 2, 0, 0, 0, 0}, Count: 1,
			}
			got, _ := json.Marshal(rec)
			exp, _ := json.Marshal(want)
			if !bytes.Equal(got, exp) {
				t.Errorf("record of submit %d:\n got %s\nwant %s", i+1, got, exp)
			}
			if rec.StageWords[0] > 3 || rec.StageWords[1] != 0 || rec.StageWords[2] != 0 {
				t.Errorf("stage words %v are not a global invocation id of the dispatch", rec.StageWords)
			}
			xs[rec.StageWords[0]] = true
		}
		if len(xs) != 4 {
			t.Errorf("submit %d: invocation ids %v, want 0..3 once each", i+1, xs)
		}
	}
}

// TestExitWithoutDestroy: an app that exits right after reading its
// results, destroying nothing, still gets its records and the bye to the
// launcher (the layer flushes at process exit).
func TestExitWithoutDestroy(t *testing.T) {
	setup(t)
	r := runApp(t, true, nil, fixture.app, "--shader", fixture.shader, "--index", "3", "--exit-early")
	checkOOB(t, r, 1)
	if b := all[wire.Bye](r); len(b) != 1 || b[0].Submits != 1 {
		t.Fatalf("bye messages %+v, want one with 1 submit", b)
	}
}

func TestComputeOOB(t *testing.T) {
	setup(t)
	for _, tc := range []struct {
		name    string
		args    []string
		submits int
	}{
		{"QueueSubmit", nil, 1},
		{"resubmitted", []string{"--submits", "3"}, 3},
		{"QueueSubmit2", []string{"--submit2"}, 1},
		{"secondary", []string{"--secondary"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runApp(t, true, nil, fixture.app, append([]string{"--shader", fixture.shader, "--index", "3"}, tc.args...)...)
			checkHello(t, r, false)
			checkOOB(t, r, tc.submits)
			var named uint64
			for _, n := range all[wire.Name](r) {
				if n.Name == "compute-cmd" {
					named = n.Handle
				}
			}
			for _, e := range all[wire.Errors](r) {
				if (e.CommandBuffer == named) == (tc.name == "secondary") {
					t.Errorf("errors name command buffer %#x; compute-cmd is %#x", e.CommandBuffer, named)
				}
			}
		})
	}
}

// checksOffEnv turns every check off.
func checksOffEnv() []string {
	var env []string
	for _, id := range gpuav.AllChecks {
		env = append(env, CheckEnv(id)+"=0")
	}
	return env
}

func TestCheckOffLeavesShadersAlone(t *testing.T) {
	setup(t)
	r := runApp(t, true, checksOffEnv(), fixture.app,
		"--shader", fixture.shader, "--index", "1")
	d := one[wire.Device](t, r)
	if d.Instrumenting || d.Reason == "" {
		t.Errorf("device with every check off: %+v", d)
	}
	if s := one[wire.Shader](t, r); s.Instrumented || !bytes.Equal(s.SPIRV, fixture.spirv) || s.Warning == "" {
		t.Errorf("shader with every check off: instrumented %v, warning %q", s.Instrumented, s.Warning)
	}
	if !strings.Contains(r.stdout, "values=0 3 6 9") {
		t.Errorf("app output:\n%s", r.stdout)
	}
}

func TestStderrWithoutLauncher(t *testing.T) {
	setup(t)
	r := runApp(t, false, nil, fixture.app, "--shader", fixture.shader, "--index", "1")
	if strings.Contains(r.stderr, "gpuav-dbg") {
		t.Errorf("a clean run printed:\n%s", r.stderr)
	}
	r = runApp(t, false, nil, fixture.app, "--shader", fixture.shader, "--index", "3", "--submits", "2")
	if !strings.Contains(r.stderr, "gpuav-dbg: ERROR") {
		// Only an uninstrumented shader explains silence.
		r2 := runApp(t, true, nil, fixture.app, "--shader", fixture.shader, "--index", "1")
		if s := one[wire.Shader](t, r2); !s.Instrumented {
			t.Fatalf("shader not instrumented (warning: %q)", s.Warning)
		}
		t.Fatalf("no error on stderr:\n%s", r.stderr)
	}
	// One group per submit: its message, the session's words (the
	// invocations it samples, the count, the source location), then the
	// source line.
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	want := "gpuav-dbg: ERROR descriptor_index_oob: (set = 0, binding = 0) Index of 3 used to index descriptor array of length 2. " +
		"The access was skipped (a load read zero, a store or atomic did nothing). VUID-vkCmdDispatch-None-10068. Command buffer 0x"
	samples := ". Stage compute, global_invocation_id (0,0,0); 4 invocations. Samples: (0,0,0) (1,0,0) (2,0,0) (3,0,0). oob_compute.comp:9:"
	if len(lines) != 4 {
		t.Fatalf("stderr has %d lines, want 4 (two groups of two):\n%s", len(lines), r.stderr)
	}
	for i := 0; i < 4; i += 2 {
		if !strings.HasPrefix(lines[i], want) || !strings.Contains(lines[i], `("compute-cmd"), action #0 vkCmdDispatch in "compute-pass", submit `) ||
			!strings.Contains(lines[i], `("oob-pipeline"), shader 1 (module 0x`) ||
			!strings.HasSuffix(lines[i], samples) || lines[i+1] != "    outs[pc.idx].v[i] = i * 3u;" {
			t.Errorf("stderr group %d:\n%s", i/2, strings.Join(lines[i:i+2], "\n"))
		}
	}
}

// demoApp returns bin/demo, built by `make examples` (and `make test`).
func demoApp(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../bin/demo")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("bin/demo not built: run `make test` (or `make examples`): %v", err)
	}
	return p
}

func TestDemoCompute(t *testing.T) {
	setup(t)
	r := runApp(t, true, nil, demoApp(t), "--compute-only")
	var comp *wire.Shader
	for _, s := range all[wire.Shader](r) {
		if bytes.Contains(s.SPIRV, []byte("oob_compute.comp")) {
			comp = s
		}
	}
	if comp == nil {
		t.Fatalf("no shader message for oob_compute.comp: %s", dump(r.msgs))
	}
	if !comp.Instrumented {
		t.Fatalf("shader not instrumented (warning: %q)", comp.Warning)
	}
	var recs []wire.Record
	for _, e := range all[wire.Errors](r) {
		recs = append(recs, e.Records...)
	}
	if len(recs) != 4 || totalCount(recs) != 4 {
		t.Fatalf("records: %s", dump(r.msgs))
	}
	for _, rec := range recs {
		if rec.Check != gpuav.CheckDescriptorIndexOOB || !slices.Equal(rec.Params[:4], []uint32{0, 0, 3, 2}) ||
			rec.Stage != gpuav.ModelGLCompute || rec.Action != "vkCmdDispatch" || rec.ShaderID != comp.ID {
			t.Errorf("demo compute record: %+v", rec)
		}
	}
}

func TestDemoGraphics(t *testing.T) {
	setup(t)
	// Whatever the instrumentation covers today, the app must run to the end.
	r := runApp(t, true, nil, demoApp(t), "--graphics-only")
	checkDemoPipelines(t, r)
	var frag *wire.Shader
	for _, s := range all[wire.Shader](r) {
		if bytes.Contains(s.SPIRV, []byte("oob_fragment.frag")) {
			frag = s
		}
	}
	if frag == nil || !frag.Instrumented {
		t.Fatalf("the fragment shader was not instrumented: %s", dump(r.msgs))
	}
	// 8x8 fragments sample tex[6] of an array of 6.
	var recs []wire.Record
	for _, e := range all[wire.Errors](r) {
		recs = append(recs, e.Records...)
	}
	// 64 distinct fragments: samplesPerGroup records, 64 in all.
	if len(recs) != samplesPerGroup || totalCount(recs) != 64 {
		t.Errorf("demo fragment records: %s", dump(r.msgs))
	}
	for _, rec := range recs {
		if rec.Check != gpuav.CheckDescriptorIndexOOB || !slices.Equal(rec.Params[:4], []uint32{0, 0, 6, 6}) ||
			rec.Stage != gpuav.ModelFragment || rec.Action != "vkCmdDraw" || rec.ShaderID != frag.ID {
			t.Errorf("demo fragment record: %+v", rec)
		}
	}
	r = runApp(t, true, nil, demoApp(t), "--clean")
	checkDemoPipelines(t, r)
	if e := all[wire.Errors](r); len(e) != 0 {
		t.Errorf("the clean demo reported errors: %s", dump(r.msgs))
	}
}

func checkDemoPipelines(t *testing.T, r result) {
	t.Helper()
	if len(all[wire.Hello](r)) != 1 || len(all[wire.Device](r)) != 1 || len(all[wire.Pipeline](r)) == 0 {
		t.Errorf("messages: %s", dump(r.msgs))
	}
	for _, p := range all[wire.Pipeline](r) {
		for _, s := range p.Stages {
			if s.ShaderID == 0 {
				t.Errorf("pipeline %#x stage %s has no shader id", p.Handle, s.Stage)
			}
		}
	}
}

// totalCount adds the counts of records.
func totalCount(recs []wire.Record) int {
	n := 0
	for _, r := range recs {
		n += r.Count
	}
	return n
}

// TestVulkan10App: an app that creates a Vulkan 1.0 instance, with a module
// compiled for Vulkan 1.0 (SPIR-V 1.0). The check functions use the
// StorageBuffer storage class, core from Vulkan 1.1: the layer enables
// VK_KHR_storage_buffer_storage_class on the app's device, so that the
// instrumented module is valid there (the referee, the Khronos layer's core
// checks below ours, reported VUID-VkShaderModuleCreateInfo-pCode-04147
// for it before), and the out-of-bounds index is still caught.
func TestVulkan10App(t *testing.T) {
	setup(t)
	spv := vulkan10Shader(t)
	r := runApp(t, true, nil, fixture.app, "--vulkan10", "--shader", spv, "--index", "3")
	checkHello(t, r, false)
	if s := one[wire.Shader](t, r); !s.Instrumented || s.Warning != "" {
		t.Errorf("shader: instrumented %v, warning %q; want instrumented, no warning", s.Instrumented, s.Warning)
	}
	checkOOB(t, r, 1)
}

// TestVulkan10Indirect: a Vulkan 1.0 app's vkCmdDispatchIndirect of
// {1, maxComputeWorkGroupCount[1] + 1, 1} groups is caught by
// indirect_command. The pre-pass that reads the indirect buffer
// dispatches with vkCmdDispatchBase, Vulkan 1.1: for a 1.0 app the layer
// enables VK_KHR_device_group_creation on the instance and
// VK_KHR_device_group on the device (on its copies of the create infos),
// where it used to drop the check with "the driver lacks vkCmdDispatchBase"
// (the driver has it). The referee below ours sees valid create infos.
func TestVulkan10Indirect(t *testing.T) {
	setup(t)
	spv := vulkan10Shader(t)
	r := runApp(t, true, nil, fixture.app, "--vulkan10", "--shader", spv, "--indirect-groups")
	for _, l := range all[wire.Log](r) {
		if l.Unchecked || strings.Contains(l.Text, "vkCmdDispatchBase") {
			t.Errorf("log %q: the check was dropped", l.Text)
		}
	}
	errs := all[wire.Errors](r)
	if len(errs) != 1 || len(errs[0].Records) != 1 {
		t.Fatalf("errors %s, want one indirect_command record", dump(r.msgs))
	}
	rec := errs[0].Records[0]
	if rec.Check != gpuav.CheckIndirectCommand || rec.Action != "vkCmdDispatchIndirect" || rec.ActionIndex != 0 ||
		rec.ShaderID != 0 || rec.Count != 1 {
		t.Errorf("record %+v, want indirect_command of action 0 (vkCmdDispatchIndirect)", rec)
	}
}

// vulkan10Shader is oob_compute.comp compiled for Vulkan 1.0.
func vulkan10Shader(t *testing.T) string {
	t.Helper()
	spv := filepath.Join(fixture.dir, "oob_compute10.spv") // scripts/hardware/build.sh layer-tests
	if os.Getenv(EnvPrebuilt) == "" {
		spv = filepath.Join(t.TempDir(), "oob_compute10.spv")
		cmd := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.0", "-o", spv, "oob_compute.comp")
		cmd.Dir = "../examples/demo/shaders"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("compile shader: %v\n%s", err, out)
		}
	}
	return spv
}
