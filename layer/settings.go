package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Environment variables the layer reads (docs/decisions/settings.md). The launcher
// sets them; a user running an app by hand may too. They are listed in the
// manifest, VkLayer_gpuav_dbg.json.
const (
	// EnvCheckPrefix + the check id in upper case turns one check on or
	// off, e.g. VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB=0.
	EnvCheckPrefix = gpuav.EnvCheckPrefix
	// EnvReserveSlot=1 makes the app see maxBoundDescriptorSets - 1, as
	// VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT does.
	EnvReserveSlot = "VK_LAYER_GPUAV_DBG_RESERVE_SLOT"
	// EnvOnError (default skip): what a failed access does: skip, clamp
	// or execute (gpuav.OnErrors).
	EnvOnError = gpuav.EnvOnError
	// EnvRobust (default 0): robust-only mode: clamp, report nothing.
	EnvRobust = gpuav.EnvRobust
	// EnvWarnRobust (default 1): on a device created with
	// robustBufferAccess(2), buffer_oob and texel_buffer_oob report their
	// findings as warnings; 0 leaves those devices' buffer and texel buffer
	// accesses unchecked.
	EnvWarnRobust = "VK_LAYER_GPUAV_DBG_WARN_ROBUST"
	// EnvSizedElementChecks (default 1): descriptor_uninitialized and
	// descriptor_destroyed also on sized arrays and plain bindings; 0 keeps
	// them to runtime arrays (what they did before the checks were made
	// cheap, docs/decisions/cheap-checks.md).
	EnvSizedElementChecks = "VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS"
	// EnvPrintf (default 1): instrument debugPrintfEXT calls; 0 removes
	// them (layer/printf.go).
	EnvPrintf = "VK_LAYER_GPUAV_DBG_PRINTF"
	// EnvPrintfBufferBytes is the size of each command buffer's printf
	// buffer (default DefaultPrintfBufferBytes).
	EnvPrintfBufferBytes = "VK_LAYER_GPUAV_DBG_PRINTF_BUFFER_BYTES"
	// EnvPrintfAt is the printf coordinate filter (gpuav.PrintfAt), applied
	// on the GPU: "pixel=120,45", "invocation=3,0,0 vertex=5"...
	EnvPrintfAt = "VK_LAYER_GPUAV_DBG_PRINTF_AT"
	// EnvWatchdogSeconds (default DefaultWatchdogSeconds): a submission
	// unfinished this long is reported as a hang, with the breadcrumbs the
	// GPU wrote before and after each action (layer/hang.go); 0 turns the
	// watchdog and the breadcrumbs off.
	EnvWatchdogSeconds = "VK_LAYER_GPUAV_DBG_WATCHDOG_SECONDS"
	// EnvBreadcrumbs (default wire.BreadcrumbsAuto): the breadcrumbs'
	// granularity, actions, passes or auto (actions on a CPU device and
	// with VK_AMD_buffer_marker, passes elsewhere: layer/hang.go).
	EnvBreadcrumbs = "VK_LAYER_GPUAV_DBG_BREADCRUMBS"
	// EnvSocket is the launcher's unix socket; unset, the layer reports
	// to stderr.
	EnvSocket = "VK_LAYER_GPUAV_DBG_SOCKET"
	// EnvCacheDir (read from the environment only, shadowcache.go) is
	// where the layer keeps its shadow caches and instrumentation results
	// beside the app's pipeline-cache data (default
	// $XDG_CACHE_HOME/gpuav-dbg, else ~/.cache/gpuav-dbg); "off" keeps
	// nothing (docs/decisions/kept-shadow-caches.md).
	EnvCacheDir = "VK_LAYER_GPUAV_DBG_CACHE_DIR"
)

// Settings are what the layer runs with: the settings its hello reports
// (every check id of gpuav.AllChecks on or off, the reserve slot, what a
// failed access does, robust-only) and those that only the layer reads.
type Settings struct {
	wire.Settings
	// WarnRobust: buffer_oob runs, as warnings, on robust devices.
	WarnRobust bool
	// SizedElementChecks: uninitialized/destroyed on sized arrays and
	// plain bindings too (gpuav.Options.SizedElementChecks).
	SizedElementChecks bool
	Socket             string
}

// CheckEnv returns the environment variable that switches check id.
func CheckEnv(id string) string { return gpuav.CheckEnv(id) }

// LoadSettings reads the settings through getenv. Each check has its
// registry default (gpuav.Checks). Values it cannot parse keep the default
// and yield a warning each.
func LoadSettings(getenv func(string) string) (Settings, []string) {
	return loadSettings(func(env string) (string, string) { return getenv(env), env })
}

