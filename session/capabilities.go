package session

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Capabilities is what the launcher's device probe says the app's device
// can check. The embedded DeviceCapabilities are those of the device the
// app uses (from the layer's device message) or, before the app created
// one, of the first device probed; Selected says which. Devices lists every
// device probed. A Capabilities is never changed once in a Session: a new
// one replaces it.
type Capabilities struct {
	DeviceCapabilities
	// Selected says how the device above was chosen.
	Selected string `json:"selected"`
	// Error says why the probe gave no answer (then Checks is empty).
	Error   string               `json:"error,omitempty"`
	Devices []DeviceCapabilities `json:"devices,omitempty"`
}

// DeviceCapabilities is one probed device and its checks, as the probe's
// frame carries them.
type DeviceCapabilities = wire.DeviceCapabilities

// CheckSupport says whether a check can run on the device.
type CheckSupport = wire.CheckSupport

// Check returns the support of check id and whether the probe knows it. A
// check the probe does not know (no probe answer, a newer check id) is
// reported as unknown, not unavailable.
func (c *Capabilities) Check(id string) (CheckSupport, bool) {
	if c == nil || c.Checks == nil {
		return CheckSupport{}, false
	}
	s, ok := c.Checks[id]
	return s, ok
}

// Unavailable lists the checks that are on in settings but cannot run on
// the device, sorted.
func (c *Capabilities) Unavailable(settings Settings) []string {
	var out []string
	for _, id := range slices.Sorted(maps.Keys(settings.Checks)) {
		if !settings.Checks[id] {
			continue
		}
		if s, ok := c.Check(id); ok && !s.Available {
			out = append(out, id)
		}
	}
	return out
}

// capabilitiesFrom converts the probe's frame, choosing the device the app
// uses when it is known (appDevice, the name from the layer's device
// message).
func capabilitiesFrom(m *wire.Capabilities, appDevice string) *Capabilities {
	c := &Capabilities{Error: m.Error}
	c.Devices = slices.Clone(m.Devices)
	return c.forDevice(appDevice)
}

// forDevice returns a copy of c whose current device is the one named (""
// when the app has not said).
func (c *Capabilities) forDevice(name string) *Capabilities {
	out := &Capabilities{Error: c.Error, Devices: c.Devices}
	switch {
	case len(c.Devices) == 0:
		out.Selected = "no device probed"
		return out
	case name == "" && len(c.Devices) == 1:
		out.DeviceCapabilities = c.Devices[0]
		out.Selected = "the only device"
		return out
	case name == "":
		out.DeviceCapabilities = c.Devices[0]
		out.Selected = fmt.Sprintf("the first of %d devices (the app has not created its device yet)", len(c.Devices))
		return out
	}
	for _, d := range c.Devices {
		if d.Device == name {
			out.DeviceCapabilities = d
			out.Selected = "the app's device"
			return out
		}
	}
	out.DeviceCapabilities = DeviceCapabilities{Device: name}
	out.Selected = "the app's device, which the probe did not see"
	return out
}

// applyCapabilities records the probe's frame. Called with c.mu held.
func (c *Collector) applyCapabilities(m *wire.Capabilities) {
	s := c.s
	s.Capabilities = capabilitiesFrom(m, s.Device.Name)
	// A failed probe is not a notice: Capabilities.Error says why the
	// checks' support is unknown, for the settings pane to show.
	c.noticeUnavailable()
}

// deviceCapabilities switches the capabilities to the app's device when its
// device message arrives and, when the machine has several, says which one
// the app uses and how to choose. Called with c.mu held.
func (c *Collector) deviceCapabilities(name string) {
	s := c.s
	if s.Capabilities == nil || len(s.Capabilities.Devices) == 0 || s.Capabilities.Device == name && s.Capabilities.Selected == "the app's device" {
		return
	}
	single := len(s.Capabilities.Devices) == 1 && s.Capabilities.Device == name
	s.Capabilities = s.Capabilities.forDevice(name)
	if single {
		return
	}
	var names []string
	for _, d := range s.Capabilities.Devices {
		names = append(names, d.Device)
	}
	c.addNotice("info", fmt.Sprintf("the app uses %s (devices: %s); choose another with VK_LOADER_DRIVERS_SELECT=<driver manifest glob> or MESA_VK_DEVICE_SELECT=<vendorID:deviceID>",
		name, strings.Join(names, "; ")))
	c.noticeUnavailable()
}

// noticeUnavailable warns about the checks that are on but cannot run on
// the current device. Called with c.mu held.
func (c *Collector) noticeUnavailable() {
	caps := c.s.Capabilities
	for _, id := range caps.Unavailable(c.s.Settings) {
		// A check no shader here can need (ray queries on a device
		// without them) leaves nothing unchecked: information only.
		level := "warning"
		if caps.Checks[id].NotNeeded {
			level = "info"
		}
		c.addNotice(level, fmt.Sprintf("check %s cannot run on %s: %s", id, caps.Device, caps.Checks[id].Reason))
	}
}
