// Package gpuav is GPU-assisted validation itself: the check registry
// (checks.go: every check's id, record codes, default, texts, device
// requirement and pass), the record format that instrumented shaders write
// and the layer reads, the instrumentation passes and the driver that runs
// them (driver.go), the check functions (GLSL in shaders/, compiled
// offline, linked into each module at run time) and the decoding of
// records into typed errors with messages and VUIDs.
//
// The layer (package layer) calls Instrument when an app creates a shader
// module and Decode when a submission has finished; the session (package
// session) turns decoded records into the groups the user browses.
// docs/architecture-gpuav.md shows the data flow and how to add a check.
package gpuav
