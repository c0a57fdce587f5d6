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
// VK_ERROR_DEVICE_LOST (Reason "device_lost", Call). Granularity is what
// the device's breadcrumbs marked: "actions" or "passes" (regions: each
// render pass, and the actions between passes); "" from a layer without
// the setting (it marked actions). Submits are every submission of the
// layer's that had not finished, per command buffer the actions its
// breadcrumbs say completed, running and not started; the records of the
// completed actions that reached memory are error groups of their own
// (Records counts them here).
//
// Finished: every submission the watchdog named finished after all
// (wire.HangFinished), the longest after Seconds from its submit: the
// work was slow, not hung (Slow), a warning that does not fail the run.
type Hang struct {
	Reason          string       `json:"reason"`
	Call            string       `json:"call,omitempty"`
	WatchdogSeconds float64      `json:"watchdog_seconds,omitempty"`
	Granularity     string       `json:"granularity,omitempty"`
	Submits         []HangSubmit `json:"submits"`
	Time            time.Time    `json:"time"`
	Finished        bool         `json:"finished,omitempty"`
	Seconds         float64      `json:"seconds,omitempty"`
}

// HangSubmit is one unfinished submission. Finished: for a lost device,
// its fence had signalled all the same; for the watchdog, it finished
// after the hang was reported, Seconds after its submit.
type HangSubmit struct {
	Queue          Handle              `json:"queue"`
	Submit         uint64              `json:"submit"`
	PendingSeconds float64             `json:"pending_seconds"`
	Finished       bool                `json:"finished,omitempty"`
	Seconds        float64             `json:"seconds,omitempty"`
	CommandBuffers []HangCommandBuffer `json:"command_buffers"`
}

// Hung says whether a hang of the session never finished (or was a lost
// device): what fails a run (exit 5). A slow submission does not.
func (s *Session) Hung() bool {
	for _, h := range s.Hangs {
		if !h.Slow() {
			return true
		}
	}
	return false
}

// Slow says that the hang was a slow submission, not a hang: the
// watchdog's, and every submission it named finished after all.
func (h Hang) Slow() bool { return h.Reason == wire.HangWatchdog && h.Finished }

