package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/launcher"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// envFakeApp makes the test binary act as an app with a fake layer: it
// connects to the launcher's socket and sends what the mode says.
const envFakeApp = "GPUAV_DBG_TEST_FAKE_APP"

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "doctor" && os.Args[2] == "--probe" {
		// The device probe's child process (doctor_test.go).
		os.Exit((&cli{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}).main(os.Args[1:]))
	}
	if mode := os.Getenv(envFakeApp); mode != "" {
		os.Exit(fakeApp(mode))
	}
	os.Exit(m.Run())
}

// fakeApp speaks the wire protocol like the layer would, then exits.
func fakeApp(mode string) int {
	switch mode { // an app that never loads the layer
	case "nolayer":
		return 0
	case "nolayer-fail":
		return 5
	}
	cl, err := wire.Dial(os.Getenv("VK_LAYER_GPUAV_DBG_SOCKET"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake app:", err)
		return 99
	}
	cl.Send(wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: gpuav.RecordFormatVersion, LayerVersion: "fake", App: os.Args[0], PID: os.Getpid(),
		Settings: wire.Settings{Checks: map[string]bool{"descriptor_index_oob": os.Getenv("VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB") == "1"}, OnError: "skip"}})
	cl.Send(wire.KindDevice, &wire.Device{Handle: 1, Name: "fake gpu", APIVersion: "1.4.0", Instrumenting: true})
	cl.Send(wire.KindName, &wire.Name{Handle: 0x55, ObjectType: "command_buffer", Name: "compute-cmd"})
	fmt.Println("fake app: running")
	switch mode {
	case "unchecked":
		cl.Send(wire.KindShader, &wire.Shader{ID: 1, Module: 0xab, SPIRV: []byte{3, 2, 0x23, 7}, Warning: "module has no entry point: left uninstrumented"})
	case "dropped", "errors-dropped":
		cl.Send(wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Dropped: 9})
	}
	if mode == "printf" {
		if err := sendPrintf(cl); err != nil {
			fmt.Fprintln(os.Stderr, "fake app:", err)
			return 97
		}
	}
	if mode == "errors" || mode == "errors-dropped" {
		var recs []wire.Record
		for x := uint32(0); x < 4; x++ {
			recs = append(recs, wire.Record{Check: "descriptor_index_oob", Code: 1, ShaderID: 1, Instruction: 79, Stage: 5,
				StageWords: [3]uint32{x, 0, 0}, Action: "vkCmdDispatch", Pipeline: 0x77, Params: []uint32{0, 0, 3, 2}, Count: 1})
		}
		cl.Send(wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: recs})
	}
	if f := trustFakes[mode]; f != nil { // trust_test.go
		f(cl)
	}
	cl.Send(wire.KindBye, &wire.Bye{Submits: 1})
	if err := cl.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "fake app:", err)
		return 98
	}
	fmt.Fprintln(os.Stderr, "fake app: done")
	if mode == "fail" {
		return 5
	}
	return 0
}

// testCLI is a cli writing to buffers, with a fake layer manifest.
type testCLI struct {
	cli
	out, err bytes.Buffer
	dir      string
}

