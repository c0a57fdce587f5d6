// Command layer is the gpuav-dbg Vulkan layer, VK_LAYER_GPUAVDBG_validation:
// a Go c-shared library (libVkLayer_gpuav_dbg.so) with thin C for what the
// loader and the hot paths need (docs/decisions/layer-in-go-with-c.md).
//
// The C files own the loader interface (negotiation, vkGet*ProcAddr, chain
// walking, dispatch tables), the per-command recording and the descriptor
// set binds; docs/layer-map.md draws its floors. The Go files do the heavy, rare work behind a
// handful of exported functions (exports.go): settings, the launcher
// connection, shader instrumentation (package gpuav), and the decoding,
// attribution and grouping of error records after each submit.
//
// Build it with `make layer` (bin/libVkLayer_gpuav_dbg.so and its manifest
// bin/VkLayer_gpuav_dbg.json); only vkNegotiateLoaderLayerInterfaceVersion
// is exported (exports.map).
package main

//go:generate go run ./internal/genshared -o .
//go:generate go run ../gpuav/internal/genprepass -src ../gpuav/prepass/indirect.comp -accel ../gpuav/prepass/accel.comp -o .
//go:generate go run ./internal/genmanifest -manifest VkLayer_gpuav_dbg.json

/*
#cgo CFLAGS: -Wall -Wextra -O2 -DVK_NO_PROTOTYPES
*/
import "C"

// main is never called: the library is loaded by the Vulkan loader.
func main() {}
