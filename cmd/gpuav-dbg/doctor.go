package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/device"
	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/launcher"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// KhronosLayerName is the Khronos validation layer, the reference to
// compare with.
const KhronosLayerName = "VK_LAYER_KHRONOS_validation"

// doctorReport is what `gpuav-dbg doctor` found; --json prints it.
type doctorReport struct {
	// ExitCode is doctor's exit status: 0 every default check runs on at
	// least one device, 1 not (or the layer is missing), 2 no loader, no
	// driver or no device.
	ExitCode int    `json:"exit_code"`
	Summary  string `json:"summary"`
	// Problems are what stands in the way, each with its fix.
	Problems      []problem     `json:"problems"`
	Loader        device.Loader `json:"loader"`
	Layer         layerStatus   `json:"layer"`
	Khronos       khronosStatus `json:"khronos_validation"`
	DefaultChecks []string      `json:"default_checks"`
	Devices       []deviceCheck `json:"devices"`
	// Selection says how to choose among several devices.
	Selection string `json:"device_selection,omitempty"`
	// ProbeError says why the probe gave no report.
	ProbeError    string `json:"probe_error,omitempty"`
	InstanceError string `json:"instance_error,omitempty"`
}

// problem is one thing that stops gpuav-dbg, and how to fix it.
type problem struct {
	Text string `json:"text"`
	Fix  string `json:"fix"`
}

// layerStatus is our layer: found on disk, sane, and listed by the loader.
type layerStatus struct {
	Name string `json:"name"`
	// Found: the manifest is where the launcher looks (How).
	Found bool   `json:"found"`
	How   string `json:"how,omitempty"`
	device.LayerFile
	// Listed: the Vulkan loader lists the layer when given its directory,
	// as the launcher gives it to the app.
	Listed bool `json:"listed_by_loader"`
	// Loads: everything above holds.
	Loads bool `json:"loads"`
}

// khronosStatus is the Khronos validation layer, if installed.
type khronosStatus struct {
	Installed   bool   `json:"installed"`
	SpecVersion string `json:"spec_version,omitempty"`
}

// deviceCheck is one device with what the checks need and which run.
type deviceCheck struct {
	*device.Device
	Slot   device.Slot  `json:"descriptor_set_slot"`
	Checks []checkState `json:"checks"`
	// RunsDefaults: every default check can run on this device.
	RunsDefaults bool `json:"runs_default_checks"`
}

// checkState is a check's support plus whether it is on by default.
type checkState struct {
	device.Support
	Default bool `json:"default"`
}

// doctorCmd is `doctor [--json]`; `doctor --probe` is the probe child.
func (c *cli) doctorCmd(args []string) int {
	jsonOut, probe := false, false
	vars := map[string]*bool{"json": &jsonOut, "probe": &probe}
	rows := options.FlagsOf(options.Doctor)
	for _, r := range rows {
		if vars[r.Name] == nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: doctor: %s of the flag table is not read\n", r.Usage())
			return exitLauncher
		}
	}
args:
	for _, a := range args {
		if a == "-h" || a == "--help" || a == "-help" {
			printUsage(c.stdout)
			return exitOK
		}
		for _, r := range rows {
			if a == "--"+r.Name || a == "-"+r.Name {
				*vars[r.Name] = true
				continue args
			}
		}
		fmt.Fprintf(c.stderr, "gpuav-dbg: doctor: unknown argument %q (want --json)\n", a)
		return exitLauncher
	}
	if probe {
		return c.probeChild()
	}
	exeDir, _ := c.exeDir()
	layer, layerErr := launcher.FindLayer(c.getenv, exeDir)
	rep, probeErr := c.probe(context.Background(), layer.Dir)
	r := buildDoctor(rep, probeErr, c.layerStatus(layer, layerErr), defaultChecks(), c.getenv)
	if jsonOut {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: doctor: %v\n", err)
			return exitLauncher
		}
	} else {
		writeDoctor(c.stdout, r)
	}
	return r.ExitCode
}

