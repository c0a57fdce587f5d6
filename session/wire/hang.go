package wire

import "fmt"

// KindHang carries a hang group (Hang): the layer's watchdog saw a
// submission not finish in time, or a call returned VK_ERROR_DEVICE_LOST.
// 30: the layer's kinds after 10 and 20 are being taken by other messages
// as this one is added.
const KindHang Kind = 30

// KindHangFinished says that a submission a watchdog's hang named finished
// after all (HangFinished): it was slow, not hung.
const KindHangFinished Kind = 31

// KindBusy says that a submission has been pending long enough for the
// TUI to count the watchdog down, or that such a one finished (Busy).
const KindBusy Kind = 32

// Busy: the submission Submit on Queue has been the oldest unfinished one
// of its queue for Seconds, past the point where the watchdog's
// countdown is shown (half of WatchdogSeconds, at most 3 s); or, Done, it
// finished Seconds after its submit. A watchdog's hang of it comes at
// WatchdogSeconds (docs/decisions/watchdog-and-breadcrumbs.md).
type Busy struct {
	Queue           uint64  `json:"queue"`
	Submit          uint64  `json:"submit"`
	Seconds         float64 `json:"seconds"`
	WatchdogSeconds float64 `json:"watchdog_seconds,omitempty"`
	Done            bool    `json:"done,omitempty"`
}

// Hang reasons.
const (
	HangWatchdog   = "watchdog"
	HangDeviceLost = "device_lost"
)

// The breadcrumbs' granularity: the setting (wire.Settings.Breadcrumbs,
// --breadcrumbs, the layer's breadcrumbs key) asks for one of the three;
// a device's breadcrumbs (Hang.Granularity) mark actions or passes
// (docs/decisions/watchdog-and-breadcrumbs.md).
const (
	// BreadcrumbsAuto: actions on a CPU device (lavapipe) and where
	// VK_AMD_buffer_marker writes the markers, passes elsewhere.
	BreadcrumbsAuto = "auto"
	// BreadcrumbsActions: a marker before and after each action outside a
	// render pass, each render pass marked as a whole.
	BreadcrumbsActions = "actions"
	// BreadcrumbsPasses: markers at the command buffer's begin and end
	// and around each render pass: the actions between two of them are
	// one region, and so is each pass.
	BreadcrumbsPasses = "passes"
)

// Breadcrumbs are the values of the breadcrumbs setting, the default
// first.
var Breadcrumbs = []string{BreadcrumbsAuto, BreadcrumbsActions, BreadcrumbsPasses}

// Action states in a hang.
const (
	ActionCompleted  = "completed"
	ActionRunning    = "running"
	ActionNotStarted = "not_started"
)

// Hang is a hang group: why (the watchdog, after WatchdogSeconds, or a
// lost device, Call being the call that returned VK_ERROR_DEVICE_LOST),
// the granularity of the device's breadcrumbs (BreadcrumbsActions or
// BreadcrumbsPasses; "" from a layer without the setting, which marked
// actions), and every submission of the layer's that had not finished,
// per command buffer what its breadcrumbs say. The records of the
// completed actions that reached memory come before it as Errors of the
// same submit.
type Hang struct {
	Reason          string       `json:"reason"`
	Call            string       `json:"call,omitempty"`
	WatchdogSeconds float64      `json:"watchdog_seconds,omitempty"`
	Granularity     string       `json:"granularity,omitempty"`
	Submits         []HangSubmit `json:"submits"`
	// Fault is what VK_EXT_device_fault said after a lost device, where
	// the layer could enable it (nil: not enabled, or not a lost device).
	Fault *HangFault `json:"fault,omitempty"`
}

// HangFault is a lost device's fault as vkGetDeviceFaultInfoEXT reported
// it (the driver's words: docs/decisions/device-faults.md): its
// description, its addresses (AddressesTotal of them, the first listed)
// each matched to the buffers that held it, and its vendor infos
// (VendorsTotal, the first listed); VendorBinarySize is the size of the
// vendor's binary dump, which the layer does not read. Error: the call
// failed with that VkResult, and nothing else is known.
type HangFault struct {
	Error            string         `json:"error,omitempty"`
	Description      string         `json:"description"`
	Addresses        []FaultAddress `json:"addresses,omitempty"`
	AddressesTotal   uint32         `json:"addresses_total"`
	Vendors          []FaultVendor  `json:"vendors,omitempty"`
	VendorsTotal     uint32         `json:"vendors_total"`
	VendorBinarySize uint64         `json:"vendor_binary_size,omitempty"`
}

// Fault address types (VkDeviceFaultAddressTypeEXT, by its value), and
// FaultAddressUnknown for a value past them (a newer driver's).
var FaultAddressTypes = []string{"none", "read_invalid", "write_invalid", "execute_invalid",
	"instruction_pointer_unknown", "instruction_pointer_invalid", "instruction_pointer_fault"}

// FaultAddressUnknown is the type of a fault address whose
// VkDeviceFaultAddressTypeEXT this gpuav-dbg does not know.
const FaultAddressUnknown = "unknown"

