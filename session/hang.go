package session

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Hang is a hang group: the layer's watchdog saw a submission not finish
// in time (Reason "watchdog", after WatchdogSeconds), or a call returned
// VK_ERROR_DEVICE_LOST (Reason "device_lost", Call). Submits are every
// submission of the layer's that had not finished, per command buffer the
// actions its breadcrumbs say completed, running and not started; the
// records of the completed actions that reached memory are error groups of
// their own (Records counts them here).
type Hang struct {
	Reason          string       `json:"reason"`
	Call            string       `json:"call,omitempty"`
	WatchdogSeconds float64      `json:"watchdog_seconds,omitempty"`
	Submits         []HangSubmit `json:"submits"`
	Time            time.Time    `json:"time"`
}

// HangSubmit is one unfinished submission.
type HangSubmit struct {
	Queue          Handle              `json:"queue"`
	Submit         uint64              `json:"submit"`
	PendingSeconds float64             `json:"pending_seconds"`
	Finished       bool                `json:"finished,omitempty"`
	CommandBuffers []HangCommandBuffer `json:"command_buffers"`
}

// HangCommandBuffer is one command buffer of an unfinished submission:
// actions [0, Completed) completed, [RunningFrom, RunningTo) running, the
// rest of Actions not started (Markers false: it had no breadcrumbs, and
// nothing is known); Summary says it in a line; Shown names the last
// completed action, the running ones and the first not started.
type HangCommandBuffer struct {
	CommandBuffer Handle       `json:"command_buffer"`
	Primary       *Handle      `json:"primary,omitempty"`
	PrimaryAction uint32       `json:"primary_action,omitempty"`
	Actions       uint32       `json:"actions"`
	Markers       bool         `json:"markers"`
	Completed     uint32       `json:"completed"`
	RunningFrom   uint32       `json:"running_from"`
	RunningTo     uint32       `json:"running_to"`
	Summary       string       `json:"summary"`
	Shown         []HangAction `json:"shown,omitempty"`
	Records       int          `json:"records,omitempty"`
}

// HangAction is one action a hang names: its state (completed, running,
// not_started), command, label path, pipeline and the pipeline's shaders.
type HangAction struct {
	Index    uint32      `json:"index"`
	State    string      `json:"state"`
	Command  string      `json:"command"`
	Labels   []string    `json:"labels,omitempty"`
	Pipeline *Handle     `json:"pipeline,omitempty"`
	Shaders  []ShaderRef `json:"shaders,omitempty"`
}

// applyHang records a hang group and says it in a notice. Called with
// c.mu held.
func (c *Collector) applyHang(m *wire.Hang) {
	h := Hang{Reason: m.Reason, Call: m.Call, WatchdogSeconds: m.WatchdogSeconds, Time: c.now()}
	for _, s := range m.Submits {
		hs := HangSubmit{Queue: c.handle(s.Queue), Submit: s.Submit, PendingSeconds: s.PendingSeconds, Finished: s.Finished}
		for _, cb := range s.CommandBuffers {
			hc := HangCommandBuffer{CommandBuffer: c.handle(cb.Handle), PrimaryAction: cb.PrimaryAction, Actions: cb.Actions,
				Markers: cb.Markers, Completed: cb.Completed, RunningFrom: cb.RunningFrom, RunningTo: cb.RunningTo,
				Summary: wire.HangCBSummary(cb), Records: cb.Records}
			if cb.Secondary {
				p := c.handle(cb.Primary)
				hc.Primary = &p
			}
			for _, a := range cb.Shown {
				ha := HangAction{Index: a.Index, State: a.State, Command: a.Command, Labels: slices.Clone(a.Labels)}
				if a.Pipeline != 0 {
					p := c.handle(a.Pipeline)
					ha.Pipeline = &p
					if pl := c.s.Pipelines[p.Handle]; pl != nil {
						for _, st := range pl.Stages {
							ref, _ := c.shaderRef(st.ShaderID)
							ha.Shaders = append(ha.Shaders, ref)
						}
					}
				}
				hc.Shown = append(hc.Shown, ha)
			}
			hs.CommandBuffers = append(hs.CommandBuffers, hc)
		}
		h.Submits = append(h.Submits, hs)
	}
	c.s.Hangs = append(c.s.Hangs, h)
	c.addNotice("error", h.Summary())
}

// Summary is the hang in one line: its title and, per unfinished command
// buffer, what its breadcrumbs say.
func (h Hang) Summary() string {
	var b strings.Builder
	b.WriteString(h.Title())
	for _, s := range h.Submits {
		for _, c := range s.CommandBuffers {
			fmt.Fprintf(&b, "; submit %d, command buffer %s: %s", s.Submit, c.CommandBuffer, c.Summary)
		}
	}
	return b.String()
}

// Title is the hang in a few words: "GPU hang (no progress for the
// watchdog's 2 s)" or "device lost (vkWaitForFences returned
// VK_ERROR_DEVICE_LOST)" (gpuav.HangMessage, the layer's words too).
func (h Hang) Title() string { return h.message().Title() }

// Lines are the hang's lines: its title, then per unfinished submission
// and command buffer what its breadcrumbs say and the actions it names
// (gpuav.HangMessage's Lines).
func (h Hang) Lines() []string { return h.message().Lines() }

// message is the hang in the one renderer's terms.
func (h Hang) message() gpuav.HangMessage {
	m := gpuav.HangMessage{DeviceLost: h.Reason == wire.HangDeviceLost, Call: h.Call, WatchdogSeconds: h.WatchdogSeconds}
	for _, s := range h.Submits {
		ms := gpuav.HangMessageSubmit{Submit: s.Submit, Queue: s.Queue.Handle, PendingSeconds: s.PendingSeconds,
			Finished: s.Finished}
		for _, c := range s.CommandBuffers {
			mc := gpuav.HangMessageCB{CommandBuffer: c.CommandBuffer.String(), Summary: c.Summary, Records: c.Records}
			for _, a := range c.Shown {
				ma := gpuav.HangMessageAction{State: a.State, Index: a.Index, Command: a.Command, Labels: a.Labels}
				if a.Pipeline != nil {
					ma.Pipeline = a.Pipeline.String()
				}
				for _, sh := range a.Shaders {
					ma.Shaders = append(ma.Shaders, gpuav.HangMessageShader{ID: sh.ID, Name: sh.Name})
				}
				mc.Actions = append(mc.Actions, ma)
			}
			ms.CommandBuffers = append(ms.CommandBuffers, mc)
		}
		m.Submits = append(m.Submits, ms)
	}
	return m
}

// Text is Lines joined.
func (h Hang) Text() string { return strings.Join(h.Lines(), "\n") }

// Short is the hang in a few words for a status bar: "GPU HANG: #1
// vkCmdDispatch spin running" (the first running action, when the
// breadcrumbs name one), or "DEVICE LOST".
func (h Hang) Short() string {
	t := "GPU HANG"
	if h.Reason == wire.HangDeviceLost {
		t = "DEVICE LOST"
	}
	for _, s := range h.Submits {
		for _, c := range s.CommandBuffers {
			for _, a := range c.Shown {
				if a.State == wire.ActionRunning {
					t += fmt.Sprintf(": #%d %s", a.Index, a.Command)
					if len(a.Labels) > 0 {
						t += " " + strings.Join(a.Labels, " > ")
					}
					return t + " running"
				}
			}
		}
	}
	return t
}