func newTestCLI(t *testing.T) *testCLI {
	t.Helper()
	dir := t.TempDir()
	layer := filepath.Join(dir, "layer")
	if err := os.Mkdir(layer, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(layer, launcher.ManifestName), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	rt := filepath.Join(dir, "rt")
	if err := os.Mkdir(rt, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv(options.LayerPath.Env, layer)
	tc := &testCLI{dir: dir}
	tc.cli = cli{
		stdin: strings.NewReader(""), stdout: &tc.out, stderr: &tc.err,
		getenv:     os.Getenv,
		executable: func() (string, error) { return filepath.Join(dir, "bin", "gpuav-dbg"), nil },
		isTerminal: func() bool { return false },
	}
	return tc
}

// run runs a command line and checks its exit status.
func (tc *testCLI) run(t *testing.T, want int, args ...string) {
	t.Helper()
	if got := tc.main(args); got != want {
		t.Fatalf("gpuav-dbg %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), got, want, tc.out.String(), tc.err.String())
	}
}

// report reads a JSON report.
func readReport(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRunMissingApp(t *testing.T) {
	tc := newTestCLI(t)
	tc.run(t, exitLauncher, "run", "--headless", "./missing")
	if got := tc.err.String(); got != "gpuav-dbg: run: ./missing: no such file\n" {
		t.Fatalf("stderr %q", got)
	}
	tc.err.Reset()
	tc.run(t, exitLauncher, "run", "no-such-command-gpuav")
	if got := tc.err.String(); got != "gpuav-dbg: run: no-such-command-gpuav: not found in $PATH\n" {
		t.Fatalf("stderr %q", got)
	}
}

func TestRunNotExecutable(t *testing.T) {
	tc := newTestCLI(t)
	script := filepath.Join(tc.dir, "script.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tc.run(t, exitLauncher, "run", "--headless", script)
	if got, want := tc.err.String(), "gpuav-dbg: run: "+script+": not executable\n"; got != want {
		t.Fatalf("stderr %q, want %q", got, want)
	}
	tc.err.Reset()
	tc.run(t, exitLauncher, "run", "--headless", tc.dir)
	if got, want := tc.err.String(), "gpuav-dbg: run: "+tc.dir+": not executable (a directory)\n"; got != want {
		t.Fatalf("stderr %q, want %q", got, want)
	}
	// Executable bits but not a program the kernel can run.
	bad := filepath.Join(tc.dir, "garbage")
	if err := os.WriteFile(bad, []byte("\x00\x01\x02garbage"), 0o755); err != nil {
		t.Fatal(err)
	}
	tc.err.Reset()
	tc.run(t, exitLauncher, "run", "--headless", bad)
	if got, want := tc.err.String(), "gpuav-dbg: run: "+bad+": exec format error\n"; got != want {
		t.Fatalf("stderr %q, want %q", got, want)
	}
}

func TestRunLayerMissing(t *testing.T) {
	tc := newTestCLI(t)
	empty := t.TempDir()
	t.Setenv(options.LayerPath.Env, empty)
	tc.run(t, exitLauncher, "run", "--headless", "/bin/true")
	want := "gpuav-dbg: layer manifest not found: looked for " + filepath.Join(empty, launcher.ManifestName) + " ($GPUAV_DBG_LAYER_PATH); build it with make, install it with make install, or set GPUAV_DBG_LAYER_PATH\n"
	if got := tc.err.String(); got != want {
		t.Fatalf("stderr %q\nwant   %q", got, want)
	}
	// Without the override, it looks next to the executable.
	t.Setenv(options.LayerPath.Env, "")
	tc.err.Reset()
	tc.run(t, exitLauncher, "run", "--headless", "/bin/true")
	if !strings.Contains(tc.err.String(), filepath.Join(tc.dir, "bin", launcher.ManifestName)+" (next to gpuav-dbg)") {
		t.Fatalf("stderr %q", tc.err.String())
	}
}

func TestRunNonVulkanApp(t *testing.T) {
	tc := newTestCLI(t)
	out := filepath.Join(tc.dir, "out.json")
	gvs := filepath.Join(tc.dir, "s.gvs")
	tc.run(t, exitUnchecked, "run", "--headless", "--json", out, "--session", gvs, "/bin/true")
	line := "gpuav-dbg: the layer was not loaded by /bin/true (is it a Vulkan app? run with VK_LOADER_DEBUG=layer to see why)\n"
	unchecked := "gpuav-dbg: not everything was checked (exit 4; --allow-unchecked accepts it):\n" +
		"gpuav-dbg:   the layer was not loaded by the app, so nothing was checked\n"
	if !strings.Contains(tc.err.String(), line) || !strings.Contains(tc.err.String(), unchecked) {
		t.Fatalf("stderr lacks the layer lines:\n%s", tc.err.String())
	}
	r := readReport(t, out)
	app := r["app"].(map[string]any)
	if app["layer_loaded"] != false || app["exit_code"] != 0.0 || app["path"] != "/bin/true" || len(r["errors"].([]any)) != 0 {
		t.Fatalf("report %v", r)
	}
	notices := r["notices"].([]any)
	last := notices[len(notices)-1].(map[string]any)
	if !strings.HasPrefix(line, "gpuav-dbg: "+last["text"].(string)) || last["level"] != "warning" {
		t.Fatalf("notices %v", notices)
	}
	// The session file has the same notice.
	s, err := session.Open(gvs)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Notices) != 1 || !strings.Contains(s.Notices[0].Text, "the layer was not loaded") || s.App.State != session.AppExited {
		t.Fatalf("session %+v", s)
	}
}

func TestRunFailingApp(t *testing.T) {
	tc := newTestCLI(t)
	tc.run(t, exitApp, "run", "--headless", "/bin/false")
	out := filepath.Join(tc.dir, "out.json")
	tc.run(t, exitApp, "run", "--headless", "--json", out, "--", "/bin/sh", "-c", "kill -SEGV $$")
	app := readReport(t, out)["app"].(map[string]any)
	if app["state"] != "crashed" || app["signal"] != "SIGSEGV" || app["exit_code"] != 139.0 {
		t.Fatalf("app %v", app)
	}
	if !strings.Contains(tc.err.String(), "app killed by SIGSEGV") {
		t.Fatalf("stderr %s", tc.err.String())
	}
}

func TestRunEnvironment(t *testing.T) {
	tc := newTestCLI(t)
	t.Setenv("VK_ADD_LAYER_PATH", "/pre")
	t.Setenv("VK_INSTANCE_LAYERS", "VK_LAYER_X")
	t.Setenv("VK_LAYER_GPUAV_DBG_CHECK_BDA_OOB", "1") // overridden by the launcher
	gvs := filepath.Join(tc.dir, "s.gvs")
	script := `echo "$VK_ADD_LAYER_PATH|$VK_INSTANCE_LAYERS|$VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB|$VK_LAYER_GPUAV_DBG_CHECK_BDA_OOB|$VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB|$VK_LAYER_GPUAV_DBG_RESERVE_SLOT"; test -S "$VK_LAYER_GPUAV_DBG_SOCKET" && echo socket ok; echo to-stderr >&2; printf 'no newline'`
	tc.run(t, exitOK, "run", "--headless", "--session", gvs, "--check", "descriptor_index_oob=off", "--check", "buffer_oob=on",
		"--reserve-slot", "--allow-unchecked", "/bin/sh", "-c", script)
	layer := os.Getenv(options.LayerPath.Env)
	want := layer + ":/pre|VK_LAYER_X:VK_LAYER_GPUAVDBG_validation|0|1|1|1\nsocket ok\nno newline"
	if got := tc.out.String(); got != want {
		t.Fatalf("app stdout %q\nwant %q", got, want)
	}
	if !strings.HasPrefix(tc.err.String(), "to-stderr\n") {
		t.Fatalf("app stderr not passed through first: %q", tc.err.String())
	}
	s, err := session.Open(gvs)
	if err != nil {
		t.Fatal(err)
	}
	wantOut := []session.OutputLine{
		{Stream: "stdout", Text: layer + ":/pre|VK_LAYER_X:VK_LAYER_GPUAVDBG_validation|0|1|1|1"},
		{Stream: "stdout", Text: "socket ok"},
		{Stream: "stderr", Text: "to-stderr"},
		{Stream: "stdout", Text: "no newline"},
	}
	got := map[string][]string{}
	for _, l := range s.Output {
		got[l.Stream] = append(got[l.Stream], l.Text)
	}
	wantBy := map[string][]string{}
	for _, l := range wantOut {
		wantBy[l.Stream] = append(wantBy[l.Stream], l.Text)
	}
	if !reflect.DeepEqual(got, wantBy) {
		t.Fatalf("output %q\nwant %q", got, wantBy)
	}
	if !s.Settings.ReserveSlot || s.Settings.Checks["descriptor_index_oob"] || !s.Settings.Checks["buffer_oob"] {
		t.Fatalf("settings %+v", s.Settings)
	}
}

// TestRunOnError: --on-error and --robust reach the app's environment
// (always set, the default too) and the session's settings.
func TestRunOnError(t *testing.T) {
	for _, c := range []struct {
		flags   []string
		onError string
		robust  string
	}{
		{nil, "skip", "0"},
		{[]string{"--on-error", "skip"}, "skip", "0"},
		{[]string{"--on-error", "Clamp"}, "clamp", "0"},
		{[]string{"--on-error=execute"}, "execute", "0"},
		{[]string{"--robust"}, "clamp", "1"},
		{[]string{"--robust", "--on-error", "clamp"}, "clamp", "1"},
	} {
		t.Run(strings.Join(c.flags, " "), func(t *testing.T) {
			tc := newTestCLI(t)
			gvs := filepath.Join(tc.dir, "s.gvs")
			args := append([]string{"run", "--headless", "--session", gvs, "--allow-unchecked"}, c.flags...)
			tc.run(t, exitOK, append(args, "/bin/sh", "-c", `echo "$VK_LAYER_GPUAV_DBG_ON_ERROR|$VK_LAYER_GPUAV_DBG_ROBUST"`)...)
			if want := c.onError + "|" + c.robust + "\n"; tc.out.String() != want {
				t.Errorf("app saw %q, want %q", tc.out.String(), want)
			}
			s, err := session.Open(gvs)
			if err != nil {
				t.Fatal(err)
			}
			if s.Settings.OnError != c.onError || s.Settings.Robust != (c.robust == "1") {
				t.Errorf("session settings %+v, want on_error %s robust %s", s.Settings, c.onError, c.robust)
			}
		})
	}
}

// TestRunLoopBudget: --loop-budget reaches the app's environment and the
// session's settings; without it the variable is left to the layer's
// default (and the parent's environment).
func TestRunLoopBudget(t *testing.T) {
	for _, c := range []struct {
		flags []string
		env   string
		want  uint32
	}{
		{nil, "", 0},
		{[]string{"--loop-budget", "1000"}, "1000", 1000},
		{[]string{"--loop-budget=2^20"}, "1048576", 1 << 20},
	} {
		t.Run(strings.Join(c.flags, " "), func(t *testing.T) {
			tc := newTestCLI(t)
			gvs := filepath.Join(tc.dir, "s.gvs")
			args := append([]string{"run", "--headless", "--session", gvs, "--allow-unchecked"}, c.flags...)
			tc.run(t, exitOK, append(args, "/bin/sh", "-c", `echo "[$VK_LAYER_GPUAV_DBG_LOOP_BUDGET_ITERATIONS]"`)...)
			if want := "[" + c.env + "]\n"; tc.out.String() != want {
				t.Errorf("app saw %q, want %q", tc.out.String(), want)
			}
			s, err := session.Open(gvs)
			if err != nil {
				t.Fatal(err)
			}
			if s.Settings.LoopBudget != c.want {
				t.Errorf("session settings %+v, want loop budget %d", s.Settings, c.want)
			}
		})
	}
}

// TestRunBreadcrumbs: --breadcrumbs (the options table's breadcrumbs row)
// reaches the app's environment and the session's settings (not passed
// when not given: the layer's default, auto, and its hello say it); a
// value none of auto, actions, passes is refused.
func TestRunBreadcrumbs(t *testing.T) {
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{nil, ""},
		{[]string{"--breadcrumbs", "passes"}, "passes"},
		{[]string{"--breadcrumbs=Actions"}, "actions"},
	} {
		t.Run(strings.Join(c.flags, " "), func(t *testing.T) {
			tc := newTestCLI(t)
			gvs := filepath.Join(tc.dir, "s.gvs")
			args := append([]string{"run", "--headless", "--session", gvs, "--allow-unchecked"}, c.flags...)
			tc.run(t, exitOK, append(args, "/bin/sh", "-c", `echo "[$VK_LAYER_GPUAV_DBG_BREADCRUMBS]"`)...)
			if want := "[" + c.want + "]\n"; tc.out.String() != want {
				t.Errorf("app saw %q, want %q", tc.out.String(), want)
			}
			s, err := session.Open(gvs)
			if err != nil {
				t.Fatal(err)
			}
			if s.Settings.Breadcrumbs != c.want {
				t.Errorf("session settings %+v, want breadcrumbs %s", s.Settings, c.want)
			}
		})
	}
	tc := newTestCLI(t)
	tc.run(t, exitLauncher, "run", "--headless", "--breadcrumbs", "draws", "/bin/true")
	if want := `"draws" is not one of auto|actions|passes`; !strings.Contains(tc.err.String(), want) {
		t.Errorf("stderr %q, want %q in it", tc.err.String(), want)
	}
}

func TestRunWithFakeLayer(t *testing.T) {
	tc := newTestCLI(t)
	t.Setenv(envFakeApp, "errors")
	out := filepath.Join(tc.dir, "out.json")
	gvs := filepath.Join(tc.dir, "s.gvs")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tc.run(t, exitErrors, "run", "--headless", "--json", out, "--session", gvs, self, "-test.run=none")
	wantLine := `gpuav-dbg: descriptor_index_oob ×4 compute shader 1 instruction 79 (set 0, binding 0) index 3 of array length 2 — vkCmdDispatch #0 cmd 0x55 ("compute-cmd")` + "\n"
	if !strings.Contains(tc.err.String(), wantLine) {
		t.Fatalf("stderr lacks %q:\n%s", wantLine, tc.err.String())
	}
	if !strings.Contains(tc.err.String(), "gpuav-dbg: 1 error group (4 records); app exited 0; session saved to "+gvs+"\n") {
		t.Fatalf("stderr %s", tc.err.String())
	}
	if strings.Contains(tc.err.String(), "not loaded") {
		t.Fatalf("the fake layer was taken for missing:\n%s", tc.err.String())
	}
	if tc.out.String() != "fake app: running\n" {
		t.Fatalf("stdout %q", tc.out.String())
	}
	r := readReport(t, out)
	errs := r["errors"].([]any)
	if len(errs) != 1 {
		t.Fatalf("errors %v", errs)
	}
	g := errs[0].(map[string]any)
	if g["count"] != 4.0 || g["check"] != "descriptor_index_oob" || g["vuid"] != "VUID-vkCmdDispatch-None-10068" ||
		!reflect.DeepEqual(g["coords"], map[string]any{"global_invocation_id": []any{0.0, 0.0, 0.0}}) ||
		!reflect.DeepEqual(g["command_buffer"], map[string]any{"handle": "0x55", "name": "compute-cmd"}) {
		t.Fatalf("group %v", g)
	}
	if r["device"].(map[string]any)["name"] != "fake gpu" || r["app"].(map[string]any)["layer_loaded"] != true {
		t.Fatalf("report %v", r)
	}
	// The session file opens to the same report.
	s, err := session.Open(gvs)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := session.WriteReport(&buf, s); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(out)
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("session file report differs:\n%s\nwant\n%s", buf.String(), want)
	}

	// open: headless lines, and --json.
	tc.out.Reset()
	tc.err.Reset()
	out2 := filepath.Join(tc.dir, "out2.json")
	tc.run(t, exitOK, "open", gvs, "--json", out2)
	if got, _ := os.ReadFile(out2); !bytes.Equal(got, want) {
		t.Fatalf("open --json differs:\n%s", got)
	}
	tc.run(t, exitErrors, "open", "--headless", gvs)
	if !strings.Contains(tc.err.String(), wantLine) {
		t.Fatalf("open --headless: %s", tc.err.String())
	}
}

func TestRunFakeLayerAppFails(t *testing.T) {
	tc := newTestCLI(t)
	t.Setenv(envFakeApp, "fail")
	self, _ := os.Executable()
	tc.run(t, exitApp, "run", "--headless", "--session", filepath.Join(tc.dir, "s.gvs"), self)
	if !strings.Contains(tc.err.String(), "no validation errors; app exited 5") {
		t.Fatalf("stderr %s", tc.err.String())
	}
}

func TestOpenTruncated(t *testing.T) {
	tc := newTestCLI(t)
	t.Setenv(envFakeApp, "errors")
	self, _ := os.Executable()
	gvs := filepath.Join(tc.dir, "s.gvs")
	tc.run(t, exitErrors, "run", "--headless", "--session", gvs, self)
	data, err := os.ReadFile(gvs)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(tc.dir, "cut.gvs")
	if err := os.WriteFile(cut, data[:len(data)-5], 0o600); err != nil {
		t.Fatal(err)
	}
	tc.err.Reset()
	out := filepath.Join(tc.dir, "cut.json")
	tc.run(t, exitOK, "open", cut, "--json", out)
	first, _, _ := strings.Cut(tc.err.String(), "\n")
	if !strings.HasPrefix(first, "gpuav-dbg: session "+cut+" truncated at byte ") || !strings.HasSuffix(first, "; showing what was read") {
		t.Fatalf("stderr %q", tc.err.String())
	}
	if errs := readReport(t, out)["errors"].([]any); len(errs) != 1 {
		t.Fatalf("partial report has %d errors", len(errs))
	}
	tc.err.Reset()
	tc.run(t, exitLauncher, "open", filepath.Join(tc.dir, "none.gvs"))
	if !strings.Contains(tc.err.String(), "open session ") || !strings.Contains(tc.err.String(), "no such file") {
		t.Fatalf("stderr %q", tc.err.String())
	}
	tc.err.Reset()
	tc.run(t, exitLauncher, "open")
	tc.run(t, exitLauncher, "open", "a", "b")
}

func TestArguments(t *testing.T) {
	tc := newTestCLI(t)
	for _, c := range []struct {
		args []string
		want int
		err  string
	}{
		{[]string{"run", "--check", "nope=on", "/bin/true"}, exitLauncher, `unknown check "nope"`},
		{[]string{"run", "--check", "bda_oob", "/bin/true"}, exitLauncher, "want ID=on or ID=off"},
		{[]string{"run", "--check", "bda_oob=maybe", "/bin/true"}, exitLauncher, "is not on or off"},
		{[]string{"run", "--bogus", "/bin/true"}, exitLauncher, "flag provided but not defined: -bogus"},
		{[]string{"run", "--on-error", "sideways", "/bin/true"}, exitLauncher,
			`invalid value "sideways" for flag -on-error: "sideways" is not a failed-access behaviour (use skip|clamp|execute)`},
		{[]string{"run", "--robust", "--on-error", "execute", "/bin/true"}, exitLauncher,
			"run: --robust clamps every failed access: --on-error execute contradicts it"},
		{[]string{"run", "--loop-budget", "0", "/bin/true"}, exitLauncher,
			`invalid value "0" for flag -loop-budget: "0" is not a loop budget (iterations from 1 to 2147483648, e.g. 16777216 or 2^24)`},
		{[]string{"frobnicate"}, exitLauncher, `unknown command "frobnicate"`},
		{[]string{}, exitLauncher, "Usage:"},
		{[]string{"demo"}, exitLauncher, filepath.Join(tc.dir, "bin", "demo") + ": no such file (build the demo with make)"},
		{[]string{"run"}, exitLauncher, filepath.Join(tc.dir, "bin", "demo") + ": no such file"},
		{[]string{"demo", "/bin/true"}, exitLauncher, "demo takes no app"},
	} {
		tc.err.Reset()
		if got := tc.main(c.args); got != c.want || !strings.Contains(tc.err.String(), c.err) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, got, tc.err.String(), c.want, c.err)
		}
	}
	tc.out.Reset()
	tc.run(t, exitOK, "version")
	if !strings.HasPrefix(tc.out.String(), "gpuav-dbg ") || !strings.Contains(tc.out.String(), fmt.Sprintf("wire protocol %d", wire.ProtocolVersion)) {
		t.Fatalf("version %q", tc.out.String())
	}
	tc.out.Reset()
	tc.run(t, exitOK, "help")
	if !strings.Contains(tc.out.String(), "gpuav-dbg run [flags] [--] APP [ARGS...]") {
		t.Fatalf("help %q", tc.out.String())
	}
}

