package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// TestEnv: the app's environment carries the loader variables, the
// socket and every setting explicitly (an empty on_error is the default).
func TestEnv(t *testing.T) {
	tests := []struct {
		name            string
		onError         string
		robust          bool
		wantOn, wantRob string
	}{
		{"default", "", false, "skip", "0"},
		{"skip", "skip", false, "skip", "0"},
		{"clamp", "clamp", false, "clamp", "0"},
		{"execute", "execute", false, "execute", "0"},
		{"robust", "clamp", true, "clamp", "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := session.Settings{Checks: map[string]bool{"descriptor_index_oob": true}, OnError: tt.onError, Robust: tt.robust}
			env := Env([]string{"HOME=/h", "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation", "BROKEN"}, "/layer", "/s.sock", set)
			m := map[string]string{}
			for _, kv := range env {
				k, v, _ := strings.Cut(kv, "=")
				if _, dup := m[k]; dup {
					t.Fatalf("duplicate %s", k)
				}
				m[k] = v
			}
			want := map[string]string{
				"HOME": "/h", "VK_INSTANCE_LAYERS": "VK_LAYER_GPUAVDBG_validation", "VK_ADD_LAYER_PATH": "/layer",
				"VK_LAYER_GPUAV_DBG_SOCKET": "/s.sock", "VK_LAYER_GPUAV_DBG_RESERVE_SLOT": "0",
				"VK_LAYER_GPUAV_DBG_ON_ERROR": tt.wantOn, "VK_LAYER_GPUAV_DBG_ROBUST": tt.wantRob,
				"VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB": "1", "VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_UNINITIALIZED": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_DESTROYED": "0", "VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_TEXEL_BUFFER_OOB": "0", "VK_LAYER_GPUAV_DBG_CHECK_BDA_OOB": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_RAY_QUERY": "0", "VK_LAYER_GPUAV_DBG_CHECK_LOOP_BUDGET": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_TRACE_RAY":        "0",
				"VK_LAYER_GPUAV_DBG_CHECK_INDEX_BUFFER_OOB": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_VERTEX_FETCH_OOB": "0", "VK_LAYER_GPUAV_DBG_CHECK_INDIRECT_COMMAND": "0", "VK_LAYER_GPUAV_DBG_PRINTF": "1",
				"VK_LAYER_GPUAV_DBG_CHECK_SANITIZER_DIVIDE": "0", "VK_LAYER_GPUAV_DBG_CHECK_SANITIZER_POW": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_SANITIZER_ATAN2": "0", "VK_LAYER_GPUAV_DBG_CHECK_SANITIZER_MINMAX": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_SANITIZER_GATHER": "0", "VK_LAYER_GPUAV_DBG_CHECK_MESH_OUTPUTS": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_MESH_TASK_PAYLOAD": "0", "VK_LAYER_GPUAV_DBG_CHECK_COOPERATIVE_MATRIX_ALIGNMENT": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_BDA_ALIGNMENT": "0", "VK_LAYER_GPUAV_DBG_CHECK_SHARED_MEMORY_RACE": "0",
				"VK_LAYER_GPUAV_DBG_CHECK_BARRIER_DIVERGENCE":           "0",
				"VK_LAYER_GPUAV_DBG_CHECK_ACCELERATION_STRUCTURE_BUILD": "0", "VK_LAYER_GPUAV_DBG_CHECK_DEPTH_COPY_RANGE": "0",
				"VK_LAYER_GPUAV_DBG_PRINTF_AT": "",
			}
			if !reflect.DeepEqual(m, want) {
				t.Fatalf("env %v\nwant %v", m, want)
			}
		})
	}
	set := session.Settings{Checks: map[string]bool{}, PrintfOff: true, PrintfBufferBytes: 4096, PrintfAt: "pixel=1,2", LoopBudget: 1000,
		Breadcrumbs: "passes"}
	env := Env([]string{"VK_LAYER_GPUAV_DBG_PRINTF_AT=vertex=3"}, "/layer", "/s.sock", set)
	for _, kv := range []string{"VK_LAYER_GPUAV_DBG_PRINTF=0", "VK_LAYER_GPUAV_DBG_PRINTF_BUFFER_BYTES=4096",
		"VK_LAYER_GPUAV_DBG_PRINTF_AT=pixel=1,2", "VK_LAYER_GPUAV_DBG_LOOP_BUDGET_ITERATIONS=1000",
		"VK_LAYER_GPUAV_DBG_BREADCRUMBS=passes"} {
		if !slices.Contains(env, kv) {
			t.Errorf("printf off, 4096 bytes, loop budget 1000, breadcrumbs passes: no %s in %v", kv, env)
		}
	}
}

