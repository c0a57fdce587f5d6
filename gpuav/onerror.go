package gpuav

import (
	"fmt"
	"strings"
)

// OnError is what an access does when its check fails. Every behaviour
// reports the error with the same values; they differ in what the access
// then does.
type OnError string

// The behaviours, in the order users see them.
const (
	// OnErrorSkip: the access does not happen; a load yields zero, a
	// store or an atomic is dropped (the default).
	OnErrorSkip OnError = "skip"
	// OnErrorClamp: the index, offset or coordinate is clamped into range
	// and the access happens there; where a clamp has no meaning (a
	// destroyed descriptor, an address outside every buffer) it is skipped.
	OnErrorClamp OnError = "clamp"
	// OnErrorExecute: the access happens exactly as the shader wrote it.
	OnErrorExecute OnError = "execute"
)

// OnErrorBehaviour is one value of the on_error setting, as the manifest,
// the CLI usage and the TUI's settings pane describe it.
type OnErrorBehaviour struct {
	Value OnError
	// Title names it in a few words.
	Title string
	// Help says in one sentence what a failed access does.
	Help string
}

// OnErrors lists the behaviours; the first is the default.
var OnErrors = []OnErrorBehaviour{
	{OnErrorSkip, "Skip the access",
		"The access does not happen: a load yields zero, a store or an atomic is dropped."},
	{OnErrorClamp, "Clamp into range",
		"The index, offset or texel coordinate is clamped into range and the access happens there; where a clamp has no meaning (an unwritten or destroyed descriptor, an address outside every buffer, ray-query values) the access is skipped."},
	{OnErrorExecute, "Let it execute",
		"The access happens exactly as the shader wrote it (what the app does without validation)."},
}

// DefaultOnError is the behaviour when nothing says otherwise.
const DefaultOnError = OnErrorSkip

// Settings of the failed-access behaviour: environment variables and
// their keys in the manifest, a settings file and
// VkLayerSettingsCreateInfoEXT.
const (
	// EnvOnError: skip (default), clamp or execute.
	EnvOnError = "VK_LAYER_GPUAV_DBG_ON_ERROR"
	// SettingOnError is EnvOnError's key.
	SettingOnError = "on_error"
	// EnvRobust (default 0): robust-only mode: every enabled check clamps
	// and nothing is reported.
	EnvRobust = "VK_LAYER_GPUAV_DBG_ROBUST"
	// SettingRobust is EnvRobust's key.
	SettingRobust = "robust"
)

// RobustHelp says in one sentence what the robust-only mode does
// (manifest, CLI usage, settings pane).
const RobustHelp = "Robust only: every enabled check clamps its access into range and nothing is reported (to run untrusted or known-buggy shaders safely)."

// ParseOnError reads a behaviour by its name (case and surrounding spaces
// ignored); the error lists the valid names.
func ParseOnError(s string) (OnError, error) {
	v := OnError(strings.ToLower(strings.TrimSpace(s)))
	for _, b := range OnErrors {
		if b.Value == v {
			return v, nil
		}
	}
	return "", fmt.Errorf("%q is not a failed-access behaviour (use %s)", s, OnErrorNames())
}

// OnErrorNames is the behaviours' names joined with '|': "skip|clamp|execute".
func OnErrorNames() string {
	names := make([]string, len(OnErrors))
	for i, b := range OnErrors {
		names[i] = string(b.Value)
	}
	return strings.Join(names, "|")
}

// OnErrorOrDefault returns v, or DefaultOnError when v is empty (settings
// recorded before the setting existed).
func OnErrorOrDefault(v OnError) OnError {
	if v == "" {
		return DefaultOnError
	}
	return v
}

// OnErrorBuilt reports whether the instrumentation passes build behaviour
// v, and robust whether they build the robust-only mode. A setting they do
// not build is refused by the layer with a warning, never silently kept.
func OnErrorBuilt(v OnError) bool { return v == OnErrorSkip }

// RobustBuilt reports whether the passes build the robust-only mode.
const RobustBuilt = false
