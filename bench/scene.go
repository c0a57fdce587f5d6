package main

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Output is what one run of the scene app printed on stdout.
type Output struct {
	Scene   string
	Device  string
	Driver  string
	Size    string
	Khronos bool // "bench: khronos-gpuav on"
	// Robustness2 is "bench: robustness2 on": the device has
	// robustBufferAccess2 and robustImageAccess2 enabled.
	Robustness2 bool
	Warmup      []int64 // nanoseconds per warm-up iteration
	Iters       []int64 // nanoseconds per timed iteration
	CheckOK     bool    // "bench: check ok"
	VkErrors    int     // ERROR-severity debug-utils messages the app received
	Done        bool    // "bench: done": the app finished
	// HandErrors is what a hand-checked variant's own checks counted
	// ("bench: hand-errors N"), -1 when the scene printed none.
	HandErrors int64
}

// ParseOutput reads the scene app's "bench: ..." lines. Other lines are
// ignored; a "bench:" line it cannot read is an error naming the line.
func ParseOutput(r io.Reader) (Output, error) {
	o := Output{HandErrors: -1}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "bench: ")
		if !ok {
			continue
		}
		key, val, _ := strings.Cut(rest, " ")
		bad := func(err error) error { return fmt.Errorf("scene output line %d %q: %w", n, line, err) }
		switch key {
		case "scene":
			o.Scene = val
		case "device":
			o.Device = val
		case "driver":
			o.Driver = val
		case "size":
			o.Size = val
		case "khronos-gpuav":
			o.Khronos = val == "on"
		case "robustness2":
			o.Robustness2 = val == "on"
		case "warmup", "iter":
			idx, ns, ok := strings.Cut(val, " ")
			if !ok {
				return o, bad(fmt.Errorf("want an index and nanoseconds"))
			}
			i, err := strconv.Atoi(idx)
			if err != nil {
				return o, bad(err)
			}
			t, err := strconv.ParseInt(ns, 10, 64)
			if err != nil || t <= 0 {
				return o, bad(fmt.Errorf("bad time %q", ns))
			}
			list := &o.Iters
			if key == "warmup" {
				list = &o.Warmup
			}
			if i != len(*list) {
				return o, bad(fmt.Errorf("iteration %d out of order (want %d)", i, len(*list)))
			}
			*list = append(*list, t)
		case "check":
			o.CheckOK = val == "ok"
		case "vk-errors":
			v, err := strconv.Atoi(val)
			if err != nil || v < 0 {
				return o, bad(fmt.Errorf("bad count %q", val))
			}
			o.VkErrors = v
		case "hand-errors":
			v, err := strconv.ParseInt(val, 10, 64)
			if err != nil || v < 0 {
				return o, bad(fmt.Errorf("bad count %q", val))
			}
			o.HandErrors = v
		case "done":
			o.Done = true
		case "threads", "cache", "cpu":
			// The pipeline scene's --threads, --cache and CPU time per
			// iteration: said, not read.
		default:
			return o, bad(fmt.Errorf("unknown key %q", key))
		}
	}
	if err := sc.Err(); err != nil {
		return o, fmt.Errorf("read scene output: %w", err)
	}
	return o, nil
}

// Median returns the median of xs (the mean of the middle two for an even
// count), or 0 for none. xs is not changed.
func Median(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int64(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// CountLayerErrors counts the error lines our layer prints to stderr when
// no launcher listens ("gpuav-dbg: ERROR ...", one per error group, and the
// line that says further errors were not printed).
func CountLayerErrors(stderr string) int {
	n := 0
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "gpuav-dbg: ERROR") || strings.HasPrefix(l, "gpuav-dbg: further errors") {
			n++
		}
	}
	return n
}
