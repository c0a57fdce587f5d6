package gpuav

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

var tripsRE = regexp.MustCompile(`//\s*TRIPS\s+(\S+)`)

// TestLoopEntries: the bound loopEntries proves for each loop of
// testdata/shaders/loop_trips.comp is the one its TRIPS comment says
// (exact: the tests that stay plus the one that leaves), from Function
// variables (no optimization) and from phis (-Os).
func TestLoopEntries(t *testing.T) {
	src, err := os.ReadFile("testdata/shaders/loop_trips.comp")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{}
	for i, line := range strings.Split(string(src), "\n") {
		if m := tripsRE.FindStringSubmatch(line); m != nil {
			want[i+1] = m[1]
		}
	}
	for _, opt := range []string{"", "-Os"} {
		t.Run("O"+opt, func(t *testing.T) {
			flags := []string{"--target-env", "vulkan1.2"}
			if opt != "" {
				flags = append(flags, opt)
			}
			w := compileFlags(t, "loop_trips.comp", "-g", flags...)
			lines := instructionLines(t, w)
			m, err := spirv.Parse(w)
			if err != nil {
				t.Fatal(err)
			}
			a := newSafeIndex(m)
			got := map[int]string{}
			for _, f := range m.Functions {
				for _, b := range f.Blocks {
					if !isLoopHeader(b) {
						continue
					}
					lm := b.Insts[len(b.Insts)-2]
					n, ok := a.loopEntries(f, b)
					v := "none"
					if ok {
						v = strconv.FormatUint(n, 10)
					}
					got[lines[lm.OrigIndex]] = v
				}
			}
			for l, v := range want {
				if got[l] != v {
					t.Errorf("line %d: %s, want %s", l, got[l], v)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d loops, want %d: %v", len(got), len(want), got)
			}
		})
	}
}
