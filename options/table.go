package options

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// The rows, by name, for the code that reads one value.
var (
	ReserveSlot = &Option{
		Key: "reserve_slot", Env: "VK_LAYER_GPUAV_DBG_RESERVE_SLOT", Flag: "reserve-slot", Kind: Bool, Default: "0",
		Title: "Reserve a descriptor set binding slot",
		Help: "Report VkPhysicalDeviceLimits::maxBoundDescriptorSets minus one to the app, so that it leaves the last slot to the " +
			"layer (as VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT does, which the layer also honours).",
		Usage: "report maxBoundDescriptorSets - 1 to the app",
		Pane:  "report maxBoundDescriptorSets − 1 so our set never conflicts",
		Where: Manifest | Pane | README | Hello | Passed,
		get:   func(v *Values) (string, bool) { return bool01(v.ReserveSlot), true },
		set:   func(v *Values, s string) { v.ReserveSlot = s == "1" },
	}
	OnError = &Option{
		Key: "on_error", Env: "VK_LAYER_GPUAV_DBG_ON_ERROR", Flag: "on-error", FlagArg: "skip|clamp|execute", Kind: Enum,
		Default: string(gpuav.DefaultOnError), Values: onErrorValues(),
		Title: "On a failed check",
		Help:  "What an access whose check failed does; it is reported whichever is chosen.",
		Usage: "what an access whose check failed does, reported either way: skip (default): it does not happen (loads " +
			"read zero); clamp: its index, offset or texel is clamped into range (skipped where a clamp has no meaning); " +
			"execute: it happens as written",
		Where: Manifest | Pane | README | Hello | Passed,
		Parse: func(s string) (string, error) {
			v, err := gpuav.ParseOnError(s)
			return string(v), err
		},
		get: func(v *Values) (string, bool) {
			return string(gpuav.OnErrorOrDefault(gpuav.OnError(v.OnError))), true
		},
		set: func(v *Values, s string) { v.OnError = s },
	}
	Robust = &Option{
		Key: "robust", Env: "VK_LAYER_GPUAV_DBG_ROBUST", Flag: "robust", Kind: Bool, Default: "0",
		Title: "Robust only",
		Help: "Robust only: every enabled check clamps its access into range and nothing is reported (to run untrusted or " +
			"known-buggy shaders safely).",
		Usage: "robust only: every enabled check clamps, nothing is reported (exit 4 unless --allow-unchecked: nothing " +
			"was validated)",
		Pane:  "robust only: clamp every failed access, report nothing",
		Where: Manifest | Pane | README | Hello | Passed,
		get:   func(v *Values) (string, bool) { return bool01(v.Robust), true },
		set:   func(v *Values, s string) { v.Robust = s == "1" },
	}
	LoopBudget = &Option{
		Key: "loop_budget_iterations", Env: "VK_LAYER_GPUAV_DBG_LOOP_BUDGET_ITERATIONS", Flag: "loop-budget", FlagArg: "N",
		Kind: Uint, Default: strconv.Itoa(gpuav.DefaultLoopBudget),
		Title: "Loop budget",
		Help: "Iterations one invocation may run in one entry of a loop whose trip count no analysis proves before " +
			"loop_budget reports it and leaves the loop (on_error=execute: keeps looping). 1 to 2^31; also written 2^N.",
		Usage: "iterations one invocation may run in one entry of a loop whose trip count is not proven before " +
			"loop_budget reports it and leaves the loop (default 16777216, also 2^24)",
		Where: Manifest | README | Hello | Passed,
		Parse: func(s string) (string, error) {
			n, err := gpuav.ParseLoopBudget(s)
			return strconv.FormatUint(uint64(n), 10), err
		},
		get: func(v *Values) (string, bool) { return uintText(v.LoopBudget) },
		set: func(v *Values, s string) { v.LoopBudget = uint32(atou(s)) },
	}
	Printf = &Option{
		Key: "printf", Env: "VK_LAYER_GPUAV_DBG_PRINTF", Flag: "printf", FlagArg: "on|off", Kind: Bool, Default: "1",
		Title: "Shader printf",
		Help: "Print the lines of debugPrintfEXT (GL_EXT_debug_printf) calls: each call writes its values into a printf " +
			"buffer, the layer formats them. Off: the calls are removed from the shaders, nothing is printed.",
		Usage: "print debugPrintfEXT lines (default on, for every module that calls it); off removes the calls, with a notice",
		Where: Manifest | Pane | README | Hello | Passed,
		get:   func(v *Values) (string, bool) { return bool01(!v.PrintfOff), true },
		set:   func(v *Values, s string) { v.PrintfOff = s != "1" },
	}
	PrintfBufferBytes = &Option{
		Key: "printf_buffer_bytes", Env: "VK_LAYER_GPUAV_DBG_PRINTF_BUFFER_BYTES", Flag: "printf-buffer", FlagArg: "N",
		Kind: Uint, Default: strconv.Itoa(gpuav.DefaultPrintfBufferBytes),
		Title: "Printf buffer size",
		Help:  "Bytes of each command buffer's printf buffer. Lines that do not fit are counted and reported as lost.",
		Usage: "bytes of each command buffer's printf buffer (default 65536); lines that do not fit are counted as lost",
		Where: Manifest | README | Hello | Passed,
		Parse: parsePrintfBufferBytes,
		get:   func(v *Values) (string, bool) { return uintText(v.PrintfBufferBytes) },
		set:   func(v *Values, s string) { v.PrintfBufferBytes = uint32(min(atou(s), 1<<31)) },
	}
	PrintfAt = &Option{
		Key: "printf_at", Env: "VK_LAYER_GPUAV_DBG_PRINTF_AT", Flag: "printf-at", FlagArg: "WHERE", Kind: String,
		Commands: Open, Title: "Printf only at",
		Help: "Print only the lines of the invocations at these coordinates, e.g. pixel=120,45 or invocation=3,0,0 vertex=5 " +
			"(terms separated by spaces or ';'); a stage no term names prints every line. The other invocations write " +
			"nothing into the printf buffer.",
		Usage: "print and show the printf lines of these invocations only (repeatable; the other invocations write " +
			"none): " + gpuav.PrintfAtNames,
		Refused: "printing every invocation's lines",
		Where:   Manifest | README | Hello | Passed,
		Parse: func(s string) (string, error) {
			at, err := gpuav.ParsePrintfAt(s)
			if err != nil {
				return "", err
			}
			return at.String(), nil
		},
		get: func(v *Values) (string, bool) { return v.PrintfAt, true },
		set: func(v *Values, s string) { v.PrintfAt = s },
	}
	WatchdogSeconds = &Option{
		Key: "watchdog_seconds", Env: "VK_LAYER_GPUAV_DBG_WATCHDOG_SECONDS", Flag: "watchdog", FlagArg: "SECONDS",
		Kind: Uint, Default: strconv.Itoa(DefaultWatchdogSeconds),
		Title: "Watchdog",
		Help: "Seconds a submission may stay unfinished before the layer reports a GPU hang, with the actions completed, " +
			"running and not started from breadcrumbs the GPU writes around each action or each region of actions " +
			"(breadcrumbs; at most 3600); a submission that finishes later turns its hang into a warning (slow, not hung). 0 turns the watchdog and the breadcrumbs off.",
		Usage: "a submission unfinished this long is a GPU hang: reported with the actions completed, running and not " +
			"started (default 10, at most 3600; 0: no watchdog and no breadcrumbs); one that finishes later becomes a " +
			"warning (slow, not hung)",
		Where: Manifest | README | Hello | Passed,
		Parse: parseWatchdogSeconds,
		// Off is its own field (wire.Settings.WatchdogOff): a hello without
		// either is from a layer without a watchdog.
		get: func(v *Values) (string, bool) {
			if v.WatchdogOff {
				return "0", true
			}
			return uintText(v.WatchdogSeconds)
		},
		set: func(v *Values, s string) {
			n := atou(s)
			v.WatchdogSeconds, v.WatchdogOff = uint32(min(n, MaxWatchdogSeconds)), n == 0
		},
	}
	Breadcrumbs = &Option{
		Key: "breadcrumbs", Env: "VK_LAYER_GPUAV_DBG_BREADCRUMBS", Flag: "breadcrumbs", FlagArg: "auto|actions|passes",
		Kind: Enum, Default: wire.BreadcrumbsAuto, Values: breadcrumbsValues,
		Title: "Breadcrumbs",
		Help: "What the watchdog's breadcrumbs mark: each action, or each region of actions (each render pass, and the " +
			"actions between passes). A GPU write between two dispatches serializes them on a GPU (about 3 us per " +
			"action on an H200, a fill and VK_AMD_buffer_marker's marker alike), so auto marks actions only on a CPU " +
			"device.",
		Usage: "what the breadcrumbs mark: each action (two GPU writes per action outside render passes: exact, but on " +
			"a GPU each serializes the work, ~3 us per action on an H200), or passes (each render pass and the actions " +
			"between passes: a hang names its region); auto (default): actions on a CPU device, passes on a GPU",
		Where: Manifest | README | Hello | Passed,
		// Its own field (wire.Settings.Breadcrumbs): "" in a hello from a
		// layer without the setting, and not passed when no flag gave it.
		get: func(v *Values) (string, bool) { return v.Breadcrumbs, v.Breadcrumbs != "" },
		set: func(v *Values, s string) { v.Breadcrumbs = s },
	}
	ScopeInclude = &Option{
		Key: "scope_include", Env: "VK_LAYER_GPUAV_DBG_SCOPE_INCLUDE", Flag: "scope", FlagArg: "PATTERNS", Kind: String,
		Title: "Instrument only",
		Help: "Instrument only the pipelines one of whose debug names matches one of these comma-separated patterns: the " +
			"pipeline's name or its shader modules' (globs over the whole name: * ? [..]; re:EXPR a regular expression; " +
			"spirv:HASH a module's code; pipeline: or module: before a pattern matches only that kind of name). A pipeline " +
			"left out by its modules' names runs as the app made it; one left out by its own name (given after its " +
			"creation) runs instrumented and its errors are not reported. Each is counted in the run's unchecked list.",
		Usage: "instrument only the pipelines whose debug name or shader module's debug name matches one of these " +
			"comma-separated globs (* ? [..]; re:EXPR a regular expression; spirv:HASH a module's code); the others " +
			"run uninstrumented and are counted unchecked (exit 4)",
		Refused: "instrumenting every pipeline",
		Where:   Manifest | README | Hello | Passed,
		Parse:   parseScope,
	}
	ScopeExclude = &Option{
		Key: "scope_exclude", Env: "VK_LAYER_GPUAV_DBG_SCOPE_EXCLUDE", Flag: "scope-exclude", FlagArg: "PATTERNS",
		Kind:  String,
		Title: "Do not instrument",
		Help: "Leave uninstrumented the pipelines one of whose debug names (the pipeline's, its shader modules') matches " +
			"one of these comma-separated patterns (as scope_include's), even when scope_include matches; each is " +
			"counted in the run's unchecked list.",
		Usage: "leave uninstrumented the pipelines whose debug name or shader module's debug name matches one of these " +
			"comma-separated patterns (as --scope's; wins over --scope); each is counted unchecked (exit 4)",
		Refused: "excluding none",
		Where:   Manifest | README | Hello | Passed,
		Parse:   parseScope,
	}
	StopOnError = &Option{
		Key: "stop_on_error", Env: "VK_LAYER_GPUAV_DBG_STOP_ON_ERROR", Flag: "stop-on-error", Kind: Bool, Default: "0",
		Title: "Stop at the first error",
		Help: "Pause the app when the layer reads back the first submission with a validation record: the app's thread " +
			"that read it (its wait, submit or present) waits until gpuav-dbg says continue, once per process. Without " +
			"gpuav-dbg listening (or once it has gone) the app never waits.",
		Usage: "pause the app at the first validation error (once): the TUI shows it, c continues; headless runs stop " +
			"the app there and report that one error (exit 1)",
		Pane:  "pause the app at the first error; c continues",
		Where: Manifest | Pane | README | Hello | Passed,
	}
	SizedElementChecks = &Option{
		Key: "sized_element_checks", Env: "VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS", Kind: Bool, Default: "1",
		Title: "Element checks on sized arrays",
		Help: "descriptor_uninitialized and descriptor_destroyed also on sized descriptor arrays and plain bindings (runtime " +
			"arrays always get them). Off (0), they check runtime arrays only, as before their checks were made cheap.",
		Where: Manifest | README,
		get:   func(v *Values) (string, bool) { return bool01(v.SizedElementChecks), true },
		set:   func(v *Values, s string) { v.SizedElementChecks = s == "1" },
	}
	WarnRobust = &Option{
		Key: "warn_robust", Env: "VK_LAYER_GPUAV_DBG_WARN_ROBUST", Kind: Bool, Default: "1",
		Title: "Warn under robustBufferAccess",
		Help: "On a device created with robustBufferAccess or robustBufferAccess2, out-of-range buffer accesses are " +
			"defined: report them as warnings (1) or do not check them at all (0).",
		Where: Manifest | README,
		get:   func(v *Values) (string, bool) { return bool01(v.WarnRobust), true },
		set:   func(v *Values, s string) { v.WarnRobust = s == "1" },
	}
	Socket = &Option{
		Key: "socket", Env: "VK_LAYER_GPUAV_DBG_SOCKET", Kind: String,
		Title: "Launcher socket",
		Help: "Unix socket of the gpuav-dbg launcher that receives the error stream. Unset: errors are printed to " +
			"stderr.",
		Where:      Manifest | Hidden | README | Passed,
		NotFromApp: true,
		get:        func(v *Values) (string, bool) { return v.Socket, true },
		set:        func(v *Values, s string) { v.Socket = s },
	}
	CPUProfile = &Option{
		Key: "cpuprofile", Env: "VK_LAYER_GPUAV_DBG_CPUPROFILE", Kind: String,
		Title: "Go CPU profile",
		Help: "A file: the layer writes a Go CPU profile (pprof) of the app's run to it, from the first vkCreateInstance " +
			"to the last vkDestroyInstance (for benchmarks: go tool pprof FILE).",
		Where:   README,
		EnvOnly: true,
		get:     func(v *Values) (string, bool) { return v.CPUProfile, v.CPUProfile != "" },
		set:     func(v *Values, s string) { v.CPUProfile = s },
	}
	CacheDir = &Option{
		Key: "cache_dir", Env: "VK_LAYER_GPUAV_DBG_CACHE_DIR", Kind: String,
		Title: "Kept caches",
		Help: "Directory where the layer keeps its pipeline shadow caches and instrumentation results beside the app's " +
			"pipeline-cache data, so that a warm app's pipelines are not instrumented again (default " +
			"$XDG_CACHE_HOME/gpuav-dbg, else ~/.cache/gpuav-dbg); off keeps nothing.",
		Where:   README,
		EnvOnly: true,
		get:     func(v *Values) (string, bool) { return v.CacheDir, v.CacheDir != "" },
		set:     func(v *Values, s string) { v.CacheDir = s },
	}
	TestFailAlloc = &Option{
		Key: "test_fail_alloc", Env: "VK_LAYER_GPUAV_DBG_TEST_FAIL_ALLOC", Kind: Uint, TestOnly: true, EnvOnly: true,
		Help: "the Nth buffer allocation of the layer in the process fails (allocation failure cannot be had on demand " +
			"otherwise)",
		get: func(v *Values) (string, bool) { return uintText(v.Test.FailAlloc) },
		set: func(v *Values, s string) { v.Test.FailAlloc = atou(s) },
	}
	TestMaxDrawIndirectCount = &Option{
		Key: "test_max_draw_indirect_count", Env: "VK_LAYER_GPUAV_DBG_TEST_MAX_DRAW_INDIRECT_COUNT", Kind: Uint,
		TestOnly: true, EnvOnly: true,
		Help: "the maxDrawIndirectCount the layer checks indirect draw counts against (lavapipe's and NVIDIA's limit, " +
			"2^32-1, no count can exceed)",
		get: func(v *Values) (string, bool) {
			return strconv.FormatInt(v.Test.MaxDrawIndirectCount, 10), v.Test.MaxDrawIndirectCount >= 0
		},
		set: func(v *Values, s string) {
			v.Test.MaxDrawIndirectCount = -1
			if s != "" {
				v.Test.MaxDrawIndirectCount = int64(min(atou(s), 1<<32-1))
			}
		},
	}
	TestBinds = &Option{
		Key: "test_binds", Env: "VK_LAYER_GPUAV_DBG_TEST_BINDS", Kind: Bool, Default: "0", TestOnly: true, EnvOnly: true,
		Help: "each command buffer's end logs how many of its actions used the layer's set and how many binds of it " +
			"that took (the layer's binds are not visible to the app)",
		get: func(v *Values) (string, bool) { return bool01(v.Test.Binds), true },
		set: func(v *Values, s string) { v.Test.Binds = s == "1" },
	}

	LayerPath = &Option{
		Key: "layer_path", Env: "GPUAV_DBG_LAYER_PATH", Scope: Launcher, Kind: String,
		Help: "directory of VkLayer_gpuav_dbg.json (default: next to gpuav-dbg, then PREFIX/share/vulkan/explicit_layer.d, " +
			"then the loader's explicit layer directories)",
		Where: README,
	}
	SourcePath = &Option{
		Key: "source_path", Env: "GPUAV_DBG_SOURCE_PATH", Scope: Launcher, Flag: "source-path", FlagArg: "DIRS",
		Kind: List, Sep: ":", Commands: Open,
		Help: "colon-separated directories searched after --source-path",
		Usage: "directories (repeatable, colon-separated) searched for shader source files a module names but does not " +
			"carry, after the working directory; no file outside them (after symlinks and ..) is read, nor any under " +
			"/proc, /sys or /dev, nor any hidden path below them (.git/, .env) unless named here",
		Where: README,
	}
	SourceExt = &Option{
		Key: "source_ext", Env: "GPUAV_DBG_SOURCE_EXT", Scope: Launcher, Flag: "source-ext", FlagArg: "EXTS",
		Kind: List, Sep: ":", Commands: Open,
		Help: "colon-separated extensions read as sources, after --source-ext's",
		Usage: "file name extensions (repeatable, colon-separated) read as shader sources besides GLSL's, HLSL's, " +
			"Slang's and headers'",
		Where: README,
	}
	Mute = &Option{
		Key: "mute", Env: "GPUAV_DBG_MUTE", Scope: Launcher, Flag: "mute", FlagArg: "ID|VUID", Kind: List, Sep: ",",
		Commands: Open, Help: "comma-separated checks and VUIDs to mute, before --mute",
		Usage: "hide the error groups of a check or a VUID (repeatable, comma-separated): the UI counts them in its status " +
			"bar, the headless output counts them without listing; the reports and the exit status keep them (as the " +
			"Khronos layer's message_id_filter)",
		Where: README,
	}
	KeepSize = &Option{
		Key: "keep_size", Env: "GPUAV_DBG_KEEP_SIZE", Scope: Launcher, Kind: Size, Default: "1GiB",
		Help: "the saved runs' size cap (0: none): a run saved by default first deletes the oldest runs past the caps, " +
			"as open --prune does; only session files (.gvs) and the app output files the launcher wrote beside them " +
			"are deleted",
		Where: README,
	}
	KeepAge = &Option{
		Key: "keep_age", Env: "GPUAV_DBG_KEEP_AGE", Scope: Launcher, Kind: Duration, Default: "30d",
		Help:  "the saved runs' age cap (0: none), kept as the size cap",
		Where: README,
	}
)

