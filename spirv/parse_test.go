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

// TestFork: a fork encodes to the same words and shares the module's
// instructions but none of its lists: replacing, removing and adding
// instructions and blocks in the fork leaves the module as it was.
func TestFork(t *testing.T) {
	for name, w := range printModules(t) {
		m, err := Parse(slices.Clone(w))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := m.Fork()
		if got := c.Encode(); !slices.Equal(got, w) {
			t.Fatalf("%s: Fork().Encode() differs (%d words, want %d)", name, len(got), len(w))
		}
		// Edit the fork every way the variants do: sections, blocks,
		// their instruction lists.
		for s := range c.Sections {
			c.Sections[s] = append(c.Sections[s][:0], NewInstruction(OpNop))
		}
		c.Trailing = append(c.Trailing[:0], NewInstruction(OpNop))
		for _, f := range c.Functions {
			f.Before = append(f.Before[:0], NewInstruction(OpNop))
			f.Head = append(f.Head[:0], NewInstruction(OpNop))
			f.Blocks[0].Insts = append(f.Blocks[0].Insts[:0], NewInstruction(OpNop))
			f.Blocks[0].Label = NewInstruction(OpNop)
			f.End = NewInstruction(OpNop)
			f.Blocks = append(f.Blocks[:0], &Block{Label: NewInstruction(OpNop)})
		}
		c.Functions = append(c.Functions[:0], &Function{})
		if got := m.Encode(); !slices.Equal(got, w) {
			t.Fatalf("%s: editing the fork changed the module", name)
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
