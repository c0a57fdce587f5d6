package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
)

// EnvCPUProfile names a file: when set, the layer writes a Go CPU profile
// (pprof) of the app's run to it, from the first vkCreateInstance to the
// last vkDestroyInstance. For benchmarks (docs/BENCHMARKS.md): `go tool pprof FILE`.
const EnvCPUProfile = "VK_LAYER_GPUAV_DBG_CPUPROFILE"

var profile struct {
	once sync.Once
	mu   sync.Mutex
	f    *os.File
}

// startProfile starts CPU profiling once per process when EnvCPUProfile
// is set; a failure is printed to stderr and otherwise ignored.
func startProfile() {
	profile.once.Do(func() {
		path := os.Getenv(EnvCPUProfile)
		if path == "" {
			return
		}
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gpuav-dbg: %s: %v\n", EnvCPUProfile, err)
			return
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "gpuav-dbg: %s: %v\n", EnvCPUProfile, err)
			f.Close()
			return
		}
		profile.mu.Lock()
		profile.f = f
		profile.mu.Unlock()
	})
}

// stopProfile ends CPU profiling and closes the file, if it runs.
func stopProfile() {
	profile.mu.Lock()
	defer profile.mu.Unlock()
	if profile.f == nil {
		return
	}
	pprof.StopCPUProfile()
	profile.f.Close()
	profile.f = nil
}
