package themes

import (
	"image/color"
	"reflect"
	"testing"

	"github.com/alecthomas/chroma/v2/styles"
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