// fakeRun runs the test binary as a fake app in mode with args before it,
// and returns the exit status.
func (tc *testCLI) fakeRun(t *testing.T, mode string, args ...string) int {
	t.Helper()
	t.Setenv(envFakeApp, mode)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tc.out.Reset()
	tc.err.Reset()
	return tc.main(append(append([]string{"run", "--headless"}, args...), self, "-test.run=none"))
}

// TestExitCodes: each way a run can end has its exit status, run and
// open --headless alike; --allow-unchecked turns 4 into 0 and nothing else;
// the unchecked causes are printed.
func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		name, mode string
		args       []string
		want       int
		line       string // a line of stderr
	}{
		{"clean", "clean", nil, exitOK, "gpuav-dbg: no validation errors; app exited 0"},
		{"errors", "errors", nil, exitErrors, "gpuav-dbg: 1 error group (4 records); app exited 0"},
		{"app fails", "fail", nil, exitApp, "gpuav-dbg: no validation errors; app exited 5"},
		{"every check off", "clean", []string{"--check", "all=off"}, exitUnchecked, "gpuav-dbg:   every check is off"},
		{"a shader left unchecked", "unchecked", nil, exitUnchecked,
			"gpuav-dbg:   1 shader: module has no entry point: left uninstrumented"},
		{"records dropped", "dropped", nil, exitUnchecked,
			"gpuav-dbg:   9 error records did not fit in the layer's buffers (counts are lower bounds)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := newTestCLI(t)
			gvs := filepath.Join(tc.dir, "s.gvs")
			args := append([]string{"--session", gvs}, c.args...)
			for _, allow := range []bool{false, true} {
				want := c.want
				a := args
				if allow {
					a = append([]string{"--allow-unchecked"}, a...)
					if want == exitUnchecked {
						want = exitOK
					}
				}
				if got := tc.fakeRun(t, c.mode, a...); got != want {
					t.Fatalf("run %q: exit %d, want %d\n%s", a, got, want, tc.err.String())
				}
				if !strings.Contains(tc.err.String(), c.line) {
					t.Fatalf("run: stderr lacks %q:\n%s", c.line, tc.err.String())
				}
				open := []string{"open", "--headless", gvs}
				if allow {
					open = append(open, "--allow-unchecked")
				}
				tc.err.Reset()
				tc.run(t, want, open...)
				if !strings.Contains(tc.err.String(), c.line+"\n") {
					t.Fatalf("open: stderr lacks %q:\n%s", c.line, tc.err.String())
				}
			}
		})
	}
}

