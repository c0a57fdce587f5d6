package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/golden"
	"github.com/gpuav-dbg/gpuav-dbg/options"
)

// formatSettings writes settings and warnings in a stable text form.
func formatSettings(s Settings, warnings []string) string {
	var b strings.Builder
	for _, id := range gpuav.AllChecks {
		fmt.Fprintf(&b, "check %s = %v\n", id, s.Checks[id])
	}
	fmt.Fprintf(&b, "reserve_slot = %v\non_error = %s\nrobust = %v\nwarn_robust = %v\nsocket = %q\n",
		s.ReserveSlot, s.OnError, s.Robust, s.WarnRobust, s.Socket)
	for _, w := range warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

type fakeFile struct{ dir bool }

func (f fakeFile) Name() string       { return "x" }
func (f fakeFile) Size() int64        { return 0 }
func (f fakeFile) Mode() fs.FileMode  { return 0 }
func (f fakeFile) ModTime() time.Time { return time.Time{} }
func (f fakeFile) IsDir() bool        { return f.dir }
func (f fakeFile) Sys() any           { return nil }

// TestDefaultsAreEveryCheck: with nothing set, the layer runs every check
// of the registry but the opt-in ones (its Default: the sanitizer's pow and
// min/max, docs/decisions/shader-sanitizer.md), the element checks on sized
// arrays and plain bindings included; VK_LAYER_GPUAV_DBG_CHECK_<ID>=0 still
// turns one off (=1 an opt-in one on), and
// VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=0 gives the runtime-arrays-only
// element checks back.
func TestDefaultsAreEveryCheck(t *testing.T) {
	s, warnings := LoadSettings(func(string) string { return "" })
	if len(warnings) > 0 {
		t.Errorf("warnings: %v", warnings)
	}
	for _, c := range gpuav.Checks {
		if s.Checks[c.ID] != c.Default {
			t.Errorf("%s is %v by default, the registry says %v", c.ID, s.Checks[c.ID], c.Default)
		}
	}
	if on, _ := LoadSettings(func(k string) string {
		if k == CheckEnv(gpuav.CheckSanitizerPow) {
			return "1"
		}
		return ""
	}); !on.Checks[gpuav.CheckSanitizerPow] {
		t.Errorf("sanitizer_pow=1: off")
	}
	if len(s.Checks) != len(gpuav.Checks) || !s.SizedElementChecks {
		t.Errorf("defaults: %d checks, sized element checks %v; want %d, true", len(s.Checks), s.SizedElementChecks, len(gpuav.Checks))
	}
	off, _ := LoadSettings(func(k string) string {
		switch k {
		case CheckEnv(gpuav.CheckBufferOOB), options.SizedElementChecks.Env:
			return "0"
		}
		return ""
	})
	if off.Checks[gpuav.CheckBufferOOB] || off.SizedElementChecks || !off.Checks[gpuav.CheckDescriptorUninit] {
		t.Errorf("buffer_oob=0, sized element checks=0: %+v", off)
	}
}

func TestSettingsFile(t *testing.T) {
	files, err := filepath.Glob("testdata/settings/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no settings files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// The environment overrides the file for bda_oob.
			env := map[string]string{"VK_LAYER_SETTINGS_PATH": "/conf", CheckEnv(gpuav.CheckBDAOOB): "0"}
			var read string
			s, w := LoadProcessSettings(func(k string) string { return env[k] },
				func(p string) ([]byte, error) { read = p; return text, nil },
				func(p string) (os.FileInfo, error) { return fakeFile{dir: p == "/conf"}, nil })
			if read != "/conf/vk_layer_settings.txt" {
				t.Errorf("read %q, want the file in the directory VK_LAYER_SETTINGS_PATH names", read)
			}
			got := formatSettings(s, w)
			golden.AssertString(t, strings.TrimSuffix(path, ".txt")+".golden", got)
		})
	}
}

func TestSettingsFileLocation(t *testing.T) {
	noEnv := func(string) string { return "" }
	stat := func(string) (os.FileInfo, error) { return nil, errors.New("no") }
	if p := settingsFilePath(noEnv, stat); p != "vk_layer_settings.txt" {
		t.Errorf("default path %q", p)
	}
	env := func(k string) string {
		if k == EnvSettingsPath {
			return "/etc/my.txt"
		}
		return ""
	}
	if p := settingsFilePath(env, stat); p != "/etc/my.txt" {
		t.Errorf("file path %q", p)
	}
	// A missing file named explicitly is a warning; a missing default is not.
	_, w := LoadProcessSettings(env, func(string) ([]byte, error) { return nil, fs.ErrNotExist }, stat)
	if len(w) != 1 || !strings.Contains(w[0], EnvSettingsPath) {
		t.Errorf("warnings for a missing named file: %q", w)
	}
	s, w := LoadProcessSettings(noEnv, func(string) ([]byte, error) { return nil, fs.ErrNotExist }, stat)
	if len(w) != 0 || !s.Checks[gpuav.CheckDescriptorIndexOOB] {
		t.Errorf("no file: %+v %q", s, w)
	}
	if !slices.Contains(settingsPrefixes, "gpuavdbg_validation.") {
		t.Error("the Khronos-derived prefix is missing")
	}
}

