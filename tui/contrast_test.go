package tui

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/themes"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// cell is one drawn glyph with the colours it was drawn in (nil: the
// terminal's default).
type cell struct {
	r       rune
	fg, bg  color.Color
	reverse bool
}

// cells reads rendered output the way a terminal would: SGR sequences set
// the colours of the glyphs after them. It understands what lipgloss and
// the bars emit (reset, bold, reverse, 24-bit colours, defaults) and
// fails on any other escape sequence.
func cells(t *testing.T, out string) []cell {
	t.Helper()
	var cs []cell
	var fg, bg color.Color
	rev := false
	for i := 0; i < len(out); {
		if out[i] != 0x1b {
			r, n := utf8.DecodeRuneInString(out[i:])
			cs = append(cs, cell{r, fg, bg, rev})
			i += n
			continue
		}
		end := strings.IndexByte(out[i:], 'm')
		if !strings.HasPrefix(out[i:], "\x1b[") || end < 0 {
			t.Fatalf("not an SGR sequence at %q", out[i:min(i+12, len(out))])
		}
		ps := strings.Split(strings.ReplaceAll(out[i+2:i+end], ":", ";"), ";")
		i += end + 1
		for j := 0; j < len(ps); j++ {
			n, _ := strconv.Atoi(ps[j])
			switch {
			case ps[j] == "" || n == 0:
				fg, bg, rev = nil, nil, false
			case n == 7:
				rev = true
			case n == 27:
				rev = false
			case n == 39:
				fg = nil
			case n == 49:
				bg = nil
			case (n == 38 || n == 48) && j+4 < len(ps) && ps[j+1] == "2":
				r, _ := strconv.Atoi(ps[j+2])
				g, _ := strconv.Atoi(ps[j+3])
				b, _ := strconv.Atoi(ps[j+4])
				c := color.RGBA{uint8(r), uint8(g), uint8(b), 0xff}
				if n == 38 {
					fg = c
				} else {
					bg = c
				}
				j += 4
			case n == 38 || n == 48:
				t.Fatalf("colour sequence %q is not 24-bit", ps)
			}
		}
	}
	return cs
}

// Every glyph of every screen, in every colour theme, reaches WCAG AA
// against what it is drawn on: 4.5:1 for text, 3:1 for frames. Colours
// are read back from the rendered output; the terminal's own foreground
// and background count as the theme's Text and Background.
func TestContrastOnScreen(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for _, name := range themes.Names() {
		th, _ := themes.Get(name)
		for _, tc := range screenCases {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				o := Options{Theme: name, Checks: fixture.Checks}
				if tc.rerun != nil {
					o.Rerun = &rerunner{next: tc.rerun.next, live: tc.rerun.live}
				}
				s := fixture.Session()
				if tc.session != nil {
					s = tc.session(t)
				}
				m := New(Static(s), o)
				m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
				for _, k := range tc.keys {
					if _, cmd := m.Update(keyMsg(k)); k == "r" && cmd != nil {
						m.Update(cmd())
					}
				}
				worst := checkContrast(t, th, m.Render())
				if worst != "" {
					t.Log(worst)
				}
			})
		}
	}
}

// checkContrast fails for each glyph of out below AA and returns a line
// about the lowest contrast seen.
func checkContrast(t *testing.T, th themes.Theme, out string) string {
	t.Helper()
	lowest, what := 99.0, ""
	bad := map[string]bool{}
	for _, c := range cells(t, out) {
		if c.r == ' ' || c.r == '\n' {
			continue
		}
		fg, bg := c.fg, c.bg
		if fg == nil {
			fg = th.Text
		}
		if bg == nil {
			bg = th.Background
		}
		if c.reverse {
			fg, bg = bg, fg
		}
		min := themes.MinTextContrast
		if c.r >= 0x2500 && c.r <= 0x257f { // box drawing: the frames
			min = themes.MinBorderContrast
		}
		ratio := themes.Contrast(fg, bg)
		desc := fmt.Sprintf("%q in %v on %v: %.2f:1", c.r, fg, bg, ratio)
		if ratio < min && !bad[desc] {
			bad[desc] = true
			t.Errorf("%s, want %.1f:1", desc, min)
		}
		if ratio < lowest {
			lowest, what = ratio, desc
		}
	}
	return "lowest: " + what
}
