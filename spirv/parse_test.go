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

// TestClone: a clone encodes to the same words, keeps every instruction's
// original position and shares no words or lists with the module: editing
// one leaves the other as it was.
func TestClone(t *testing.T) {
	for name, w := range printModules(t) {
		m, err := Parse(slices.Clone(w))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := m.Clone()
		if got := c.Encode(); !slices.Equal(got, w) {
			t.Fatalf("%s: Clone().Encode() differs (%d words, want %d)", name, len(got), len(w))
		}
		orig, cloned := m.Instructions(), c.Instructions()
		for i := range orig {
			if orig[i] == cloned[i] || &orig[i].Words[0] == &cloned[i].Words[0] ||
				orig[i].OrigIndex != cloned[i].OrigIndex || orig[i].OrigOffset != cloned[i].OrigOffset {
				t.Fatalf("%s: instruction %d shared or moved", name, i)
			}
		}
		// Edit the clone every way the variants do: words, lists, blocks.
		for _, in := range cloned {
			in.Words[0] = 0
		}
		c.Sections[SectionDebug] = append(c.Sections[SectionDebug][:0], NewInstruction(OpNop))
		for _, f := range c.Functions {
			f.Blocks[0].Insts = append(f.Blocks[0].Insts[:0], NewInstruction(OpNop))
			f.Blocks[0].Label = NewInstruction(OpNop)
			f.Blocks = append(f.Blocks[:0], &Block{Label: NewInstruction(OpNop)})
		}
		if got := m.Encode(); !slices.Equal(got, w) {
			t.Fatalf("%s: editing the clone changed the module", name)
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