func FuzzParseSettingsFile(f *testing.F) {
	if b, err := os.ReadFile("testdata/settings/mixed.txt"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("gpuavdbg.check_buffer_oob=1\n#x\n="))
	f.Fuzz(func(t *testing.T, text []byte) {
		m, _ := ParseSettingsFile("f", text)
		keys := map[string]bool{}
		for _, env := range options.FileKeys(false) {
			keys[env] = true
		}
		for env := range m {
			if !keys[env] {
				t.Fatalf("parsed unknown setting %q", env)
			}
		}
	})
}

// TestLoopBudgetSetting: the loop budget comes from the environment or a
// settings file (loop_budget_iterations), 2^24 when unset; a value that
// does not parse keeps the default with a warning.
func TestLoopBudgetSetting(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == options.LoopBudget.Env {
				return v
			}
			return ""
		}
	}
	for in, want := range map[string]uint32{"": 1 << 24, "1000": 1000, "2^10": 1024} {
		s, w := LoadSettings(env(in))
		if s.LoopBudget != want || len(w) != 0 {
			t.Errorf("%q: %d %v, want %d and no warning", in, s.LoopBudget, w, want)
		}
	}
	s, w := LoadSettings(env("0"))
	if s.LoopBudget != 1<<24 || len(w) != 1 || !strings.Contains(w[0], "VK_LAYER_GPUAV_DBG_LOOP_BUDGET_ITERATIONS") {
		t.Errorf("0: %d %v, want the default and one warning", s.LoopBudget, w)
	}
	file, fw := ParseSettingsFile("f", []byte("gpuavdbg.loop_budget_iterations = 4096\n"))
	s, w = ResolveSettings(func(string) string { return "" }, file, AppSettings{})
	if len(fw) != 0 || len(w) != 0 || s.LoopBudget != 4096 {
		t.Errorf("settings file: %d %v %v, want 4096", s.LoopBudget, fw, w)
	}
}

// TestWatchdogSetting: the watchdog's row read as main's reader read it:
// 10 s by default, 0 off (no watchdog, no breadcrumbs: goWatchdogNs 0),
// above 3600 moved to 3600 with a warning, a value that is no number of
// seconds refused with a warning; the settings file by its key.
func TestWatchdogSetting(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == options.WatchdogSeconds.Env {
				return v
			}
			return ""
		}
	}
	type want struct {
		seconds  uint32
		off      bool
		warnings int
	}
	for in, w := range map[string]want{"": {10, false, 0}, "2": {2, false, 0}, " 0 ": {0, true, 0},
		"5000": {3600, false, 1}, "2s": {10, false, 1}, "-1": {10, false, 1}} {
		s, warnings := LoadSettings(env(in))
		if s.WatchdogSeconds != w.seconds || s.WatchdogOff != w.off || len(warnings) != w.warnings {
			t.Errorf("%q: %d s, off %v, warnings %q; want %+v", in, s.WatchdogSeconds, s.WatchdogOff, warnings, w)
		}
		for _, m := range warnings {
			if !strings.Contains(m, options.WatchdogSeconds.Env) {
				t.Errorf("%q: warning %q does not name the variable", in, m)
			}
		}
	}
	file, fw := ParseSettingsFile("f", []byte("gpuavdbg.watchdog_seconds = 0\n"))
	s, w := ResolveSettings(func(string) string { return "" }, file, AppSettings{})
	if len(fw) != 0 || len(w) != 0 || !s.WatchdogOff || s.Wire().WatchdogOff != true {
		t.Errorf("settings file: %+v %v %v, want off", s.Wire(), fw, w)
	}
}

// TestCacheDirSetting: the kept caches' directory is read from the
// environment only (a settings file's cache_dir is an unknown setting),
// and it is not in the hello.
func TestCacheDirSetting(t *testing.T) {
	s, w := LoadSettings(func(k string) string { return map[string]string{options.CacheDir.Env: " /tmp/kept "}[k] })
	if _, inHello := s.Wire().Options[options.CacheDir.Key]; s.CacheDir != "/tmp/kept" || len(w) != 0 || inHello {
		t.Errorf("environment: %q %q %+v", s.CacheDir, w, s.Wire())
	}
	file, fw := ParseSettingsFile("f", []byte("gpuavdbg.cache_dir = /tmp/other\n"))
	s, w = ResolveSettings(func(string) string { return "" }, file, AppSettings{})
	if s.CacheDir != "" || len(fw)+len(w) != 1 || !strings.Contains(strings.Join(append(fw, w...), ""), `unknown setting "cache_dir"`) {
		t.Errorf("settings file: %q, warnings %q %q; want none and one unknown setting", s.CacheDir, fw, w)
	}
}