// TestResolveApp: each way an app can be wrong is said in one line.
func TestResolveApp(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for name, mode := range map[string]os.FileMode{"gpuav-notes": 0o644, "gpuav-tool": 0o755} {
		if err := os.WriteFile(name, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ app, err string }{
		{"./nope", "./nope: no such file"},
		{"/etc/passwd", "/etc/passwd: not executable"},
		{"./sub", "./sub: not executable (a directory)"},
		{"no-such-command-gpuav", "no-such-command-gpuav: not found in $PATH"},
		{"gpuav-notes", "gpuav-notes: not found in $PATH, and ./gpuav-notes is not executable"},
		{"gpuav-tool", "gpuav-tool: not found in $PATH; to run the one in the working directory, name it ./gpuav-tool"},
		{"sub", "sub: not found in $PATH, and ./sub is not executable (a directory)"},
		{"./gpuav-tool", ""},
	} {
		_, err := ResolveApp(c.app)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("ResolveApp(%q) = %q, want %q", c.app, got, c.err)
		}
	}
	if p, err := ResolveApp("sh"); err != nil || !filepath.IsAbs(p) {
		t.Fatal(p, err)
	}
}

// TestFindLayer: $GPUAV_DBG_LAYER_PATH alone; else next to gpuav-dbg, then
// an install's share/vulkan/explicit_layer.d, then the loader's
// directories; the error names every place.
func TestFindLayer(t *testing.T) {
	root := t.TempDir()
	prefix := filepath.Join(root, "usr")
	exeDir := filepath.Join(prefix, "bin")
	installed := filepath.Join(prefix, "share", "vulkan", "explicit_layer.d")
	user := filepath.Join(root, "home", ".local", "share", "vulkan", "explicit_layer.d")
	env := map[string]string{"HOME": filepath.Join(root, "home"), "XDG_DATA_DIRS": filepath.Join(root, "sys")}
	getenv := func(k string) string { return env[k] }
	put := func(dir string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := FindLayer(getenv, exeDir)
	want := "layer manifest not found: looked for " + strings.Join([]string{
		filepath.Join(exeDir, ManifestName) + " (next to gpuav-dbg)",
		filepath.Join(installed, ManifestName) + " (installed with gpuav-dbg)",
		filepath.Join(user, ManifestName) + " (the loader's user directory)",
		filepath.Join(root, "sys", "vulkan", "explicit_layer.d", ManifestName) + " (the loader's system directory)",
		"/etc/vulkan/explicit_layer.d/" + ManifestName + " (the loader's system directory)",
	}, ", ") + "; build it with make, install it with make install, or set GPUAV_DBG_LAYER_PATH"
	if err == nil || err.Error() != want {
		t.Fatalf("no layer: %v\nwant %s", err, want)
	}
	for _, c := range []struct {
		put  string
		want Place
	}{
		{user, Place{user, "the loader's user directory"}},
		{installed, Place{installed, "installed with gpuav-dbg"}},
		{exeDir, Place{exeDir, "next to gpuav-dbg"}},
	} {
		put(c.put)
		if got, err := FindLayer(getenv, exeDir); err != nil || got != c.want {
			t.Errorf("with %s: %+v, %v; want %+v", c.put, got, err, c.want)
		}
	}
	env[options.LayerPath.Env] = filepath.Join(root, "elsewhere")
	if _, err := FindLayer(getenv, exeDir); err == nil || !strings.Contains(err.Error(), "($GPUAV_DBG_LAYER_PATH)") {
		t.Fatalf("override: %v", err)
	}
}

// startScript starts a shell script as the app of a run.
func startScript(t *testing.T, script string, args ...string) *Run {
	t.Helper()
	dir := t.TempDir()
	app := filepath.Join(dir, "app.sh")
	if err := os.WriteFile(app, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := Start(Options{App: app, Shown: "app.sh", Args: args, LayerDir: dir, SessionPath: filepath.Join(dir, "s.gvs"),
		Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Stop(); r.Close() })
	return r
}

// alive reports whether pid is a live process (not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, after, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(after, "Z")
}

// TestStopEndsWhatTheAppStarted: an app started through a wrapper script
// (which does not exec it) is stopped with the script: the run's Stop
// ends the whole process group, not only the launcher's child.
func TestStopEndsWhatTheAppStarted(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	r := startScript(t, "#!/bin/sh\nsleep 300 &\necho $! > \"$1\"\nwait\n", pidFile)
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		if time.Now().After(deadline) {
			t.Fatal("the script never started its child")
		}
	}
	if !alive(pid) {
		t.Fatalf("child %d not running", pid)
	}
	r.Stop()
	for deadline := time.Now().Add(5 * time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the app's child %d runs on after Stop", pid)
		}
	}
	if st := r.Collector.Snapshot().App.State; st != session.AppStopped {
		t.Errorf("state %s, want stopped", st)
	}
}