// TestJSONToStdout: with --json -, stdout is the report alone; the app's
// own stdout goes to stderr.
func TestJSONToStdout(t *testing.T) {
	tc := newTestCLI(t)
	if got := tc.fakeRun(t, "errors", "--session", filepath.Join(tc.dir, "s.gvs"), "--json", "-"); got != exitErrors {
		t.Fatalf("exit %d\n%s", got, tc.err.String())
	}
	var r map[string]any
	if err := json.Unmarshal(tc.out.Bytes(), &r); err != nil || len(r["errors"].([]any)) != 1 {
		t.Fatalf("stdout is not the report alone (%v):\n%s", err, tc.out.String())
	}
	if !strings.Contains(tc.err.String(), "fake app: running\n") {
		t.Fatalf("the app's stdout is not on stderr:\n%s", tc.err.String())
	}
}

// TestMessagesSayWhatIsWrong: a bad theme is an error without a terminal
// too, and error lines name the operation once.
func TestMessagesSayWhatIsWrong(t *testing.T) {
	tc := newTestCLI(t)
	gvs := filepath.Join(tc.dir, "none.gvs")
	out := filepath.Join(tc.dir, "no", "dir", "out.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--headless", "--theme", "nope", "/bin/true"},
			"gpuav-dbg: run: --theme: unknown theme \"nope\" (want auto, dark, light, high-contrast)\n"},
		{[]string{"open", "--theme", "nope", gvs},
			"gpuav-dbg: open: --theme: unknown theme \"nope\" (want auto, dark, light, high-contrast)\n"},
		{[]string{"open", gvs}, "gpuav-dbg: open session " + gvs + ": no such file or directory\n"},
		{[]string{"run", "--headless", "--session", filepath.Join(tc.dir, "f", "s.gvs"), "--allow-unchecked", "--json", out, "/bin/true"},
			"gpuav-dbg: write report " + out + ": no such file or directory\n"},
	} {
		tc.err.Reset()
		tc.main(c.args)
		if !strings.Contains(tc.err.String(), c.want) {
			t.Errorf("%q: stderr\n%s\nlacks %q", c.args, tc.err.String(), c.want)
		}
	}
}

