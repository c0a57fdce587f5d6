package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Environment variables the layer reads (DESIGN decision 6). The launcher
// sets them; a user running an app by hand may too. They are listed in the
// manifest, VkLayer_gpuav_dbg.json.
const (
	// EnvCheckPrefix + the check id in upper case turns one check on or
	// off, e.g. VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB=0.
	EnvCheckPrefix = "VK_LAYER_GPUAV_DBG_CHECK_"
	// EnvReserveSlot=1 makes the app see maxBoundDescriptorSets - 1, as
	// VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT does.
	EnvReserveSlot = "VK_LAYER_GPUAV_DBG_RESERVE_SLOT"
	// EnvSafeMode (default 1): a failed check skips the faulty access.
	EnvSafeMode = "VK_LAYER_GPUAV_DBG_SAFE_MODE"
	// EnvSocket is the launcher's unix socket; unset, the layer reports
	// to stderr.
	EnvSocket = "VK_LAYER_GPUAV_DBG_SOCKET"
)

// Settings are what the layer runs with.
type Settings struct {
	// Checks maps every check id (gpuav.AllChecks) to on/off.
	Checks      map[string]bool
	ReserveSlot bool
	SafeMode    bool
	Socket      string
}

// CheckEnv returns the environment variable that switches check id.
func CheckEnv(id string) string { return EnvCheckPrefix + strings.ToUpper(id) }

// LoadSettings reads the settings through getenv. Implemented checks are
// on by default, the others off. Values it cannot parse keep the default
// and yield a warning each.
func LoadSettings(getenv func(string) string) (Settings, []string) {
	s := Settings{Checks: map[string]bool{}, SafeMode: true, Socket: getenv(EnvSocket)}
	var warnings []string
	flag := func(name string, def bool) bool {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return def
		}
		switch strings.ToLower(v) {
		case "1", "true", "on", "yes":
			return true
		case "0", "false", "off", "no":
			return false
		}
		warnings = append(warnings, fmt.Sprintf("%s=%q is not a boolean (use 1 or 0); keeping %v", name, v, def))
		return def
	}
	for _, id := range gpuav.AllChecks {
		s.Checks[id] = flag(CheckEnv(id), slices.Contains(gpuav.ImplementedChecks, id))
	}
	s.ReserveSlot = flag(EnvReserveSlot, false)
	s.SafeMode = flag(EnvSafeMode, true)
	return s, warnings
}

// InstrumentationWanted reports whether any implemented check is on.
func (s Settings) InstrumentationWanted() bool {
	for _, id := range gpuav.ImplementedChecks {
		if s.Checks[id] {
			return true
		}
	}
	return false
}

// Wire returns the settings as the hello carries them.
func (s Settings) Wire() wire.Settings {
	return wire.Settings{Checks: maps.Clone(s.Checks), ReserveSlot: s.ReserveSlot, SafeMode: s.SafeMode}
}

// processSettings are loaded once, at the first vkCreateInstance.
var processSettings = struct {
	loaded   bool
	s        Settings
	warnings []string
}{}

// settingsLocked returns the process's settings, loading them on first
// use. Callers hold state.mu.
func settingsLocked() Settings {
	if !processSettings.loaded {
		processSettings.s, processSettings.warnings = LoadSettings(os.Getenv)
		processSettings.loaded = true
	}
	return processSettings.s
}