// TestAppOutputGoesToFiles: the app's standard output and error are files
// next to the session (not pipes the launcher holds), read into the
// session, and removed once the run is closed.
func TestAppOutputGoesToFiles(t *testing.T) {
	r := startScript(t, "#!/bin/sh\nreadlink /proc/$$/fd/1 /proc/$$/fd/2\necho oops >&2\n")
	<-r.Exited()
	s := r.Collector.Snapshot()
	outPath, errPath := OutputPaths(r.SessionPath())
	// The two files are read apart: the order within each is the app's.
	var got []string
	for _, stream := range []string{"stdout", "stderr"} {
		for _, l := range s.Output {
			if l.Stream == stream {
				got = append(got, l.Stream+": "+l.Text)
			}
		}
	}
	want := []string{"stdout: " + outPath, "stdout: " + errPath, "stderr: oops"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("output %q, want %q", got, want)
	}
	if !reflect.DeepEqual(s.App.OutputFiles, []string{outPath, errPath}) {
		t.Errorf("output files %q", s.App.OutputFiles)
	}
	for _, p := range []string{outPath, errPath} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", p, fi, err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{outPath, errPath} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left after Close: %v", p, err)
		}
	}
}

// TestAppOutputNeverTouchesUserFiles: files already at the output files'
// names (the user's own "2> s.stderr", a link another user planted to the
// user's file, a FIFO) are neither truncated, followed nor removed: the
// app's output goes to the next free names, which the launcher creates
// 0600 as new files and removes after the run.
func TestAppOutputNeverTouchesUserFiles(t *testing.T) {
	dir := t.TempDir()
	sessionPath := filepath.Join(dir, "s.gvs")
	victim := filepath.Join(dir, "victim")
	kept := map[string]string{filepath.Join(dir, "s.stdout"): "the user's stdout\n", victim: "the user's file\n",
		filepath.Join(dir, "s.2.stdout"): "an earlier run's\n"}
	for p, text := range kept {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(victim, filepath.Join(dir, "s.stderr")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "s.2.stderr"), 0o666); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(dir, "app.sh")
	if err := os.WriteFile(app, []byte("#!/bin/sh\necho out\necho err >&2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := Start(Options{App: app, Shown: "app.sh", LayerDir: dir, SessionPath: sessionPath, Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	<-r.Exited()
	stdout, stderr := r.OutputFiles()
	if want := [2]string{filepath.Join(dir, "s.3.stdout"), filepath.Join(dir, "s.3.stderr")}; [2]string{stdout, stderr} != want {
		t.Errorf("output files %q %q, want %q", stdout, stderr, want)
	}
	for _, p := range []string{stdout, stderr} {
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, fi, err)
		}
	}
	var got []string
	for _, l := range r.Collector.Snapshot().Output {
		got = append(got, l.Stream+": "+l.Text)
	}
	slices.Sort(got)
	if want := []string{"stderr: err", "stdout: out"}; !slices.Equal(got, want) {
		t.Errorf("output %q, want %q", got, want)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	for p, text := range kept {
		if b, err := os.ReadFile(p); err != nil || string(b) != text {
			t.Errorf("%s: %q %v, want %q untouched", p, b, err, text)
		}
	}
	if l, err := os.Readlink(filepath.Join(dir, "s.stderr")); err != nil || l != victim {
		t.Errorf("the link: %q %v", l, err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "s.2.stderr")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO: %v %v", fi, err)
	}
	for _, p := range []string{stdout, stderr} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s left after Close: %v", p, err)
		}
	}
}