// TestListReruns: open --list lists the runs the TUI started again
// (<first>.2.gvs) after their first run.
func TestListReruns(t *testing.T) {
	tc := newTestCLI(t)
	dir, err := session.DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(dir, "fake-20250101-100000.gvs")
	if got := tc.fakeRun(t, "errors", "--session", first); got != exitErrors {
		t.Fatalf("exit %d\n%s", got, tc.err.String())
	}
	data, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	rerun := launcher.RerunPath(first, 2)
	if err := os.WriteFile(rerun, data, 0o600); err != nil {
		t.Fatal(err)
	}
	tc.out.Reset()
	tc.run(t, exitOK, "open", "--list")
	size := session.FormatBytes(int64(len(data)))
	want := "2025-01-01 10:00:00  fake  1 error group (4 records); app exited 0  " + size + "  " + first + "\n" +
		"2025-01-01 10:00:00  fake (re-run 2)  1 error group (4 records); app exited 0  " + size + "  " + rerun + "\n"
	if tc.out.String() != want {
		t.Fatalf("open --list:\n%s\nwant\n%s", tc.out.String(), want)
	}
}

// TestFileFlagsAreNotFlags: "--" (or any flag) after --json, --sarif or
// --session is refused, never taken for a file name; "-" stays standard
// output for the reports.
func TestFileFlagsAreNotFlags(t *testing.T) {
	tc := newTestCLI(t)
	t.Chdir(tc.dir)
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"run", "--headless", "--json", "--", "/bin/true"}, `--json wants a file name, not "--": give --json FILE (- for standard output, ./ for a file of that name)`},
		{[]string{"run", "--sarif", "--", "/bin/true"}, `--sarif wants a file name, not "--"`},
		{[]string{"run", "--session", "--", "/bin/true"}, `--session wants a file name, not "--": give --session FILE (./ for a file of that name)`},
		{[]string{"run", "--session", "-", "/bin/true"}, `--session wants a file name, not "-"`},
		{[]string{"demo", "--json", "--headless"}, `--json wants a file name, not "--headless": give --json FILE (- for standard output, ./headless for a file of that name)`},
		{[]string{"open", "s.gvs", "--json", "--"}, `--json wants a file name, not "--"`},
		{[]string{"open", "--sarif", "--", "s.gvs"}, `--sarif wants a file name, not "--"`},
	} {
		tc.err.Reset()
		if got := tc.main(c.args); got != exitLauncher || !strings.Contains(tc.err.String(), c.err) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, got, tc.err.String(), exitLauncher, c.err)
		}
	}
	if entries, _ := os.ReadDir(tc.dir); slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), "-") }) {
		t.Fatalf("a file named like a flag was written: %v", entries)
	}
}