// probeChild runs the probe in this process and prints its JSON report: the
// child side of device.RunChild.
func (c *cli) probeChild() int {
	r, err := device.Probe()
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		return exitLauncher
	}
	if err := r.WriteJSON(c.stdout); err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: %v\n", err)
		return exitLauncher
	}
	return exitOK
}

// probe runs the device probe in a child process (this executable with
// `doctor --probe`), so that a driver that crashes or hangs cannot take the
// launcher down. layerDir, when set, is added to the loader's layer path so
// that the report says whether the loader lists our layer.
func (c *cli) probe(ctx context.Context, layerDir string) (*device.Report, error) {
	exe, err := c.executable()
	if err != nil {
		return nil, fmt.Errorf("device probe: %w", err)
	}
	return device.RunChild(ctx, exe, device.ChildEnv(os.Environ(), layerDir), device.ChildTimeout)
}

// layerStatus checks our layer's files (the loader's listing is filled in
// by buildDoctor from the probe).
func (c *cli) layerStatus(layer launcher.Place, findErr error) layerStatus {
	st := layerStatus{Name: launcher.LayerName}
	if findErr != nil {
		st.Error = findErr.Error()
		exeDir, _ := c.exeDir()
		if places := launcher.LayerPlaces(c.getenv, exeDir); len(places) > 0 {
			st.Manifest, st.How = filepath.Join(places[0].Dir, launcher.ManifestName), places[0].How
		}
		return st
	}
	st.Found, st.How = true, layer.How
	st.LayerFile = device.CheckLayerFiles(filepath.Join(layer.Dir, launcher.ManifestName), launcher.LayerName)
	return st
}

// defaultChecks are the checks run and demo switch on with no --check flag.
func defaultChecks() []string {
	on := (&runFlags{checks: checkFlag{}}).settingsChecks()
	var ids []string
	for _, id := range gpuav.AllChecks {
		if on[id] {
			ids = append(ids, id)
		}
	}
	return ids
}

// Fix lines.
const (
	fixLoader = "install the Vulkan loader (Debian/Ubuntu: apt install libvulkan1; Fedora: dnf install vulkan-loader), " +
		"or add the directory of libvulkan.so.1 to LD_LIBRARY_PATH"
	fixProbe = "run VK_LOADER_DEBUG=driver vulkaninfo --summary to see which driver fails, and leave it out with VK_DRIVER_FILES"
)

// fixLayer is the fix line for a layer that is missing or broken.
var fixLayer = "build the layer with make (bin/" + launcher.ManifestName + "), install it with make install, or set " +
	options.LayerPath.Env + " to the directory holding " + launcher.ManifestName

// fixDriver is the fix line for a loader that finds no driver or device.
func fixDriver(getenv func(string) string) string {
	var b strings.Builder
	b.WriteString("install a Vulkan driver (Mesa's lavapipe on the CPU: apt install mesa-vulkan-drivers; or your GPU vendor's)")
	set := false
	for _, k := range []string{"VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES", "VK_LOADER_DRIVERS_SELECT", "VK_LOADER_DRIVERS_DISABLE"} {
		if v := getenv(k); v != "" {
			if !set {
				b.WriteString("; check ")
			} else {
				b.WriteString(", ")
			}
			set = true
			fmt.Fprintf(&b, "%s=%s", k, v)
		}
	}
	if !set {
		b.WriteString("; check VK_DRIVER_FILES and VK_ICD_FILENAMES")
	}
	b.WriteString(" (VK_LOADER_DEBUG=driver shows what the loader tried)")
	return b.String()
}

