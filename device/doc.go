// Package device probes the machine for what GPU-assisted validation needs:
// the Vulkan loader, the instance layers (ours and the Khronos validation
// layer), and for every physical device its properties, limits, driver and
// the features the checks depend on. It is written with
// github.com/goki/vulkan plus a little C for the pNext chains goki cannot
// build, and runs in a Go process that is not the app
// (docs/decisions/two-go-runtimes.md):
// `gpuav-dbg doctor --probe`, which the doctor and the launcher start as a
// child process (RunChild) so that a crash of the driver cannot take them
// down.
//
// Assess says, for one device, which checks will run and why not, from
// each check's device requirement in the check registry (gpuav.Checks).
package device