// TestExitTextIsExitStatus: what the run prints about its exit status is
// the status it exits with.
func TestExitTextIsExitStatus(t *testing.T) {
	for _, c := range []struct {
		mode string
		args []string
		want int
		says string
	}{
		{"nolayer", nil, exitUnchecked, "not everything was checked (exit 4; --allow-unchecked accepts it):"},
		{"nolayer", []string{"--allow-unchecked"}, exitOK, "not everything was checked (exit 0: accepted by --allow-unchecked):"},
		{"nolayer-fail", nil, exitApp, "not everything was checked (exit 3: the app failed):"},
		{"nolayer-fail", []string{"--allow-unchecked"}, exitApp, "not everything was checked (exit 3: the app failed):"},
		{"errors-dropped", nil, exitErrors, "not everything was checked (exit 1: validation errors found):"},
	} {
		t.Run(c.mode+strings.Join(c.args, ""), func(t *testing.T) {
			tc := newTestCLI(t)
			got := tc.fakeRun(t, c.mode, append([]string{"--session", filepath.Join(tc.dir, "s.gvs")}, c.args...)...)
			if got != c.want || !strings.Contains(tc.err.String(), c.says) {
				t.Fatalf("exit %d, want %d and %q:\n%s", got, c.want, c.says, tc.err.String())
			}
			for _, m := range regexp.MustCompile(`\bexit (\d+)`).FindAllStringSubmatch(tc.err.String(), -1) {
				if m[1] != strconv.Itoa(c.want) {
					t.Errorf("says %q, exits %d:\n%s", m[0], c.want, tc.err.String())
				}
			}
		})
	}
}