// loadSettings reads every setting through lookup, which returns a
// setting's value (by its environment variable's name) and where it came
// from, for warnings.
func loadSettings(lookup func(env string) (value, origin string)) (Settings, []string) {
	sock, _ := lookup(EnvSocket)
	s := Settings{Settings: wire.Settings{Checks: map[string]bool{}}, Socket: sock}
	var warnings []string
	flag := func(name string, def bool) bool {
		raw, origin := lookup(name)
		v := strings.TrimSpace(raw)
		if v == "" {
			return def
		}
		switch strings.ToLower(v) {
		case "1", "true", "on", "yes":
			return true
		case "0", "false", "off", "no":
			return false
		}
		warnings = append(warnings, fmt.Sprintf("%s=%q is not a boolean (use 1 or 0); keeping %v", origin, v, def))
		return def
	}
	for _, id := range gpuav.AllChecks {
		s.Checks[id] = flag(CheckEnv(id), slices.Contains(gpuav.DefaultChecks, id))
	}
	s.ReserveSlot = flag(EnvReserveSlot, false)
	s.WarnRobust = flag(EnvWarnRobust, true)
	s.SizedElementChecks = flag(EnvSizedElementChecks, true)
	s.Robust = flag(EnvRobust, false)
	onError, w := onErrorSetting(lookup, s.Robust)
	s.OnError = string(onError)
	if old, _ := lookup(envSafeModeGone); old != "" {
		w = append(w, fmt.Sprintf("%s is gone (it never changed anything): %s", envSafeModeGone, onErrorHint))
	}
	s.PrintfOff = !flag(EnvPrintf, true)
	var pw string
	if s.PrintfBufferBytes, pw = printfBufferBytes(lookup(EnvPrintfBufferBytes)); pw != "" {
		w = append(w, pw)
	}
	if s.PrintfAt, pw = printfAt(lookup(EnvPrintfAt)); pw != "" {
		w = append(w, pw)
	}
	if s.LoopBudget, pw = loopBudgetSetting(lookup(gpuav.EnvLoopBudget)); pw != "" {
		w = append(w, pw)
	}
	if s.WatchdogSeconds, pw = watchdogSeconds(lookup(EnvWatchdogSeconds)); pw != "" {
		w = append(w, pw)
	}
	s.WatchdogOff = s.WatchdogSeconds == 0
	if s.Breadcrumbs, pw = breadcrumbsSetting(lookup(EnvBreadcrumbs)); pw != "" {
		w = append(w, pw)
	}
	return s, append(warnings, w...)
}

// loopBudgetSetting reads the loop budget setting (value, from origin):
// the default when empty, the default with a warning when it does not
// parse or is out of range.
func loopBudgetSetting(value, origin string) (uint32, string) {
	if strings.TrimSpace(value) == "" {
		return gpuav.DefaultLoopBudget, ""
	}
	n, err := gpuav.ParseLoopBudget(value)
	if err != nil {
		return gpuav.DefaultLoopBudget, fmt.Sprintf("%s: %v; keeping %d", origin, err, gpuav.DefaultLoopBudget)
	}
	return n, ""
}

// The safe-mode setting of earlier versions, a switch without an effect:
// a user who still sets it is told what replaced it.
const (
	envSafeModeGone = "VK_LAYER_GPUAV_DBG_SAFE_MODE"
	keySafeModeGone = "safe_mode"
	onErrorHint     = EnvOnError + "=skip|clamp|execute (key on_error) says what a failed access does"
)

// unknownSetting is the warning for a key the layer does not know.
func unknownSetting(where, key string) string {
	if key == keySafeModeGone {
		return fmt.Sprintf("%s: setting %q is gone (it never changed anything): ignored; %s", where, key, onErrorHint)
	}
	return fmt.Sprintf("%s: unknown setting %q: ignored", where, key)
}

// onErrorSetting reads EnvOnError through lookup: a value it cannot parse
// keeps the default, with a warning. The robust-only mode always clamps;
// another value asked for with it is ignored, with a warning.
func onErrorSetting(lookup func(env string) (value, origin string), robust bool) (gpuav.OnError, []string) {
	raw, origin := lookup(EnvOnError)
	v := gpuav.DefaultOnError
	var warnings []string
	if strings.TrimSpace(raw) != "" {
		parsed, err := gpuav.ParseOnError(raw)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v; keeping %s", origin, err, v))
		} else {
			v = parsed
		}
	}
	if robust && v != gpuav.OnErrorClamp {
		if strings.TrimSpace(raw) != "" {
			warnings = append(warnings, fmt.Sprintf("%s=%s is ignored: the robust-only mode (%s) clamps", origin, v, EnvRobust))
		}
		v = gpuav.OnErrorClamp
	}
	return v, warnings
}

