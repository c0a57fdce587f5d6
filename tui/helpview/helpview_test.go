package helpview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
)

// Wide: the groups side by side.
func TestLinesWide(t *testing.T) {
	ls := Lines(fixture.Styles(), keys.Default().Groups(), 200)
	fixture.Golden(t, fixture.ASCII(strings.Join(ls, "\n")))
}

// Narrow: one column, every binding once, in the key map's order.
func TestLinesNarrow(t *testing.T) {
	k := keys.Default()
	ls := Lines(fixture.Styles(), k.Groups(), 76)
	fixture.Golden(t, fixture.ASCII(strings.Join(ls, "\n")))
	n := 0
	for _, l := range ls {
		if w := ansi.StringWidth(l); w > 76 {
			t.Errorf("line %q is %d cells", ansi.Strip(l), w)
		}
		if strings.Contains(l, "  ") && !strings.HasPrefix(ansi.Strip(l), " ") {
			n++
		}
	}
	if n != len(k.All()) {
		t.Errorf("%d key rows, want %d", n, len(k.All()))
	}
}
