package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// ErrInvalid: a frame decoded but one of its values is impossible (a
// negative count, a submit number no run reaches...). The frame is
// rejected; the connection goes on.
var ErrInvalid = errors.New("invalid value")

// Bounds of the values a frame may carry.
const (
	// MaxSubmit is the highest submit number accepted: 2^48, nine years
	// of a million submits a second.
	MaxSubmit = 1 << 48
	// MaxRecordCount is the largest count of one record (a record stands
	// for identical invocations of one submit).
	MaxRecordCount = 1<<31 - 1
	// maxString bounds a name, a label, a log line or a path.
	maxString = 64 << 10
	// maxLabels bounds a label path's depth.
	maxLabels = 256
	// maxStages bounds a pipeline's stages.
	maxStages = 64
)

// validate checks the values of a decoded message; the error says which
// value is wrong and wraps ErrInvalid.
func validate(msg any) error {
	var err error
	switch m := msg.(type) {
	case *wire.Hello:
		err = validateHello(m)
	case *wire.Device:
		err = validateDevice(m)
	case *wire.Shader:
		if m.ID == 0 {
			err = errors.New("shader id 0")
		}
	case *wire.Pipeline:
		err = validatePipeline(m)
	case *wire.Name:
		err = checkString("name", m.Name)
	case *wire.Label:
		err = validateLabel(m)
	case *wire.Errors:
		err = validateErrors(m)
	case *wire.Hang:
		err = validateHang(m)
	case *wire.HangFinished:
		if m.Submit > MaxSubmit || !(m.Seconds >= 0 && m.Seconds <= maxHangFinishedSeconds) {
			err = fmt.Errorf("hang finished: submit %d after %g s", m.Submit, m.Seconds)
		}
	case *wire.Busy:
		if m.Submit > MaxSubmit || !(m.Seconds >= 0 && m.Seconds <= maxHangFinishedSeconds) ||
			!(m.WatchdogSeconds >= 0 && m.WatchdogSeconds <= maxHangFinishedSeconds) {
			err = fmt.Errorf("busy: submit %d for %g s, watchdog %g s", m.Submit, m.Seconds, m.WatchdogSeconds)
		}
	case *wire.Paused:
		if m.PID < 0 || m.Submit > MaxSubmit || m.Records < 0 || m.Records > MaxRecordCount {
			err = fmt.Errorf("paused: pid %d, submit %d, %d records", m.PID, m.Submit, m.Records)
		}
	case *wire.Log:
		err = validateLevel(m.Level, m.Text)
		if err == nil && (m.Kind != "" && m.Kind != wire.LogUncheckedRecords && m.Kind != wire.LogUncheckedPipeline ||
			m.Count < 0 || m.Count > MaxRecordCount) {
			err = fmt.Errorf("log kind %q count %d", m.Kind, m.Count)
		}
		if err == nil {
			err = checkString("log subject", m.Subject)
		}
	case *wire.Notice:
		err = validateLevel(m.Level, m.Text)
	case *wire.Bye:
		if m.Submits > MaxSubmit {
			err = fmt.Errorf("%d submits (max %d)", m.Submits, uint64(MaxSubmit))
		}
	case *wire.Lost:
		err = validateLost(m)
	case *wire.AppStarted:
		err = validateSettings(m.Settings)
	case *wire.Printf:
		err = validatePrintf(m)
	case *wire.AppExited:
		switch AppState(m.State) {
		case AppExited, AppCrashed, AppFailed, AppStopped, "":
		default:
			err = fmt.Errorf("app state %q", m.State)
		}
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return nil
}

// checkString refuses a string longer than maxString.
func checkString(what, s string) error {
	if len(s) > maxString {
		return fmt.Errorf("%s of %d bytes (max %d)", what, len(s), maxString)
	}
	return nil
}

func validateHello(m *wire.Hello) error {
	if m.PID < 0 {
		return fmt.Errorf("pid %d", m.PID)
	}
	if m.RecordFormat < 0 {
		return fmt.Errorf("record format %d", m.RecordFormat)
	}
	if err := validateSettings(m.Settings); err != nil {
		return err
	}
	return checkString("app path", m.App)
}

// validateSettings refuses a failed-access behaviour gpuav does not know,
// and a breadcrumbs granularity none of wire.Breadcrumbs ("" is a session
// recorded before the setting).
func validateSettings(s wire.Settings) error {
	if s.Breadcrumbs != "" && !slices.Contains(wire.Breadcrumbs, s.Breadcrumbs) {
		return fmt.Errorf("breadcrumbs %q", s.Breadcrumbs)
	}
	if s.OnError == "" {
		return nil
	}
	_, err := gpuav.ParseOnError(s.OnError)
	return err
}

func validateDevice(m *wire.Device) error {
	if m.MaxBoundDescriptorSets > 1<<16 {
		return fmt.Errorf("maxBoundDescriptorSets %d", m.MaxBoundDescriptorSets)
	}
	if m.Instrumenting && m.MaxBoundDescriptorSets > 0 && m.DescriptorSlot >= m.MaxBoundDescriptorSets {
		return fmt.Errorf("descriptor slot %d of %d sets", m.DescriptorSlot, m.MaxBoundDescriptorSets)
	}
	return checkString("device name", m.Name)
}

func validatePipeline(m *wire.Pipeline) error {
	if len(m.BindPoint) > 64 {
		return fmt.Errorf("bind point of %d bytes", len(m.BindPoint))
	}
	if len(m.Stages) > maxStages {
		return fmt.Errorf("%d stages (max %d)", len(m.Stages), maxStages)
	}
	for _, st := range m.Stages {
		if err := checkString("entry point", st.Entry); err != nil {
			return err
		}
	}
	return nil
}

func validateLabel(m *wire.Label) error {
	switch m.Op {
	case "begin", "end", "insert":
	default:
		return fmt.Errorf("label operation %q", m.Op)
	}
	return checkString("label", m.Name)
}

func validateLevel(level, text string) error {
	switch level {
	case "info", "warning", "error", "":
	default:
		return fmt.Errorf("level %q", level)
	}
	return checkString("text", text)
}

func validateErrors(m *wire.Errors) error {
	if m.Submit > MaxSubmit {
		return fmt.Errorf("submit %d (max %d)", m.Submit, uint64(MaxSubmit))
	}
	if m.FirstSubmit > m.Submit {
		return fmt.Errorf("first submit %d after the last, %d", m.FirstSubmit, m.Submit)
	}
	for i := range m.Records {
		if err := validateRecord(&m.Records[i]); err != nil {
			return fmt.Errorf("record %d: %v", i, err)
		}
	}
	return nil
}

func validateRecord(r *wire.Record) error {
	// A record without a count (older files) stands for one.
	if r.Count < 0 || r.Count > MaxRecordCount {
		return fmt.Errorf("count %d", r.Count)
	}
	id := gpuav.CheckCode(r.Code).CheckID()
	if strings.HasPrefix(id, "unknown_check_") {
		return fmt.Errorf("check code %d", r.Code)
	}
	if r.Check != "" && r.Check != id {
		return fmt.Errorf("check %q for code %d (%s)", r.Check, r.Code, id)
	}
	if len(r.Params) > gpuav.RecordParams {
		return fmt.Errorf("%d parameters (max %d)", len(r.Params), gpuav.RecordParams)
	}
	return validateAttribution(r.Stage, r.Action, r.Labels)
}

// validateAttribution checks what records and printf sites say of where
// they come from: a known stage, a command's name, labels.
func validateAttribution(stage uint32, action string, labels []string) error {
	if strings.HasPrefix(gpuav.StageName(stage), "stage_") {
		return fmt.Errorf("stage %d", stage)
	}
	if len(labels) > maxLabels {
		return fmt.Errorf("%d labels (max %d)", len(labels), maxLabels)
	}
	for _, l := range labels {
		if err := checkString("label", l); err != nil {
			return err
		}
	}
	if action != "" && (!strings.HasPrefix(action, "vkCmd") || len(action) > 64) {
		return fmt.Errorf("action %q", action)
	}
	return nil
}

func validateLost(m *wire.Lost) error {
	var sum uint64
	for _, g := range m.Groups {
		if g.Count == 0 || g.Count > m.Records-min(sum, m.Records) {
			return fmt.Errorf("lost group count %d of %d records", g.Count, m.Records)
		}
		sum += g.Count
		if id := gpuav.CheckCode(g.Code).CheckID(); g.Check != id {
			return fmt.Errorf("lost group check %q for code %d", g.Check, g.Code)
		}
	}
	return nil
}

func validatePrintf(m *wire.Printf) error {
	if m.Submit > MaxSubmit {
		return fmt.Errorf("submit %d (max %d)", m.Submit, uint64(MaxSubmit))
	}
	for i := range m.Sites {
		s := &m.Sites[i]
		if err := s.Check(); err != nil {
			return fmt.Errorf("site %d: %v", i, err)
		}
		if err := validateAttribution(s.Stage, s.Action, s.Labels); err != nil {
			return fmt.Errorf("site %d: %v", i, err)
		}
	}
	return nil
}

// Bounds of a hang group.
const (
	maxHangSubmits = 1024
	maxHangCBs     = 4096
	maxHangShown   = 64
	// maxHangFinishedSeconds bounds a slow submission's time (a year).
	maxHangFinishedSeconds = 366 * 24 * 3600
)

// validateHang bounds a hang group: its reason, its counts, the actions it
// names and their strings.
func validateHang(m *wire.Hang) error {
	if m.Reason != wire.HangWatchdog && m.Reason != wire.HangDeviceLost {
		return fmt.Errorf("hang reason %q", m.Reason)
	}
	if err := checkString("hang call", m.Call); err != nil {
		return err
	}
	if m.Granularity != "" && m.Granularity != wire.BreadcrumbsActions && m.Granularity != wire.BreadcrumbsPasses {
		return fmt.Errorf("hang granularity %q", m.Granularity)
	}
	if len(m.Submits) > maxHangSubmits {
		return fmt.Errorf("hang of %d submits (max %d)", len(m.Submits), maxHangSubmits)
	}
	ncbs := 0
	for _, s := range m.Submits {
		if s.Submit > MaxSubmit {
			return fmt.Errorf("hang submit %d (max %d)", s.Submit, uint64(MaxSubmit))
		}
		ncbs += len(s.CommandBuffers)
		if ncbs > maxHangCBs {
			return fmt.Errorf("hang of more than %d command buffers", maxHangCBs)
		}
		for _, c := range s.CommandBuffers {
			if c.Completed > c.Actions || c.RunningFrom > c.RunningTo || c.RunningTo > c.Actions || len(c.Shown) > maxHangShown ||
				c.Records < 0 || c.Records > MaxRecordCount {
				return fmt.Errorf("hang command buffer 0x%x: %d actions, %d completed, running %d-%d, %d shown, %d records",
					c.Handle, c.Actions, c.Completed, c.RunningFrom, c.RunningTo, len(c.Shown), c.Records)
			}
			for _, a := range c.Shown {
				switch a.State {
				case wire.ActionCompleted, wire.ActionRunning, wire.ActionNotStarted:
				default:
					return fmt.Errorf("hang action state %q", a.State)
				}
				if err := checkString("hang action", a.Command); err != nil {
					return err
				}
				for _, l := range a.Labels {
					if err := checkString("hang label", l); err != nil {
						return err
					}
				}
			}
		}
	}
	return validateFault(m)
}

// The most a fault lists: the layer reads 32 addresses, 16 vendor infos and
// 4 buffers per address (layer/fault.h); the session takes a little more.
const (
	maxFaultAddresses = 64
	maxFaultVendors   = 64
	maxFaultBuffers   = 16
)

// validateFault checks a hang's device fault: only a lost device has
// one; its counts add up, each address lies in its range, each type is
// known and each buffer's range holds a part of its address's range.
func validateFault(m *wire.Hang) error {
	f := m.Fault
	if f == nil {
		return nil
	}
	if m.Reason != wire.HangDeviceLost {
		return fmt.Errorf("a device fault in a hang of reason %q", m.Reason)
	}
	if len(f.Addresses) > maxFaultAddresses || len(f.Vendors) > maxFaultVendors ||
		uint32(len(f.Addresses)) > f.AddressesTotal || uint32(len(f.Vendors)) > f.VendorsTotal {
		return fmt.Errorf("device fault of %d addresses (of %d), %d vendor infos (of %d)", len(f.Addresses),
			f.AddressesTotal, len(f.Vendors), f.VendorsTotal)
	}
	if err := checkString("device fault error", f.Error); err != nil {
		return err
	}
	if err := checkString("device fault description", f.Description); err != nil {
		return err
	}
	for _, a := range f.Addresses {
		if !slices.Contains(wire.FaultAddressTypes, a.Type) && a.Type != wire.FaultAddressUnknown {
			return fmt.Errorf("device fault address type %q", a.Type)
		}
		if a.Low > a.Address || a.Address > a.High || len(a.Buffers) > maxFaultBuffers ||
			uint32(len(a.Buffers)) > a.BuffersTotal {
			return fmt.Errorf("device fault address 0x%x outside 0x%x-0x%x, or %d buffers (of %d)", a.Address, a.Low, a.High,
				len(a.Buffers), a.BuffersTotal)
		}
		for _, b := range a.Buffers {
			if err := checkString("device fault buffer name", b.Name); err != nil {
				return err
			}
			end := b.Address + b.Size
			if b.Size == 0 || end < b.Address || end <= a.Low || b.Address > a.High ||
				(!b.Live && b.DestroyedAfter < b.CreatedAfter) {
				return fmt.Errorf("device fault buffer 0x%x [0x%x, +%d) created after submit %d, destroyed after %d: "+
					"not at 0x%x-0x%x", b.Handle, b.Address, b.Size, b.CreatedAfter, b.DestroyedAfter, a.Low, a.High)
			}
		}
	}
	for _, v := range f.Vendors {
		if err := checkString("device fault vendor description", v.Description); err != nil {
			return err
		}
	}
	return nil
}