// Table is the options table: every option but the checks (All adds
// those), in the order users see them. Add a row here
// (docs/ARCHITECTURE.md, "An option").
var Table = []*Option{
	ReserveSlot, OnError, Robust, LoopBudget, Printf, PrintfBufferBytes, PrintfAt, WatchdogSeconds, Breadcrumbs,
	StopOnError, ScopeInclude, ScopeExclude,
	SizedElementChecks,
	WarnRobust,
	Socket, CPUProfile, CacheDir, TestFailAlloc, TestMaxDrawIndirectCount, TestBinds,
	LayerPath, SourcePath, SourceExt, Mute, KeepSize, KeepAge,
}

// Retired is a setting of earlier versions: a user who still sets it is
// told what replaced it.
type Retired struct {
	Key, Env string
	// Instead says what replaced it.
	Instead string
}

// Gone lists the retired settings.
var Gone = []Retired{
	{Key: "safe_mode", Env: "VK_LAYER_GPUAV_DBG_SAFE_MODE",
		Instead: OnError.Env + "=skip|clamp|execute (key on_error) says what a failed access does"},
}

// checkRows are the checks' rows: check_<id>, a Bool with the registry's
// default, title and help, carried in the hello's checks.
func checkRows() []*Option {
	out := make([]*Option, 0, len(gpuav.Checks))
	for i := range gpuav.Checks {
		c := &gpuav.Checks[i]
		id := c.ID
		out = append(out, &Option{
			Key: CheckKey(id), Env: CheckEnv(id), Kind: Bool, Default: bool01(c.Default), Title: c.Title, Help: c.Help,
			Where: Manifest | Hello | Passed,
			get:   func(v *Values) (string, bool) { return bool01(v.Checks[id]), true },
			set: func(v *Values, s string) {
				if v.Checks == nil {
					v.Checks = map[string]bool{}
				}
				v.Checks[id] = s == "1"
			},
		})
	}
	return out
}

