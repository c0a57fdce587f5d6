package spirv

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// printModules returns the committed modules of testdata/print.
func printModules(t testing.TB) map[string][]uint32 {
	files, _ := filepath.Glob("testdata/print/*.spv")
	if len(files) < 5 {
		t.Fatalf("testdata/print has %d modules", len(files))
	}
	out := map[string][]uint32{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := WordsFromBytes(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = w
	}
	return out
}

// TestParseEncodeRoundTrip: every committed module goes through the model
// and back word for word.
func TestParseEncodeRoundTrip(t *testing.T) {
	for name, w := range printModules(t) {
		m, err := Parse(w)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := m.Encode(); !slices.Equal(got, w) {
			t.Errorf("%s: Encode(Parse(w)) differs (%d words, want %d)", name, len(got), len(w))
		}
		h, insts, err := ParseInstructions(w)
		if err != nil {
			t.Fatal(err)
		}
		if got := EncodeInstructions(h, insts); !slices.Equal(got, w) {
			t.Errorf("%s: EncodeInstructions(ParseInstructions(w)) differs", name)
		}
	}
}

// FuzzParse: Parse never panics, and what it accepts encodes back to the
// same words.
func FuzzParse(f *testing.F) {
	for _, w := range printModules(f) {
		f.Add(BytesFromWords(w))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := WordsFromBytes(b)
		if err != nil {
			return
		}
		m, err := Parse(w)
		if err != nil {
			return
		}
		if got := m.Encode(); !slices.Equal(got, w) {
			t.Fatalf("Encode(Parse(w)) differs from w")
		}
	})
}
