package main

/*
#include <stdlib.h>
#include "layer.h"
#include "fault.h"
*/
import "C"

import (
	"fmt"
	"os"
	"strings"
	"unsafe"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/layer/internal/abi"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// The watchdog and the breadcrumbs (docs/decisions/watchdog-and-breadcrumbs.md):
// the C half writes markers from the GPU before and after each action,
// watches its pending submissions, and on a hang or a lost device hands
// the markers here once (goHang); this file turns them into a wire.Hang.

// goBreadcrumbs is the breadcrumbs' granularity the instance's devices
// are asked for: abi.CrumbsAuto, CrumbsActions or CrumbsPasses
// (GPUAVDBG_CRUMBS_*; crumbs_marks.h resolves auto per device), from the
// options table's breadcrumbs (options.Breadcrumbs), as the settings
// reader read it.
//
//export goBreadcrumbs
func goBreadcrumbs(instance C.uint64_t) C.uint32_t {
	defer recovered("goBreadcrumbs")
	state.mu.Lock()
	defer state.mu.Unlock()
	switch instanceSettingsOf(uint64(instance)).Breadcrumbs {
	case wire.BreadcrumbsActions:
		return abi.CrumbsActions
	case wire.BreadcrumbsPasses:
		return abi.CrumbsPasses
	}
	return abi.CrumbsAuto
}

// goWatchdogNs is the watchdog's limit for the instance's devices, in ns
// (0: off, and no breadcrumbs): the options table's watchdog_seconds
// (options.WatchdogSeconds), as the settings reader read it.
//
//export goWatchdogNs
func goWatchdogNs(instance C.uint64_t) C.uint64_t {
	defer recovered("goWatchdogNs")
	state.mu.Lock()
	defer state.mu.Unlock()
	s := instanceSettingsOf(uint64(instance))
	if s.WatchdogOff {
		return 0
	}
	return C.uint64_t(uint64(s.WatchdogSeconds) * 1e9)
}

// hangActionsShown bounds the actions a hang names per command buffer:
// the last completed, the running ones (up to this many), the first not
// started.
const hangActionsShown = 16

// goHang reports a hang: reason GPUAVDBG_HANG_WATCHDOG (a submission
// unfinished for limitNs) or GPUAVDBG_HANG_DEVICE_LOST (call returned
// VK_ERROR_DEVICE_LOST); granularity is the device's breadcrumbs'
// (abi.CrumbsActions or CrumbsPasses, 0 without breadcrumbs). Records of
// completed actions in the copies of the output buffers are sent as
// errors first; fault is the lost device's VK_EXT_device_fault report
// (state GPUAVDBG_FAULT_NONE where it was not enabled). The pointers are
// valid during the call only.
//
//export goHang
func goHang(reason C.int, call *C.char, limitNs C.uint64_t, granularity C.uint32_t, subs *C.gpuavdbg_hang_submit,
	n C.uint32_t, fault *C.gpuavdbg_fault) {
	defer recovered("goHang")
	defer flushOutbox()
	h := wire.Hang{Reason: wire.HangWatchdog, WatchdogSeconds: float64(limitNs) / 1e9}
	switch granularity {
	case abi.CrumbsActions:
		h.Granularity = wire.BreadcrumbsActions
	case abi.CrumbsPasses:
		h.Granularity = wire.BreadcrumbsPasses
	}
	if reason == C.GPUAVDBG_HANG_DEVICE_LOST {
		h.Reason, h.Call = wire.HangDeviceLost, C.GoString(call)
		h.Fault = hangFault(fault)
	}
	var errs []wire.Errors
	for _, s := range unsafe.Slice(subs, int(n)) {
		hs := wire.HangSubmit{Queue: uint64(s.queue), Submit: uint64(s.submit),
			PendingSeconds: float64(s.pending_ns) / 1e9, Finished: s.finished != 0}
		for _, c := range unsafe.Slice(s.cbs, int(s.ncbs)) {
			actions := hangActions(c)
			hc := wire.HangCB{Handle: uint64(c.handle), Secondary: c.secondary != 0, Primary: uint64(c.primary),
				PrimaryAction: uint32(c.primary_action), Actions: uint32(len(actions)), Markers: c.markers != 0,
				Completed: uint32(c.completed), RunningFrom: uint32(c.run_from), RunningTo: uint32(c.run_to),
				Region: c.region != 0, Begun: uint32(c.begun), Ended: uint32(c.ended)}
			hc.Shown = shownActions(actions, hc)
			if c.words != nil && c.completed > 0 {
				cb := SubmittedCB{Handle: uint64(c.handle), Words: unsafe.Slice((*uint32)(unsafe.Pointer(c.words)), int(c.nwords)),
					Actions: actions, Primary: uint64(c.primary), PrimaryAction: uint32(c.primary_action),
					MaxAction: uint32(c.completed)}
				if msg, _, ok := BuildErrors(uint64(s.submit), uint64(s.queue), cb); ok {
					msg.Dropped = 0 // said when the submission is read
					for _, r := range msg.Records {
						hc.Records += r.Count
					}
					errs = append(errs, msg)
				}
			}
			hs.CommandBuffers = append(hs.CommandBuffers, hc)
		}
		h.Submits = append(h.Submits, hs)
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	for _, e := range errs {
		if len(e.Records) > 0 {
			reportLocked(e)
		}
	}
	sent := sendLocked(wire.KindHang, h)
	text := hangText(h)
	localLogLocked(levelError, text, sent)
	if !sent && !haveMessengers() {
		fmt.Fprintf(os.Stderr, "gpuav-dbg: %s\n", sanitize.Block(text))
	}
	if h.Reason != wire.HangWatchdog {
		return
	}
	for _, s := range h.Submits {
		if f := state.hung.reported(s.Submit, h.WatchdogSeconds); f != nil {
			hangFinishedLocked(*f, h.WatchdogSeconds)
		}
	}
}

// hangFault turns the C half's reading of VK_EXT_device_fault into the
// hang's Fault (nil where it was not enabled).
func hangFault(f *C.gpuavdbg_fault) *wire.HangFault {
	if f == nil || f.state == C.GPUAVDBG_FAULT_NONE {
		return nil
	}
	if f.state == C.GPUAVDBG_FAULT_FAILED {
		return &wire.HangFault{Error: faultResult(int32(f.result))}
	}
	hf := &wire.HangFault{Description: C.GoString(&f.description[0]), AddressesTotal: uint32(f.addresses_total),
		VendorsTotal: uint32(f.vendors_total), VendorBinarySize: uint64(f.vendor_binary_size)}
	for _, a := range unsafe.Slice(f.addresses, int(f.naddresses)) {
		fa := wire.FaultAddress{Type: wire.FaultAddressUnknown, Address: uint64(a.address),
			Precision: uint64(a.precision), Low: uint64(a.lo), High: uint64(a.hi), BuffersTotal: uint32(a.matches_total)}
		if t := int(a._type); t < len(wire.FaultAddressTypes) {
			fa.Type = wire.FaultAddressTypes[t]
		}
		for _, m := range a.matches[:min(int(a.nmatches), len(a.matches))] {
			fb := wire.FaultBuffer{Handle: uint64(m.buffer), Name: C.GoString(&m.name[0]), Address: uint64(m.address),
				Size: uint64(m.size), Live: m.live != 0, CreatedAfter: uint64(m.created)}
			if !fb.Live {
				fb.DestroyedAfter = uint64(m.destroyed)
			}
			fa.Buffers = append(fa.Buffers, fb)
		}
		hf.Addresses = append(hf.Addresses, fa)
	}
	for _, v := range unsafe.Slice(f.vendors, int(f.nvendors)) {
		hf.Vendors = append(hf.Vendors, wire.FaultVendor{Description: C.GoString(&v.description[0]),
			Code: uint64(v.code), Data: uint64(v.data)})
	}
	return hf
}

// faultResult names what vkGetDeviceFaultInfoEXT may return besides
// VK_SUCCESS and VK_INCOMPLETE.
func faultResult(r int32) string {
	switch r {
	case -1:
		return "VK_ERROR_OUT_OF_HOST_MEMORY"
	case -2:
		return "VK_ERROR_OUT_OF_DEVICE_MEMORY"
	}
	return fmt.Sprintf("VkResult %d", r)
}

// goHangFinished says that a submission a watchdog's hang named finished
// after all, ns after its submit: once, from the watchdog's poll or from
// reading the submission, whichever saw it first; never after a lost
// device. Sent after the hang, whatever order the two calls come in.
//
//export goHangFinished
func goHangFinished(queue, submit, ns C.uint64_t) {
	defer recovered("goHangFinished")
	defer flushOutbox()
	f := wire.HangFinished{Queue: uint64(queue), Submit: uint64(submit), Seconds: float64(ns) / 1e9}
	state.mu.Lock()
	defer state.mu.Unlock()
	if watchdog, now := state.hung.finished(f); now {
		hangFinishedLocked(f, watchdog)
	}
}

// goBusy says that a submission has been the oldest unfinished one of
// its queue for ns, past the point where the TUI counts the watchdog's
// limitNs down (done 0), or that such a submission finished, ns after its
// submit (done 1): wire.Busy. A finish that reaches Go before its start
// (the two come from different threads) cancels it: neither is sent.
//
//export goBusy
func goBusy(queue, submit, ns, limitNs C.uint64_t, done C.int) {
	defer recovered("goBusy")
	defer flushOutbox()
	b := wire.Busy{Queue: uint64(queue), Submit: uint64(submit), Seconds: float64(ns) / 1e9,
		WatchdogSeconds: float64(limitNs) / 1e9, Done: done != 0}
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.busy == nil {
		state.busy = map[uint64]bool{}
	}
	started, seen := state.busy[b.Submit]
	switch {
	case !b.Done && seen && !started: // its finish came first
		delete(state.busy, b.Submit)
		return
	case !b.Done:
		state.busy[b.Submit] = true
	case !seen:
		state.busy[b.Submit] = false // the start is still on its way
		return
	default:
		delete(state.busy, b.Submit)
	}
	sendLocked(wire.KindBusy, b)
}

// hungSubmits are the submissions a watchdog's hang named, by submit
// number, until their finish is sent. The C half marks a submission
// reported before it calls goHang, outside its lock: its finish may come
// here first, and waits for the hang.
type hungSubmits map[uint64]*hungSubmit

type hungSubmit struct {
	reported        bool
	watchdogSeconds float64
	finished        *wire.HangFinished
}

// reported records that the hang naming submit was sent, and returns its
// finish when that came first (to be sent now), else nil.
func (m hungSubmits) reported(submit uint64, watchdogSeconds float64) *wire.HangFinished {
	if hs := m[submit]; hs != nil && hs.finished != nil {
		delete(m, submit)
		return hs.finished
	}
	m[submit] = &hungSubmit{reported: true, watchdogSeconds: watchdogSeconds}
	return nil
}

// finished records f, and says whether to send it now (its hang was sent,
// after watchdogSeconds); else it waits for the hang.
func (m hungSubmits) finished(f wire.HangFinished) (watchdogSeconds float64, now bool) {
	hs := m[f.Submit]
	if hs == nil || !hs.reported {
		m[f.Submit] = &hungSubmit{finished: &f}
		return 0, false
	}
	delete(m, f.Submit)
	return hs.watchdogSeconds, true
}

// hangFinishedLocked sends that a hung submission finished, and says it
// where the hang was said (the app's messengers, or stderr when no
// launcher listens).
func hangFinishedLocked(f wire.HangFinished, watchdogSeconds float64) {
	sent := sendLocked(wire.KindHangFinished, f)
	text := gpuav.SlowSubmitText(f.Submit, fmt.Sprintf("0x%x", f.Queue), watchdogSeconds, f.Seconds)
	localLogLocked(levelWarning, text, sent)
}

// hangActions reads a hung command buffer's actions.
func hangActions(c C.gpuavdbg_hang_cb) []Action {
	labels := unsafe.Slice(c.labels, int(c.nlabels))
	paths := make([][]string, len(labels))
	var out []Action
	for _, a := range unsafe.Slice(c.actions, int(c.nactions)) {
		act := Action{Index: uint32(a.index), Command: commandName(uint32(a.command)), Pipeline: uint64(a.pipeline),
			PipelineSerial: uint64(a.pipeline_serial)}
		if l := int(a.label); a.label != C.GPUAVDBG_NO_LABEL && l < len(labels) {
			if paths[l] == nil {
				paths[l] = strings.Split(C.GoString(labels[l]), string(rune(abi.LabelSep)))
			}
			act.Labels = paths[l]
		}
		out = append(out, act)
	}
	return out
}

// shownActions picks the actions a hang names: the last completed, the
// running ones (at most hangActionsShown), the first not started.
func shownActions(actions []Action, c wire.HangCB) []wire.HangAction {
	var out []wire.HangAction
	add := func(i uint32, st string) {
		if int(i) < len(actions) {
			a := actions[i]
			out = append(out, wire.HangAction{Index: a.Index, Command: a.Command, Pipeline: a.Pipeline, Labels: a.Labels, State: st})
		}
	}
	if !c.Markers {
		return nil
	}
	if c.Completed > 0 {
		add(c.Completed-1, wire.ActionCompleted)
	}
	for i := c.RunningFrom; i < c.RunningTo && i < c.RunningFrom+hangActionsShown; i++ {
		add(i, wire.ActionRunning)
	}
	add(max(c.RunningTo, c.Completed), wire.ActionNotStarted)
	return out
}

// hangText is the hang in one message for stderr and the app's
// messengers: the session's words (gpuav.HangMessage), with the debug
// names the layer knows. Callers hold state.mu.
func hangText(h wire.Hang) string {
	m := gpuav.HangMessage{DeviceLost: h.Reason == wire.HangDeviceLost, Call: h.Call, WatchdogSeconds: h.WatchdogSeconds,
		Granularity: h.Granularity}
	for _, s := range h.Submits {
		ms := gpuav.HangMessageSubmit{Submit: s.Submit, Queue: fmt.Sprintf("0x%x", s.Queue), PendingSeconds: s.PendingSeconds,
			Finished: s.Finished}
		for _, c := range s.CommandBuffers {
			mc := gpuav.HangMessageCB{CommandBuffer: handleText(c.Handle, 0), Summary: wire.HangCBSummary(c),
				Records: c.Records, Region: c.Region, Running: c.RunningTo - min(c.RunningFrom, c.RunningTo)}
			for _, a := range c.Shown {
				ma := gpuav.HangMessageAction{State: a.State, Index: a.Index, Command: a.Command, Labels: a.Labels}
				if a.Pipeline != 0 {
					ma.Pipeline = handleText(a.Pipeline, 0)
				}
				mc.Actions = append(mc.Actions, ma)
			}
			ms.CommandBuffers = append(ms.CommandBuffers, mc)
		}
		m.Submits = append(m.Submits, ms)
	}
	m.Fault = faultMessage(h.Fault)
	return strings.Join(m.Lines(), "\n")
}

// faultMessage is a hang's fault in the renderer's terms (nil: none); a
// buffer is named by the name the layer kept for it.
func faultMessage(f *wire.HangFault) *gpuav.HangMessageFault {
	if f == nil {
		return nil
	}
	m := &gpuav.HangMessageFault{Error: f.Error, Description: f.Description, AddressesTotal: f.AddressesTotal,
		VendorsTotal: f.VendorsTotal, VendorBinarySize: f.VendorBinarySize}
	for _, a := range f.Addresses {
		ma := gpuav.HangMessageFaultAddress{Type: a.Type, Address: a.Address, Precision: a.Precision, Low: a.Low,
			High: a.High, BuffersTotal: a.BuffersTotal}
		for _, b := range a.Buffers {
			name := fmt.Sprintf("0x%x", b.Handle)
			if b.Name != "" {
				name += fmt.Sprintf(" (%q)", b.Name)
			}
			ma.Buffers = append(ma.Buffers, gpuav.HangMessageFaultBuffer{Buffer: name, Address: b.Address, Size: b.Size,
				Live: b.Live, CreatedAfter: b.CreatedAfter, DestroyedAfter: b.DestroyedAfter})
		}
		m.Addresses = append(m.Addresses, ma)
	}
	for _, v := range f.Vendors {
		m.Vendors = append(m.Vendors, gpuav.HangMessageFaultVendor{Description: v.Description, Code: v.Code, Data: v.Data})
	}
	return m
}