// FaultAddress is one fault address: its type (FaultAddressTypes), the
// address and precision reported, the range they stand for ([Low, High]),
// and the buffers whose device address range met it (BuffersTotal of
// them, the first listed: the live ones, then the destroyed ones newest
// first). Only data addresses are matched, not instruction pointers.
type FaultAddress struct {
	Type         string        `json:"type"`
	Address      uint64        `json:"address"`
	Precision    uint64        `json:"precision"`
	Low          uint64        `json:"low"`
	High         uint64        `json:"high"`
	Buffers      []FaultBuffer `json:"buffers,omitempty"`
	BuffersTotal uint32        `json:"buffers_total,omitempty"`
}

// FaultBuffer is a buffer of the app's whose device address range
// [Address, Address+Size) met a fault address: its handle, its debug name
// when it was last known, and the number of the last submit made before it
// was created and, unless Live, destroyed.
type FaultBuffer struct {
	Handle         uint64 `json:"handle"`
	Name           string `json:"name,omitempty"`
	Address        uint64 `json:"address"`
	Size           uint64 `json:"size"`
	Live           bool   `json:"live"`
	CreatedAfter   uint64 `json:"created_after_submit"`
	DestroyedAfter uint64 `json:"destroyed_after_submit,omitempty"`
}

// FaultVendor is one vendor-specific fault: its description, code and
// data.
type FaultVendor struct {
	Description string `json:"description"`
	Code        uint64 `json:"code"`
	Data        uint64 `json:"data"`
}

// HangSubmit is one unfinished submission: its queue and submit number,
// how long it had been pending, and (for a lost device) whether its fence
// had signalled all the same.
type HangSubmit struct {
	Queue          uint64   `json:"queue"`
	Submit         uint64   `json:"submit"`
	PendingSeconds float64  `json:"pending_seconds"`
	Finished       bool     `json:"finished,omitempty"`
	CommandBuffers []HangCB `json:"command_buffers"`
}

// HangFinished is sent when a submission a watchdog's hang named
// (Queue, Submit) finishes after all, once: Seconds is its time from its
// submit to when the layer saw its fence signalled (the watchdog's next
// poll, or reading it, whichever came first). A hang all of whose
// submissions finished was a slow submission, not a hang
// (docs/decisions/watchdog-and-breadcrumbs.md). Never sent after a lost
// device.
type HangFinished struct {
	Queue   uint64  `json:"queue"`
	Submit  uint64  `json:"submit"`
	Seconds float64 `json:"seconds"`
}

// HangCB is one command buffer of an unfinished submission: its actions
// [0, Completed) completed, [RunningFrom, RunningTo) running, the rest not
// started, from the markers the GPU wrote (Begun and Ended, the words as
// read); Markers false when it had none (nothing is known of it). Region:
// the running actions are a region's, whose breadcrumbs do not tell its
// actions apart (a render pass, or with BreadcrumbsPasses the actions
// between passes): one or more of them is running, the others had not
// started or had completed. Shown names the last completed action, the
// running ones and the first not started; Records counts the records of
// completed actions that reached memory (sent as errors).
type HangCB struct {
	Handle        uint64       `json:"handle"`
	Secondary     bool         `json:"secondary,omitempty"`
	Primary       uint64       `json:"primary,omitempty"`
	PrimaryAction uint32       `json:"primary_action,omitempty"`
	Actions       uint32       `json:"actions"`
	Markers       bool         `json:"markers"`
	Completed     uint32       `json:"completed"`
	RunningFrom   uint32       `json:"running_from"`
	RunningTo     uint32       `json:"running_to"`
	Region        bool         `json:"region,omitempty"`
	Begun         uint32       `json:"begun"`
	Ended         uint32       `json:"ended"`
	Shown         []HangAction `json:"shown,omitempty"`
	Records       int          `json:"records,omitempty"`
}

// HangAction is one action named in a hang, with its state.
type HangAction struct {
	Index    uint32   `json:"index"`
	Command  string   `json:"command"`
	Pipeline uint64   `json:"pipeline,omitempty"`
	Labels   []string `json:"labels,omitempty"`
	State    string   `json:"state"`
}

// HangCBSummary says what a hung command buffer's markers say in a line:
// "actions 0-1 completed, 2 running, 3-4 not started", or for a region
// "actions 0-2 completed, one or more of actions 3-998 running (one
// region, not marked per action), 999 not started".
func HangCBSummary(c HangCB) string {
	if !c.Markers {
		return fmt.Sprintf("%d actions, no breadcrumbs (unknown)", c.Actions)
	}
	span := func(a, b uint32) string { // [a, b)
		if b == a+1 {
			return fmt.Sprintf("%d", a)
		}
		return fmt.Sprintf("%d-%d", a, b-1)
	}
	var parts []string
	if c.Completed > 0 {
		parts = append(parts, "actions "+span(0, c.Completed)+" completed")
	}
	switch {
	case c.Region && c.RunningTo > c.RunningFrom+1:
		parts = append(parts, "one or more of actions "+span(c.RunningFrom, c.RunningTo)+" running (one region, not marked per action)")
	case c.RunningTo > c.RunningFrom:
		parts = append(parts, span(c.RunningFrom, c.RunningTo)+" running")
	}
	if next := max(c.RunningTo, c.Completed); next < c.Actions {
		parts = append(parts, span(next, c.Actions)+" not started")
	}
	if len(parts) == 0 {
		return "no actions"
	}
	s := parts[0]
	for _, p := range parts[1:] {
		s += ", " + p
	}
	return s
}
