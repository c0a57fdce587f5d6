package session

import (
	"fmt"
	"slices"
	"strings"
)

// What an Unchecked entry is about.
const (
	// UncheckedLayer: the app never loaded the layer.
	UncheckedLayer = "layer"
	// UncheckedSettings: every check is off.
	UncheckedSettings = "settings"
	// UncheckedRobust: the robust-only mode clamped failed accesses
	// without reporting them.
	UncheckedRobust = "robust"
	// UncheckedCheck: a check that is on cannot run on the device.
	UncheckedCheck = "check"
	// UncheckedDevice: the layer could not instrument on a device.
	UncheckedDevice = "device"
	// UncheckedShader: shaders left unchecked, in whole or in part.
	UncheckedShader = "shader"
	// UncheckedPipeline: pipelines that run uninstrumented copies of
	// their shaders.
	UncheckedPipeline = "pipeline"
	// UncheckedCommand: commands the command checks (index_buffer_oob,
	// vertex_fetch_oob, indirect_command) left unchecked, in whole or in
	// part (a wire.Log marked Unchecked says which and why).
	UncheckedCommand = "command"
	// UncheckedRecords: error records or layer messages were lost.
	UncheckedRecords = "records"
	// UncheckedStopped: the user stopped the app before it finished.
	UncheckedStopped = "stopped"
	// UncheckedEnd: the session does not say how the app ended.
	UncheckedEnd = "end"
)

// Unchecked is one cause of something in the run going unchecked: Kind
// says what (Unchecked* constants), Reason why, Count how many shaders,
// pipelines or records it covers (0: not counted).
type Unchecked struct {
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	Count  int    `json:"count,omitempty"`
	// Subjects name the pipelines a scope left out (their handle and
	// debug name; the first maxSubjects).
	Subjects []string `json:"subjects,omitempty"`
}

// maxSubjects is how many subjects an Unchecked entry names.
const maxSubjects = 16

// String is one line: "2 shaders: module has no entry point: left
// uninstrumented".
func (u Unchecked) String() string {
	switch {
	case u.Kind == UncheckedShader || u.Kind == UncheckedPipeline:
		s := fmt.Sprintf("%d %s: %s", u.Count, plural(u.Count, u.Kind, u.Kind+"s"), u.Reason)
		if len(u.Subjects) > 0 {
			s += ": " + strings.Join(u.Subjects, ", ")
			if more := u.Count - len(u.Subjects); more > 0 {
				s += fmt.Sprintf(" and %d more", more)
			}
		}
		return s
	}
	return u.Reason
}

// Unchecked says what the run left unchecked, one entry per cause: what
// the layer reported (Session.Unchecked), and what the session shows
// besides: a layer that never loaded, every check off, the robust-only
// mode (which reports nothing), checks the device
// cannot run, lost records, an app the user stopped. Empty means every
// check that was on ran on everything the app did; a run that failed to
// start reports nothing here (it is a failure of its own).
func (s *Session) UncheckedAll() []Unchecked {
	var out []Unchecked
	add := func(kind, reason string, count int) {
		u := Unchecked{Kind: kind, Reason: reason, Count: count}
		if !slices.ContainsFunc(out, func(x Unchecked) bool { return x.Kind == kind && x.Reason == reason && x.Count == count }) {
			out = append(out, u)
		}
	}
	ended := s.App.State == AppExited || s.App.State == AppCrashed || s.App.State == AppStopped
	if ended && !s.App.LayerLoaded {
		add(UncheckedLayer, "the layer was not loaded by the app, so nothing was checked", 0)
	}
	if s.App.LayerLoaded && !anyOn(s.Settings.Checks) {
		add(UncheckedSettings, "every check is off", 0)
	}
	if s.App.LayerLoaded && s.Settings.Robust {
		add(UncheckedRobust, "robust-only mode: failed accesses were clamped into range and not reported", 0)
	}
	if s.App.LayerLoaded {
		for _, id := range s.Capabilities.Unavailable(s.Settings) {
			if sup, _ := s.Capabilities.Check(id); !sup.NotNeeded {
				add(UncheckedCheck, fmt.Sprintf("check %s cannot run on %s: %s", id, s.Capabilities.Device, sup.Reason), 0)
			}
		}
	}
	for _, u := range s.Unchecked {
		add(u.Kind, u.Reason, u.Count)
		out[len(out)-1].Subjects = u.Subjects
	}
	if s.Dropped > 0 {
		add(UncheckedRecords, fmt.Sprintf("%d error records did not fit in the layer's buffers (counts are lower bounds)", s.Dropped), int(s.Dropped))
	}
	if s.LostRecords > 0 {
		add(UncheckedRecords, fmt.Sprintf("%d error records were lost on the way to gpuav-dbg: %s", s.LostRecords, lostWhere(s)),
			int(s.LostRecords))
	}
	if s.LostMessages > 0 {
		add(UncheckedRecords, fmt.Sprintf("%d messages of the layer were lost on the way to gpuav-dbg", s.LostMessages), int(s.LostMessages))
	}
	if s.StreamsCut > 0 {
		add(UncheckedRecords, fmt.Sprintf("%d %s of the layer ended without its last message: records it had not sent yet are missing",
			s.StreamsCut, plural(s.StreamsCut, "connection", "connections")), 0)
	}
	if s.App.State == AppUnknown {
		add(UncheckedEnd, s.endNotRecorded(), 0)
	}
	if s.App.State == AppStopped {
		add(UncheckedStopped, s.stoppedText(), 0)
	}
	return out
}