// HangCommandBuffer is one command buffer of an unfinished submission:
// actions [0, Completed) completed, [RunningFrom, RunningTo) running, the
// rest of Actions not started (Markers false: it had no breadcrumbs, and
// nothing is known); Region: the running actions are a region's, not told
// apart by its breadcrumbs (one or more of them is running); Summary says
// it in a line; Shown names the last completed action, the running ones
// and the first not started.
type HangCommandBuffer struct {
	CommandBuffer Handle       `json:"command_buffer"`
	Primary       *Handle      `json:"primary,omitempty"`
	PrimaryAction uint32       `json:"primary_action,omitempty"`
	Actions       uint32       `json:"actions"`
	Markers       bool         `json:"markers"`
	Completed     uint32       `json:"completed"`
	RunningFrom   uint32       `json:"running_from"`
	RunningTo     uint32       `json:"running_to"`
	Region        bool         `json:"region,omitempty"`
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
	h := Hang{Reason: m.Reason, Call: m.Call, WatchdogSeconds: m.WatchdogSeconds, Granularity: m.Granularity,
		Time: c.now()}
	for _, s := range m.Submits {
		hs := HangSubmit{Queue: c.handle(s.Queue), Submit: s.Submit, PendingSeconds: s.PendingSeconds, Finished: s.Finished}
		for _, cb := range s.CommandBuffers {
			hc := HangCommandBuffer{CommandBuffer: c.handle(cb.Handle), PrimaryAction: cb.PrimaryAction, Actions: cb.Actions,
				Markers: cb.Markers, Completed: cb.Completed, RunningFrom: cb.RunningFrom, RunningTo: cb.RunningTo,
				Region: cb.Region, Summary: wire.HangCBSummary(cb), Records: cb.Records}
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
	c.hangNotices = append(c.hangNotices, len(c.s.Notices))
	c.addNotice("error", h.Summary())
}

// applyHangFinished marks the submission a watchdog's hang named
// finished; once all of the hang's have, the hang is a slow submission,
// and its notice says so as a warning. Called with c.mu held.
func (c *Collector) applyHangFinished(m *wire.HangFinished) {
	q := hexHandle(m.Queue)
	for i := len(c.s.Hangs) - 1; i >= 0; i-- {
		if c.s.Hangs[i].Reason != wire.HangWatchdog {
			continue
		}
		for j, s := range c.s.Hangs[i].Submits {
			if s.Submit != m.Submit || s.Queue.Handle != q {
				continue
			}
			if s.Finished {
				return // said already
			}
			// Snapshots share the hangs and their submissions: copied
			// before they change.
			hangs := slices.Clone(c.s.Hangs)
			h := &hangs[i]
			h.Submits = slices.Clone(h.Submits)
			h.Submits[j].Finished, h.Submits[j].Seconds = true, m.Seconds
			h.Finished, h.Seconds = true, 0
			for _, s := range h.Submits {
				h.Finished = h.Finished && s.Finished
				h.Seconds = max(h.Seconds, s.Seconds)
			}
			if !h.Finished {
				h.Seconds = 0
			}
			c.s.Hangs = hangs
			// Snapshots copied the notices: changing this one in place is
			// safe.
			if n := c.hangNotices[i]; n < len(c.s.Notices) {
				c.s.Notices[n].Text = h.Summary()
				if h.Slow() {
					c.s.Notices[n].Level = "warning"
				}
			}
			return
		}
	}
	c.addNotice("warning", fmt.Sprintf("submit %d on queue %s finished after %.1f s, but no hang named it", m.Submit, q, m.Seconds))
}

// Summary is the hang in one line: its title and, per unfinished command
// buffer, what its breadcrumbs said when it was reported.
func (h Hang) Summary() string {
	var b strings.Builder
	b.WriteString(h.Title())
	at := ""
	if h.Slow() {
		at = "when reported, " // the breadcrumbs are the report's
	}
	for _, s := range h.Submits {
		for _, c := range s.CommandBuffers {
			fmt.Fprintf(&b, "; %ssubmit %d, command buffer %s: %s", at, s.Submit, c.CommandBuffer, c.Summary)
		}
	}
	return b.String()
}

// Title is the hang in a few words: "GPU hang (no progress for the
// watchdog's 2 s)", "device lost (vkWaitForFences returned
// VK_ERROR_DEVICE_LOST)", or, once it finished, "slow: submission 3 on
// queue 0x10 made no progress for 2 s, then finished after 11.2 s"
// (gpuav.HangMessage, the layer's words too).
func (h Hang) Title() string { return h.message().Title() }

// Lines are the hang's lines: its title, how exact its breadcrumbs are
// when they mark regions, then per unfinished submission and command
// buffer what its breadcrumbs say and the actions it names
// (gpuav.HangMessage's Lines).
func (h Hang) Lines() []string { return h.message().Lines() }

// message is the hang in the one renderer's terms.
func (h Hang) message() gpuav.HangMessage {
	m := gpuav.HangMessage{DeviceLost: h.Reason == wire.HangDeviceLost, Call: h.Call, WatchdogSeconds: h.WatchdogSeconds,
		Slow: h.Slow(), Seconds: h.Seconds, Granularity: h.Granularity}
	for _, s := range h.Submits {
		ms := gpuav.HangMessageSubmit{Submit: s.Submit, Queue: s.Queue.Handle, PendingSeconds: s.PendingSeconds,
			Finished: s.Finished, Seconds: s.Seconds}
		for _, c := range s.CommandBuffers {
			mc := gpuav.HangMessageCB{CommandBuffer: c.CommandBuffer.String(), Summary: c.Summary, Records: c.Records,
				Region: c.Region, Running: c.RunningTo - min(c.RunningFrom, c.RunningTo)}
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
// breadcrumbs name one), "GPU HANG: region #3-#998 running" (the first
// running region of several actions: one or more of them is running),
// "DEVICE LOST", or for a slow submission "slow submit 3: 11.2 s".
func (h Hang) Short() string {
	if h.Slow() {
		if len(h.Submits) == 1 {
			return fmt.Sprintf("slow submit %d: %.1f s", h.Submits[0].Submit, h.Seconds)
		}
		return fmt.Sprintf("%d slow submits: %.1f s", len(h.Submits), h.Seconds)
	}
	t := "GPU HANG"
	if h.Reason == wire.HangDeviceLost {
		t = "DEVICE LOST"
	}
	for _, s := range h.Submits {
		for _, c := range s.CommandBuffers {
			if c.Region && c.RunningTo > c.RunningFrom+1 {
				return t + fmt.Sprintf(": region #%d-#%d running", c.RunningFrom, c.RunningTo-1)
			}
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
