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
	// Fault is the lost device's VK_EXT_device_fault report (nil: none).
	Fault *HangMessageFault
}

// HangMessageFault is what the driver said of a lost device through
// VK_EXT_device_fault: its description, addresses (AddressesTotal in
// all) and vendor infos (VendorsTotal); Error: the call failed.
type HangMessageFault struct {
	Error            string
	Description      string
	Addresses        []HangMessageFaultAddress
	AddressesTotal   uint32
	Vendors          []HangMessageFaultVendor
	VendorsTotal     uint32
	VendorBinarySize uint64
}

// HangMessageFaultAddress is one fault address: its type (read_invalid,
// write_invalid, execute_invalid, instruction_pointer_*), the reported
// address and precision, its range [Low, High], and the buffers whose
// range met it (BuffersTotal in all).
type HangMessageFaultAddress struct {
	Type                          string
	Address, Precision, Low, High uint64
	Buffers                       []HangMessageFaultBuffer
	BuffersTotal                  uint32
}

// HangMessageFaultBuffer is a buffer whose device address range
// [Address, Address+Size) met a fault address: Buffer is its handle and
// name (`0x55 ("name")`); Live or destroyed after submit DestroyedAfter;
// created after submit CreatedAfter.
type HangMessageFaultBuffer struct {
	Buffer                       string
	Address, Size                uint64
	Live                         bool
	CreatedAfter, DestroyedAfter uint64
}

// HangMessageFaultVendor is one vendor-specific fault.
type HangMessageFaultVendor struct {
	Description string
	Code, Data  uint64
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
	return append(out, h.Fault.Lines()...)
}

// Lines are the fault's lines in a hang's message: the description, each
// address with the buffers that held it, each vendor fault; none for a
// nil fault.
func (f *HangMessageFault) Lines() []string {
	if f == nil {
		return nil
	}
	if f.Error != "" {
		return []string{"  device fault: vkGetDeviceFaultInfoEXT failed: " + f.Error}
	}
	out := []string{fmt.Sprintf("  device fault (VK_EXT_device_fault, the driver's report): %q", f.Description)}
	for _, a := range f.Addresses {
		line := "    " + a.Text() + ": "
		switch {
		case strings.HasPrefix(a.Type, "instruction_pointer"):
			line += "an instruction pointer, not matched to a buffer"
		case !strings.HasSuffix(a.Type, "_invalid"):
			line += "not a data address, not matched to a buffer"
		case len(a.Buffers) == 0:
			line += "no buffer whose device address the app obtained held it"
		}
		for i, b := range a.Buffers {
			if i > 0 {
				line += "; "
			}
			line += b.Text(a.Low)
		}
		if more := int(a.BuffersTotal) - len(a.Buffers); more > 0 {
			line += fmt.Sprintf("; %d more buffers", more)
		}
		out = append(out, line)
	}
	if more := int(f.AddressesTotal) - len(f.Addresses); more > 0 {
		out = append(out, fmt.Sprintf("    %d more fault addresses not read", more))
	}
	for _, v := range f.Vendors {
		out = append(out, fmt.Sprintf("    vendor fault code 0x%x data 0x%x: %q", v.Code, v.Data, v.Description))
	}
	if more := int(f.VendorsTotal) - len(f.Vendors); more > 0 {
		out = append(out, fmt.Sprintf("    %d more vendor faults not read", more))
	}
	if f.VendorBinarySize > 0 {
		out = append(out, fmt.Sprintf("    a vendor binary dump of %d bytes, not read", f.VendorBinarySize))
	}
	return out
}

// Text is the address in a few words: "read_invalid at 0x1018", with its
// range when the precision is coarser than a byte: "read_invalid at
// 0x1018 (precision 16: 0x1010-0x101f)".
func (a HangMessageFaultAddress) Text() string {
	t := fmt.Sprintf("%s at 0x%x", a.Type, a.Address)
	if a.High > a.Low {
		t += fmt.Sprintf(" (precision %d: 0x%x-0x%x)", a.Precision, a.Low, a.High)
	}
	return t
}

// Text says where the fault's range, starting at low, lies in the buffer:
// `in buffer 0x55 ("in") [0x1000, +4096) at offset 0x10, live, created
// before the first submit`, or `in freed buffer ..., destroyed after
// submit 3`.
func (b HangMessageFaultBuffer) Text(low uint64) string {
	kind := "buffer"
	if !b.Live {
		kind = "freed buffer"
	}
	t := fmt.Sprintf("in %s %s [0x%x, +%d)", kind, b.Buffer, b.Address, b.Size)
	if low >= b.Address {
		t += fmt.Sprintf(" at offset 0x%x", low-b.Address)
	} else {
		t += fmt.Sprintf(" from 0x%x before it", b.Address-low)
	}
	if b.Live {
		return t + ", live, created " + afterSubmit(b.CreatedAfter)
	}
	return t + ", created " + afterSubmit(b.CreatedAfter) + ", destroyed " + afterSubmit(b.DestroyedAfter)
}

// afterSubmit says when something happened by the submits made before it:
// "after submit 3", or "before the first submit".
func afterSubmit(n uint64) string {
	if n == 0 {
		return "before the first submit"
	}
	return fmt.Sprintf("after submit %d", n)
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
