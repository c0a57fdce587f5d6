package common

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/themes"
)

func plain() *Styles {
	th, _ := themes.Get(themes.Dark)
	return NewStyles(th.Plain())
}

func TestFit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"abc", 3, "abc"},
		{"×64", 4, "×64 "},
		{"\x1b[1mbold\x1b[m", 6, "\x1b[1mbold\x1b[m  "},
		{"abc", 0, ""},
	} {
		if got := Fit(tc.in, tc.w); got != tc.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
}

func TestBlock(t *testing.T) {
	if got := Block([]string{"a", "bcdef", "x", "y"}, 3, 3); got != "a  \nbc…\nx  " {
		t.Fatalf("Block = %q", got)
	}
	if got := Block(nil, 2, 2); got != "  \n  " {
		t.Fatalf("Block(nil) = %q", got)
	}
}

func TestCenter(t *testing.T) {
	if got := Center("ab\ncdef", 8, 4); got != "        \n   ab   \n  cdef  \n        " {
		t.Fatalf("Center = %q", got)
	}
}

func TestFrame(t *testing.T) {
	st := plain()
	got := ansi.Strip(Frame(st, "Title", "x\nyz", 12, 4, false))
	want := "╭─ Title ──╮\n│x         │\n│yz        │\n╰──────────╯"
	if got != want {
		t.Fatalf("Frame =\n%s\nwant\n%s", got, want)
	}
	got = ansi.Strip(Frame(st, "A very long title", "", 10, 3, true))
	want = "┏━ A ve… ┓\n┃        ┃\n┗━━━━━━━━┛"
	if got != want {
		t.Fatalf("focused Frame =\n%s\nwant\n%s", got, want)
	}
}

func TestOverlay(t *testing.T) {
	bg := "abcdef\nghijkl\nmnopqr"
	got := ansi.Strip(Overlay(bg, "XY\nZW", 2, 1))
	if got != "abcdef\nghXYkl\nmnZWqr" {
		t.Fatalf("Overlay = %q", got)
	}
}

// Without colour, no style may emit a colour sequence.
func TestPlainStylesHaveNoColour(t *testing.T) {
	st := plain()
	for _, s := range []string{
		st.Text.Render("x"), st.Muted.Render("x"), st.Selected.Render("x"),
		st.MarkLine.Render("x"), st.Status.Render("x"), st.Token(0).Render("x"),
		st.Help.ShortKey.Render("x"), st.Error.Render("x"),
	} {
		if strings.Contains(s, "38;") || strings.Contains(s, "48;") || strings.Contains(s, "[3") || strings.Contains(s, "[4") {
			t.Errorf("plain style emits a colour: %q", s)
		}
	}
	// Colour themes do colour tokens.
	th, _ := themes.Get(themes.Dark)
	if s := NewStyles(th).MarkLine.Render("x"); !strings.Contains(s, "48;2;") {
		t.Errorf("dark MarkLine has no background: %q", s)
	}
}
