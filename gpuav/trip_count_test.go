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

// TestParseLoopBudget: the budget setting's forms and bounds.
func TestParseLoopBudget(t *testing.T) {
	for in, want := range map[string]uint32{"1000": 1000, " 2^24 ": 1 << 24, "0x100": 256, "1": 1, "2^31": 1 << 31, "2147483648": 1 << 31} {
		if got, err := ParseLoopBudget(in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "2^32", "2147483649", "lots", "2^", "2^-1"} {
		if got, err := ParseLoopBudget(in); err == nil {
			t.Errorf("%q: %d, want an error", in, got)
		}
	}
	if b := (Options{}).loopBudget(); b != DefaultLoopBudget || DefaultLoopBudget != 16777216 {
		t.Errorf("default budget %d", b)
	}
}

// TestDescribeLoopBudget: the record's iterations, budget and flag, in
// the values and the message; a clamp is a skip (noClamp).
func TestDescribeLoopBudget(t *testing.T) {
	for _, tt := range []struct {
		flags uint32
		msg   string
	}{
		{LoopLeft, "Loop ran 1000 iterations in one invocation (budget 1000); the invocation left the loop."},
		{0, "Loop ran 1000 iterations in one invocation (budget 1000); the invocation kept looping (on_error=execute)."},
	} {
		d := Describe(CodeLoopBudget, [RecordParams]uint32{1000, 1000, tt.flags})
		if d.Check != CheckLoopBudget || d.Message != tt.msg || d.VUID("vkCmdDispatch") != "" || d.LoopBudget == nil ||
			*d.LoopBudget != (LoopBudgetValues{Iterations: 1000, Budget: 1000, Left: tt.flags == LoopLeft}) {
			t.Errorf("flags %d: %+v %+v", tt.flags, d, d.LoopBudget)
		}
	}
	o := FailedAccess(OnErrorClamp, CodeLoopBudget, [RecordParams]uint32{1000, 1000, LoopLeft})
	if o.Access != AccessSkipped || o.Reason != "clamp has no meaning here (a loop's iterations are not an index)" {
		t.Errorf("clamp: %+v", o)
	}
}
