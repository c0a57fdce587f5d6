package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: the layer's collector settings apply where the environment
// names none, and the app's GOGC or GOMEMLIMIT wins.
func TestTuneGC(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}()
	for _, tc := range []struct {
		name           string
		env            map[string]string
		percent, limit bool
		wantPercent    int
		wantLimit      int64
	}{
		{"unset", nil, true, true, layerGCPercent, layerMemoryLimit},
		{"GOGC set", map[string]string{"GOGC": "100"}, false, true, 100, layerMemoryLimit},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, true, false, layerGCPercent, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			p, l := tuneGC(func(k string) string { return tc.env[k] })
			if p != tc.percent || l != tc.limit {
				t.Errorf("tuneGC applied percent %v, limit %v; want %v, %v", p, l, tc.percent, tc.limit)
			}
			if got := debug.SetGCPercent(100); got != tc.wantPercent {
				t.Errorf("GC percent %d, want %d", got, tc.wantPercent)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.wantLimit {
				t.Errorf("memory limit %d, want %d", got, tc.wantLimit)
			}
		})
	}
}
