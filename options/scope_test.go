package options

import (
	"reflect"
	"strings"
	"testing"
)

// TestScopeDecide: globs over the whole name, regular expressions
// anywhere, exclude over include, an empty scope takes everything, and the
// reason names the pattern.
func TestScopeDecide(t *testing.T) {
	for _, c := range []struct {
		include, exclude string
		names            []string
		in               bool
		why              string
	}{
		{"", "", []string{""}, true, ""},
		{"shade_a", "", []string{"shade_a"}, true, ""},
		{"shade_a", "", []string{"shade_ab"}, false, `left out of the scope: scope_include "shade_a" matches none of its names`},
		{"shade_?", "", []string{"", "shade_b"}, true, ""},
		{"shade_[ab]*", "", []string{"shade_c"}, false, `left out of the scope: scope_include "shade_[ab]*" matches none of its names`},
		{"shade_[!a]", "", []string{"shade_b"}, true, ""},
		{"shade_[!a]", "", []string{"shade_a"}, false, `left out of the scope: scope_include "shade_[!a]" matches none of its names`},
		{"x, blur*", "", []string{"pipe", "blur.comp"}, true, ""},
		{"re:^bl", "", []string{"blur"}, true, ""},
		{"re:ur", "", []string{"blur"}, true, ""},
		{"", "blur*", []string{"a", "blur.comp"}, false, `left out of the scope: scope_exclude "blur*" matches "blur.comp"`},
		{"a", "b", []string{"a", "b"}, false, `left out of the scope: scope_exclude "b" matches "b"`},
		{"a.b", "", []string{"aXb"}, false, `left out of the scope: scope_include "a.b" matches none of its names`},
		{"[", "", []string{"["}, true, ""},
		{"pipeline:blur", "", []string{"", "blur"}, false, `left out of the scope: scope_include "pipeline:blur" matches none of its names`},
		{"pipeline:blur", "", []string{"blur"}, true, ""},
		{"module:blur", "", []string{"blur"}, false, `left out of the scope: scope_include "module:blur" matches none of its names`},
		{"module:blur", "", []string{"x", "blur"}, true, ""},
		{"spirv:00ab*", "", []string{"spirv:00ab", "spirv:11"}, false, `left out of the scope: scope_include "spirv:00ab*" matches none of its names`},
		{"spirv:00ab*", "", []string{"", "spirv:00abcd"}, true, ""},
	} {
		var v Values
		ScopeInclude.Set(&v, c.include)
		ScopeExclude.Set(&v, c.exclude)
		in, _, why := ScopeOf(&v).Decide(ScopeNames{Pipeline: c.names[0], Modules: c.names[1:]})
		if in != c.in || why != c.why {
			t.Errorf("include %q exclude %q %q: %v %q, want %v %q", c.include, c.exclude, c.names, in, why, c.in, c.why)
		}
	}
}

// TestScopeRefused: a pattern that does not compile is refused.
func TestScopeRefused(t *testing.T) {
	if _, err := ScopeInclude.Read("a, re:("); err == nil {
		t.Fatal("re:( read")
	}
	if v, err := ScopeInclude.Read(" a,b* "); err != nil || v != "a,b*" {
		t.Fatalf("%q %v", v, err)
	}
}

// TestScopeQuote: each name written as a glob matches itself and no other
// name of the list; a name with a comma cannot be written.
func TestScopeQuote(t *testing.T) {
	names := []string{"blur*", "re:x", "a?[b]", "plain", "pipeline:p", "spirv:1"}
	want := []string{"blur[*]", "[r]e:x", "a[?][[]b]", "plain", "[p]ipeline:p", "[s]pirv:1"}
	var globs []string
	for _, n := range names {
		g, ok := ScopeQuote(n)
		if !ok {
			t.Fatalf("%q not quoted", n)
		}
		globs = append(globs, g)
	}
	if !reflect.DeepEqual(globs, want) {
		t.Fatalf("globs %q, want %q", globs, want)
	}
	pats, err := ParseScopePatterns(strings.Join(globs, ","))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pats {
		for j, n := range names {
			if p.Match(n) != (i == j) {
				t.Errorf("%q matches %q: %v", p.Text, n, p.Match(n))
			}
		}
	}
	if _, ok := ScopeQuote("with,comma"); ok {
		t.Fatal("a name with a comma quoted")
	}
}

// TestSPIRVName: the words' and the bytes' names agree.
func TestSPIRVName(t *testing.T) {
	w := []uint32{0x07230203, 0x00010500, 7}
	b := []byte{3, 2, 0x23, 7, 0, 5, 1, 0, 7, 0, 0, 0}
	if SPIRVName(w) != SPIRVNameOfBytes(b) || len(SPIRVName(w)) != len("spirv:")+16 {
		t.Fatalf("%s %s", SPIRVName(w), SPIRVNameOfBytes(b))
	}
}

// TestScopeFinal: a decision made before the pipeline has a name holds
// when a module excluded it, or when no pattern matches pipelines' names.
func TestScopeFinal(t *testing.T) {
	for _, c := range []struct {
		include, exclude string
		excluded, final  bool
	}{
		{"a", "", false, false},
		{"module:a,spirv:12", "", false, true},
		{"module:a", "b", false, false},
		{"module:a", "pipeline:b", false, false},
		{"module:a", "module:b", false, true},
		{"a", "b", true, true},
	} {
		var v Values
		ScopeInclude.Set(&v, c.include)
		ScopeExclude.Set(&v, c.exclude)
		if got := ScopeOf(&v).Final(c.excluded); got != c.final {
			t.Errorf("%q %q excluded %v: final %v", c.include, c.exclude, c.excluded, got)
		}
	}
}