// TestMute: --mute (and GPUAV_DBG_MUTE) hides a check's or a VUID's
// groups from the headless list and counts them instead; the exit status
// and the reports keep them; an unknown id is refused.
func TestMute(t *testing.T) {
	tc := newTestCLI(t)
	gvs := filepath.Join(tc.dir, "s.gvs")
	if got := tc.fakeRun(t, "errors", "--session", gvs, "--mute", "descriptor_index_oob"); got != exitErrors {
		t.Fatalf("exit %d\n%s", got, tc.err.String())
	}
	if s := tc.err.String(); !strings.Contains(s, "gpuav-dbg: 1 error group (4 records) muted (descriptor_index_oob): not listed; the reports and the exit status count them\n") ||
		strings.Contains(s, "gpuav-dbg: descriptor_index_oob ×4") {
		t.Fatalf("stderr:\n%s", s)
	}
	t.Setenv(options.Mute.Env, "VUID-vkCmdDispatch-None-10068")
	tc.err.Reset()
	tc.run(t, exitErrors, "open", "--headless", gvs)
	if s := tc.err.String(); !strings.Contains(s, "muted (VUID-vkCmdDispatch-None-10068)") {
		t.Fatalf("open with %s:\n%s", options.Mute.Env, s)
	}
	t.Setenv(options.Mute.Env, "")
	tc.err.Reset()
	tc.run(t, exitLauncher, "open", "--headless", "--mute", "nosuch", gvs)
	if !strings.Contains(tc.err.String(), `"nosuch" is neither a check`) {
		t.Fatalf("bad --mute: %s", tc.err.String())
	}
}
