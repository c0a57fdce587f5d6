package session

import (
	"fmt"
	"slices"
	"strconv"
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
	// Fault is what the driver said of a lost device through
	// VK_EXT_device_fault (nil: the device had no such extension enabled).
	Fault *HangFault `json:"fault,omitempty"`
}

// HangFault is a lost device's fault as the driver reported it
// (vkGetDeviceFaultInfoEXT): its description, its addresses
// (AddressesTotal in all, the first listed) each matched to the buffers
// that held it, and its vendor infos (VendorsTotal); VendorBinarySize is
// the vendor's binary dump, not read. Error: the call failed.
type HangFault struct {
	Error            string         `json:"error,omitempty"`
	Description      string         `json:"description"`
	Addresses        []FaultAddress `json:"addresses,omitempty"`
	AddressesTotal   uint32         `json:"addresses_total"`
	Vendors          []FaultVendor  `json:"vendors,omitempty"`
	VendorsTotal     uint32         `json:"vendors_total"`
	VendorBinarySize uint64         `json:"vendor_binary_size,omitempty"`
}

// FaultAddress is one fault address: its type (wire.FaultAddressTypes),
// the reported address and precision, the range they stand for ([Low,
// High], "0x..." hex as handles are), and the buffers whose device
// address range met it (BuffersTotal in all: the live ones first, then
// the destroyed ones newest first).
type FaultAddress struct {
	Type         string        `json:"type"`
	Address      string        `json:"address"`
	Precision    uint64        `json:"precision"`
	Low          string        `json:"low"`
	High         string        `json:"high"`
	Buffers      []FaultBuffer `json:"buffers,omitempty"`
	BuffersTotal uint32        `json:"buffers_total,omitempty"`
}

// FaultBuffer is a buffer of the app's whose device address range met a
// fault address: the buffer (its name the one it had when last known to
// the layer), its range [Address, Address+Size), whether it was live,
// and the numbers of the last submit before it was created and destroyed.
type FaultBuffer struct {
	Buffer         Handle `json:"buffer"`
	Address        string `json:"address"`
	Size           uint64 `json:"size"`
	Live           bool   `json:"live"`
	CreatedAfter   uint64 `json:"created_after_submit"`
	DestroyedAfter uint64 `json:"destroyed_after_submit,omitempty"`
}

// FaultVendor is one vendor-specific fault.
type FaultVendor struct {
	Description string `json:"description"`
	Code        uint64 `json:"code"`
	Data        uint64 `json:"data"`
}

// hangFault is a wire fault in the session's terms.
func hangFault(f *wire.HangFault) *HangFault {
	if f == nil {
		return nil
	}
	hf := &HangFault{Error: f.Error, Description: f.Description, AddressesTotal: f.AddressesTotal,
		VendorsTotal: f.VendorsTotal, VendorBinarySize: f.VendorBinarySize}
	for _, a := range f.Addresses {
		fa := FaultAddress{Type: a.Type, Address: hexHandle(a.Address), Precision: a.Precision, Low: hexHandle(a.Low),
			High: hexHandle(a.High), BuffersTotal: a.BuffersTotal}
		for _, b := range a.Buffers {
			fa.Buffers = append(fa.Buffers, FaultBuffer{Buffer: Handle{Handle: hexHandle(b.Handle), Name: b.Name},
				Address: hexHandle(b.Address), Size: b.Size, Live: b.Live, CreatedAfter: b.CreatedAfter,
				DestroyedAfter: b.DestroyedAfter})
		}
		hf.Addresses = append(hf.Addresses, fa)
	}
	for _, v := range f.Vendors {
		hf.Vendors = append(hf.Vendors, FaultVendor(v))
	}
	return hf
}

// hexValue reads back a "0x..." value of the report (0 when it is not
// one).
func hexValue(s string) uint64 {
	v, _ := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
	return v
}