// CheckKeyPrefix + a check id is the check's key: check_buffer_oob.
const CheckKeyPrefix = "check_"

// CheckKey returns the key of the setting that switches check id, in the
// manifest, a settings file or VkLayerSettingsCreateInfoEXT.
func CheckKey(id string) string { return CheckKeyPrefix + id }

// CheckEnv returns the environment variable that switches check id:
// VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB.
func CheckEnv(id string) string { return EnvLayerPrefix + strings.ToUpper(CheckKey(id)) }

// onErrorValues are on_error's values: gpuav.OnErrors.
func onErrorValues() []Value {
	var out []Value
	for _, b := range gpuav.OnErrors {
		out = append(out, Value{Key: string(b.Value), Title: b.Title, Help: b.Help})
	}
	return out
}

// parsePrintfBufferBytes reads a printf buffer size: a number of bytes,
// moved into gpuav's bounds.
func parsePrintfBufferBytes(s string) (string, error) {
	n, err := strconv.ParseUint(s, 0, 64)
	switch {
	case err != nil:
		return "", fmt.Errorf("%q is not a number of bytes", s)
	case n < gpuav.MinPrintfBufferBytes:
		return strconv.Itoa(gpuav.MinPrintfBufferBytes), &Adjusted{fmt.Sprintf("%d is below %d bytes", n, gpuav.MinPrintfBufferBytes)}
	case n > gpuav.MaxPrintfBufferBytes:
		return strconv.Itoa(gpuav.MaxPrintfBufferBytes), &Adjusted{fmt.Sprintf("%d is above %d bytes", n, gpuav.MaxPrintfBufferBytes)}
	}
	return strconv.FormatUint(n, 10), nil
}

