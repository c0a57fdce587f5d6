// Package helpview is the ? overlay: every key of the key map, in the
// key map's groups, drawn in a frame over the screen.
package helpview

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// Title is the overlay's frame title.
const Title = "Keys (? or esc to close)"

// Lines renders the groups of full as columns side by side, each line
// indented by one cell, for a frame at most width cells wide.
func Lines(st *common.Styles, full [][]key.Binding, width int) []string {
	hm := help.New()
	hm.Styles = st.Help
	hm.SetWidth(width - 6)
	cl := common.Lines(hm.FullHelpView(full))
	out := make([]string, len(cl))
	for i, l := range cl {
		out[i] = " " + l
	}
	return out
}

// Size is the frame size the overlay takes on a w×h screen: its lines plus
// the frame, at most the screen.
func Size(lines []string, w, h int) (int, int) {
	bw := 0
	for _, l := range lines {
		bw = max(bw, ansi.StringWidth(l)-1)
	}
	return min(bw+4, w), min(len(lines)+2, h)
}
