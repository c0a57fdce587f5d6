package gpuav

import (
	"fmt"
	"strings"
)

// HangMessage is what the message of a hang group says, in neutral terms,
// as ErrorMessage is for an error group: the session (the headless output,
// the notice, the TUI's status) and the layer (stderr, the app's
// debug-utils messengers) each fill it in from what they know, and Lines
// writes the one message both show.
type HangMessage struct {
	// DeviceLost: Call returned VK_ERROR_DEVICE_LOST; otherwise the
	// watchdog saw no progress for WatchdogSeconds.
	DeviceLost      bool
	Call            string
	WatchdogSeconds float64
	// Slow: every submission the watchdog named finished after all, the
	// last Seconds after its submit (a warning, not a hang).
	Slow    bool
	Seconds float64
	// Granularity is what the device's breadcrumbs marked: "actions" or
	// "passes" (regions: each render pass, and the actions between passes;
	// wire.BreadcrumbsActions, wire.BreadcrumbsPasses); "" from a layer
	// without the setting (it marked actions).
	Granularity string
	Submits     []HangMessageSubmit
}

// The breadcrumbs' granularity that marks regions, and the running state
// of an action (wire.BreadcrumbsPasses, wire.ActionRunning: the session
// and the layer fill HangMessage in with wire's words).
const (
	HangGranularityPasses = "passes"
	HangStateRunning      = "running"
)

// HangMessageSubmit is one unfinished submission of a hang.
type HangMessageSubmit struct {
	Submit uint64
	// Queue is the queue's handle ("0x...").
	Queue          string
	PendingSeconds float64
	// Finished: its fence had signalled (a lost device), or it finished
	// Seconds after its submit (a watchdog's).
	Finished       bool
	Seconds        float64
	CommandBuffers []HangMessageCB
}

// HangMessageCB is one command buffer of an unfinished submission.
type HangMessageCB struct {
	// CommandBuffer is its handle and name: `0x55 ("hang-cb")`.
	CommandBuffer string
	// Summary says what its breadcrumbs say in a line (wire.HangCBSummary).
	Summary string
	// Region: its running actions are a region's, whose breadcrumbs do not
	// tell its actions apart (a render pass, or with passes granularity the
	// actions between passes); Running counts them (wire.HangCB's
	// RunningTo - RunningFrom). A running action of a region of several
	// reads "in region": it may have completed, be running or not have
	// started.
	Region  bool
	Running uint32
	Actions []HangMessageAction
	// Records counts the records of its completed actions that reached
	// memory (0: none, or unknown).
	Records int
}

// HangMessageAction is one action a hang names.
type HangMessageAction struct {
	// State is completed, running or not_started.
	State   string
	Index   uint32
	Command string
	Labels  []string
	// Pipeline is its pipeline's handle and name ("" : none).
	Pipeline string
	Shaders  []HangMessageShader
}

// HangMessageShader is a shader of a named action's pipeline.
type HangMessageShader struct {
	ID   uint32
	Name string
}

// Title is the hang in a few words: "GPU hang (no progress for the
// watchdog's 2 s)", "device lost (vkWaitForFences returned
// VK_ERROR_DEVICE_LOST)", or, once it finished, "slow: submission 3 on
// queue 0x10 made no progress for 2 s, then finished after 11.2 s".
func (h HangMessage) Title() string {
	switch {
	case h.DeviceLost:
		return fmt.Sprintf("device lost (%s returned VK_ERROR_DEVICE_LOST)", h.Call)
	case h.Slow && len(h.Submits) == 1:
		s := h.Submits[0]
		return SlowSubmitText(s.Submit, s.Queue, h.WatchdogSeconds, s.Seconds)
	case h.Slow:
		return fmt.Sprintf("slow: %d submissions made no progress for %g s, then finished, the last after %.1f s",
			len(h.Submits), h.WatchdogSeconds, h.Seconds)
	}
	return fmt.Sprintf("GPU hang (no progress for the watchdog's %g s)", h.WatchdogSeconds)
}

// SlowSubmitText says that a submission the watchdog named finished after
// all: the session's title of a slow hang and the layer's message when it
// finishes. queue is its handle ("0x...").
func SlowSubmitText(submit uint64, queue string, watchdogSeconds, seconds float64) string {
	return fmt.Sprintf("slow: submission %d on queue %s made no progress for %g s, then finished after %.1f s",
		submit, queue, watchdogSeconds, seconds)
}

// Lines are the hang's lines: its title, how exact its breadcrumbs are
// when they mark regions (GranularityNote), then per unfinished submission
// and command buffer what its breadcrumbs say and the actions it names.
func (h HangMessage) Lines() []string {
	out := []string{h.Title()}
	if note := h.GranularityNote(); note != "" {
		out = append(out, "  "+note)
	}
	if len(h.Submits) == 0 {
		out = append(out, "  no submission of the layer's was unfinished")
	}
	for _, s := range h.Submits {
		fin := ""
		switch {
		case s.Finished && h.DeviceLost:
			fin = ", its fence signalled"
		case s.Finished:
			fin = fmt.Sprintf(", finished after %.1f s", s.Seconds)
		}
		out = append(out, fmt.Sprintf("  submit %d on queue %s, pending %.1f s%s", s.Submit, s.Queue, s.PendingSeconds, fin))
		for _, c := range s.CommandBuffers {
			out = append(out, fmt.Sprintf("    command buffer %s: %s", c.CommandBuffer, c.Summary))
			for _, a := range c.Actions {
				line := fmt.Sprintf("      %-11s #%d %s", c.StateText(a.State), a.Index, a.Command)
				if len(a.Labels) > 0 {
					line += fmt.Sprintf(" in %q", strings.Join(a.Labels, " > "))
				}
				if a.Pipeline != "" {
					line += " pipeline " + a.Pipeline
				}
				for _, sh := range a.Shaders {
					if sh.Name != "" {
						line += fmt.Sprintf(" (shader %d %q)", sh.ID, sh.Name)
					} else {
						line += fmt.Sprintf(" (shader %d)", sh.ID)
					}
				}
				out = append(out, line)
			}
			if c.Records > 0 {
				out = append(out, fmt.Sprintf("      %d records of its completed actions reached memory (in the errors)", c.Records))
			}
		}
	}
	return out
}

// GranularityNote says how exact the hang's "running" is: with passes
// granularity, that the breadcrumbs mark regions and how to have each
// action marked; with actions granularity and a render pass running (a
// command buffer's Region), that a pass is marked as a whole; else "".
func (h HangMessage) GranularityNote() string {
	region := false
	for _, s := range h.Submits {
		for _, c := range s.CommandBuffers {
			region = region || c.Region
		}
	}
	switch {
	case h.Granularity == HangGranularityPasses:
		return "breadcrumbs per region, not per action (each render pass, and the actions between passes: the " +
			"default on a GPU, where a marker between two dispatches serializes them): " +
			"a region's actions not completed read as running, and one or more of them is; --breadcrumbs actions " +
			"(VK_LAYER_GPUAV_DBG_BREADCRUMBS=actions) marks each action, at a few microseconds per action on such a GPU"
	case region:
		return "a render pass is marked as a whole: its actions not completed read as running, and one or more of " +
			"them is"
	}
	return ""
}

// StateText is an action's state in the command buffer's lines:
// "completed", "running", "not started", or "in region" for a running
// action of a running region of several actions, which may have
// completed, be running or not have started.
func (c HangMessageCB) StateText(state string) string {
	if c.Region && c.Running > 1 && state == HangStateRunning {
		return "in region"
	}
	return strings.ReplaceAll(state, "_", " ")
}
