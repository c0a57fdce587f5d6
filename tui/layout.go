package tui

// rect is a rectangle of cells.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// inner is the size inside the rectangle's frame.
func (r rect) inner() (int, int) { return max(r.w-2, 0), max(r.h-2, 0) }

// screenLayout places the panes: the error list on the left (40% of the
// width), detail above source on the right (half of the height each), the
// status bar on the last row.
type screenLayout struct {
	ok                   bool // the terminal is at least MinWidth×MinHeight
	list, detail, source rect
	// full is the whole body, for the log, settings and compare screens.
	full       rect
	bodyHeight int
}

func computeLayout(w, h int) screenLayout {
	if w < MinWidth || h < MinHeight {
		return screenLayout{}
	}
	bh := h - 1
	lw := w * 2 / 5
	dh := bh / 2
	return screenLayout{
		ok:         true,
		bodyHeight: bh,
		list:       rect{0, 0, lw, bh},
		detail:     rect{lw, 0, w - lw, dh},
		source:     rect{lw, dh, w - lw, bh - dh},
		full:       rect{0, 0, w, bh},
	}
}