// breadcrumbsValues are the breadcrumbs' values (wire.Breadcrumbs), the
// default first.
var breadcrumbsValues = []Value{
	{Key: wire.BreadcrumbsAuto, Title: "Auto",
		Help: "actions on a CPU device (lavapipe); passes on a GPU."},
	{Key: wire.BreadcrumbsActions, Title: "Each action",
		Help: "A marker before and after each action outside render passes (a render pass is marked as a whole): a " +
			"hang names its running action. On a GPU each marker serializes the work around it (a fill and " +
			"VK_AMD_buffer_marker's marker alike, on an H200)."},
	{Key: wire.BreadcrumbsPasses, Title: "Each pass",
		Help: "Markers at the command buffer's begin and end and around each render pass: a hang names the region " +
			"running (a render pass, or the actions between passes), a few markers per command buffer."},
}

// The watchdog's bounds, in seconds (layer/hang.go).
const (
	DefaultWatchdogSeconds = 10
	MaxWatchdogSeconds     = 3600
)

// parseWatchdogSeconds reads the watchdog's limit: a number of seconds,
// moved to MaxWatchdogSeconds when above it; 0 turns it off.
func parseWatchdogSeconds(s string) (string, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	switch {
	case err != nil:
		return "", fmt.Errorf("%q is not a number of seconds", s)
	case n > MaxWatchdogSeconds:
		return strconv.Itoa(MaxWatchdogSeconds), &Adjusted{fmt.Sprintf("%d is above %d seconds", n, MaxWatchdogSeconds)}
	}
	return strconv.FormatUint(n, 10), nil
}

// uintText is a number's text, unset when 0.
func uintText[T uint32 | uint64](n T) (string, bool) {
	return strconv.FormatUint(uint64(n), 10), n != 0
}

// atou reads a number as flag.Uint does (0x, 0o, 0b prefixes too); 0 when
// it is none.
func atou(s string) uint64 {
	n, _ := strconv.ParseUint(s, 0, 64)
	return n
}
