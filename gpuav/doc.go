// Package gpuav is GPU-assisted validation itself: the record format that
// instrumented shaders write and the layer reads, the instrumentation passes
// that add checks to SPIR-V modules, the check functions (GLSL compiled
// offline, linked into each module at run time) and the decoding of records
// into typed errors with messages and VUIDs.
//
// The layer (package layer) calls Instrument when an app creates a shader
// module and Decode when a submission has finished; the session (package
// session) turns decoded records into the groups the user browses.
package gpuav
