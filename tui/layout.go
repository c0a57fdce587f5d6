package tui

// rect is a rectangle of cells.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// inner is the size inside the rectangle's frame.
func (r rect) inner() (int, int) { return max(r.w-2, 0), max(r.h-2, 0) }

// BarRows is the number of rows under the body: the status bar and the
// footer of keys.
const BarRows = 2

// WideWidth is the narrowest terminal that shows the tree beside the
// detail and source panes; narrower ones stack the three.
const WideWidth = 100

// Stacked pane heights (frames included) of the panes without focus; the
// focused pane gets the rest of the body.
const (
	stackedTree   = 6
	stackedDetail = 5
	stackedSource = 6
)

// screenLayout places the panes of the body, which is the terminal less the
// bars. Wide terminals put the tree on the left (as wide as its rows need,
// between 30% and half the width) and the detail above the source on the
// right; narrower ones stack tree, detail and source, the focused pane the
// tallest, so that each is as wide as the terminal.
type screenLayout struct {
	ok                   bool // the terminal is at least MinWidth×MinHeight
	list, detail, source rect
	// full is the whole body, for the log, settings and compare screens.
	full       rect
	bodyHeight int
	stacked    bool
}

// computeLayout lays out a w×h terminal; need is the tree's widest row
// and rows its number of rows (frame included), focus the pane with the
// keyboard. Stacked, a focused tree shorter than its share leaves the rest
// to the source.
func computeLayout(w, h, need, rows int, focus Pane) screenLayout {
	if w < MinWidth || h < MinHeight {
		return screenLayout{}
	}
	bh := h - BarRows
	l := screenLayout{ok: true, bodyHeight: bh, full: rect{0, 0, w, bh}}
	if w >= WideWidth {
		lw := max(w*3/10, min(need, w/2))
		dh := bh / 2
		l.list = rect{0, 0, lw, bh}
		l.detail = rect{lw, 0, w - lw, dh}
		l.source = rect{lw, dh, w - lw, bh - dh}
		return l
	}
	l.stacked = true
	hs := [numPanes]int{stackedTree, stackedDetail, stackedSource}
	rest := bh
	for p, ph := range hs {
		if Pane(p) != focus {
			rest -= ph
		}
	}
	// A short terminal gives the panes without focus three rows each (one
	// inside the frame), and the focused one the rest.
	if rest < 5 {
		for p := range hs {
			hs[p] = 3
		}
		rest = bh - 3*(int(numPanes)-1)
	}
	hs[focus] = rest
	if t := max(rows, stackedTree); focus == PaneList && t < rest {
		hs[PaneList], hs[PaneSource] = t, hs[PaneSource]+rest-t
	}
	y := 0
	rs := [numPanes]*rect{&l.list, &l.detail, &l.source}
	for p, r := range rs {
		*r = rect{0, y, w, hs[p]}
		y += hs[p]
	}
	return l
}
