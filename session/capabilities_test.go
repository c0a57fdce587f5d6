package session

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

func probeFrame() *wire.Capabilities {
	return &wire.Capabilities{Devices: []wire.DeviceCapabilities{
		{Device: "llvmpipe", Driver: "llvmpipe 0.0.1", APIVersion: "1.4.305", VendorID: 0x10005, MaxBoundDescriptorSets: 8, DescriptorSlot: 7,
			Checks: map[string]wire.CheckSupport{"descriptor_index_oob": {Available: true}, "ray_query": {Reason: "the device does not support rayQuery"}}},
		{Device: "NVIDIA H200", Driver: "NVIDIA 580.95.5.0", APIVersion: "1.4.312", VendorID: 0x10de, MaxBoundDescriptorSets: 32, DescriptorSlot: 31,
			Checks: map[string]wire.CheckSupport{"descriptor_index_oob": {Available: true}, "ray_query": {Available: true, Note: "n"}}},
	}}
}

// TestCapabilitiesFollowTheAppsDevice: the probe's first device stands until
// the layer names the app's device; checks that are on but cannot run are
// notices; the session file reopens to the same capabilities.
func TestCapabilitiesFollowTheAppsDevice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.gvs")
	f, err := CreateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCollector()
	c.SetFile(f)
	settings := wire.Settings{Checks: map[string]bool{"descriptor_index_oob": true, "ray_query": true}, OnError: "skip"}
	for _, m := range []struct {
		k   wire.Kind
		msg any
	}{
		{wire.KindAppStarted, &wire.AppStarted{Path: "/app", Settings: settings}},
		{wire.KindCapabilities, probeFrame()},
	} {
		if err := c.Record(m.k, m.msg); err != nil {
			t.Fatal(err)
		}
	}
	s := c.Snapshot()
	if s.Capabilities.Device != "llvmpipe" || s.Capabilities.Selected != "the first of 2 devices (the app has not created its device yet)" ||
		len(s.Capabilities.Devices) != 2 || s.Capabilities.DescriptorSlot != 7 {
		t.Fatalf("before the device message: %+v", s.Capabilities)
	}
	if sup, ok := s.Capabilities.Check("ray_query"); !ok || sup.Available || sup.Reason != "the device does not support rayQuery" {
		t.Fatalf("ray_query %+v %v", sup, ok)
	}
	if _, ok := s.Capabilities.Check("future_check"); ok {
		t.Fatal("an unknown check is known")
	}
	if len(s.Notices) != 1 || s.Notices[0].Text != "check ray_query cannot run on llvmpipe: the device does not support rayQuery" || s.Notices[0].Level != "warning" {
		t.Fatalf("notices %+v", s.Notices)
	}
	if err := c.Record(wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: gpuav.RecordFormatVersion, PID: 1, Settings: settings}); err != nil {
		t.Fatal(err)
	}
	if err := c.Record(wire.KindDevice, &wire.Device{Handle: 1, Name: "NVIDIA H200", Instrumenting: true}); err != nil {
		t.Fatal(err)
	}
	s = c.Snapshot()
	if s.Capabilities.Device != "NVIDIA H200" || s.Capabilities.Selected != "the app's device" || s.Capabilities.DescriptorSlot != 31 ||
		!s.Capabilities.Checks["ray_query"].Available {
		t.Fatalf("after the device message: %+v", s.Capabilities)
	}
	last := s.Notices[len(s.Notices)-1]
	want := "the app uses NVIDIA H200 (devices: llvmpipe; NVIDIA H200); choose another with VK_LOADER_DRIVERS_SELECT=<driver manifest glob> or MESA_VK_DEVICE_SELECT=<vendorID:deviceID>"
	if last.Text != want || last.Level != "info" {
		t.Fatalf("last notice %+v", last)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Capabilities, s.Capabilities) {
		t.Fatalf("reopened %+v\nwant %+v", r.Capabilities, s.Capabilities)
	}
}

func TestCapabilitiesSingleDevice(t *testing.T) {
	m := probeFrame()
	m.Devices = m.Devices[:1]
	c := capabilitiesFrom(m, "")
	if c.Device != "llvmpipe" || c.Selected != "the only device" {
		t.Fatalf("%+v", c)
	}
	if got := c.Unavailable(Settings{Checks: map[string]bool{"ray_query": true, "descriptor_index_oob": true}}); !reflect.DeepEqual(got,
		[]string{"ray_query"}) {
		t.Fatalf("unavailable %q", got)
	}
	if got := capabilitiesFrom(&wire.Capabilities{Error: "device probe: crashed"}, ""); got.Error != "device probe: crashed" || got.Checks != nil ||
		got.Selected != "no device probed" {
		t.Fatalf("%+v", got)
	}
	var nilCaps *Capabilities
	if _, ok := nilCaps.Check("ray_query"); ok {
		t.Fatal("nil capabilities know a check")
	}
}
