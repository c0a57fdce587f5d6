package options

import (
	"os"
	"strings"
	"testing"
)

// TestFlagTableRules: every row of the flag table has a name, a help and
// its commands; no command takes one name twice, from this table or the
// options table; a launcher or layer row with Commands has a flag.
func TestFlagTableRules(t *testing.T) {
	for _, c := range []Command{Run, Open, Instrument, Doctor} {
		seen := map[string]bool{}
		for _, f := range FlagsOf(c) {
			if seen[f.Name] {
				t.Errorf("%s takes --%s twice", c, f.Name)
			}
			seen[f.Name] = true
		}
		for _, o := range OptionsOf(c) {
			if seen[o.Flag] {
				t.Errorf("%s takes --%s from both tables: a flag is a row of one", c, o.Flag)
			}
			seen[o.Flag] = true
		}
		if len(seen) == 0 {
			t.Errorf("%s takes no flag", c)
		}
	}
	for _, f := range Flags {
		if f.Name == "" || f.Help == "" || f.Commands == 0 || strings.HasPrefix(f.Name, "-") {
			t.Errorf("row %+v: a name without dashes, a help and its commands", f)
		}
	}
	for _, o := range All() {
		if o.Commands != 0 && o.Flag == "" {
			t.Errorf("%s: Commands without a flag", o.Key)
		}
	}
}

// TestFlagTableREADME: README.md's flag table is the flag table's, every
// user's row in it; regenerate it with go generate ./options when this
// fails.
func TestFlagTableREADME(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReplaceBetween(string(b), FlagTableBegin, FlagTableEnd, FlagMarkdown())
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Error("README.md's flag table differs from the flag table: run go generate ./options")
	}
	defer WithExtraFlags(&Flag{Name: "test-flag", Arg: "N", Commands: Run | Doctor, Help: "the test's | flag"})()
	if !strings.Contains(FlagMarkdown(), "| `--test-flag N` | run and demo, doctor | the test's \\| flag |\n") {
		t.Errorf("the flag table's markdown lacks a new row:\n%s", FlagMarkdown())
	}
	for _, f := range Flags {
		if in := strings.Contains(FlagMarkdown(), "| `"+cell(f.Usage())+"` |"); in == f.Internal {
			t.Errorf("%s: in README's table %v, internal %v", f.Usage(), in, f.Internal)
		}
	}
}