// message is the fault in the one renderer's terms.
func (f *HangFault) message() *gpuav.HangMessageFault {
	if f == nil {
		return nil
	}
	m := &gpuav.HangMessageFault{Error: f.Error, Description: f.Description, AddressesTotal: f.AddressesTotal,
		VendorsTotal: f.VendorsTotal, VendorBinarySize: f.VendorBinarySize}
	for _, a := range f.Addresses {
		ma := gpuav.HangMessageFaultAddress{Type: a.Type, Address: hexValue(a.Address), Precision: a.Precision,
			Low: hexValue(a.Low), High: hexValue(a.High), BuffersTotal: a.BuffersTotal}
		for _, b := range a.Buffers {
			ma.Buffers = append(ma.Buffers, gpuav.HangMessageFaultBuffer{Buffer: b.Buffer.String(), Address: hexValue(b.Address),
				Size: b.Size, Live: b.Live, CreatedAfter: b.CreatedAfter, DestroyedAfter: b.DestroyedAfter})
		}
		m.Addresses = append(m.Addresses, ma)
	}
	for _, v := range f.Vendors {
		m.Vendors = append(m.Vendors, gpuav.HangMessageFaultVendor(v))
	}
	return m
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
		Time: c.now(), Fault: hangFault(m.Fault)}
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
	c.s.Busy = slices.DeleteFunc(slices.Clone(c.s.Busy), func(b BusySubmit) bool {
		return slices.ContainsFunc(h.Submits, func(s HangSubmit) bool { return s.Submit == b.Submit && s.Queue == b.Queue })
	})
	c.hangNotices = append(c.hangNotices, len(c.s.Notices))
	c.addNotice("error", h.Summary())
}

// BusySubmit is a submission the watchdog counts down: pending since
// Since (on the collector's clock), a hang reported at WatchdogSeconds
// from then.
type BusySubmit struct {
	Queue           Handle
	Submit          uint64
	Since           time.Time
	WatchdogSeconds float64
}

// applyBusy starts or ends a submission's countdown. Called with c.mu
// held; the slice is replaced, never changed in place (snapshots share
// it).
func (c *Collector) applyBusy(m *wire.Busy) {
	q := hexHandle(m.Queue)
	busy := slices.DeleteFunc(slices.Clone(c.s.Busy), func(b BusySubmit) bool {
		return b.Submit == m.Submit && b.Queue.Handle == q
	})
	if !m.Done {
		busy = append(busy, BusySubmit{Queue: c.handle(m.Queue), Submit: m.Submit, WatchdogSeconds: m.WatchdogSeconds,
			Since: c.now().Add(-time.Duration(m.Seconds * float64(time.Second)))})
	}
	c.s.Busy = busy
}

// BusyText is the countdown of the longest-pending submission the
// watchdog counts, at now: "GPU busy 6 s — hang reported at 10 s"; ""
// when none is.
func (s *Session) BusyText(now time.Time) string {
	var oldest *BusySubmit
	for i := range s.Busy {
		if oldest == nil || s.Busy[i].Since.Before(oldest.Since) {
			oldest = &s.Busy[i]
		}
	}
	if oldest == nil {
		return ""
	}
	return fmt.Sprintf("GPU busy %d s — hang reported at %g s", int(max(now.Sub(oldest.Since), 0).Seconds()),
		oldest.WatchdogSeconds)
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
	for _, l := range h.Fault.message().Lines() {
		b.WriteString("; " + strings.TrimSpace(l))
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
		Slow: h.Slow(), Seconds: h.Seconds, Granularity: h.Granularity, Fault: h.Fault.message()}
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
// "DEVICE LOST" (with the first buffer its fault names: "DEVICE LOST:
// write_invalid in freed buffer 0x55 ("lights")"), or for a slow
// submission "slow submit 3: 11.2 s".
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
		// The driver's fault, where it names a buffer: what the user
		// looks at first.
		if f := h.Fault; f != nil {
			for _, a := range f.Addresses {
				if len(a.Buffers) > 0 {
					b, kind := a.Buffers[0], "buffer"
					if !b.Live {
						kind = "freed buffer"
					}
					return fmt.Sprintf("%s: %s in %s %s", t, a.Type, kind, b.Buffer)
				}
			}
		}
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
