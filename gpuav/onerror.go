package gpuav

import (
	"fmt"
	"slices"
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
		"The descriptor index or texel coordinate is clamped into range and the access happens there; where a clamp has no meaning (an unwritten or destroyed descriptor, an address outside every buffer, ray-query values), and for buffer_oob (not built yet), the access is skipped."},
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

// clampUnbuilt are the checks where a clamp has a meaning but the passes
// do not build it yet: under clamp their failed accesses are skipped.
var clampUnbuilt = []string{CheckBufferOOB}

// ClampUnbuilt lists the checks on in checks (nil: every check), in
// registry order, whose failed accesses the passes do not clamp yet
// although a clamp would have a meaning: under clamp they are skipped.
func ClampUnbuilt(checks map[string]bool) []string {
	var ids []string
	for _, c := range Checks {
		if slices.Contains(clampUnbuilt, c.ID) && (checks == nil || checks[c.ID]) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// Outcome is what a failed access did, from its record and the run's
// behaviour.
type Outcome struct {
	// Access is "skipped", "clamped" or "executed".
	Access string
	// Clamped says ClampedTo holds the index (descriptor_index_oob) or
	// texel coordinate (texel_buffer_oob) the access went to.
	Clamped   bool
	ClampedTo uint32
	// Reason says why a clamp fell back to a skip.
	Reason string
}

// The accesses an Outcome names.
const (
	AccessSkipped  = "skipped"
	AccessClamped  = "clamped"
	AccessExecuted = "executed"
)

// FailedAccess returns what a failed access with this record did under
// behaviour v: clamp falls back to skip where it has no meaning (an
// unwritten or destroyed descriptor, an array or view of no element; for
// a whole check, its registry entry's noClamp) or is not built yet
// (ClampUnbuilt), and the reason says which. An index clamped to an
// element that is itself unwritten or destroyed was skipped, which the
// record cannot tell: ClampedTo names the element the clamp chose.
func FailedAccess(v OnError, code CheckCode, p [RecordParams]uint32) Outcome {
	switch OnErrorOrDefault(v) {
	case OnErrorExecute:
		return Outcome{Access: AccessExecuted}
	case OnErrorSkip:
		return Outcome{Access: AccessSkipped}
	}
	noMeaning := func(why string) Outcome {
		return Outcome{Access: AccessSkipped, Reason: "clamp has no meaning here (" + why + ")"}
	}
	if c := checkOfCode(code); c != nil && c.noClamp != "" {
		return noMeaning(c.noClamp)
	}
	switch code {
	case CodeDescriptorIndexOOB:
		if p[3] == 0 {
			return noMeaning("the array has no element")
		}
		return Outcome{Access: AccessClamped, Clamped: true, ClampedTo: min(p[2], p[3]-1)}
	case CodeDescriptorUninitialized:
		return noMeaning("the descriptor was never written")
	case CodeDescriptorDestroyed:
		return noMeaning("the descriptor's resource was destroyed")
	case CodeTexelBufferOOB:
		switch {
		case p[4] == 0:
			return noMeaning("the view has no texel")
		case p[5]&TexelSigned != 0 && int32(p[3]) < 0:
			return Outcome{Access: AccessClamped, Clamped: true, ClampedTo: 0}
		}
		return Outcome{Access: AccessClamped, Clamped: true, ClampedTo: min(p[3], p[4]-1)}
	}
	return Outcome{Access: AccessSkipped, Reason: "clamp is not built for " + code.CheckID() + " yet"}
}