// buildDoctor puts the probe's report, the layer's files and the checks
// together and decides the exit status.
func buildDoctor(rep *device.Report, probeErr error, layer layerStatus, defaults []string, getenv func(string) string) *doctorReport {
	r := &doctorReport{Layer: layer, DefaultChecks: slices.Clone(defaults), Problems: []problem{}, Devices: []deviceCheck{}}
	if r.DefaultChecks == nil {
		r.DefaultChecks = []string{}
	}
	if probeErr != nil {
		r.ProbeError = probeErr.Error()
	}
	if rep != nil {
		r.Loader = rep.Loader
		r.InstanceError = rep.InstanceError
		if l := rep.Layer(KhronosLayerName); l != nil {
			r.Khronos = khronosStatus{Installed: true, SpecVersion: l.SpecVersion}
		}
		if l := rep.Layer(launcher.LayerName); l != nil {
			r.Layer.Listed = true
		}
		for _, d := range rep.Devices {
			dc := deviceCheck{Device: d, Slot: device.SlotOf(d.Limits.MaxBoundDescriptorSets), RunsDefaults: true}
			for _, s := range device.Assess(d, gpuav.AllChecks) {
				def := slices.Contains(defaults, s.Check)
				dc.Checks = append(dc.Checks, checkState{Support: s, Default: def})
				if def && !s.Available && !s.NotNeeded {
					dc.RunsDefaults = false
				}
			}
			r.Devices = append(r.Devices, dc)
		}
	}
	r.Layer.Loads = r.Layer.Found && r.Layer.OK && r.Layer.Listed

	switch {
	case probeErr != nil:
		r.ExitCode = exitLauncher
		r.Problems = append(r.Problems, problem{Text: probeErr.Error(), Fix: fixProbe})
	case !r.Loader.Found:
		r.ExitCode = exitLauncher
		r.Problems = append(r.Problems, problem{Text: "no Vulkan loader: " + r.Loader.Error, Fix: fixLoader})
	case r.InstanceError != "":
		r.ExitCode = exitLauncher
		r.Problems = append(r.Problems, problem{Text: "no Vulkan driver: " + r.InstanceError, Fix: fixDriver(getenv)})
	case len(r.Devices) == 0:
		r.ExitCode = exitLauncher
		r.Problems = append(r.Problems, problem{Text: "the Vulkan loader found no physical device", Fix: fixDriver(getenv)})
	}
	switch {
	case !r.Layer.Found:
		r.Problems = append(r.Problems, problem{Text: fmt.Sprintf("gpuav-dbg layer missing: no %s (%s)", orDash(r.Layer.Manifest), r.Layer.How), Fix: fixLayer})
	case !r.Layer.OK:
		r.Problems = append(r.Problems, problem{Text: "gpuav-dbg layer broken: " + r.Layer.Error, Fix: fixLayer})
	case rep != nil && r.Loader.Found && !r.Layer.Listed:
		r.Problems = append(r.Problems, problem{Text: "the Vulkan loader does not list " + launcher.LayerName + " from " + r.Layer.Manifest,
			Fix: "run VK_LOADER_DEBUG=layer VK_ADD_LAYER_PATH=" + filepath.Dir(r.Layer.Manifest) + " vulkaninfo --summary to see why the loader skips it"})
	}
	runs := slices.IndexFunc(r.Devices, func(d deviceCheck) bool { return d.RunsDefaults })
	if r.ExitCode == 0 && len(r.Devices) > 0 && runs < 0 {
		r.Problems = append(r.Problems, problem{Text: "no device can run every default check (" + strings.Join(defaults, ", ") + ")",
			Fix: "use a device with the features listed above, or turn the check off with --check ID=off"})
	}
	if r.ExitCode == 0 && (runs < 0 || !r.Layer.Loads) {
		r.ExitCode = exitErrors
	}
	if len(r.Devices) > 1 {
		var ids []string
		for _, d := range r.Devices {
			ids = append(ids, fmt.Sprintf("%04x:%04x %s", d.VendorID, d.DeviceID, d.Name))
		}
		r.Selection = fmt.Sprintf("%d devices; an app picks one itself and gpuav-dbg run says which (from the layer's device message). "+
			"To choose: VK_LOADER_DRIVERS_SELECT=<driver manifest glob, e.g. '*nvidia*'> keeps only matching drivers; "+
			"MESA_VK_DEVICE_SELECT=<vendorID:deviceID> puts that device first (Mesa's device-select layer). Devices: %s",
			len(r.Devices), strings.Join(ids, "; "))
	}
	switch {
	case r.ExitCode == exitOK:
		r.Summary = fmt.Sprintf("ready: every default check runs on %s", r.Devices[runs].Name)
	case r.ExitCode == exitErrors:
		r.Summary = "not ready: " + r.Problems[0].Text
	default:
		r.Summary = "no Vulkan: " + r.Problems[0].Text
	}
	return r
}

