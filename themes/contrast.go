package themes

import (
	"image/color"
	"math"

	"github.com/alecthomas/chroma/v2"
	"github.com/lucasb-eyer/go-colorful"
)

// WCAG AA contrast: body text needs 4.5:1 against its background, the
// parts of a widget that are not text (frames) 3:1.
const (
	MinTextContrast   = 4.5
	MinBorderContrast = 3.0
)

// Luminance is c's relative luminance as WCAG 2 defines it: 0 for black, 1
// for white.
func Luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// Contrast is the WCAG 2 contrast ratio of a and b, from 1 (the same
// luminance) to 21 (black on white).
func Contrast(a, b color.Color) float64 {
	la, lb := Luminance(a), Luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Readable returns fg, made lighter (on a dark theme) or darker (on a
// light one) just enough to reach min contrast against every one of bgs;
// fg itself when it already does.
func Readable(fg color.Color, dark bool, min float64, bgs ...color.Color) color.Color {
	ok := func(c color.Color) bool {
		for _, bg := range bgs {
			if Contrast(c, bg) < min {
				return false
			}
		}
		return true
	}
	if ok(fg) {
		return fg
	}
	c, _ := colorful.MakeColor(fg)
	h, s, l := c.Hsl()
	for i := 0; i < 100; i++ {
		if dark {
			l = math.Min(1, l+0.01)
		} else {
			l = math.Max(0, l-0.01)
		}
		out := colorful.Hsl(h, s, l).Clamped()
		if ok(out) {
			return out
		}
	}
	if dark {
		return color.White
	}
	return color.Black
}

// Pair is a foreground the UI draws on a background, and the contrast it
// must reach there.
type Pair struct {
	Name   string
	Fg, Bg color.Color
	Min    float64
}

// Pairs lists every foreground and background the UI draws together under
// t: its text colours on the terminal's background (t.Background), the
// selection, the marked source line and the status bar. A plain theme has
// none.
func (t Theme) Pairs() []Pair {
	if t.NoColor {
		return nil
	}
	var ps []Pair
	add := func(bg color.Color, bgName string, min float64, fgs map[string]color.Color) {
		for name, fg := range fgs {
			ps = append(ps, Pair{Name: name + " on " + bgName, Fg: fg, Bg: bg, Min: min})
		}
	}
	add(t.Background, "background", MinTextContrast, map[string]color.Color{
		"Text": t.Text, "Muted": t.Muted, "Accent": t.Accent, "LineNumber": t.LineNumber, "Marker": t.Marker,
		"Error": t.Error, "Warning": t.Warning, "OK": t.OK, "Check": t.Check, "Count": t.Count, "Location": t.Location,
	})
	add(t.Background, "background", MinBorderContrast, map[string]color.Color{"Border": t.Border, "FocusBorder": t.FocusBorder})
	add(t.SelectedBg, "SelectedBg", MinTextContrast, map[string]color.Color{"SelectedFg": t.SelectedFg})
	add(t.MarkBg, "MarkBg", MinTextContrast, map[string]color.Color{"Text": t.Text, "Marker": t.Marker})
	add(t.StatusBg, "StatusBg", MinTextContrast, map[string]color.Color{
		"StatusFg": t.StatusFg, "HelpKey": t.HelpKey, "HelpDesc": t.HelpDesc, "Warning": t.StatusWarning, "Error": t.StatusError,
		"OK": t.StatusOK,
	})
	return ps
}

// TokenColor is the colour source tokens of type tt are drawn in: the
// chroma style's, made readable (MinTextContrast) on the terminal's
// background and on the marked line; the text colour when the style sets
// none; nil for a plain theme.
func (t Theme) TokenColor(tt chroma.TokenType) color.Color {
	st := t.ChromaStyle()
	if st == nil {
		return nil
	}
	var fg color.Color = t.Text
	if e := st.Get(tt); e.Colour.IsSet() {
		fg = color.RGBA{R: e.Colour.Red(), G: e.Colour.Green(), B: e.Colour.Blue(), A: 0xff}
	}
	return Readable(fg, t.IsDark, MinTextContrast, t.Background, t.MarkBg)
}
