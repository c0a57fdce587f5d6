package device

import (
	"os"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/vulkaninfo"
)

// TestProbeMatchesVulkaninfo probes lavapipe in this process and compares
// every value with what vulkaninfo prints for the same driver.
func TestProbeMatchesVulkaninfo(t *testing.T) {
	r, err := Probe()
	if err != nil {
		t.Fatal(err)
	}
	if !r.Loader.Found || r.InstanceError != "" {
		t.Fatalf("no Vulkan here: loader %+v, instance %q", r.Loader, r.InstanceError)
	}
	gpus, err := vulkaninfo.Run(os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Devices) != len(gpus) || len(gpus) == 0 {
		t.Fatalf("probe found %d devices, vulkaninfo %d", len(r.Devices), len(gpus))
	}
	for i, g := range gpus {
		d := r.Devices[i]
		if d.Index != i || d.Name != g.Values["deviceName"] {
			t.Errorf("device %d: name %q index %d, vulkaninfo %q", i, d.Name, d.Index, g.Values["deviceName"])
		}
		for name, got := range map[string]uint64{
			"apiVersion": uint64(d.APIVersionRaw), "driverVersion": uint64(d.DriverVersionRaw),
			"vendorID": uint64(d.VendorID), "deviceID": uint64(d.DeviceID),
			"maxBoundDescriptorSets":              uint64(d.Limits.MaxBoundDescriptorSets),
			"maxPerStageDescriptorStorageBuffers": uint64(d.Limits.MaxPerStageDescriptorStorageBuffers),
			"maxStorageBufferRange":               uint64(d.Limits.MaxStorageBufferRange),
		} {
			want, err := g.Uint(name)
			if err != nil {
				t.Error(err)
			} else if got != want {
				t.Errorf("device %d %s: probe %d, vulkaninfo %d", i, name, got, want)
			}
		}
		if d.DriverName != g.Values["driverName"] || d.DriverInfo != g.Values["driverInfo"] {
			t.Errorf("driver %q %q, vulkaninfo %q %q", d.DriverName, d.DriverInfo, g.Values["driverName"], g.Values["driverInfo"])
		}
		compared := 0
		for _, f := range FeatureNames {
			want, ok := g.Bool(f)
			if !ok && f == "cooperativeMatrix" && !d.HasExtension(ExtCooperativeMatrix) {
				// Mesa 25.0.7's lavapipe has no VK_KHR_cooperative_matrix,
				// and vulkaninfo 1.3.239 does not know its struct: the
				// probe must say false.
				ok = true
			}
			if !ok {
				continue
			}
			compared++
			if got, ok := d.Features[f]; !ok || got != want {
				t.Errorf("device %d feature %s: probe %v (present %v), vulkaninfo %v", i, f, got, ok, want)
			}
		}
		// lavapipe 25 has every struct the probe reads: each feature is
		// printed by vulkaninfo.
		if compared != len(FeatureNames) {
			t.Errorf("compared %d of %d features", compared, len(FeatureNames))
		}
		for _, e := range []string{ExtRayQuery, ExtRobustness2, ExtMeshShader, ExtRayTracingPipeline} {
			if !d.HasExtension(e) {
				t.Errorf("device %d lacks %s", i, e)
			}
		}
	}
	if r.Layer("VK_LAYER_KHRONOS_validation") == nil {
		t.Errorf("the Khronos layer (vulkan-validationlayers) is not listed: %+v", r.Layers)
	}
}

// TestProbeNoLoader: a machine without libvulkan gives a report that says
// so, not a crash.
func TestProbeNoLoader(t *testing.T) {
	saved := loaderNames
	defer func() { loaderNames = saved }()
	loaderNames = []string{"libvulkan-gpuav-dbg-absent.so.1", "libvulkan-gpuav-dbg-absent.so"}
	r, err := Probe()
	if err != nil {
		t.Fatal(err)
	}
	want := "libvulkan-gpuav-dbg-absent.so.1: cannot open shared object file: No such file or directory"
	if r.Loader.Found || r.Loader.Error != want || len(r.Devices) != 0 || r.Loader.Library != "" {
		t.Fatalf("loader %+v devices %d; want error %q", r.Loader, len(r.Devices), want)
	}
}