// writeDoctor prints the report as one plain-text screen.
func writeDoctor(w io.Writer, r *doctorReport) {
	fmt.Fprintln(w, "gpuav-dbg doctor")
	fmt.Fprintln(w)
	switch {
	case r.ProbeError != "":
		fmt.Fprintf(w, "Vulkan loader    unknown: %s\n", r.ProbeError)
	case !r.Loader.Found:
		fmt.Fprintf(w, "Vulkan loader    not found: %s\n", r.Loader.Error)
	default:
		fmt.Fprintf(w, "Vulkan loader    %s, instance version %s\n", r.Loader.Library, r.Loader.InstanceVersion)
	}
	l := r.Layer
	switch {
	case !l.Found:
		fmt.Fprintf(w, "gpuav-dbg layer  MISSING: no %s (%s)\n", orDash(l.Manifest), l.How)
	case !l.OK:
		fmt.Fprintf(w, "gpuav-dbg layer  BROKEN: %s\n", l.Error)
	default:
		fmt.Fprintf(w, "gpuav-dbg layer  %s %s: %s (%s)\n", l.Name, l.Version, l.Manifest, l.How)
		fmt.Fprintf(w, "                 library %s exports %s\n", l.Library, device.NegotiateSymbol)
		if l.Listed {
			fmt.Fprintln(w, "                 the Vulkan loader lists it")
		} else if r.Loader.Found && r.ProbeError == "" {
			fmt.Fprintln(w, "                 the Vulkan loader does NOT list it")
		}
	}
	switch {
	case r.Khronos.Installed:
		fmt.Fprintf(w, "Khronos layer    %s %s (for comparison)\n", KhronosLayerName, r.Khronos.SpecVersion)
	case r.Loader.Found && r.ProbeError == "":
		fmt.Fprintf(w, "Khronos layer    not installed (for comparison: apt install vulkan-validationlayers)\n")
	}
	for _, d := range r.Devices {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "Device %d: %s\n", d.Index, d.Name)
		driver := d.DriverName
		if driver == "" {
			driver = fmt.Sprintf("vendor %04x", d.VendorID)
		}
		fmt.Fprintf(w, "  %s, Vulkan %s, driver %s %s", strings.ReplaceAll(d.Type, "_", " "), d.APIVersion, driver, d.DriverVersion)
		if d.DriverInfo != "" {
			fmt.Fprintf(w, " (%s)", d.DriverInfo)
		}
		fmt.Fprintln(w)
		if d.Slot.Slot >= 0 {
			fmt.Fprintf(w, "  descriptor set slot %d (maxBoundDescriptorSets %d): the app sees %d sets, %d with --reserve-slot\n",
				d.Slot.Slot, d.Limits.MaxBoundDescriptorSets, d.Slot.AppSees, d.Slot.AppSeesReserved)
		} else {
			fmt.Fprintf(w, "  no descriptor set slot for the layer (maxBoundDescriptorSets %d)\n", d.Limits.MaxBoundDescriptorSets)
		}
		width := 0
		for _, s := range d.Checks {
			width = max(width, len(s.Check))
		}
		for _, s := range d.Checks {
			mark, text := "yes", s.Note
			switch {
			case s.NotNeeded:
				mark, text = "n/a", s.Reason
			case !s.Available:
				mark, text = "no ", s.Reason
			}
			def := "         "
			if s.Default {
				def = "(default)"
			}
			fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %s %-*s %s %s", mark, width, s.Check, def, text), " "))
		}
		if d.RunsDefaults {
			fmt.Fprintln(w, "  every default check runs on this device")
		} else {
			fmt.Fprintln(w, "  some default checks cannot run on this device")
		}
	}
	if r.Selection != "" {
		fmt.Fprintln(w)
		fmt.Fprintln(w, r.Selection)
	}
	fmt.Fprintln(w)
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem: %s\n  fix: %s\n", p.Text, p.Fix)
	}
	fmt.Fprintf(w, "%s (exit %d)\n", r.Summary, r.ExitCode)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// capabilitiesOf converts a probe report to the session's frame: every
