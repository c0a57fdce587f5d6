package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/layer/internal/abi"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// The layer reads every layer row of the options table (package options:
// their environment variables, keys and defaults; docs/decisions/settings.md),
// from the environment, the app's VkLayerSettingsCreateInfoEXT and the
// settings file. The launcher sets them; a user running an app by hand may
// too. The manifest, VkLayer_gpuav_dbg.json, lists them.

// Settings are what the layer runs with: the values of every layer option
// (the hello carries options.Values.Settings: every check id of
// gpuav.AllChecks on or off, the reserve slot, what a failed access does,
// robust-only...).
type Settings struct {
	options.Values
}

// CheckEnv returns the environment variable that switches check id.
func CheckEnv(id string) string { return options.CheckEnv(id) }

// LoadSettings reads the settings through getenv. Each check has its
// registry default (gpuav.Checks). Values it cannot parse keep the default
// and yield a warning each.
func LoadSettings(getenv func(string) string) (Settings, []string) {
	return loadSettings(func(env string) (string, string) { return getenv(env), env })
}

// loadSettings reads every layer option through lookup, which returns a
// setting's value (by its environment variable's name) and where it came
// from, for warnings; then the rules between them: the robust-only mode
// always clamps, and a retired setting is named.
func loadSettings(lookup func(env string) (value, origin string)) (Settings, []string) {
	v, given, warnings := options.Read(options.Of(options.Layer), lookup)
	s := Settings{Values: v}
	if s.Robust && gpuav.OnError(s.OnError) != gpuav.OnErrorClamp {
		// Another value asked for with it is ignored, with a warning.
		if origin, ok := given[options.OnError.Key]; ok {
			warnings = append(warnings, fmt.Sprintf("%s=%s is ignored: the robust-only mode (%s) clamps", origin, s.OnError,
				options.Robust.Env))
		}
		s.OnError = string(gpuav.OnErrorClamp)
	}
	for _, g := range options.Gone {
		if old, _ := lookup(g.Env); old != "" {
			warnings = append(warnings, fmt.Sprintf("%s is gone (it never changed anything): %s", g.Env, g.Instead))
		}
	}
	return s, warnings
}

// unknownSetting is the warning for a key the layer does not know.
func unknownSetting(where, key string) string {
	for _, g := range options.Gone {
		if key == g.Key {
			return fmt.Sprintf("%s: setting %q is gone (it never changed anything): ignored; %s", where, key, g.Instead)
		}
	}
	return fmt.Sprintf("%s: unknown setting %q: ignored", where, key)
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

var settingsPrefixes = []string{strings.ToLower(strings.TrimPrefix(options.LayerName, "VK_LAYER_")) + ".", "gpuavdbg."}

// fileSetting is one value of the settings file, with where it is.
type fileSetting struct{ value, origin string }

// ParseSettingsFile parses a settings file's text (named name in
// warnings) into values by environment variable name.
func ParseSettingsFile(name string, text []byte) (map[string]fileSetting, []string) {
	keys := options.FileKeys(false)
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
// warn_robust...: options.FileKeys);
// the socket is the launcher's and cannot be set by the app.
func ParseAppSettings(text string) (map[string]fileSetting, []string) {
	keys := options.FileKeys(true)
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

// Command check bits for the C half (abi, shared_gen.h GPUAVDBG_CC_*).
const (
	ccIndex    = abi.CCIndex
	ccVertex   = abi.CCVertex
	ccIndirect = abi.CCIndirect
	ccSafe     = abi.CCSafe
	ccAccel    = abi.CCAccel
	ccDepth    = abi.CCDepth
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
	w.Checks, w.Options = maps.Clone(s.Checks), maps.Clone(s.Options)
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
		handTestHooks(processSettings.s.Test)
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
