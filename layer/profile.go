package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/options"
)

var profile struct {
	once sync.Once
	mu   sync.Mutex
	f    *os.File
}

// startProfile starts CPU profiling once per process when the cpuprofile
// option (options.CPUProfile) names a file: the layer writes a Go CPU
// profile (pprof) of the app's run to it, from the first vkCreateInstance
// to the last vkDestroyInstance (for benchmarks, docs/BENCHMARKS.md: `go
// tool pprof FILE`). A failure is printed to stderr and otherwise ignored.
func startProfile(path string) {
	profile.once.Do(func() {
		if path == "" {
			return
		}
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gpuav-dbg: %s: %v\n", options.CPUProfile.Env, err)
			return
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "gpuav-dbg: %s: %v\n", options.CPUProfile.Env, err)
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