// device with the support of every check.
func capabilitiesOf(rep *device.Report, probeErr error) *wire.Capabilities {
	m := &wire.Capabilities{Devices: []wire.DeviceCapabilities{}}
	switch {
	case probeErr != nil:
		m.Error = probeErr.Error()
		return m
	case !rep.Loader.Found:
		m.Error = "no Vulkan loader: " + rep.Loader.Error
		return m
	case rep.InstanceError != "":
		m.Error = "no Vulkan driver: " + rep.InstanceError
		return m
	}
	for _, d := range rep.Devices {
		driver := strings.TrimSpace(d.DriverName + " " + d.DriverVersion)
		if d.DriverInfo != "" {
			driver += " (" + d.DriverInfo + ")"
		}
		dc := wire.DeviceCapabilities{Device: d.Name, Driver: driver, APIVersion: d.APIVersion, VendorID: d.VendorID, DeviceID: d.DeviceID,
			MaxBoundDescriptorSets: d.Limits.MaxBoundDescriptorSets, DescriptorSlot: device.SlotOf(d.Limits.MaxBoundDescriptorSets).Slot,
			Checks: map[string]wire.CheckSupport{}}
		for _, s := range device.Assess(d, gpuav.AllChecks) {
			dc.Checks[s.Check] = wire.CheckSupport{Available: s.Available, Reason: s.Reason, Note: s.Note, NotNeeded: s.NotNeeded}
		}
		m.Devices = append(m.Devices, dc)
	}
	return m
}

// capabilities probes the devices once per process (a re-run reuses the
// answer) and returns the session's capabilities frame.
// capsMu guards cli.caps: run asks for them on a goroutine, beside the app.
var capsMu sync.Mutex

func (c *cli) capabilities(ctx context.Context) *wire.Capabilities {
	capsMu.Lock()
	defer capsMu.Unlock()
	if c.caps == nil {
		rep, err := c.probe(ctx, "")
		if ctx.Err() != nil {
			return nil // asked again by the next run
		}
		c.caps = capabilitiesOf(rep, err)
	}
	return c.caps
}

// warnUnavailable prints one line to stderr for every check that is on but
// cannot run on the device the app will most likely use (the first the
// loader lists). A failed probe is only a notice in the session.
func (c *cli) warnUnavailable(caps *wire.Capabilities, checks map[string]bool) {
	if len(caps.Devices) == 0 {
		return
	}
	d := caps.Devices[0]
	where := d.Device
	if len(caps.Devices) > 1 {
		where = fmt.Sprintf("%s (the first of %d devices; the app may pick another)", d.Device, len(caps.Devices))
	}
	for _, id := range gpuav.AllChecks {
		if s, ok := d.Checks[id]; ok && checks[id] && !s.Available && !s.NotNeeded {
			fmt.Fprintf(c.stderr, "gpuav-dbg: warning: check %s cannot run on %s: %s\n", id, where, s.Reason)
		}
	}
}
