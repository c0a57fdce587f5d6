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

// TestFunctionBlock: Block finds every block by its label, finds a block
// appended after the index was built, and answers nil for an id that
// labels no block; after InvalidateBlocks a removed block is not found.
func TestFunctionBlock(t *testing.T) {
	label := func(id uint32) *Block { return &Block{Label: NewInstruction(OpLabel, id)} }
	f := &Function{Blocks: []*Block{label(3), label(5), label(9)}}
	for _, b := range f.Blocks {
		if got := f.Block(b.ID()); got != b {
			t.Fatalf("Block(%d) = %v", b.ID(), got)
		}
	}
	added := label(12)
	f.Blocks = slices.Insert(f.Blocks, 1, added)
	if got := f.Block(12); got != added {
		t.Errorf("Block(12) after an insert = %v", got)
	}
	if got := f.Block(7); got != nil {
		t.Errorf("Block(7) = %v, want nil", got)
	}
	f.Blocks = f.Blocks[:1]
	f.InvalidateBlocks()
	if got := f.Block(9); got != nil {
		t.Errorf("Block(9) after its removal = %v, want nil", got)
	}
}

// TestFindOrAddKeys: a type or constant asked for twice is added once,
// whether its operands fit in the key (up to four words) or not; one that
// differs in a word, in its word count or in its opcode is another.
func TestFindOrAddKeys(t *testing.T) {
	m := &Module{Header: Header{Magic: MagicNumber, Bound: 1}}
	u, f := m.TypeUint32(), m.TypeFloat(32)
	tests := []struct {
		name string
		get  func() uint32
	}{
		{"no params", func() uint32 { return m.TypeFunction(u) }},
		{"three params", func() uint32 { return m.TypeFunction(u, u, f, u) }},
		{"four params", func() uint32 { return m.TypeFunction(u, u, f, u, f) }},
		{"six params", func() uint32 { return m.TypeFunction(u, u, f, u, f, u, u) }},
		{"six params, one differs", func() uint32 { return m.TypeFunction(u, u, f, u, f, u, f) }},
		{"vector", func() uint32 { return m.TypeVector(u, 4) }},
		{"constant", func() uint32 { return m.ConstantUint32(4) }},
		{"float constant of the same bits", func() uint32 { return m.ConstantOf(f, 4) }},
	}
	seen := map[uint32]string{}
	for _, tt := range tests {
		id := tt.get()
		if again := tt.get(); again != id {
			t.Errorf("%s: %d, then %d", tt.name, id, again)
		}
		if other, dup := seen[id]; dup {
			t.Errorf("%s: id %d is %s's too", tt.name, id, other)
		}
		seen[id] = tt.name
	}
	if n := len(m.Sections[SectionGlobal]); n != len(tests)+2 {
		t.Errorf("%d globals, want %d", n, len(tests)+2)
	}
}