// Settings file (the Khronos vk_layer_settings.txt format): lines
// "<prefix>.<key> = <value>", '#' comments. The prefix is the layer name
// without "VK_LAYER_", lower case (gpuavdbg_validation), or gpuavdbg; the
// keys are the manifest's ("check_buffer_oob", "reserve_slot"...). Lines
// of other layers are ignored. The environment overrides the file.
const (
	// EnvSettingsPath names the file, or a directory holding
	// vk_layer_settings.txt (as for the Khronos layers).
	EnvSettingsPath  = "VK_LAYER_SETTINGS_PATH"
	SettingsFileName = "vk_layer_settings.txt"
)

var settingsPrefixes = []string{"gpuavdbg_validation.", "gpuavdbg."}

// settingKeys maps a settings-file key to its environment variable.
func settingKeys() map[string]string {
	m := map[string]string{"reserve_slot": EnvReserveSlot, gpuav.SettingOnError: EnvOnError, gpuav.SettingRobust: EnvRobust,
		"socket": EnvSocket, "warn_robust": EnvWarnRobust, "sized_element_checks": EnvSizedElementChecks,
		"printf": EnvPrintf, "printf_buffer_bytes": EnvPrintfBufferBytes, "printf_at": EnvPrintfAt,
		gpuav.SettingLoopBudget: gpuav.EnvLoopBudget,
		"watchdog_seconds":      EnvWatchdogSeconds,
		"breadcrumbs":           EnvBreadcrumbs}
	for _, id := range gpuav.AllChecks {
		m[gpuav.CheckSettingKey(id)] = CheckEnv(id)
	}
	return m
}

// fileSetting is one value of the settings file, with where it is.
type fileSetting struct{ value, origin string }

// ParseSettingsFile parses a settings file's text (named name in
// warnings) into values by environment variable name.
func ParseSettingsFile(name string, text []byte) (map[string]fileSetting, []string) {
	keys := settingKeys()
	out := map[string]fileSetting{}
	var warnings []string
	for i, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = strings.TrimSpace(line[:c])
		}
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		var key string
		for _, p := range settingsPrefixes {
			if rest, found := strings.CutPrefix(k, p); found {
				key = rest
			}
		}
		if key == "" {
			continue // another layer's setting
		}
		where := fmt.Sprintf("%s:%d", name, i+1)
		env, known := keys[key]
		switch {
		case !ok:
			warnings = append(warnings, fmt.Sprintf("%s: %q has no '=': ignored", where, line))
		case !known:
			warnings = append(warnings, unknownSetting(where, key))
		default:
			out[env] = fileSetting{strings.TrimSpace(v), where + " " + key}
		}
	}
	return out, warnings
}

// settingsFilePath returns the settings file to read, or "".
func settingsFilePath(getenv func(string) string, stat func(string) (os.FileInfo, error)) string {
	if p := getenv(EnvSettingsPath); p != "" {
		if fi, err := stat(p); err == nil && fi.IsDir() {
			return filepath.Join(p, SettingsFileName)
		}
		return p
	}
	return SettingsFileName // in the working directory
}

// LoadProcessSettings reads the environment and the settings file; the
// environment wins.
func LoadProcessSettings(getenv func(string) string, readFile func(string) ([]byte, error),
	stat func(string) (os.FileInfo, error)) (Settings, []string) {
	file, warnings := readSettingsFile(getenv, readFile, stat)
	s, w := ResolveSettings(getenv, file, AppSettings{})
	return s, append(warnings, w...)
}

// readSettingsFile reads and parses the settings file, if there is one.
func readSettingsFile(getenv func(string) string, readFile func(string) ([]byte, error),
	stat func(string) (os.FileInfo, error)) (map[string]fileSetting, []string) {
	path := settingsFilePath(getenv, stat)
	text, err := readFile(path)
	switch {
	case err == nil:
		return ParseSettingsFile(path, text)
	case getenv(EnvSettingsPath) != "":
		return nil, []string{fmt.Sprintf("%s: %v", EnvSettingsPath, err)}
	}
	return nil, nil
}

// AppSettings are what the app asks for in vkCreateInstance: the values of
// its VkLayerSettingsCreateInfoEXT for this layer (by environment variable
// name, from ParseAppSettings) and whether VkValidationFeaturesEXT (or
// VkValidationFlagsEXT) disables shader validation.
type AppSettings struct {
	Values         map[string]fileSetting
	DisableShaders bool
}