// TestStopKillsWhatIgnoresSIGTERM: the app behind a wrapper script ignores
// SIGTERM; the wrapper exits at once: Stop still ends the app, with
// SIGKILL to the group after the grace period (the wrapper's exit ended
// the wait, and SIGKILL was never sent).
func TestStopKillsWhatIgnoresSIGTERM(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	r := startScript(t, "#!/bin/sh\nsh -c 'trap \"\" TERM; echo $$ > \"$0\"; while :; do sleep 0.05; done' \"$1\" &\nwait\n", pidFile)
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		if time.Now().After(deadline) {
			t.Fatal("the script never started its child")
		}
	}
	start := time.Now()
	r.Stop()
	for deadline := time.Now().Add(KillGrace + 5*time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the app %d that ignores SIGTERM runs on after Stop", pid)
		}
	}
	if d := time.Since(start); d > KillGrace+3*time.Second {
		t.Errorf("Stop took %v", d)
	}
}

// TestAppOutputCompact: the app's output is kept in the session file in
// blocks of lines, not a frame per line (300 MB of output made a 758 MB
// session): 150,000 short lines take little more than their bytes, and
// the session, live and opened, has the first MaxOutputLines of them
// exactly.
func TestAppOutputCompact(t *testing.T) {
	r := startScript(t, "#!/bin/sh\nseq 1 150000 | sed 's/^/line /'\nprintf 'no newline at the end'\n")
	<-r.Exited()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	out := 0
	for i := 1; i <= 150000; i++ {
		out += len("line \n") + len(strconv.Itoa(i))
	}
	out += len("no newline at the end")
	fi, err := os.Stat(r.SessionPath())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes of output, a session file of %d", out, fi.Size())
	if fi.Size() > int64(out)*11/10+64<<10 {
		t.Errorf("a session file of %d bytes for %d bytes of output", fi.Size(), out)
	}
	opened, err := session.Open(r.SessionPath())
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*session.Session{"live": r.Collector.Snapshot(), "opened": opened} {
		o := s.Output
		if len(o) != session.MaxOutputLines || o[0].Text != "line 1" || o[len(o)-1].Text != "line 100000" || o[0].Stream != "stdout" {
			t.Errorf("%s: %d lines, first %+v, last %+v", name, len(o), o[0], o[len(o)-1])
		}
	}
}

// TestEnvReadsTheTable: a row added to the options table that the
// launcher passes reaches the app's environment from the run's settings
// (a row with no field of its own: Settings.Options), and is left out when
// the run leaves it unset.
func TestEnvReadsTheTable(t *testing.T) {
	defer options.WithExtra(&options.Option{Key: "test_row", Env: "VK_LAYER_GPUAV_DBG_TEST_ROW", Kind: options.Uint, Default: "7",
		Help: "a row of the test", Where: options.Hello | options.Passed})()
	set := session.Settings{Options: map[string]string{"test_row": "12"}}
	if env := Env(nil, "/layer", "/s.sock", set); !slices.Contains(env, "VK_LAYER_GPUAV_DBG_TEST_ROW=12") {
		t.Errorf("the test row is not in the environment: %q", env)
	}
	env := Env([]string{"VK_LAYER_GPUAV_DBG_TEST_ROW=3"}, "/layer", "/s.sock", session.Settings{})
	if !slices.Contains(env, "VK_LAYER_GPUAV_DBG_TEST_ROW=3") {
		t.Errorf("unset, the parent's value is not kept: %q", env)
	}
	for _, o := range options.With(options.Passed) {
		if !slices.ContainsFunc(Env(nil, "/l", "/s", session.Settings{Checks: map[string]bool{}, Options: map[string]string{"test_row": "1"}}),
			func(kv string) bool { return strings.HasPrefix(kv, o.Env+"=") }) && o.IsSet(&options.Values{}) {
			t.Errorf("%s is not passed", o.Env)
		}
	}
}
