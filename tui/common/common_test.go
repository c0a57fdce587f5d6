package common

import (
	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"

	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

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

func TestFrameMore(t *testing.T) {
	st := plain()
	got := ansi.Strip(FrameMore(st, "Detail", "a\nb", 30, 4, false, More{Above: 3, Below: 12}))
	want := "╭─ Detail ──────── 3 more ↑ ─╮\n│a                           │\n│b                           │\n╰──────────────── 12 more ↓ ─╯"
	if got != want {
		t.Fatalf("FrameMore =\n%s\nwant\n%s", got, want)
	}
	// Too narrow for the top marker: the title keeps the room.
	got = ansi.Strip(FrameMore(st, "Source", "", 16, 3, true, More{Above: 1, Below: 1}))
	want = "┏━ Source ━━━━━┓\n┃              ┃\n┗━━━ 1 more ↓ ━┛"
	if got != want {
		t.Fatalf("narrow FrameMore =\n%s\nwant\n%s", got, want)
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

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain name", "plain name"},
		{"héllo ×64 › ▶", "héllo ×64 › ▶"},
		{"\x1b]52;c;aGk=\x07", "␛]52;c;aGk=␇"},
		{"\x1b[2J\x1b[H", "␛[2J␛[H"},
		{"a\tb", "a b"},
		{"line\r\n", "line␍␊"},
		{"del\x7f", "del␡"},
		{"c1\u009b31m", "c1\uFFFD31m"},
		{"if (isAdmin) \u202e } \u2066", "if (isAdmin) \uFFFD } \uFFFD"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"", ""},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	s := "nothing to clean here"
	if got := Clean(s); unsafe.StringData(got) != unsafe.StringData(s) {
		t.Error("Clean copied a clean string")
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"abc", "\x1b[31mred", "\u202e", "\xff\xfe", "tab\there"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Clean(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Clean(%q) = %q: not valid UTF-8", s, out)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || sanitize.Needed(string(r), false) {
				t.Fatalf("Clean(%q) = %q keeps %U", s, out, r)
			}
		}
		if Clean(out) != out {
			t.Fatalf("Clean is not idempotent on %q", s)
		}
	})
}
