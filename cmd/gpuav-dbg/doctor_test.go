package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/device"
	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/golden"
	"github.com/gpuav-dbg/gpuav-dbg/internal/vulkaninfo"
	"github.com/gpuav-dbg/gpuav-dbg/launcher"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// doctorCase is a testdata/doctor/*.json file: what the probe and the
// layer check returned, and the environment.
type doctorCase struct {
	Probe      *device.Report    `json:"probe"`
	ProbeError string            `json:"probe_error"`
	Layer      layerStatus       `json:"layer"`
	Defaults   []string          `json:"defaults"`
	Env        map[string]string `json:"env"`
}

// TestDoctorGolden renders doctor's screen for recorded probe reports (a
// real lavapipe probe, an NVIDIA GPU beside lavapipe, an old device, no
// loader, no driver, a crashing probe, a missing layer).
func TestDoctorGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/doctor/*.json")
	if err != nil || len(files) < 7 {
		t.Fatalf("testdata: %v %v", files, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var dc doctorCase
			if err := json.Unmarshal(data, &dc); err != nil {
				t.Fatal(err)
			}
			var probeErr error
			if dc.ProbeError != "" {
				probeErr = errors.New(dc.ProbeError)
			}
			r := buildDoctor(dc.Probe, probeErr, dc.Layer, dc.Defaults, func(k string) string { return dc.Env[k] })
			var buf bytes.Buffer
			writeDoctor(&buf, r)
			golden.Assert(t, strings.TrimSuffix(file, ".json")+".golden", buf.Bytes())
		})
	}
}

// doctorCLI is a test CLI whose executable is this test binary, which
// answers `doctor --probe` (TestMain): the probe runs for real.
func doctorCLI(t *testing.T, layerDir string) *testCLI {
	t.Helper()
	tc := newTestCLI(t)
	tc.executable = os.Executable
	t.Setenv(options.LayerPath.Env, layerDir)
	return tc
}

// builtLayer is bin/, where make puts the layer.
func builtLayer(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../bin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "libVkLayer_gpuav_dbg.so")); err != nil {
		t.Fatalf("the layer is not built (run make): %v", err)
	}
	return dir
}

// TestDoctorLavapipe: doctor --json lists the device with what the driver
// really reports (vulkaninfo is the witness), our layer found and listed
// by the loader, and exits 0.
func TestDoctorLavapipe(t *testing.T) {
	layerDir := builtLayer(t)
	tc := doctorCLI(t, layerDir)
	tc.run(t, exitOK, "doctor", "--json")
	var r struct {
		ExitCode int       `json:"exit_code"`
		Problems []problem `json:"problems"`
		Layer    struct {
			Found, OK, Loads bool
			Listed           bool   `json:"listed_by_loader"`
			Manifest         string `json:"manifest"`
		} `json:"layer"`
		Khronos khronosStatus `json:"khronos_validation"`
		Devices []struct {
			device.Device
			Slot   device.Slot  `json:"descriptor_set_slot"`
			Checks []checkState `json:"checks"`
			Runs   bool         `json:"runs_default_checks"`
		} `json:"devices"`
	}
	if err := json.Unmarshal(tc.out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, tc.out.String())
	}
	if r.ExitCode != 0 || len(r.Problems) != 0 || !r.Layer.Found || !r.Layer.OK || !r.Layer.Listed || !r.Layer.Loads ||
		r.Layer.Manifest != filepath.Join(layerDir, launcher.ManifestName) || !r.Khronos.Installed || r.Khronos.SpecVersion == "" {
		t.Fatalf("report:\n%s", tc.out.String())
	}
	gpus, err := vulkaninfo.Run(device.ChildEnv(os.Environ(), ""))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Devices) != len(gpus) {
		t.Fatalf("doctor lists %d devices, vulkaninfo %d", len(r.Devices), len(gpus))
	}
	for i, g := range gpus {
		d := r.Devices[i]
		sets, err := g.Uint("maxBoundDescriptorSets")
		if err != nil {
			t.Fatal(err)
		}
		drv, err := g.Uint("driverVersion")
		if err != nil {
			t.Fatal(err)
		}
		if d.Name != g.Values["deviceName"] || d.DriverName != g.Values["driverName"] || d.DriverInfo != g.Values["driverInfo"] ||
			uint64(d.Limits.MaxBoundDescriptorSets) != sets || uint64(d.DriverVersionRaw) != drv {
			t.Errorf("device %d: %q %q %q sets %d driver %d; vulkaninfo %v sets %d driver %d", i, d.Name, d.DriverName, d.DriverInfo,
				d.Limits.MaxBoundDescriptorSets, d.DriverVersionRaw, g.Values["deviceName"], sets, drv)
		}
		if want := (device.Slot{Slot: int(min(sets, 33)) - 1, AppSees: uint32(sets), AppSeesReserved: uint32(sets) - 1}); d.Slot != want {
			t.Errorf("slot %+v, want %+v", d.Slot, want)
		}
		for _, f := range []string{"fragmentStoresAndAtomics", "vertexPipelineStoresAndAtomics", "runtimeDescriptorArray",
			"descriptorBindingPartiallyBound", "bufferDeviceAddress", "shaderInt64", "rayQuery", "robustBufferAccess",
			"robustBufferAccess2", "meshShader", "nullDescriptor", "rayTracingPipeline"} {
			if want, ok := g.Bool(f); !ok || d.Features[f] != want {
				t.Errorf("device %d feature %s: doctor %v, vulkaninfo %v (printed %v)", i, f, d.Features[f], want, ok)
			}
		}
		// Each check's answer follows the features vulkaninfo shows.
		want := map[string]bool{}
		for _, id := range gpuav.AllChecks {
			want[id] = true
			for _, f := range gpuav.CheckByID(id).Device.Features {
				if v, _ := g.Bool(f); !v {
					want[id] = false
				}
			}
		}
		if len(d.Checks) != len(gpuav.AllChecks) {
			t.Fatalf("checks %+v", d.Checks)
		}
		for j, c := range d.Checks {
			if c.Check != gpuav.AllChecks[j] || c.Available != want[c.Check] {
				t.Errorf("check %+v, want available %v", c, want[c.Check])
			}
		}
		if !d.Runs {
			t.Errorf("device %d does not run the default checks: %+v", i, d.Checks)
		}
	}
}

// TestDoctorNoDriver: a loader with no driver exits 2 with the fix line.
func TestDoctorNoDriver(t *testing.T) {
	tc := doctorCLI(t, builtLayer(t))
	t.Setenv("VK_DRIVER_FILES", "/nonexistent.json")
	tc.run(t, exitLauncher, "doctor")
	out := tc.out.String()
	for _, want := range []string{
		"problem: no Vulkan driver: vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER\n",
		"  fix: install a Vulkan driver (Mesa's lavapipe on the CPU: apt install mesa-vulkan-drivers; or your GPU vendor's); check VK_DRIVER_FILES=/nonexistent.json (VK_LOADER_DEBUG=driver shows what the loader tried)\n",
		"no Vulkan: no Vulkan driver: vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER (exit 2)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestDoctorLayerMissing: the layer path pointing at an empty directory
// reports the layer missing and exits 1.
func TestDoctorLayerMissing(t *testing.T) {
	empty := t.TempDir()
	tc := doctorCLI(t, empty)
	tc.run(t, exitErrors, "doctor", "--json")
	var r doctorReport
	if err := json.Unmarshal(tc.out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	want := "gpuav-dbg layer missing: no " + filepath.Join(empty, launcher.ManifestName) + " ($" + options.LayerPath.Env + ")"
	if r.Layer.Found || r.Layer.Loads || len(r.Problems) != 1 || r.Problems[0].Text != want || r.Problems[0].Fix != fixLayer ||
		len(r.Devices) == 0 || !r.Devices[0].RunsDefaults {
		t.Fatalf("report:\n%s", tc.out.String())
	}
}

func TestDoctorArguments(t *testing.T) {
	tc := newTestCLI(t)
	tc.run(t, exitLauncher, "doctor", "--bogus")
	if got := tc.err.String(); got != "gpuav-dbg: doctor: unknown argument \"--bogus\" (want --json)\n" {
		t.Fatalf("stderr %q", got)
	}
}

// TestRunRecordsCapabilities: run probes the device, records it in the
// session file, and the reopened session has the capabilities.
func TestRunRecordsCapabilities(t *testing.T) {
	tc := newTestCLI(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tc.executable = os.Executable
	t.Setenv(envFakeApp, "ok")
	gvs := filepath.Join(tc.dir, "s.gvs")
	tc.run(t, exitOK, "run", "--headless", "--session", gvs, self, "-test.run=none")
	gpus, err := vulkaninfo.Run(device.ChildEnv(os.Environ(), ""))
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(gvs)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Capabilities
	if c == nil || c.Error != "" || len(c.Devices) != len(gpus) || c.Devices[0].Device != gpus[0].Values["deviceName"] {
		t.Fatalf("capabilities %+v", c)
	}
	// The fake layer says its device is "fake gpu", which the probe did
	// not see.
	if c.Device != "fake gpu" || c.Selected != "the app's device, which the probe did not see" {
		t.Fatalf("selected %q %q", c.Device, c.Selected)
	}
	if sup := c.Devices[0].Checks[gpuav.CheckDescriptorIndexOOB]; !sup.Available {
		t.Fatalf("descriptor_index_oob on lavapipe: %+v", sup)
	}
}

func TestWarnUnavailable(t *testing.T) {
	caps := &wire.Capabilities{Devices: []wire.DeviceCapabilities{
		{Device: "old gpu", Checks: map[string]wire.CheckSupport{
			gpuav.CheckRayQuery:           {Reason: "the device does not support rayQuery (no VK_KHR_ray_query)"},
			gpuav.CheckBDAOOB:             {Reason: "the device does not support shaderInt64"},
			gpuav.CheckDescriptorIndexOOB: {Available: true},
		}},
		{Device: "new gpu", Checks: map[string]wire.CheckSupport{gpuav.CheckRayQuery: {Available: true}}},
	}}
	tc := newTestCLI(t)
	tc.warnUnavailable(caps, map[string]bool{gpuav.CheckRayQuery: true, gpuav.CheckDescriptorIndexOOB: true, gpuav.CheckBDAOOB: false})
	want := "gpuav-dbg: warning: check ray_query cannot run on old gpu (the first of 2 devices; the app may pick another): the device does not support rayQuery (no VK_KHR_ray_query)\n"
	if got := tc.err.String(); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
