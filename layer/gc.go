package main

import (
	"os"
	"runtime/debug"
)

// The layer's Go runtime lives in the app's process and works in bursts:
// each shader module is parsed, instrumented into two variants and
// encoded, and most of what that allocates is garbage at the end of the
// call. With Go's default GOGC of 100 a quarter of the instrumentation's
// time went to the collector; at 400 the heap may grow to five times what
// is live between collections, still bounded by a soft memory limit
// (docs/decisions/layer-gc-settings.md). GOGC and GOMEMLIMIT in the app's
// environment still win.
const (
	layerGCPercent   = 400
	layerMemoryLimit = 512 << 20
)

func init() { tuneGC(os.Getenv) }

// tuneGC applies the layer's collector settings where the environment
// sets none, and says which it applied.
func tuneGC(getenv func(string) string) (percent, limit bool) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(layerGCPercent)
		percent = true
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(layerMemoryLimit)
		limit = true
	}
	return percent, limit
}