// ResolveSettings merges the sources of one instance's settings. Precedence,
// as in the Khronos layers: the environment, then the app's
// VkLayerSettingsCreateInfoEXT, then the settings file, then the defaults.
// The app's VkValidationFeaturesEXT disables (ALL or SHADERS) turn every
// check off at the app's level: its own check_<id> settings and the
// environment still win over them, the file does not.
func ResolveSettings(getenv func(string) string, file map[string]fileSetting, app AppSettings) (Settings, []string) {
	checkEnvs := map[string]bool{}
	for _, id := range gpuav.AllChecks {
		checkEnvs[CheckEnv(id)] = true
	}
	return loadSettings(func(env string) (string, string) {
		if v := getenv(env); v != "" {
			return v, env
		}
		if a, ok := app.Values[env]; ok {
			return a.value, a.origin
		}
		if app.DisableShaders && checkEnvs[env] {
			return "0", "VkValidationFeaturesEXT"
		}
		if f, ok := file[env]; ok {
			return f.value, f.origin
		}
		return "", env
	})
}

// AppSettingsOrigin names VkLayerSettingsCreateInfoEXT in warnings.
const AppSettingsOrigin = "VkLayerSettingsCreateInfoEXT"

// ParseAppSettings parses the app's settings for this layer as the C half
// passes them: one "key=value" line per VkLayerSettingEXT (values already
// text), or "key!reason" for one the C half could not convert. Keys are
// the settings file's (check_<id>, reserve_slot, on_error, robust,
// warn_robust...);
// the socket is the launcher's and cannot be set by the app.
func ParseAppSettings(text string) (map[string]fileSetting, []string) {
	keys := settingKeys()
	delete(keys, "socket")
	out := map[string]fileSetting{}
	var warnings []string
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			continue
		}
		if k, why, bad := strings.Cut(line, "!"); bad && !strings.Contains(k, "=") {
			warnings = append(warnings, fmt.Sprintf("%s %q: %s: ignored", AppSettingsOrigin, k, why))
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		key := strings.ToLower(strings.TrimSpace(k))
		env, known := keys[key]
		if !known {
			warnings = append(warnings, unknownSetting(AppSettingsOrigin, key))
			continue
		}
		out[env] = fileSetting{strings.TrimSpace(v), AppSettingsOrigin + " " + key}
	}
	return out, warnings
}

// InstrumentationWanted reports whether any check is on.
func (s Settings) InstrumentationWanted() bool {
	for _, id := range gpuav.AllChecks {
		if s.Checks[id] {
			return true
		}
	}
	return false
}

// Command check bits for the C half (layer/cmdchecks.h GPUAVDBG_CC_*).
const (
	ccIndex    = 1
	ccVertex   = 2
	ccIndirect = 4
	ccSafe     = 8
	ccAccel    = 16
	ccDepth    = 32
)

// commandChecks returns the command checks that are on, and whether a
// failed one makes its command harmless (every on_error but execute: a bad
// command cannot be clamped into a meaningful one, so clamp skips it), as
// bits for the C half.
func (s Settings) commandChecks() uint32 {
	var bits uint32
	for id, bit := range map[string]uint32{gpuav.CheckIndexBufferOOB: ccIndex, gpuav.CheckVertexFetchOOB: ccVertex,
		gpuav.CheckIndirectCommand: ccIndirect, gpuav.CheckAccelBuild: ccAccel, gpuav.CheckDepthCopy: ccDepth} {
		if s.Checks[id] {
			bits |= bit
		}
	}
	if gpuav.OnError(s.OnError) != gpuav.OnErrorExecute {
		bits |= ccSafe
	}
	return bits
}

// Wire returns the settings as the hello carries them.
func (s Settings) Wire() wire.Settings {
	w := s.Settings
	w.Checks = maps.Clone(s.Checks)
	return w
}

// processSettings are the environment's and the settings file's, loaded
// once, at the first vkCreateInstance; each instance adds the app's own
// (instanceSettingsLocked).
var processSettings = struct {
	loaded   bool
	s        Settings
	file     map[string]fileSetting
	warnings []string
}{}

// settingsLocked returns the process's settings (without any app's),
// loading them on first use. Callers hold state.mu.
func settingsLocked() Settings {
	if !processSettings.loaded {
		var w []string
		processSettings.file, processSettings.warnings = readSettingsFile(os.Getenv, os.ReadFile, os.Stat)
		processSettings.s, w = ResolveSettings(os.Getenv, processSettings.file, AppSettings{})
		processSettings.warnings = append(processSettings.warnings, w...)
		processSettings.loaded = true
	}
	return processSettings.s
}

// instanceSettingsLocked returns the settings of an instance whose app
// asks for app, with the warnings about the app's values. Callers hold
// state.mu.
func instanceSettingsLocked(app AppSettings) (Settings, []string) {
	settingsLocked()
	if len(app.Values) == 0 && !app.DisableShaders {
		return processSettings.s, nil
	}
	s, w := ResolveSettings(os.Getenv, processSettings.file, app)
	// The file's and the environment's own warnings were given once.
	var own []string
	for _, x := range w {
		if strings.Contains(x, AppSettingsOrigin) || !slices.Contains(processSettings.warnings, x) {
			own = append(own, x)
		}
	}
	return s, own
}