func anyOn(checks map[string]bool) bool {
	for _, on := range checks {
		if on {
			return true
		}
	}
	return false
}

// Verdict says at a glance how much of a run was checked.
type Verdict int

// The verdicts.
const (
	// VerdictChecked: every check that was on ran on everything the app
	// did (UncheckedAll is empty), or the app has not ended yet.
	VerdictChecked Verdict = iota
	// VerdictPartly: some of the run went unchecked (UncheckedAll says
	// what); what was checked found what the groups say.
	VerdictPartly
	// VerdictNone: nothing was checked (the layer never loaded, every
	// check off, the robust-only mode, no device instrumented): an empty
	// list of errors means nothing.
	VerdictNone
	// VerdictFailed: the app failed to start: there was nothing to check.
	VerdictFailed
)

// String names the verdict: "checked", "partly checked", "not checked",
// "app failed to start".
func (v Verdict) String() string {
	switch v {
	case VerdictPartly:
		return "partly checked"
	case VerdictNone:
		return "not checked"
	case VerdictFailed:
		return "app failed to start"
	}
	return "checked"
}

// nothingChecked lists the kinds of Unchecked that leave nothing checked.
var nothingChecked = []string{UncheckedLayer, UncheckedSettings, UncheckedRobust, UncheckedDevice}

// Verdict is the run's verdict and its causes (UncheckedAll). A run that
// is still going is VerdictChecked until something says otherwise.
func (s *Session) Verdict() (Verdict, []Unchecked) {
	if s.App.State == AppFailed {
		return VerdictFailed, nil
	}
	u := s.UncheckedAll()
	if len(u) == 0 {
		return VerdictChecked, nil
	}
	for _, x := range u {
		if slices.Contains(nothingChecked, x.Kind) {
			return VerdictNone, u
		}
	}
	return VerdictPartly, u
}

// NotCheckedFor says why this run could not have found an error of check
// (its absence proves nothing): the layer not loaded, the check off, the
// robust-only mode, the device, or an app that did not run to its end;
// "" when the run ran the check to the end.
func (s *Session) NotCheckedFor(check string) string {
	ended := s.App.State == AppExited || s.App.State == AppCrashed || s.App.State == AppStopped
	switch {
	case s.App.State == AppFailed:
		return "the app failed to start"
	case ended && !s.App.LayerLoaded:
		return "the layer was not loaded"
	case s.Settings.Checks != nil && !s.Settings.Checks[check]:
		return "check " + check + " was off"
	case s.Settings.Robust:
		return "the robust-only mode reports nothing"
	}
	for _, u := range s.Unchecked {
		if u.Kind == UncheckedDevice {
			return u.Reason
		}
	}
	if sup, ok := s.Capabilities.Check(check); ok && !sup.Available && !sup.NotNeeded {
		return fmt.Sprintf("check %s cannot run on %s", check, s.Capabilities.Device)
	}
	switch s.App.State {
	case AppCrashed:
		if s.App.Signal != "" {
			return "the app crashed (" + s.App.Signal + ") before it finished"
		}
		return "the app crashed before it finished"
	case AppStopped:
		return s.stoppedText()
	case AppUnknown:
		return "the app's end was not recorded"
	}
	return ""
}

// stoppedText says who stopped the app before it finished: the user, or
// the run at its first error (stop_on_error, headless).
func (s *Session) stoppedText() string {
	if s.StoppedAtFirstError {
		return StoppedAtFirstErrorText
	}
	return "you stopped the app before it finished"
}

// StoppedAtFirstErrorText is what a run stopped at its first error says
// went unchecked.
const StoppedAtFirstErrorText = "stopped at the first error (--stop-on-error): the app did not run to its end"
