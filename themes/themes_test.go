package themes

import (
	"image/color"
	"math"
	"reflect"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/lucasb-eyer/go-colorful"
)

func TestGetKnownThemes(t *testing.T) {
	for _, name := range Names() {
		th, err := Get(name)
		if err != nil {
			t.Fatalf("Get(%q): %v", name, err)
		}
		if th.Name != name {
			t.Errorf("Get(%q).Name = %q", name, th.Name)
		}
		// Every colour of a coloured theme is set.
		v := reflect.ValueOf(th)
		ct := reflect.TypeOf((*color.Color)(nil)).Elem()
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.Type == ct && v.Field(i).IsNil() {
				t.Errorf("theme %s: colour %s is not set", name, f.Name)
			}
		}
		// The chroma style exists under that name (styles.Get falls back
		// silently otherwise).
		if _, ok := styles.Registry[th.Chroma]; !ok {
			t.Errorf("theme %s: chroma style %q is not registered", name, th.Chroma)
		}
		if th.ChromaStyle() == nil || th.ChromaStyle().Name != th.Chroma {
			t.Errorf("theme %s: ChromaStyle() = %v", name, th.ChromaStyle())
		}
	}
}

func TestGetUnknownAndAuto(t *testing.T) {
	if _, err := Get("solarized"); err == nil {
		t.Error("Get(solarized): want an error")
	}
	if _, err := Get(Auto); err == nil {
		t.Error("Get(auto): want an error, auto needs Resolve")
	}
	if !Valid("auto") || !Valid("") || !Valid("High-Contrast") || Valid("pink") {
		t.Error("Valid gives wrong answers")
	}
	for _, tc := range []struct {
		name string
		dark bool
		want string
	}{
		{"auto", true, Dark},
		{"auto", false, Light},
		{"", false, Light},
		{"light", true, Light},
		{"HIGH-CONTRAST", false, HighContrast},
	} {
		th, err := Resolve(tc.name, tc.dark)
		if err != nil || th.Name != tc.want {
			t.Errorf("Resolve(%q, %v) = %q, %v; want %q", tc.name, tc.dark, th.Name, err, tc.want)
		}
	}
}

func TestPlainHasNoColour(t *testing.T) {
	th, _ := Get(HighContrast)
	p := th.Plain()
	if !p.NoColor || p.ChromaStyle() != nil || p.Name != HighContrast {
		t.Fatalf("Plain() = %+v", p)
	}
	v := reflect.ValueOf(p)
	ct := reflect.TypeOf((*color.Color)(nil)).Elem()
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).Type == ct && !v.Field(i).IsNil() {
			t.Errorf("Plain(): colour %s is set", v.Type().Field(i).Name)
		}
	}
}

func TestNoColorEnv(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if NoColor() {
		t.Error("NO_COLOR empty: want colours")
	}
	t.Setenv("NO_COLOR", "1")
	if !NoColor() {
		t.Error("NO_COLOR=1: want no colours")
	}
}

func TestContrastRatio(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#ffffff", "#ffffff", 1},
		{"#777777", "#ffffff", 4.48},
		{"#767676", "#ffffff", 4.54},
		{"#ff0000", "#000000", 5.25},
	} {
		got := Contrast(lipgloss.Color(tc.a), lipgloss.Color(tc.b))
		if math.Abs(got-tc.want) > 0.01 {
			t.Errorf("Contrast(%s, %s) = %.3f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
}

// Every text colour of every theme reaches WCAG AA (4.5:1) against the
// background it is drawn on, frames 3:1: computed from the theme's
// colours.
func TestThemesReachAA(t *testing.T) {
	for _, name := range Names() {
		th, _ := Get(name)
		ps := th.Pairs()
		if len(ps) < 20 {
			t.Fatalf("%s: only %d pairs", name, len(ps))
		}
		for _, p := range ps {
			if c := Contrast(p.Fg, p.Bg); c < p.Min {
				t.Errorf("%s: %s is %.2f:1, want %.1f:1", name, p.Name, c, p.Min)
			}
		}
	}
}

// Source tokens are drawn readable too: every token type the chroma style
// colours, on the background and on the marked line.
func TestTokensReachAA(t *testing.T) {
	for _, name := range Names() {
		th, _ := Get(name)
		st := th.ChromaStyle()
		adjusted := 0
		for _, tt := range st.Types() {
			fg := th.TokenColor(tt)
			for _, bg := range []color.Color{th.Background, th.MarkBg} {
				if c := Contrast(fg, bg); c < MinTextContrast {
					t.Errorf("%s: token %v is %.2f:1 on %v", name, tt, c, bg)
				}
			}
			if c, _ := colorful.MakeColor(fg); st.Get(tt).Colour.IsSet() && st.Get(tt).Colour.String() != c.Hex() {
				adjusted++
			}
		}
		t.Logf("%s: %d of %d token colours made lighter or darker", name, adjusted, len(st.Types()))
	}
	if (Theme{NoColor: true}).TokenColor(0) != nil {
		t.Error("a plain theme has a token colour")
	}
}

// Readable moves a colour just far enough.
func TestReadable(t *testing.T) {
	bg := lipgloss.Color("#262626")
	fg := lipgloss.Color("#75715e") // monokai's comments: 3.5:1 there
	got := Readable(fg, true, MinTextContrast, bg)
	if c := Contrast(got, bg); c < MinTextContrast || c > MinTextContrast+0.3 {
		t.Errorf("Readable gave %v at %.2f:1", got, c)
	}
	if Readable(lipgloss.Color("#ffffff"), true, MinTextContrast, bg) != lipgloss.Color("#ffffff") {
		t.Error("Readable changed a readable colour")
	}
}
