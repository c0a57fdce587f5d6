package golden

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name, want, got, diff string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"changed line", "a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nX\ne\nf\ng\n",
			"     2 | b\n     3 | c\n-    4 | d\n+    4 | X\n     5 | e\n     6 | f\n"},
		{"added line", "a\nb\n", "a\nnew\nb\n", "     1 | a\n+    2 | new\n     2 | b\n     3 | \n"},
		{"removed line", "a\nold\nb", "a\nb", "     1 | a\n-    2 | old\n     3 | b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Diff(tt.want, tt.got); got != tt.diff {
				t.Errorf("Diff:\n%s\nwant:\n%s", got, tt.diff)
			}
		})
	}
}

// fakeT records failures instead of failing the test.
type fakeT struct {
	testing.TB
	errors, fatals int
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.errors++ }
func (f *fakeT) Fatalf(string, ...any) { f.fatals++ }
func (f *fakeT) Fatal(...any)          { f.fatals++ }

func TestAssert(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "x.golden")
	ft := &fakeT{TB: t}
	Assert(ft, p, []byte("x\n"))
	if ft.fatals != 1 {
		t.Errorf("missing golden: %d fatals, want 1", ft.fatals)
	}
	if err := update.(interface{ Set(string) error }).Set("true"); err != nil {
		t.Fatal(err)
	}
	Assert(ft, p, []byte("x\n"))
	if err := update.(interface{ Set(string) error }).Set("false"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "x\n" {
		t.Fatalf("-update wrote %q, %v", b, err)
	}
	Assert(ft, p, []byte("x\n"))
	AssertString(ft, p, "y\n")
	if ft.errors != 1 || ft.fatals != 1 {
		t.Errorf("errors %d fatals %d, want 1 and 1", ft.errors, ft.fatals)
	}
}
