package cprintf

import (
	"strings"
	"testing"
)

// TestSprintfWhole: what snprintf prints is returned whole, past 4,095
// bytes too (a wide field), as FuzzSprint's reference needs.
func TestSprintfWhole(t *testing.T) {
	for _, c := range []struct {
		format string
		arg    Arg
		bits   uint64
		want   string
	}{
		{"%d", Uint32, 42, "42"},
		{"%4095d", Uint32, 7, strings.Repeat(" ", 4094) + "7"},
		{"%4096d", Uint32, 7, strings.Repeat(" ", 4095) + "7"},
		{"%-9000u", Uint64, 12, "12" + strings.Repeat(" ", 8998)},
		{"%.5000f", Float, 0x3f800000, "1." + strings.Repeat("0", 5000)},
		{strings.Repeat("x", 5000), None, 0, strings.Repeat("x", 5000)},
	} {
		if got := Sprintf(c.format, c.arg, c.bits); got != c.want {
			t.Errorf("%.20q: %d bytes %.20q..., want %d bytes", c.format, len(got), got, len(c.want))
		}
	}
	if got := Double("%8000.1f", 2.5); len(got) != 8000 || !strings.HasSuffix(got, " 2.5") {
		t.Errorf("Double: %d bytes", len(got))
	}
}