// TestReaderReadsTheTable: a row added to the options table is read by
// the layer like every other: from the environment, the settings file and
// the app's VkLayerSettingsCreateInfoEXT by its key, its default when
// none sets it, a warning for a value it cannot read; the hello carries it.
func TestReaderReadsTheTable(t *testing.T) {
	row := &options.Option{Key: "test_row", Env: "VK_LAYER_GPUAV_DBG_TEST_ROW", Kind: options.Uint, Default: "7",
		Help: "a row of the test", Where: options.Manifest | options.Hello}
	defer options.WithExtra(row)()
	noEnv := func(string) string { return "" }
	if s, w := LoadSettings(noEnv); row.Text(&s.Values) != "7" || len(w) != 0 {
		t.Errorf("default: %q %q", row.Text(&s.Values), w)
	}
	if s, _ := LoadSettings(func(k string) string { return map[string]string{row.Env: "12"}[k] }); s.Wire().Options["test_row"] != "12" {
		t.Errorf("environment: %+v", s.Wire())
	}
	file, fw := ParseSettingsFile("f", []byte("gpuavdbg.test_row = 13\n"))
	s, w := ResolveSettings(noEnv, file, AppSettings{})
	if row.Text(&s.Values) != "13" || len(fw)+len(w) != 0 {
		t.Errorf("settings file: %q %q %q", row.Text(&s.Values), fw, w)
	}
	app, aw := ParseAppSettings("test_row=14\n")
	s, w = ResolveSettings(noEnv, file, AppSettings{Values: app})
	if row.Text(&s.Values) != "14" || len(aw)+len(w) != 0 {
		t.Errorf("app: %q %q %q", row.Text(&s.Values), aw, w)
	}
	s, w = LoadSettings(func(k string) string { return map[string]string{row.Env: "lots"}[k] })
	if row.Text(&s.Values) != "7" || len(w) != 1 || !strings.Contains(w[0], "VK_LAYER_GPUAV_DBG_TEST_ROW") {
		t.Errorf("a bad value: %q %q", row.Text(&s.Values), w)
	}
}

// TestTestHooksThroughTheReader: the C half's test hooks are rows of the
// table, read with the other settings (from the environment only).
func TestTestHooksThroughTheReader(t *testing.T) {
	env := map[string]string{options.TestFailAlloc.Env: "4", options.TestMaxDrawIndirectCount.Env: "1", options.TestBinds.Env: "1"}
	s, w := LoadSettings(func(k string) string { return env[k] })
	if s.Test != (options.TestHooks{FailAlloc: 4, MaxDrawIndirectCount: 1, Binds: true}) || len(w) != 0 {
		t.Errorf("test hooks %+v, warnings %q", s.Test, w)
	}
	if s, _ := LoadSettings(func(string) string { return "" }); s.Test != (options.TestHooks{MaxDrawIndirectCount: -1}) {
		t.Errorf("no test hook: %+v", s.Test)
	}
	file, w := ParseSettingsFile("f", []byte("gpuavdbg.test_fail_alloc = 1\n"))
	if len(file) != 0 || len(w) != 1 {
		t.Errorf("a test hook in the settings file: %v %q, want it unknown", file, w)
	}
}

// TestBreadcrumbsSetting: the breadcrumbs' granularity (the options
// table's breadcrumbs row) comes from the environment or a settings file,
// auto when unset, in the hello; a value none of auto, actions, passes
// keeps auto with a warning.
func TestBreadcrumbsSetting(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == options.Breadcrumbs.Env {
				return v
			}
			return ""
		}
	}
	for in, want := range map[string]string{"": "auto", "auto": "auto", "actions": "actions", " Passes ": "passes"} {
		s, w := LoadSettings(env(in))
		if s.Breadcrumbs != want || s.Wire().Breadcrumbs != want || len(w) != 0 {
			t.Errorf("%q: %q %v, want %q and no warning", in, s.Breadcrumbs, w, want)
		}
	}
	s, w := LoadSettings(env("draws"))
	if want := `VK_LAYER_GPUAV_DBG_BREADCRUMBS: "draws" is not one of auto|actions|passes; keeping auto`; s.Breadcrumbs != "auto" ||
		len(w) != 1 || w[0] != want {
		t.Errorf("draws: %q %q, want auto and %q", s.Breadcrumbs, w, want)
	}
	file, fw := ParseSettingsFile("f", []byte("gpuavdbg.breadcrumbs = passes\n"))
	s, w = ResolveSettings(func(string) string { return "" }, file, AppSettings{})
	if len(fw) != 0 || len(w) != 0 || s.Breadcrumbs != "passes" {
		t.Errorf("settings file: %q %v %v, want passes", s.Breadcrumbs, fw, w)
	}
}
